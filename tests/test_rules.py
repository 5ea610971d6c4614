"""Specification of ``beggar.rules``: the standard game, the presets, rules specs and their checks."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from beggar.cards import DOUBLE_DECK, HALF_DECK, STANDARD_DECK, STRIPPED_DECK, Rank
from beggar.rules import (
    ALIASES,
    PRESETS,
    SETTINGS,
    STANDARD,
    Award,
    Direction,
    EmptyHand,
    Lead,
    PileOrder,
    RepeatCheck,
    Rules,
    RulesError,
    parse_duration,
    parse_pay,
    rules_named,
)

SETTING_KEYS = {
    "pay",
    "deck",
    "players",
    "direction",
    "lead",
    "pile",
    "empty-hand",
    "repeat",
    "max-cards",
    "max-tricks",
    "time-limit",
    "on-repeat",
    "on-stop",
    "open-hands",
}

# -- the standard game -----------------------------------------------------------------------------


def test_the_standard_game_is_the_default_column_of_the_variants_table():
    """docs/rules.md: where the engine offers a choice, the default is the standard column."""
    assert Rules() == STANDARD
    assert STANDARD.name == "standard"
    assert STANDARD.deck is STANDARD_DECK
    assert STANDARD.players == 2
    assert STANDARD.direction is Direction.CLOCKWISE
    assert STANDARD.lead is Lead.FIRST_HAND
    assert STANDARD.pile_order is PileOrder.OLDEST_FIRST
    assert STANDARD.empty_hand is EmptyHand.MUST_TURN
    assert STANDARD.repeat is RepeatCheck.TRICK
    assert STANDARD.max_cards is None
    assert STANDARD.max_tricks is None
    assert STANDARD.time_limit is None
    assert STANDARD.on_repeat is Award.NO_WINNER
    assert STANDARD.open_hands is False


def test_standard_pay_values_are_jack_1_queen_2_king_3_ace_4():
    """Rule 4: J, Q, K, A pay 1, 2, 3, 4; every number card pays nothing."""
    assert STANDARD.pay_table[Rank.JACK] == 1
    assert STANDARD.pay_table[Rank.QUEEN] == 2
    assert STANDARD.pay_table[Rank.KING] == 3
    assert STANDARD.pay_table[Rank.ACE] == 4
    assert all(STANDARD.pay_value(rank) == 0 for rank in Rank if rank.is_number)
    assert STANDARD.pay_spec() == "J1Q2K3A4"


def test_the_pay_scale_compares_equal_whatever_order_it_is_given_in():
    shuffled = Rules(pay=((Rank.ACE, 4), (Rank.JACK, 1), (Rank.KING, 3), (Rank.QUEEN, 2)))
    assert shuffled == STANDARD


def test_a_zero_pay_value_makes_a_rank_ordinary():
    rules = Rules(pay=((Rank.JACK, 1), (Rank.QUEEN, 0)))
    assert rules.pay_value(Rank.QUEEN) == 0
    assert rules.pay_spec() == "J1"


def test_a_number_rank_may_be_made_a_pay_card_by_a_custom_scale():
    """Variants: any custom scale."""
    rules = Rules(pay=((Rank.SEVEN, 1), (Rank.ACE, 4)))
    assert rules.pay_value(Rank.SEVEN) == 1
    assert rules.number_ranks_pay
    assert not STANDARD.number_ranks_pay


# -- presets ---------------------------------------------------------------------------------------

REQUIRED_PRESETS = {
    "standard",
    "practice-table",
    "friend-table",
    "family-table",
    "jack-pays-2",
    "double-penalty",
    "court-only",
    "jacks-queens",
    "stripped",
    "two-decks",
    "half-deck",
    "counter-clockwise",
    "newest-first",
    "lose-when-empty",
}


def test_every_variant_of_rules_md_is_a_named_preset():
    """docs/rules.md: the practice and friend tables are named presets alongside the variants."""
    assert set(PRESETS) >= REQUIRED_PRESETS


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_valid_named_described_and_lists_every_setting(name):
    rules = PRESETS[name]
    assert rules.name == name
    assert rules.description
    rules._check()  # already checked on construction; a preset must stay valid
    settings = rules.settings()
    assert set(settings) == SETTING_KEYS
    assert all(isinstance(value, str) and value for value in settings.values())


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_found_by_its_name(name):
    assert rules_named(name) is PRESETS[name]
    assert rules_named(f"  {name.upper()} ") is PRESETS[name]


@pytest.mark.parametrize(("alias", "target"), sorted(ALIASES.items()))
def test_aliases_name_existing_presets(alias, target):
    assert rules_named(alias) is PRESETS[target]


def test_the_seed_presets_hold_the_seed_tables():
    """The practice table: you start, exact repeat or 4,000 cards, no winner. The friend table: random
    lead, trick-end repeat or 3,000 piles, more cards wins. The family table: after dealer, loop redeals."""
    practice = PRESETS["practice-table"]
    assert (practice.lead, practice.lead_seat) == (Lead.SEAT, 0)
    assert practice.repeat is RepeatCheck.CARD
    assert practice.max_cards == 4000
    assert practice.on_repeat is practice.on_stop is Award.NO_WINNER
    friend = PRESETS["friend-table"]
    assert friend.lead is Lead.RANDOM
    assert friend.repeat is RepeatCheck.TRICK
    assert friend.max_tricks == 3000
    assert friend.on_repeat is friend.on_stop is Award.MOST_CARDS
    family = PRESETS["family-table"]
    assert family.lead is Lead.AFTER_DEALER
    assert family.on_repeat is Award.REDEAL
    assert family.on_stop is Award.MOST_CARDS
    assert family.time_limit == 30 * 60


def test_the_variant_presets_change_only_their_own_setting():
    assert PRESETS["jack-pays-2"].pay_spec() == "J2Q2K3A4"
    assert PRESETS["double-penalty"].pay_spec() == "J2Q4K6A8"
    assert PRESETS["court-only"].pay_spec() == "J1Q2K3"
    assert PRESETS["jacks-queens"].pay_spec() == "J1Q2"
    assert PRESETS["stripped"].deck is STRIPPED_DECK
    assert PRESETS["two-decks"].deck is DOUBLE_DECK
    assert PRESETS["half-deck"].deck is HALF_DECK
    ccw = PRESETS["counter-clockwise"]
    assert ccw.direction is Direction.COUNTER_CLOCKWISE
    assert ccw.players >= 3
    assert PRESETS["newest-first"].pile_order is PileOrder.NEWEST_FIRST
    assert PRESETS["lose-when-empty"].empty_hand is EmptyHand.WHEN_EMPTY
    for name in ("jack-pays-2", "stripped", "newest-first", "lose-when-empty"):
        assert PRESETS[name].players == 2
        assert PRESETS[name].repeat is RepeatCheck.TRICK


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_survives_a_to_dict_from_dict_round_trip(name):
    rules = PRESETS[name]
    data = json.loads(json.dumps(rules.to_dict()))
    assert Rules.from_dict(data) == rules


def test_custom_rules_survive_a_round_trip():
    rules = rules_named("standard:pay=7=1,A4:deck=half:players=5:direction=counter-clockwise:lead=3")
    rules = rules.replace(max_cards=77, time_limit=12.5, open_hands=True, on_stop=Award.REDEAL)
    assert Rules.from_dict(rules.to_dict()) == rules


# -- rules specs -----------------------------------------------------------------------------------


def test_a_spec_changes_settings_of_a_preset():
    """Rules spec: NAME[:key=value]..."""
    rules = rules_named("standard:players=4:direction=counter-clockwise")
    assert rules.players == 4
    assert rules.direction is Direction.COUNTER_CLOCKWISE
    assert rules.name == "standard"  # the preset; the spec names the rules themselves
    assert rules.spec() == "standard:players=4:direction=counter-clockwise"
    assert rules.pay == STANDARD.pay


# -- the spec printer ----------------------------------------------------------------------------

_CHOICES = {
    "direction": list(Direction),
    "pile_order": list(PileOrder),
    "empty_hand": list(EmptyHand),
    "repeat": list(RepeatCheck),
    "on_repeat": list(Award),
    "on_stop": list(Award),
}


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Any rules a person can set up: a preset, then any value of any settings (every field of
    :class:`Rules` is a setting of ``SETTINGS``, checked above)."""
    changes: dict[str, object] = {}
    fields = draw(st.sets(st.sampled_from([s.attribute for s in SETTINGS])))
    deck = draw(st.sampled_from([STANDARD_DECK, STRIPPED_DECK, DOUBLE_DECK, HALF_DECK]))
    for field in fields:
        if field == "pay":
            ranks = draw(st.lists(st.sampled_from(sorted(deck.ranks)), min_size=1, max_size=5, unique=True))
            changes["pay"] = tuple((rank, draw(st.integers(1, 52))) for rank in ranks)
            changes["deck"] = deck
        elif field == "deck":
            changes["deck"] = deck
        elif field == "players":
            changes["players"] = draw(st.integers(2, 8))
        elif field == "lead":
            changes["lead"] = draw(st.sampled_from(list(Lead)))
            changes["lead_seat"] = draw(st.integers(0, 7))
        elif field in ("max_cards", "max_tricks"):
            changes[field] = draw(st.none() | st.integers(1, 10**12))
        elif field == "time_limit":
            micro = draw(st.integers(1, 366 * 86400 * 10**6))
            changes["time_limit"] = draw(
                st.sampled_from([micro / 10**6, micro // 10**6 or 1, 60.0 * (micro % 600 + 1)])
            )
        elif field == "open_hands":
            changes["open_hands"] = draw(st.booleans())
        else:
            changes[field] = draw(st.sampled_from(_CHOICES[field]))
    preset = draw(st.sampled_from(sorted(PRESETS)))
    try:
        return PRESETS[preset].replace(**changes)
    except RulesError:
        assume(False)
        raise


@settings(max_examples=80, deadline=None)
@given(any_rules())
def test_the_spec_of_any_rules_reads_back_to_them_and_is_the_text_a_person_would_type(rules: Rules) -> None:
    """One rule set, one spec: read back, it gives the same rules and the same spec. Before the
    printer, a spec typed in this form was stored as typed, so every such stored key stays the same
    (stores written otherwise are migrated: ``tests/research/test_store.py``)."""
    spec = rules.spec()
    again = rules_named(spec)
    assert again == rules
    assert again.spec() == spec
    assert again.name == rules.name == spec.split(":")[0]
    assert rules_named(spec.upper().replace(":", " : ")).spec() == spec  # however it is written


def test_rules_derived_by_replace_have_their_own_spec() -> None:
    assert STANDARD.spec() == "standard"
    assert STANDARD.replace(players=3).spec() == "standard:players=3"
    assert PRESETS["practice-table"].replace(lead=Lead.FIRST_HAND).spec() == "practice-table:lead=first-hand"
    assert rules_named("practice-table:lead=1").spec() == "practice-table:lead=1"
    assert (
        rules_named("friend-table:on-end=no-winner").spec()
        == "friend-table:on-repeat=no-winner:on-stop=no-winner"
    )
    assert (
        rules_named("suck-the-well:players=4:pile-order=newest-first").spec()
        == "counter-clockwise:pile=newest-first"
    )
    assert rules_named("standard:time-limit=1.5m").spec() == "standard:time-limit=90s"


def test_the_name_is_a_preset() -> None:
    with pytest.raises(RulesError, match="unknown preset 'lesson'"):
        STANDARD.replace(name="lesson")


def test_rules_data_that_names_a_whole_spec_reads_its_preset() -> None:
    """Games archived before ``name`` meant the preset held the whole spec there."""
    data = rules_named("friend-table:players=4").to_dict()
    assert Rules.from_dict({**data, "name": "friend-table:players=4"}).spec() == "friend-table:players=4"
    assert Rules.from_dict({**data, "name": "lesson"}).name == "standard"


@pytest.mark.parametrize(
    ("spec", "attribute", "value"),
    [
        ("standard:pay=J2Q4K6A8", "pay_spec", "J2Q4K6A8"),
        ("standard:pay=J=1, Q=2", "pay_spec", "J1Q2"),
        ("standard:deck=stripped", "deck", STRIPPED_DECK),
        ("standard:deck=104", "deck", DOUBLE_DECK),
        ("standard:lead=random", "lead", Lead.RANDOM),
        ("standard:lead=after-dealer", "lead", Lead.AFTER_DEALER),
        ("standard:lead=1", "lead_seat", 1),
        ("standard:pile=newest-first", "pile_order", PileOrder.NEWEST_FIRST),
        ("standard:pile-order=newest-first", "pile_order", PileOrder.NEWEST_FIRST),
        ("standard:empty-hand=when-empty", "empty_hand", EmptyHand.WHEN_EMPTY),
        ("standard:repeat=card", "repeat", RepeatCheck.CARD),
        ("standard:max-cards=100", "max_cards", 100),
        ("standard:max-tricks=10", "max_tricks", 10),
        ("practice-table:max-cards=none", "max_cards", None),
        ("standard:time-limit=30m", "time_limit", 1800.0),
        ("standard:time-limit=45", "time_limit", 45.0),
        ("standard:on-repeat=redeal", "on_repeat", Award.REDEAL),
        ("standard:on-stop=most-cards", "on_stop", Award.MOST_CARDS),
        ("standard:open-hands=yes", "open_hands", True),
        ("STANDARD:DIRECTION=Counter-Clockwise", "direction", Direction.COUNTER_CLOCKWISE),
    ],
)
def test_each_spec_key_sets_its_setting(spec, attribute, value):
    rules = rules_named(spec)
    got = getattr(rules, attribute)
    assert (got() if callable(got) else got) == value


def test_a_seat_number_as_lead_means_that_seat_leads():
    rules = rules_named("standard:players=3:lead=2")
    assert (rules.lead, rules.lead_seat) == (Lead.SEAT, 2)


def test_on_end_sets_both_awards():
    rules = rules_named("standard:on-end=most-cards")
    assert rules.on_repeat is rules.on_stop is Award.MOST_CARDS


def test_a_spec_can_change_a_preset_other_than_standard():
    rules = rules_named("seed-000:max-cards=100")
    assert rules.repeat is RepeatCheck.CARD
    assert rules.max_cards == 100


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("nonsense", "unknown rules 'nonsense'"),
        ("standard:players", "bad rules change 'players'"),
        ("standard:colour=red", "unknown rules setting 'colour'"),
        ("standard:direction=sideways", "bad value 'sideways' for direction: choose clockwise"),
        ("standard:players=many", "bad value 'many' for players"),
        ("standard:deck=pinochle", "bad value 'pinochle' for deck"),
        ("standard:pay=J1Q2X", "bad pay scale"),
        ("standard:open-hands=maybe", "bad value 'maybe' for open-hands"),
        ("standard:time-limit=soon", "bad value 'soon' for time-limit"),
        ("standard:on-repeat=shrug", "bad value 'shrug' for on-repeat"),
    ],
)
def test_a_bad_spec_is_rejected_with_what_is_wrong(spec, words):
    with pytest.raises(RulesError) as info:
        rules_named(spec)
    assert words in str(info.value)


def test_parse_pay_and_parse_duration_read_the_documented_forms():
    assert parse_pay("J1 Q2 K3 A4") == parse_pay("J=1,Q=2,K=3,A=4") == STANDARD.pay
    assert parse_pay("10=2") == ((Rank.TEN, 2),)
    assert parse_duration("90") == parse_duration("90s") == 90.0
    assert parse_duration("1h") == 3600.0
    with pytest.raises(RulesError):
        parse_pay("")
    with pytest.raises(ValueError):
        parse_duration("ten minutes")


# -- inconsistent settings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "setting"),
    [
        ({"players": 1}, "players=1"),
        ({"players": 9}, "players=9"),
        ({"players": 0}, "players=0"),
        ({"deck": STRIPPED_DECK, "pay": ((Rank.JACK, 1), (Rank.NINE, 1))}, "pay"),
        ({"pay": ()}, "pay"),
        ({"pay": ((Rank.JACK, 0),)}, "pay"),
        ({"pay": ((Rank.JACK, -1),)}, "pay"),
        ({"pay": ((Rank.JACK, 53),)}, "pay"),
        ({"pay": ((Rank.JACK, 1), (Rank.JACK, 2))}, "pay"),
        ({"empty_hand": EmptyHand.WHEN_EMPTY, "players": 3}, "empty-hand=when-empty"),
        ({"lead": Lead.SEAT, "lead_seat": 2}, "seat=2"),
        ({"lead": Lead.SEAT, "lead_seat": -1}, "seat=-1"),
        ({"repeat": RepeatCheck.OFF}, "repeat=off"),
        ({"max_cards": 0}, "max-cards=0"),
        ({"max_cards": -5}, "max-cards=-5"),
        ({"max_tricks": 0}, "max-tricks=0"),
        ({"time_limit": 0}, "time-limit=0"),
        ({"time_limit": -30.0}, "time-limit=-30"),
    ],
)
def test_every_inconsistent_setting_is_rejected_naming_the_setting(changes, setting):
    with pytest.raises(RulesError) as info:
        STANDARD.replace(**changes)
    assert setting in str(info.value)


def test_paying_on_a_rank_not_in_the_deck_names_the_rank_and_the_deck():
    with pytest.raises(RulesError, match=r"pay: 10 pays 1, but the stripped 40-card deck has no 10s"):
        rules_named("stripped:pay=J1T1")


def test_inconsistent_settings_are_rejected_through_a_spec_too():
    with pytest.raises(RulesError, match="players=9"):
        rules_named("standard:players=9")
    with pytest.raises(RulesError, match="empty-hand=when-empty"):
        rules_named("lose-when-empty:players=3")
    with pytest.raises(RulesError, match="seat=5"):
        rules_named("standard:lead=5")
    with pytest.raises(RulesError, match="repeat=off"):
        rules_named("standard:repeat=off")


def test_repeat_off_is_allowed_with_a_card_or_trick_limit():
    assert rules_named("standard:repeat=off:max-cards=1000").repeat is RepeatCheck.OFF
    assert rules_named("standard:repeat=off:max-tricks=10").max_tricks == 10


def test_when_empty_is_allowed_with_two_players():
    assert STANDARD.replace(empty_hand=EmptyHand.WHEN_EMPTY).players == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("pay"),
        lambda d: d.pop("deck"),
        lambda d: d.update(deck="pinochle"),
        lambda d: d.update(players="two"),
        lambda d: d.update(players=12),
        lambda d: d.update(direction="up"),
        lambda d: d.update(pay={"X": 1}),
        lambda d: d.update(pay=[1, 2]),
        lambda d: d.update(on_stop="nobody"),
        lambda d: d.update(max_cards="lots"),
    ],
)
def test_bad_rules_data_is_rejected_with_a_rules_error(damage):
    data = STANDARD.to_dict()
    damage(data)
    with pytest.raises(RulesError):
        Rules.from_dict(data)


@pytest.mark.parametrize("data", ["standard", ["pay", "deck"], 42, None])
def test_rules_data_that_is_not_a_mapping_is_rejected_with_a_rules_error(data):
    with pytest.raises(RulesError):
        Rules.from_dict(data)


# -- one declaration per setting -------------------------------------------------------------------


def test_every_field_of_the_rules_is_one_declared_setting():
    """settings(), to_dict(), from_dict() and the spec parser all come from SETTINGS."""
    import dataclasses

    from beggar.rules import SETTINGS

    declared = {s.attribute for s in SETTINGS} | {"lead_seat"}
    assert declared == {f.name for f in dataclasses.fields(Rules)} - {"name", "description"}
    assert [s.key for s in SETTINGS] == list(STANDARD.settings())


@pytest.mark.parametrize(
    "spec",
    [
        "standard:players=many",
        "standard:max-cards=lots",
        "standard:max-tricks=1.5",
        "standard:time-limit=soon",
        "standard:lead=left",
        "standard:deck=pinochle",
        "standard:pay=J",
        "standard:on-end=maybe",
    ],
)
def test_a_bad_value_is_one_plain_sentence_without_python_words(spec):
    with pytest.raises(RulesError) as info:
        rules_named(spec)
    text = str(info.value)
    for python in ("invalid literal", "int()", "float()", "base 10", "ValueError", "could not convert"):
        assert python not in text
    assert "\n" not in text


@pytest.mark.parametrize(
    ("spec", "setting"),
    [
        ("standard:max-cards=" + "9" * 150, "max-cards"),
        ("standard:max-tricks=" + "9" * 30, "max-tricks"),
        ("standard:time-limit=1" + "0" * 199, "time-limit"),
    ],
)
def test_absurd_limits_are_refused(spec, setting):
    with pytest.raises(RulesError, match=setting):
        rules_named(spec)


def test_the_leader_is_decided_in_one_place():
    assert STANDARD.default_leader() == 0
    assert rules_named("practice-table:players=3:lead=2").default_leader() == 2
    assert rules_named("friend-table").default_leader() is None
    assert rules_named("family-table:players=3").default_leader() == 0
    assert rules_named("family-table:players=3").default_leader(dealer=0) == 1
    assert rules_named("family-table:players=3:direction=counter-clockwise").default_leader(dealer=0) == 2
    with pytest.raises(RulesError, match="dealer=3"):
        rules_named("family-table:players=3").default_leader(dealer=3)


def test_a_random_lead_is_drawn_from_a_seed():
    friend = rules_named("friend-table")
    seats = {friend.draw_leader(seed) for seed in range(40)}
    assert seats == {0, 1}
    assert [friend.draw_leader(s) for s in range(10)] == [friend.draw_leader(s) for s in range(10)]
