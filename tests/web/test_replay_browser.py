"""A game's replay in Debian's Chromium: stepping and speed, the legend and the position line, cards
in high contrast, and the names of those who played."""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers import PHONE, PHONE_SCREEN, SHORT_SEED, at_table, open_settings, opened


def test_the_replay_legend_gives_the_stacks_at_the_card_shown(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("Number(document.querySelector('#scrub').max) > 31")
        page.locator("#scrub").evaluate("el => { el.value = '31'; el.dispatchEvent(new Event('input')); }")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 31 ')")
        stacks = page.locator("#replay-seats .stack-count").all_inner_texts()
        legend = [item.split(": ")[-1] for item in page.locator("#replay-legend li").all_inner_texts()]
        assert legend[: len(stacks)] == stacks


def test_a_replay_plays_at_the_speed_chosen_and_its_deal_can_be_played(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("Number(document.querySelector('#scrub').max) > 1000")
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


@pytest.mark.parametrize(
    "size", [{"width": 1280, "height": 800}, {"width": 768, "height": 1024}, PHONE_SCREEN]
)
def test_high_contrast_corners_do_not_run_into_each_other_in_the_pile(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        page.goto(server)
        open_settings(page)
        page.check("#opt-contrast")
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("document.querySelector('#scrub').max > 0")
        # Forty presses of "next card" (the replay draws each at once), the pile measured after each.
        steps = page.evaluate(
            f"""steps => {{
              const overlaps = {HC_OVERLAPS};
              const seen = [];
              for (let i = 0; i < steps; i++) {{
                document.querySelector('#replay-next').click();
                seen.push(overlaps(document.querySelector('#replay-pile')));
              }}
              return seen;
            }}""",
            40,
        )
        assert [(shown, hit) for shown, hit in steps if hit] == []
        assert len(steps) == 40 and max(shown for shown, _ in steps) >= 4


def test_a_replay_writes_its_numbers_as_its_position_line_does(server: str, page: Any) -> None:
    page.goto(f"{server}/r/famous-3")  # 1,007 tricks
    page.wait_for_function("document.querySelector('#scrub').max > 0")
    page.click("#replay-end")
    where = page.inner_text("#replay-where")
    assert re.search(r"trick \d{1,3},\d{3}", where), where
    text = page.inner_text("#replay-text")
    assert "(trick 1,007)" in text and not re.search(r"\d{4}", text), text


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 768, "height": 1024}])
def test_a_replay_stepped_to_a_payment_says_what_is_left_as_the_table_does(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        page.goto(f"{server}/r/famous-3")
        page.wait_for_function("Number(document.querySelector('#scrub').max) > 2")
        page.locator("#scrub").evaluate("el => { el.value = '2'; el.dispatchEvent(new Event('input')); }")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 2 ')")
        owed = page.locator("#replay-seats .owed")
        assert owed.count() == 1
        # The live table's words (see the test above): beside the marks, and said in full.
        left = owed.locator(".mark:not(.paid)").count()
        marks = owed.locator(".mark").count()
        assert owed.inner_text() == f"{left} to pay" and owed.locator(".owed-words").is_visible()
        name = owed.evaluate("el => el.closest('.seat').querySelector('.name').innerText")
        more = "1 more card" if left == 1 else f"{left} more cards"
        assert owed.get_attribute("aria-label") == f"{name} owes {more}; {marks - left} of {marks} paid"
        assert owed.get_attribute("title") == owed.get_attribute("aria-label")


def test_the_replay_of_your_own_game_calls_you_you_as_the_table_did(server: str, browser: Any) -> None:
    with opened(browser) as page, opened(browser) as other:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
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
        assert page.locator("#recent-list a").first.inner_text() == title
        page.locator("#recent-list a").first.click()
        page.wait_for_function("document.querySelector('#replay-title').innerText.startsWith('Replay: ')")
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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_phone_seat_says_its_cards_in_words_and_replay_s_play_stands_out(
    server: str, browser: Any, scheme: str
) -> None:
    with opened(browser, **PHONE, color_scheme=scheme) as page:
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
        assert page.evaluate(FELT_CONTRAST, "#replay-play") >= 3
        # The one control of its colour, the table's main one's (Turn's).
        background = "s => getComputedStyle(document.querySelector(s)).backgroundColor"
        others = {page.evaluate(background, f"#replay-{name}") for name in ("start", "back", "next", "end")}
        assert page.evaluate(background, "#replay-play") not in others


HC_COLOURS = """cards => cards.map((card) => {
  const colour = (selector) => {
    const node = card.querySelector(selector);
    return node && getComputedStyle(node).display !== 'none' ? getComputedStyle(node).color : null;
  };
  const face = card.querySelector('.face');
  return [colour('.hc-index'), colour('.hc-pip'), face && getComputedStyle(face).display];
})"""
"""Each card's index colour, its suit sign's colour, and whether its printed face shows."""


def test_a_high_contrast_card_shows_its_suit_in_one_colour(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page)
        page.check("#opt-contrast")
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("document.querySelector('#scrub').max > 0")
        # Forty presses of "next card" (the replay draws each at once), the pile read after each.
        colours = page.evaluate(
            f"""steps => {{
              const read = {HC_COLOURS};
              const seen = [];
              for (let i = 0; i < steps; i++) {{
                document.querySelector('#replay-next').click();
                seen.push(...read([...document.querySelectorAll('#replay-pile .card')]));
              }}
              return seen;
            }}""",
            40,
        )
        assert len({index for index, _, _ in colours}) >= 2  # suits of more than one colour
        for index, pip, face in colours:
            assert index is not None and index == pip and face == "none", (index, pip, face)
