"""The end of a game in Debian's Chromium: the end dialog's headline, facts, chart and choices at a
desktop's and a phone's size, Play again, and a friend asking for a new game."""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers import (
    PHONE,
    PHONE_SCREEN,
    SHORT_SEED,
    at_table,
    axe,
    cards_turned,
    next_card,
    open_settings,
    opened,
    seat_a_friend,
    shared_facts,
    watch_to_the_end,
)


@pytest.mark.parametrize("pace", ["fast", "instant"])
def test_play_again_after_watching_gives_the_cards_back(server: str, browser: Any, pace: str) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace=pace)
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.click("#auto")
        page.wait_for_selector("#end[open]")
        page.click("#end-close")
        assert page.locator("#auto").is_hidden()  # nothing is left to turn: Play again gives the cards back
        page.click("#play-again")
        page.wait_for_selector("#turn:not([hidden])")
        page.wait_for_timeout(1500)
        assert page.locator("#auto").get_attribute("aria-pressed") == "false"
        assert not page.locator("#end").evaluate("el => el.open")
        assert cards_turned(page) <= 1  # at most the computer's lead: the rest waits for the person


@pytest.mark.parametrize("how", ["play-computer", "watch-game"])
def test_a_finished_watched_game_offers_no_stop_watching(server: str, browser: Any, how: str) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click(f"#{how}")
        at_table(page)
        if how == "play-computer":
            page.click("#auto")  # "Watch both players": the game waits for it to end
        page.wait_for_selector("#end[open]")
        page.click("#end-close")
        page.wait_for_selector("#play-again:visible")
        shown = page.locator("#table button:visible").all_inner_texts()
        assert "Stop watching" not in shown and "Play again" in shown, shown


@pytest.mark.parametrize("players", ["4", "8"])
def test_the_end_dialog_opens_at_its_headline_on_a_phone(server: str, browser: Any, players: str) -> None:
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, players=players, pace="instant", spec="max-cards=300")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        assert page.locator("#end").evaluate("el => el.scrollTop") == 0
        assert page.evaluate("document.activeElement.id") == "end-title"
        box = page.locator("#end-title").bounding_box()
        assert box is not None and 0 <= box["y"] < PHONE_SCREEN["height"] / 2


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_the_end_dialog_s_headline_starts_at_its_top(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        page.goto(server)
        open_settings(page, pace="instant", spec="max-cards=300")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        room = page.evaluate(
            """() => {
              const dialog = document.querySelector('#end'), title = document.querySelector('#end-title');
              const inner = dialog.getBoundingClientRect().top + dialog.clientTop
                + parseFloat(getComputedStyle(dialog).paddingTop);
              return title.getBoundingClientRect().top - inner;
            }"""
        )
        assert abs(room) < 1, room  # no empty band above the headline, only the dialog's padding


def test_the_end_dialog_s_way_back_to_the_table_is_in_view_on_a_phone(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, players="4", pace="instant", spec="max-cards=300")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        box = page.locator("#end-close").bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE_SCREEN["height"]
        assert page.locator("#end").evaluate("el => el.scrollHeight > el.clientHeight")  # a long dialog
        page.locator("#end-close").click(trial=True, no_wait_after=True)  # nothing covers it


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_winner_of_a_game_is_marked_calmly(server: str, browser: Any, motion: str) -> None:
    with opened(browser, reduced_motion=motion) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        winner = page.locator(".seat.won")
        assert winner.count() == 1
        animation = winner.evaluate("el => getComputedStyle(el).animationName")
        assert animation == ("none" if motion == "reduce" else "won")


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_the_end_says_who_won_once_from_your_seat_and_its_choices_are_one_size(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.wait_for_selector("#end-replay:not([hidden])")
        headline = page.inner_text("#end-title")
        assert re.fullmatch(r"You (won: you|lost: Robin) took all 52 cards\.", headline), headline
        said = page.inner_text("#end-sentence") + page.inner_text("#end-facts")
        assert "52" not in said and "win" not in said, said
        heights = {
            round(box["height"])
            for box in (page.locator(f"#end-{c}").bounding_box() for c in ("again", "replay", "close"))
            if box
        }
        assert len(heights) == 1, heights
        page.goto(f"{server}/#famous")
        first = page.locator("#famous-list li").first
        watch, replay = (
            first.locator("button", has_text="Watch").bounding_box(),
            first.locator("a", has_text="Replay").bounding_box(),
        )
        assert watch is not None and replay is not None
        assert (watch["y"], watch["height"]) == (replay["y"], replay["height"])


NUMBERS = "nodes => nodes.map((node) => node.innerText.match(/\\d+/g).map(Number))"
"""The numbers each node of a list says ("Ann: 30" gives [30])."""


def test_the_chart_s_legend_gives_the_hands_the_game_ended_with(server: str, browser: Any) -> None:
    with opened(browser) as page:
        # Deal 2 stops at the card limit with cards still on the pile: the result leaves them out.
        watch_to_the_end(page, server, seed=2, pace="instant", spec="max-cards=60")
        terms = page.locator("#end-facts dt").all_inner_texts()
        held = [int(n) for n in re.findall(r"\d+", shared_facts(page)[terms.index("Cards held")])]
        assert sum(held) < 52, held  # some on the pile
        page.wait_for_selector("#end-chart-box:not([hidden]) #end-chart-legend li")
        assert [n for [n] in page.locator("#end-chart-legend li").evaluate_all(NUMBERS)] == held
        assert str(page.get_attribute("#end-chart", "aria-label")).endswith(", and at the end")
        page.keyboard.press("Escape")
        page.wait_for_selector("#chart-box:not([hidden]) #chart-legend li")
        assert [n for [n] in page.locator("#chart-legend li").evaluate_all(NUMBERS)] == held
        assert page.inner_text("#chart-caption").endswith(", and at the end")
        page.wait_for_selector("#end-replay:not([hidden])", state="attached")
        page.goto(str(page.get_attribute("#end-replay", "href")))
        page.wait_for_selector("#replay:not([hidden]) #replay-legend li")
        page.click("#replay-end")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 60 ')")
        assert [n for [n] in page.locator("#replay-legend li").evaluate_all(NUMBERS)] == held


@pytest.mark.parametrize("how", ["Escape", "#end-close"])
def test_closing_the_end_window_leaves_the_focus_on_play_again_and_enter_there_on_the_table(
    server: str, browser: Any, how: str
) -> None:
    with opened(browser) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.wait_for_function("document.activeElement.id === 'end-title'")
        if how == "Escape":
            page.keyboard.press("Escape")
        else:
            page.focus(how)
            page.keyboard.press("Enter")  # the keyboard's way to "Look at the table"
        page.wait_for_selector("#end:not([open])", state="attached")
        page.wait_for_function("document.activeElement.id === 'play-again'")
        cards = cards_turned(page)
        page.keyboard.press("Enter")
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) < {cards}")
        page.wait_for_selector("#play-again", state="hidden")
        # Play again hides as the new game starts: the focus goes to the table, not to the page,
        # so that Space turns a card at once.
        page.wait_for_selector("#turn:enabled")
        assert page.evaluate("document.activeElement.id") == "table"
        next_card(page, cards_turned(page), read="#pile-count")


def test_the_end_dialog_says_that_a_friend_asks_to_play_again(server: str, browser: Any) -> None:
    with opened(browser, PHONE_SCREEN) as host, opened(browser, PHONE_SCREEN, color_scheme="dark") as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="instant")
        host.click("#auto")
        guest.click("#auto")
        host.wait_for_selector("#end[open]")
        guest.wait_for_selector("#end[open]")
        host.click("#end-again")
        guest.wait_for_function(
            "document.querySelector('#end-notice').innerText.includes('Ann asks for a new game')"
        )
        # In view on a phone too, not under the dialog's choices that stay at its foot.
        on_top = """() => {
          const box = document.querySelector('#end-notice').getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return box.height > 0 && box.bottom <= innerHeight && top && top.id === 'end-notice';
        }"""
        assert guest.evaluate(on_top)
        assert guest.locator("#end-no").is_visible()
        assert axe(guest) == []
        guest.click("#end-no")
        host.wait_for_function("!document.querySelector('#notice').innerText.includes('Waiting for')")
        said = "Bea says no to a new game for now."
        host.wait_for_function(f"document.querySelector('#notice').innerText === '{said}'")
        guest.wait_for_function("document.querySelector('#end-notice').hidden")
