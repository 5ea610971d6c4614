"""The browser table, driven in Debian's Chromium by Playwright, as a person would use it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers import (
    PHONE,
    PHONE_SCREEN,
    SHORT_CARDS,
    SHORT_SEED,
    at_table,
    friend_table,
    next_card,
    open_settings,
    opened,
    play_my_cards_until_the_end,
    shared_facts,
)

pytestmark = pytest.mark.browser


def test_a_full_game_against_the_computer_at_instant_pace(server: str, page: Any) -> None:
    page.goto(server)
    open_settings(page, pace="instant", seed=SHORT_SEED)
    page.click("#play-computer")
    at_table(page)
    assert page.inner_text("#seats").count("(computer)") == 1
    play_my_cards_until_the_end(page)
    assert page.inner_text("#end-facts").startswith(f"Cards turned\n{SHORT_CARDS}")
    headline = page.inner_text("#end-title")
    assert re.fullmatch(r"You (won: you|lost: \w+) took all 52 cards\.", headline), headline  # the server's
    hands = page.locator("#end-deal .hand")
    assert hands.count() == 2  # one line per hand, each card unbroken
    assert [hand.locator(".deal-card").count() for hand in hands.all()] == [26, 26]


CLICK_TURN = """(upTo) => {
  // A click from the page itself, whenever it is asked for: a Turn disabled meanwhile (the other's
  // turn, a pile being swept) ignores it, where a pointer click would wait for it.
  const clicking = setInterval(() => {
    const cards = parseInt(document.querySelector('#counts').innerText.replace(/,/g, ''));
    if (document.querySelector('#end').open || (upTo !== null && cards >= upTo)) clearInterval(clicking);
    else document.querySelector('#turn').click();
  }, 30);
}"""
"""Press Turn every 30 ms until the end dialog opens, or until ``upTo`` cards are turned (on this
document: a reload stops it too)."""


def test_two_friends_play_to_the_end_and_one_reloads_midway(server: str, browser: Any) -> None:
    """Two friends turn their cards to the end at instant pace, the friend reloading the page once
    15 cards are turned (back in their seat, with the cards turned so far): both see the same facts,
    and the result said from each seat."""
    with opened(browser) as host, opened(browser) as guest:
        guest.goto(friend_table(host, server, seed=SHORT_SEED, name="Ann", pace="instant"))
        guest.wait_for_selector("#table:not([hidden])")
        guest.fill("#sit-name", "Bea")  # asked before sitting down
        guest.click("#sit-name-save")
        host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting to join')")
        host.evaluate(CLICK_TURN, None)
        guest.evaluate(CLICK_TURN, 15)  # the friend stops midway, to reload the page
        guest.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 15")
        cards = int(host.inner_text("#counts").split()[0])
        guest.reload()
        guest.wait_for_selector("#table:not([hidden])")
        guest.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) >= {cards}")
        assert "(you)" in guest.inner_text(".seat[data-seat='1']")
        guest.evaluate(CLICK_TURN, None)
        for each in (host, guest):
            each.wait_for_selector("#end[open]")
        # The same facts, but the result is said from each seat.
        assert shared_facts(host) == shared_facts(guest)
        assert host.inner_text("#end-title") == "You lost: Bea took all 52 cards."
        assert guest.inner_text("#end-title") == "You won: you took all 52 cards."


def test_pause_and_resume_by_hand_or_for_another_tab(server: str, page: Any) -> None:
    """A watched game: Pause stops it (one Resume, in Turn's place, no wider than the banner) and
    Resume lets it go on; switching to another tab pauses it too, saying why, and Resume again."""
    page.goto(server)
    open_settings(page, pace="fast")
    page.click("#watch-game")
    page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 3")
    page.click("#pause")
    page.wait_for_function("document.querySelector('#prompt').innerText === 'Paused.'")
    frozen = page.inner_text("#counts")
    page.wait_for_timeout(1200)
    assert page.inner_text("#counts") == frozen
    # One Resume, in the Turn button's place.
    assert page.locator("#table button:visible", has_text="Resume").count() == 1
    banner, resume = page.locator("#paused-banner").bounding_box(), page.locator("#resume-big").bounding_box()
    assert banner is not None and resume is not None and banner["width"] <= resume["width"] + 1
    page.click("#resume-big")
    page.wait_for_function(f"document.querySelector('#counts').innerText !== {frozen!r}")
    page.wait_for_selector("#paused-banner", state="hidden")
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    # The table says why it paused, with a prominent Resume.
    page.wait_for_selector("#paused-banner:not([hidden])")
    assert page.inner_text("#prompt") == "Paused because you switched to another tab."
    assert page.locator("#resume-big").is_visible()
    page.click("#resume-big")
    page.wait_for_selector("#paused-banner", state="hidden")


def test_lesson_three_from_start_to_finish(server: str, page: Any) -> None:
    page.goto(f"{server}/#lessons")
    page.click("text=Start lesson 3")
    at_table(page)
    assert page.inner_text("#table-title") == "Lesson 3: Paying with a pay card"
    assert len(page.locator(".open-stack .card").all()) == 11
    notes = []
    cards = 0
    for _ in range(10):
        cards, note = next_card(page, cards)
        notes.append(note)
    page.wait_for_selector("#end[open]")
    assert notes[0] == "The queen is a pay card: B must now turn two cards."
    assert "Only the latest pay card counts" in notes[6]
    assert "B takes the 10 cards of the pile" in page.inner_text("#log")
    assert page.inner_text("#end-title") == "B won, with all 11 cards."


def test_a_famous_game_is_watched_with_a_chart_of_both_stacks(server: str, page: Any) -> None:
    page.goto(f"{server}/#famous")
    page.click("button[aria-label='Watch Casella et al. 2024']")
    page.wait_for_selector("#table:not([hidden])")
    page.select_option("#pace", "instant")
    page.wait_for_selector("#end[open]", timeout=60_000)
    assert "this position was already seen after card 34 (trick 4)" in page.inner_text("#end-sentence")
    page.click("#end-close")
    assert page.locator("#chart polyline").count() == 2
    assert "66 tricks" in page.inner_text("#chart-caption")
    # Where the cycle starts and one period are marked, as in the replay.
    assert page.locator("#chart .cycle-start").count() == 1
    assert "starts after trick 4 (card 34), repeats every 62 tricks (440 cards)" in page.inner_text(
        "#chart-legend"
    )


def test_the_table_fits_a_phone_screen(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        page.goto(server)
        page.tap("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE_SCREEN["width"]
        turn = page.locator("#turn").bounding_box()
        assert turn is not None and turn["width"] >= 300
        page.tap("#turn")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")


def test_every_card_is_narrated_for_screen_readers(server: str, page: Any) -> None:
    page.goto(server)
    open_settings(page, seed=SHORT_SEED)
    page.click("#play-computer")
    page.wait_for_selector("#table:not([hidden])")
    # Enter turns a card once the game's state is drawn (the table shows at "joined", before it)
    page.wait_for_selector("#turn:enabled")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#narration').innerText.includes('turns')")
    assert page.get_attribute("#narration", "aria-live") == "polite"
    assert page.locator(".pile .card").first.get_attribute("aria-label")


def test_any_house_rule_can_be_chosen_and_a_bad_one_is_explained(server: str, page: Any) -> None:
    page.goto(server)
    open_settings(page, rules="double-penalty", spec="max-cards=20:on-stop=most-cards", pace="instant")
    page.click("#watch-game")
    page.wait_for_selector("#end[open]")
    assert "Stopped by the card limit after 20 cards" in page.inner_text("#end-sentence")
    assert "a jack pays 2, a queen 4, a king 6, an ace 8" in page.inner_text("#rules-line")
    page.goto(server)
    open_settings(page, spec="players=12")
    page.click("#play-computer")
    page.wait_for_selector("#opt-error:not([hidden])")
    assert "players=12" in page.inner_text("#opt-error")
