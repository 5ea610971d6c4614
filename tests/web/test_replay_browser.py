"""A game's replay in Debian's Chromium: stepping and speed, the legend and the position line, cards
in high contrast, and the names of those who played."""

from __future__ import annotations

import re
from typing import Any

from beggar.engine import Game, Reason
from beggar.notation import random_deal
from beggar.rules import STANDARD
from beggar.web.replay import replay_saved
from helpers import PHONE, PHONE_SCREEN, SHORT_SEED, at_table, open_settings, opened


def test_the_replay_legend_gives_the_stacks_a_replay_plays_at_the_speed_chosen_and_its_deal_can_be_played(
    server: str, browser: Any
) -> None:
    """One replay: its legend gives the stacks at the card shown; from its start it plays at the
    speed chosen; its deal can be played against the computer, under its own rules."""
    with opened(browser) as page:
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("Number(document.querySelector('#scrub')?.max) > 1000")
        page.locator("#scrub").evaluate("el => { el.value = '31'; el.dispatchEvent(new Event('input')); }")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 31 ')")
        stacks = page.locator("#replay-seats .stack-count").all_inner_texts()
        legend = [item.split(": ")[-1] for item in page.locator("#replay-legend li").all_inner_texts()]
        assert legend[: len(stacks)] == stacks
        page.click("#replay-start")
        page.wait_for_function("document.querySelector('#scrub')?.value === '0'")
        page.select_option("#replay-speed", "400")
        page.click("#replay-play")
        page.wait_for_timeout(1000)
        page.click("#replay-play")
        assert int(page.locator("#scrub").input_value()) >= 150
        page.click("#replay-deal")
        at_table(page)
        page.wait_for_function("location.pathname.startsWith('/t/')")
        assert page.locator("#seats .seat").count() == 2
        assert (
            page.inner_text(".seat.you .name") == "You"
            and page.get_attribute(".seat.you", "data-seat") == "0"
        )
        assert "a standard deck of 52 cards, 2 players" in page.inner_text("#rules-line")
        assert "J1" not in page.inner_text("#rules-line")
        page.wait_for_function("document.querySelector('#log').innerText.includes('New game: ')")
        assert "New game: the deal of the replay, No limits." in page.inner_text("#log")


HC_OVERLAPS = """pile => {
    const cards = [...pile.querySelectorAll('.card')];
    const hit = [];
    cards.slice(0, -1).forEach((card, i) => {
        const label = card.querySelector('.hc-index').getBoundingClientRect();
        const next = cards[i + 1].getBoundingClientRect();
        if (label.right > next.left + 0.5) hit.push(i);
    });
    return [cards.length, hit];
}"""


HC_COLOURS = """cards => cards.map((card) => {
  const colour = (selector) => {
    const node = card.querySelector(selector);
    return node && getComputedStyle(node).display !== 'none' ? getComputedStyle(node).color : null;
  };
  const face = card.querySelector('.face');
  return [colour('.hc-index'), colour('.hc-pip'), face && getComputedStyle(face).display];
})"""
"""Each card's index colour, its suit sign's colour, and whether its printed face shows."""


def test_high_contrast_cards_show_their_suit_in_one_colour_and_their_corners_do_not_collide(
    server: str, browser: Any
) -> None:
    """In high contrast, at a desktop's, a tablet's and a phone's size (one replay, resized and
    stepped again from its start): no card's corner runs into the next card in the pile, and every
    card shows its index and its suit sign in one colour, its printed face hidden."""
    with opened(browser) as page:
        page.goto(server)
        open_settings(page)
        page.check("#opt-contrast")
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("document.querySelector('#scrub')?.max > 0")
        for size in ({"width": 1280, "height": 800}, {"width": 768, "height": 1024}, PHONE_SCREEN):
            page.set_viewport_size(size)
            page.click("#replay-start")
            page.wait_for_function("document.querySelector('#scrub')?.value === '0'")
            # Forty presses of "next card" (the replay draws each at once), the pile read after each.
            steps = page.evaluate(
                f"""steps => {{
                  const overlaps = {HC_OVERLAPS}, read = {HC_COLOURS};
                  const seen = [];
                  for (let i = 0; i < steps; i++) {{
                    document.querySelector('#replay-next').click();
                    const pile = document.querySelector('#replay-pile');
                    seen.push([overlaps(pile), read([...pile.querySelectorAll('.card')])]);
                  }}
                  return seen;
                }}""",
                40,
            )
            assert [(shown, hit) for (shown, hit), _ in steps if hit] == [], size
            assert len(steps) == 40 and max(shown for (shown, _), _ in steps) >= 4
            colours = [colour for _, read in steps for colour in read]
            assert len({index for index, _, _ in colours}) >= 2  # suits of more than one colour
            for index, pip, face in colours:
                assert index is not None and index == pip and face == "none", (size, index, pip, face)


def test_a_replay_stepped_to_a_payment_says_what_is_left_and_writes_its_numbers_as_its_position_line_does(
    server: str, browser: Any
) -> None:
    """One replay of 1,007 tricks. Stepped to a payment, at a desktop's size and a tablet's (the
    page resized), the seat that owes says beside its marks, in the live table's words, how many
    cards are left to pay, and in full to a screen reader. At its end, its sentence writes its
    numbers as its position line does (thousands grouped)."""
    with opened(browser) as page:
        page.goto(f"{server}/r/famous-3")
        page.wait_for_function("Number(document.querySelector('#scrub')?.max) > 2")
        page.locator("#scrub").evaluate("el => { el.value = '2'; el.dispatchEvent(new Event('input')); }")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 2 ')")
        for size in ({"width": 1280, "height": 800}, {"width": 768, "height": 1024}):
            page.set_viewport_size(size)
            owed = page.locator("#replay-seats .owed")
            assert owed.count() == 1
            # The live table's words (see the test above): beside the marks, and said in full.
            left = owed.locator(".mark:not(.paid)").count()
            marks = owed.locator(".mark").count()
            assert owed.inner_text() == f"{left} to pay" and owed.locator(".owed-words").is_visible(), size
            name = owed.evaluate("el => el.closest('.seat').querySelector('.name').innerText")
            more = "1 more card" if left == 1 else f"{left} more cards"
            assert owed.get_attribute("aria-label") == f"{name} owes {more}; {marks - left} of {marks} paid"
            assert owed.get_attribute("title") == owed.get_attribute("aria-label")
        page.set_viewport_size({"width": 1000, "height": 900})
        page.click("#replay-end")
        where = page.inner_text("#replay-where")
        assert re.search(r"trick \d{1,3},\d{3}", where), where
        text = page.inner_text("#replay-text")
        assert "(trick 1,007)" in text and not re.search(r"\d{4}", text), text


AS_RGB = """(colour) => {
  const probe = document.createElement('i');
  probe.style.color = colour;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color;
  probe.remove();
  return rgb;
}"""


def test_a_finished_game_is_listed_at_home_and_its_replay_calls_you_you_as_the_table_did(
    server: str, browser: Any
) -> None:
    """A game played to its end is listed among the recent games on the home page (none before),
    under the name the table gave it, its link in the page's colours; the link opens its replay
    without a keyboard frame, called as the table called it, and its sentences told from this
    person's seat; anyone else with the link sees the seat by its place."""
    with opened(browser) as page, opened(browser) as other:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        assert page.locator("#recent").is_hidden()
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("document.querySelector('#table-title').textContent !== ''")
        title = page.inner_text("#table-title")
        assert title == "You against Robin"
        page.click("#auto")
        page.wait_for_selector("#end-replay:not([hidden])")
        link = str(page.locator("#end-replay").get_attribute("href"))
        page.goto(server)  # the recent games call it so, and their link opens the replay called so too
        page.wait_for_selector("#recent:not([hidden])")
        assert page.locator("#recent-list li").count() == 1
        recent = page.locator("#recent-list a").first
        assert recent.inner_text() == title
        ink = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--secondary-ink').trim()"
        )
        assert recent.evaluate("a => getComputedStyle(a).color") == page.evaluate(AS_RGB, ink)
        recent.click()
        page.wait_for_function("document.querySelector('#replay-title').innerText.startsWith('Replay: ')")
        assert page.evaluate("document.activeElement.id") != "scrub"  # no keyboard frame on the scrubber
        assert page.locator("#scrub").get_attribute("max") == "40"
        assert page.inner_text("#replay-title") == f"Replay: {title}"
        assert page.title() == f"Replay: {title} — Beggar-My-Neighbour"
        assert page.inner_text("#replay-seats .seat[data-seat='0'] .name") == "You"
        page.click("#replay-end")  # the sentences, told from this person's seat as the table told them
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 40 ')")
        told = page.inner_text("#replay-rules") + " " + page.inner_text("#replay-text")
        assert "Player 1" not in told and "You " in told
        other.goto(link)  # anyone else with the link: the seat by its place
        other.wait_for_function("document.querySelector('#replay-title').innerText.startsWith('Replay: ')")
        assert other.inner_text("#replay-title") == "Replay: Player 1 and Robin"
        assert "You " not in other.inner_text("#replay-rules")


STEPS = ("start", "back", "next", "end")
"""The replay's step controls, beside Play."""

FELT_CONTRAST = """(selector) => {
  const lum = (color) => {
    const probe = document.createElement('i');
    probe.style.color = color;
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color.match(/[\\d.]+/g).slice(0, 3).map(Number);
    probe.remove();
    const [r, g, b] = rgb.map((c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const node = document.querySelector(selector);
  const x = lum(getComputedStyle(node).backgroundColor);
  const y = lum(getComputedStyle(document.documentElement).getPropertyValue('--felt').trim());
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}"""
"""The contrast between an element's background and the felt's colour."""


def test_a_phone_seat_says_its_cards_in_words_and_replay_s_play_stands_out(server: str, browser: Any) -> None:
    """On a phone each seat says its cards in words; in the replay of that game, Play stands out
    against the felt and is the one control of its colour, in light and dark mode alike."""
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click("#play-computer")
        at_table(page)
        counts = page.locator("#seats .seat .count")
        assert counts.count() == 2 and all(counts.nth(i).is_visible() for i in range(2))
        assert counts.all_inner_texts() == ["26 cards", "26 cards"]
        page.click("#auto")
        page.wait_for_selector("#end[open]")
        page.goto(str(page.get_attribute("#end-replay", "href")))
        page.wait_for_selector("#replay:not([hidden]) .seat")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate(FELT_CONTRAST, "#replay-play") >= 3, scheme
            # The one control of its colour, the table's main one's (Turn's).
            background = "s => getComputedStyle(document.querySelector(s)).backgroundColor"
            others = {
                page.evaluate(background, f"#replay-{name}") for name in ("start", "back", "next", "end")
            }
            assert page.evaluate(background, "#replay-play") not in others, scheme


def _stopped_during_a_payment() -> dict[str, Any]:
    """The replay the server sends of a game stopped while a payment was in progress (as a time
    limit or a closed table stops one): built as it builds one from its archive."""
    game = Game(random_deal(STANDARD, 3), STANDARD, first=0)
    while not (game.owed >= 2 and game.tricks >= 2):
        game.step()
    game.step()  # one card of the payment: something is still owed before it and after it
    game.stop(Reason.STOPPED)
    data = replay_saved(game.to_dict(), ["Ann", "Robin"])
    data.update(dealt_again=[], notes="", dealt_next=None, mode="computer", you=None, finished=0)
    return data


def test_a_replay_of_a_game_stopped_during_a_payment_marks_no_debt_once_it_is_over(
    browser: Any, server: str
) -> None:
    """Before its last card, the seat paying says what it owes, as the live table did; at the last
    card the game is over: nobody is to play, and nobody owes (the live table showed no mark)."""
    data = _stopped_during_a_payment()
    end = len(data["frames"]) - 1
    last = data["frames"][-1]
    assert (
        last["owed"] and last["challenge"] is not None and last["to_play"] is not None
    )  # what must not be marked
    at = "(card) => document.querySelector('#replay-where').innerText.startsWith(`Card ${card} `)"
    with opened(browser) as page:
        page.route("**/api/replay/stoppedab", lambda route: route.fulfill(json=data))
        page.goto(f"{server}/r/stoppedab")
        page.wait_for_function("Number(document.querySelector('#scrub')?.max) > 2")
        page.click("#replay-end")
        page.wait_for_function(at, arg=end)
        assert page.locator("#replay-seats .owed").count() == 0
        assert page.locator("#replay-seats .to-play").count() == 0
        page.click("#replay-back")  # the card before: the payment was in progress
        page.wait_for_function(at, arg=end - 1)
        assert page.locator("#replay-seats .to-play .owed").count() == 1
        assert page.locator("#replay-seats .owed").count() == 1
