"""The lessons in Debian's Chromium: a sentence on every card, their endings and what follows them."""

from __future__ import annotations

from typing import Any

import pytest

from beggar.lessons import LESSONS
from helpers import PHONE_SCREEN, at_table, cards_turned, next_card, opened


def _finish_lesson_one(page: Any, server: str, number: int = 1) -> None:
    """Start the first lesson (or lesson ``number``), let it play itself at instant pace, and wait
    for its end."""
    page.goto(f"{server}/#lessons")
    page.click(f"text=Start lesson {number}")
    page.wait_for_selector("#table:not([hidden])")
    page.click("#auto")
    page.select_option("#pace", "instant")
    page.wait_for_selector("#end[open]")


def test_a_lesson_ends_with_its_closing_sentence_and_the_next_lesson(server: str, browser: Any) -> None:
    with opened(browser) as page:
        _finish_lesson_one(page, server)
        assert page.inner_text("#end-again") == "Start again"
        assert LESSONS[0].outro in page.inner_text("#end-sentence")
        page.click("#end-next")
        page.wait_for_function("document.querySelector('#table-title').innerText.startsWith('Lesson 2')")


def test_the_last_lesson_leads_on_to_a_game_against_the_computer(server: str, browser: Any) -> None:
    with opened(browser) as page:
        _finish_lesson_one(page, server, len(LESSONS))
        assert page.inner_text("#end-next") == "Play the computer"
        page.click("#end-next")
        page.wait_for_function("location.pathname.startsWith('/t/')")
        at_table(page)
        assert page.inner_text("#table-title").startswith("You against")


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_lesson_says_a_sentence_on_every_card(server: str, browser: Any, number: int) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/#lessons")
        page.click(f"text=Start lesson {number}")
        page.wait_for_selector("#turn:enabled")
        # The introduction, before the first card (the table may be drawn a moment after it shows).
        page.wait_for_function("document.querySelector('#lesson-note').innerText.trim() !== ''")
        assert cards_turned(page) == 0
        silent = []
        cards = 0
        while not page.locator("#end").evaluate("el => el.open"):
            cards, note = next_card(page, cards)
            if not note:
                silent.append(cards)
        assert silent == []


def test_a_lesson_of_one_trick_draws_no_chart(server: str, browser: Any) -> None:
    with opened(browser) as page:
        _finish_lesson_one(page, server)
        assert page.inner_text("#end-facts dt:text-is('Tricks') + dd") == "1"
        assert page.locator("#end-chart-box").is_hidden()
        page.click("#end-close")
        assert page.locator("#chart-box").is_hidden()


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_next_card_stays_put_through_a_lesson(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        page.goto(f"{server}/#lessons")
        page.click("text=Start lesson 2")
        page.wait_for_selector("#turn:enabled")
        assert page.inner_text("#rules-line") == ""  # not the full game's deck
        places = set()
        cards = 0
        while not page.locator("#end").evaluate("el => el.open"):
            box = page.locator("#turn").bounding_box()
            assert box is not None
            places.add(box["y"])
            cards, _ = next_card(page, cards)  # where it lies after each card
        assert len(places) == 1, places


def test_a_lesson_s_sentence_follows_the_dark_theme(server: str, browser: Any) -> None:
    with opened(browser, PHONE_SCREEN, color_scheme="dark") as page:
        page.goto(server)
        page.click("text=Lessons")
        page.locator("#lessons button").first.click()
        page.wait_for_selector("#lesson-note:not([hidden])")
        rgb = page.locator("#lesson-note").evaluate("el => getComputedStyle(el).backgroundColor")
        assert max(int(c) for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]) < 80, rgb
