"""The lessons in Debian's Chromium: a sentence on every card, their endings and what follows them."""

from __future__ import annotations

from typing import Any

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


def test_a_lesson_ends_with_its_closing_sentence_and_what_follows_it(server: str, browser: Any) -> None:
    """On one page: the first lesson, of one trick, ends with its closing sentence, "Start again"
    and no chart (none under the table either once the end is closed); played again, it leads on
    to the second lesson; the last lesson leads on to a game against the computer."""
    with opened(browser) as page:
        _finish_lesson_one(page, server)
        assert page.inner_text("#end-again") == "Start again"
        assert LESSONS[0].outro in page.inner_text("#end-sentence")
        assert page.inner_text("#end-facts dt:text-is('Tricks') + dd") == "1"
        assert page.locator("#end-chart-box").is_hidden()
        page.click("#end-close")
        assert page.locator("#chart-box").is_hidden()
        _finish_lesson_one(page, server)
        page.click("#end-next")
        page.wait_for_function("document.querySelector('#table-title').innerText.startsWith('Lesson 2')")
        _finish_lesson_one(page, server, len(LESSONS))
        assert page.inner_text("#end-next") == "Play the computer"
        page.click("#end-next")
        page.wait_for_function("location.pathname.startsWith('/t/')")
        at_table(page)
        assert page.inner_text("#table-title").startswith("You against")


def test_a_lesson_says_a_sentence_on_every_card_and_next_card_stays_put(server: str, browser: Any) -> None:
    """Lessons 1 to 3, played card by card with Space on one page: each says its introduction
    before the first card and a sentence on every card. Through lesson 2 (which shows no full
    game's rules line) the Next card button stays put at a desktop's size and at a phone's, the
    page resized before each card to read where it lies at each. The lesson's sentence follows the
    dark theme on a phone."""
    sizes = ({"width": 1280, "height": 800}, PHONE_SCREEN)
    with opened(browser) as page:
        for number in (1, 2, 3):
            page.goto(f"{server}/#lessons")
            page.click(f"text=Start lesson {number}")
            page.wait_for_selector("#turn:enabled")
            # The introduction, before the first card (the table may be drawn a moment after it shows).
            page.wait_for_function("document.querySelector('#lesson-note').innerText.trim() !== ''")
            assert cards_turned(page) == 0
            if number == 1:  # the sentence on a phone in the dark theme: a dark panel
                page.set_viewport_size(PHONE_SCREEN)
                page.emulate_media(color_scheme="dark")
                rgb = page.locator("#lesson-note").evaluate("el => getComputedStyle(el).backgroundColor")
                assert max(int(c) for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]) < 80, rgb
                page.emulate_media(color_scheme="light")
                page.set_viewport_size(sizes[0])
            if number == 2:
                assert page.inner_text("#rules-line") == ""  # not the full game's deck
            places: dict[int, set[float]] = {size["width"]: set() for size in sizes}
            silent = []
            cards = 0
            while not page.locator("#end").evaluate("el => el.open"):
                if number == 2:  # where Next card lies before each card, at each size
                    for size in sizes:
                        page.set_viewport_size(size)
                        box = page.locator("#turn").bounding_box()
                        assert box is not None
                        places[size["width"]].add(box["y"])
                cards, note = next_card(page, cards)
                if not note:
                    silent.append(cards)
            assert silent == [], number
            if number == 2:
                assert all(len(seen) == 1 for seen in places.values()), places
