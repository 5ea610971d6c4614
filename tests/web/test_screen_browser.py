"""The table gives the game the screen: at a laptop's 1280x800 the board, the open hands, Turn
and the log (a panel beside the game) share the first screen; and the page's smaller moments
(the focus after a pause, the settings kept from an earlier visit, the end's marks, the numbers)
say what happened. Driven in Debian's Chromium, as a person would use it."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import PHONE, axe, friend_table, open_settings, opened, play_the_computer

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
ALL_CARDS_SEED = 7
"""A standard deal won by taking a pile (after 49 cards): its loser never failed to turn a card."""

_BOX = """sel => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}"""


def test_on_a_laptop_open_hands_turn_and_the_log_share_the_first_screen(server: str, browser: Any) -> None:
    with opened(browser, LAPTOP) as page:
        page.goto(server)
        open_settings(page)
        page.check("#opt-open")
        page.click("#play-computer")
        page.wait_for_selector("#turn:enabled")
        page.evaluate("window.scrollTo(0, 0)")
        # Turn and both hands are in view, whole, without scrolling.
        assert page.evaluate(_BOX, "#turn")[3] <= 800
        hands = page.locator("#seats .open-stack").evaluate_all(
            "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [r.top, r.bottom]; })"
        )
        assert len(hands) == 2
        assert all(top >= 0 and bottom <= 800 for top, bottom in hands), hands
        # The log is a panel beside the board, not under it; the stacks are sized from the window.
        board, log = page.evaluate(_BOX, "#seats"), page.evaluate(_BOX, "#log")
        assert log[0] >= board[2] and log[1] < 200, (board, log)
        stack = page.evaluate(_BOX, "#seats .seat .stack")
        assert stack[2] - stack[0] >= 59  # 54 before the stacks grew with the cards
        assert axe(page) == []


def test_on_a_phone_the_log_still_follows_the_game(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        play_the_computer(page, server)
        assert page.evaluate(_BOX, "#log")[1] > page.evaluate(_BOX, "#turn")[3]
        assert page.locator("#log-more").is_visible()


def test_the_focus_follows_pause_and_resume_and_at_the_end_every_seat_left_without_cards_reads_out(
    server: str, page: Any
) -> None:
    """In a game against the computer, the focus goes to Resume on pausing and back to Turn on
    resuming; in a game watched to its end (the next, on the same page), every seat left without
    cards says "out" and is dimmed."""
    play_the_computer(page, server)
    page.focus("#pause")
    page.keyboard.press("Enter")
    page.wait_for_selector("#resume-big:visible")
    page.wait_for_function("document.activeElement.id === 'resume-big'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#turn:visible:enabled")
    page.wait_for_function("document.activeElement.id === 'turn'")
    play_the_computer(page, server, pace="instant", seed=ALL_CARDS_SEED)
    page.click("#auto")
    page.wait_for_selector("#end[open]")
    seats = page.locator("#seats .seat").evaluate_all(
        "nodes => nodes.map(n => [n.querySelector('.stack-count').textContent,"
        " n.querySelector('.count').textContent, n.classList.contains('out')])"
    )
    empty = [seat for seat in seats if seat[0] == "0"]
    assert empty, seats
    assert all(words == "out" and dimmed for _, words, dimmed in empty), seats


def test_settings_kept_from_a_visit_are_said_in_one_line_with_a_way_back(server: str, page: Any) -> None:
    page.goto(server)
    page.wait_for_selector("#play-computer:enabled")
    assert page.locator("#settings-kept").is_hidden()
    open_settings(page, players=3, pace="fast", spec="max-cards=500")
    page.check("#opt-open")
    page.reload()
    page.wait_for_selector("#play-computer:enabled")
    assert not page.locator("#setup").evaluate("el => el.open")
    kept = page.inner_text("#settings-kept")
    for words in ("3 players", "fast pace", "open hands", "max-cards=500"):
        assert words in kept, kept
    page.click("#settings-reset")
    assert page.locator("#settings-kept").is_hidden()
    page.reload()
    page.wait_for_selector("#play-computer:enabled")
    assert page.locator("#settings-kept").is_hidden()
    assert page.locator("#opt-players").input_value() == "2"
    assert page.locator("#opt-spec").input_value() == ""


def test_the_landing_page_uses_the_width_with_even_choices(server: str, browser: Any) -> None:
    with opened(browser, LAPTOP) as page:
        page.goto(server)
        page.wait_for_selector("#play-computer:enabled")
        widths = page.locator("#home .choices button").evaluate_all("nodes => nodes.map(n => n.offsetWidth)")
        assert max(widths) - min(widths) <= 1, widths
        tops = page.locator("#home .choices button").evaluate_all("nodes => nodes.map(n => n.offsetTop)")
        assert len(set(tops)) == 1, tops  # one row
        # The Rules link is in the page's colours, not the browser's default blue.
        open_settings(page)
        assert page.locator("#opt-spec-hint a").evaluate("a => getComputedStyle(a).color") != "rgb(0, 0, 238)"
        # Two seats leave one choice of people: no field for it; three seats, a choice.
        assert page.locator("#opt-humans").is_hidden()
        open_settings(page, players=3)
        assert page.locator("#opt-humans").is_visible()
        # Every number is written one way: "8,344 cards".
        written = page.evaluate("import('./static/js/dom.js').then(m => m.plural(8344, 'card'))")
        assert written == "8,344 cards"
        assert axe(page) == []


def test_the_replay_is_drawn_on_the_tables_board(server: str, page: Any) -> None:
    page.goto(f"{server}/r/famous-0")
    page.wait_for_selector("#replay:not([hidden]) #replay-seats .seat")
    page.click("#replay-next-trick")
    at_table_like = page.locator("#replay-seats .seat .owed-place, #replay-seats .seat .owed").count()
    assert at_table_like == 2  # each seat keeps the owed marks' place, as the table's do


def test_on_a_laptop_a_lesson_and_a_friend_table_waiting_keep_their_controls_in_view(
    server: str, browser: Any
) -> None:
    with opened(browser, LAPTOP) as page:
        page.goto(f"{server}/#lessons")
        page.click("text=Start lesson 1")
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_function("document.querySelector('#lesson-note').textContent.length > 0")
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(_BOX, "#turn")[3] <= 800
        assert page.evaluate(_BOX, "#lesson-note")[3] <= 800
        friend_table(page, server)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(_BOX, "#table .controls")[3] <= 800
