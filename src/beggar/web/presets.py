"""The rule presets as a player sees them: plain names and plain descriptions.

:data:`beggar.rules.PRESET_LIST` owns each preset: what it is, its title and its description.
This module says how a table names rules that start from one, and every setting in plain words
(:data:`SETTING_WORDS`): a table's title names the house rules it adds to its preset, and its
rules line sums up the rest. Players never see a preset's code name.

>>> from beggar.rules import rules_named
>>> table_rules_title(rules_named("practice-table"))
'Practice table'
>>> table_rules_title(rules_named("friend-table:max-tricks=100:pay=J2Q4K6A8"))
'Friend table + 2 house rules (Double penalty, stops after 100 tricks)'
>>> rules_summary(rules_named("double-penalty:players=3"))
'a jack pays 2, a queen 4, a king 6, an ace 8, a standard deck of 52 cards, 3 players'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from beggar.research import houserules
from beggar.rules import (
    PRESET_BY_NAME,
    PRESET_LIST,
    STANDARD,
    Award,
    EmptyHand,
    Lead,
    PileOrder,
    RepeatCheck,
    Rules,
)

TITLES: dict[str, tuple[str, str]] = {
    preset.name: (preset.title, preset.description) for preset in PRESET_LIST
}
"""For each preset: its name at the table, and what it is (from :data:`beggar.rules.PRESET_LIST`)."""

COMPUTER_DEFAULT = "practice-table"
"""The rules of "Play the computer": the practice table a person plays alone."""
FRIEND_DEFAULT = "friend-table"
"""The rules of "Play a friend": the table two friends play at."""


def _article(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def _pay_words(rules: Rules) -> str:
    """``a jack pays 2, a queen 4, a king 6, an ace 8``."""
    return ", ".join(
        f"{_article(rank.noun)} pays {value}" if i == 0 else f"{_article(rank.noun)} {value}"
        for i, (rank, value) in enumerate(rules.pay)
    )


def _limit_words(value: int | None, what: str) -> str:
    return f"no {what} limit" if value is None else f"stops after {value:,} {what}s"


_LEADS = {
    Lead.FIRST_HAND: "the first hand leads",
    Lead.RANDOM: "random lead",
    Lead.AFTER_DEALER: "the player after the dealer leads",
}
_AWARDS = {
    Award.NO_WINNER: "has no winner",
    Award.MOST_CARDS: "goes to whoever holds more cards",
    Award.REDEAL: "is dealt again",
}

SETTING_WORDS: dict[str, Callable[[Rules], str]] = {
    "pay": _pay_words,
    "deck": lambda rules: f"{_article(rules.deck.name)} deck of {rules.deck.size} cards",
    "players": lambda rules: f"{rules.players} players",
    "direction": lambda rules: f"play passes {rules.direction}",
    "lead": lambda rules: _LEADS.get(rules.lead, f"player {rules.lead_seat + 1} leads"),
    "pile": lambda rules: (
        "a won pile goes under "
        + ("newest card first" if rules.pile_order is PileOrder.NEWEST_FIRST else "oldest card first")
    ),
    "empty-hand": lambda rules: (
        "an empty stack loses at once"
        if rules.empty_hand is EmptyHand.WHEN_EMPTY
        else "an empty stack loses when it must turn"
    ),
    "repeat": lambda rules: {
        RepeatCheck.TRICK: "a position repeated at a trick's end ends the game",
        RepeatCheck.CARD: "an exact repeat after any card ends the game",
        RepeatCheck.OFF: "no check for repeats",
    }[rules.repeat],
    "max-cards": lambda rules: _limit_words(rules.max_cards, "card"),
    "max-tricks": lambda rules: _limit_words(rules.max_tricks, "trick"),
    "time-limit": lambda rules: (
        "no time limit" if rules.time_limit is None else f"time limit {rules.settings()['time-limit']}"
    ),
    "on-repeat": lambda rules: f"a loop {_AWARDS[rules.on_repeat]}",
    "on-stop": lambda rules: f"a stopped game {_AWARDS[rules.on_stop]}",
    "open-hands": lambda rules: "open hands" if rules.open_hands else "hands face down",
}
"""Each setting of :data:`beggar.rules.SETTINGS` (by its key), as a player reads it: the words for
its value under some rules."""


def house_rules(rules: Rules) -> list[tuple[str, list[str]]]:
    """What ``rules`` change in the preset they start from: each change in plain words, with the
    settings it covers. A preset's title stands for the changes that make that preset
    (``pay=J2Q4K6A8`` is "Double penalty"). The number of players is not a house rule: the table
    says how many play."""
    base = PRESET_BY_NAME[rules.name]
    mine, theirs, standard = rules.settings(), base.rules.settings(), STANDARD.settings()
    changed = [key for key in mine if key != "players" and mine[key] != theirs[key]]
    named = []
    for preset in PRESET_LIST:
        own = {key: value for key, value in preset.rules.settings().items() if value != standard[key]}
        keys = [key for key in own if key != "players"]
        if preset is base or not keys or any(key not in changed for key in keys):
            continue
        if all(mine[key] == value for key, value in own.items()):
            named.append((preset.title, keys))
            changed = [key for key in changed if key not in keys]
    return named + [(SETTING_WORDS[key](rules), [key]) for key in changed]


def table_rules_title(rules: Rules) -> str:
    """What a table calls its rules: the preset's plain name, and the house rules it adds
    ("Practice table + 1 house rule (open hands)")."""
    title = TITLES[rules.name][0]
    added = [words for words, _ in house_rules(rules)]
    if not added:
        return title
    joined = ("; " if any("," in words for words in added) else ", ").join(added)
    return f"{title} + {len(added)} house rule{'s' if len(added) > 1 else ''} ({joined})"


def rules_summary(rules: Rules) -> str:
    """The other settings a player most needs, in plain words, for a table's rules line (after
    its title, which names the house rules): ``a standard deck of 52 cards, 2 players, stops after
    4,000 cards``."""
    told = {key for _, keys in house_rules(rules) for key in keys}
    shown = {
        "pay": rules.pay != STANDARD.pay,
        "deck": True,
        "players": True,
        "lead": rules.lead is Lead.RANDOM,
        "max-cards": rules.max_cards is not None,
        "max-tricks": rules.max_tricks is not None,
        "time-limit": rules.time_limit is not None,
    }
    return ", ".join(SETTING_WORDS[key](rules) for key, show in shown.items() if show and key not in told)


def preset_entries(delays: Mapping[str, float] | None = None) -> list[dict[str, object]]:
    """Every preset for the home page: its key (what the browser sends), title, description,
    settings, the numbers of players it may seat, and what it does to a game as the kernel
    measured it at each of those numbers (:func:`measured`, by the number of players as text, as
    the page's Players field holds it; ``delays``: each pace's seconds a card)."""
    figures = houserules.shipped()
    return [
        {
            "name": preset.name,
            "title": preset.title,
            "description": preset.description,
            "settings": preset.rules.settings(),
            "player_counts": preset.rules.player_counts(),
            "measured": {
                str(players): measured(row, delays or {})
                for players, row in figures.get(preset.name, {}).items()
            },
        }
        for preset in PRESET_LIST
    ]


def measured(figures: houserules.HouseRuleFigures, delays: Mapping[str, float]) -> dict[str, object]:
    """A preset's measured figures for the page, with the minutes a typical game lasts at each pace
    of ``delays`` (seconds a card; a person at the table turns about as fast).

    >>> entry = measured(houserules.shipped()["standard"][2], {"normal": 1.0, "instant": 0.0})
    >>> entry["players"], entry["median_cards"], entry["minutes"]
    (2, 195, {'normal': 3.2})
    """
    return {
        "players": figures.players,
        "games": figures.games,
        "median_cards": round(figures.median_cards),
        "p90_cards": round(figures.p90_cards),
        "stopped": figures.stopped,
        "loops": figures.loops,
        "leader_wins": figures.leader_wins,
        "minutes": {
            pace: round(figures.median_cards * delay / 60, 1) for pace, delay in delays.items() if delay
        },
    }


def rules_entry(rules: Rules) -> dict[str, object]:
    """The rules a table plays by, for its players: plain title and every setting."""
    return {
        "name": rules.spec(),
        "title": table_rules_title(rules),
        "summary": rules_summary(rules),
        "settings": rules.settings(),
    }
