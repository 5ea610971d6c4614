"""The end of a game in Debian's Chromium: the end dialog's headline, facts, chart and choices at a
desktop's and a phone's size, Play again, and a friend asking for a new game.

Where checks differ only by the window's size or a media feature, one page is resized
(``set_viewport_size``) or switched (``emulate_media``) between them; where they differ by the game,
one page plays one game after another, rather than a new page opened for each."""

from __future__ import annotations

import re
from typing import Any

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

DESKTOP = {"width": 1280, "height": 800}


def _resized(page: Any, size: dict[str, int]) -> None:
    """Give ``page`` the window ``size`` and wait two frames, for what watches for a resize."""
    page.set_viewport_size(size)
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


OVER_AT_ONCE = "J" + "-" * 35 + "JJJQQQQKKKKAAAA/-"
"""A deal over at its second card: your jack, which the computer's only card cannot pay."""


def test_play_again_after_watching_gives_the_cards_back(server: str, browser: Any) -> None:
    """At fast pace and at instant pace (one game watched to its end at each, on one page): once
    the end is closed nothing is left to turn, and Play again gives the person their cards back
    (the computer turns at most its lead; the rest waits for them)."""
    with opened(browser) as page:
        for pace in ("fast", "instant"):
            page.goto(server)
            open_settings(page, deal=OVER_AT_ONCE, pace=pace)
            page.click("#play-computer")
            page.wait_for_selector("#table:not([hidden])")
            page.click("#auto")
            page.wait_for_selector("#end[open]")
            page.click("#end-close")
            assert page.locator("#auto").is_hidden(), pace  # nothing is left to turn
            page.click("#play-again")
            page.wait_for_selector("#turn:not([hidden])")
            page.wait_for_timeout(1500)
            assert page.locator("#auto").get_attribute("aria-pressed") == "false", pace
            assert not page.locator("#end").evaluate("el => el.open"), pace
            assert cards_turned(page) <= 1, pace  # at most the computer's lead: the rest waits for the person


def test_a_finished_watched_game_marks_its_winner_calmly_and_offers_no_stop_watching(
    server: str, browser: Any
) -> None:
    """A game watched from the start and one whose person watched both players (one page, one
    after the other), each to its end: the winner's seat is marked, with a moment's animation or,
    where the person asks for reduced motion, none; and the table offers Play again, not Stop
    watching."""
    with opened(browser) as page:
        for how in ("watch-game", "play-computer"):
            page.goto(server)
            open_settings(page, seed=SHORT_SEED, pace="instant")
            page.click(f"#{how}")
            at_table(page)
            if how == "play-computer":
                page.click("#auto")  # "Watch both players": the game waits for it to end
            page.wait_for_selector("#end[open]")
            if how == "watch-game":
                winner = page.locator(".seat.won")
                assert winner.count() == 1
                for motion in ("no-preference", "reduce"):
                    page.emulate_media(reduced_motion=motion)
                    animation = winner.evaluate("el => getComputedStyle(el).animationName")
                    assert animation == ("none" if motion == "reduce" else "won"), motion
                page.emulate_media(reduced_motion="no-preference")
            page.click("#end-close")
            page.wait_for_selector("#play-again:visible")
            shown = page.locator("#table button:visible").all_inner_texts()
            assert "Stop watching" not in shown and "Play again" in shown, (how, shown)


def test_on_a_phone_the_end_dialog_opens_at_its_headline_with_its_way_back_in_view(
    server: str, browser: Any
) -> None:
    """On a phone, at four seats and at eight (one page, a game watched to its end at each): the
    end dialog opens at its top, its headline focused and in the upper half of the screen; at four
    seats the dialog is long, and its way back to the table is in view, uncovered."""
    with opened(browser, **PHONE) as page:
        for players in ("4", "8"):
            page.goto(server)
            open_settings(page, players=players, pace="instant", spec="max-cards=300")
            page.click("#watch-game")
            page.wait_for_selector("#end[open]")
            assert page.locator("#end").evaluate("el => el.scrollTop") == 0, players
            assert page.evaluate("document.activeElement.id") == "end-title", players
            box = page.locator("#end-title").bounding_box()
            assert box is not None and 0 <= box["y"] < PHONE_SCREEN["height"] / 2, players
            if players == "4":
                box = page.locator("#end-close").bounding_box()
                assert box is not None and box["y"] + box["height"] <= PHONE_SCREEN["height"]
                assert page.locator("#end").evaluate(
                    "el => el.scrollHeight > el.clientHeight"
                )  # a long dialog
                page.locator("#end-close").click(trial=True, no_wait_after=True)  # nothing covers it


def test_the_end_dialog_s_headline_starts_at_its_top(server: str, browser: Any) -> None:
    """At a desktop's size and at a phone's (one game's end, its page resized): no empty band lies
    above the end dialog's headline, only the dialog's padding."""
    with opened(browser, DESKTOP) as page:
        page.goto(server)
        open_settings(page, pace="instant", spec="max-cards=300")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        for size in (DESKTOP, PHONE_SCREEN):
            _resized(page, size)
            room = page.evaluate(
                """() => {
                  const dialog = document.querySelector('#end'), title = document.querySelector('#end-title');
                  const inner = dialog.getBoundingClientRect().top + dialog.clientTop
                    + parseFloat(getComputedStyle(dialog).paddingTop);
                  return title.getBoundingClientRect().top - inner;
                }"""
            )
            assert abs(room) < 1, (size, room)  # no empty band above the headline, only the padding


def test_the_end_says_who_won_once_from_your_seat_and_its_choices_are_one_size(
    server: str, browser: Any
) -> None:
    """At a desktop's size and at a phone's (one game's end, its page resized, and then the famous
    games, resized back): the headline says who won from this person's seat, and the rest does not
    say it again; the end's three choices are one height, and so are a famous game's Watch and
    Replay, side by side."""
    sizes = (DESKTOP, PHONE_SCREEN)
    with opened(browser, DESKTOP) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.wait_for_selector("#end-replay:not([hidden])")
        for size in sizes:
            _resized(page, size)
            headline = page.inner_text("#end-title")
            assert re.fullmatch(r"You (won: you|lost: Robin) took all 52 cards\.", headline), headline
            said = page.inner_text("#end-sentence") + page.inner_text("#end-facts")
            assert "52" not in said and "win" not in said, said
            heights = {
                round(box["height"])
                for box in (page.locator(f"#end-{c}").bounding_box() for c in ("again", "replay", "close"))
                if box
            }
            assert len(heights) == 1, (size, heights)
        page.goto(f"{server}/#famous")
        for size in reversed(sizes):
            _resized(page, size)
            first = page.locator("#famous-list li").first
            watch, replay = (
                first.locator("button", has_text="Watch").bounding_box(),
                first.locator("a", has_text="Replay").bounding_box(),
            )
            assert watch is not None and replay is not None
            assert (watch["y"], watch["height"]) == (replay["y"], replay["height"]), size


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


def test_closing_the_end_window_leaves_the_focus_on_play_again_and_enter_there_on_the_table(
    server: str, browser: Any
) -> None:
    """Closed by Escape or by the keyboard on "Look at the table" (one page, a game watched to its
    end for each): the focus is on Play again, and Enter there starts a new game with the focus on
    the table, so that Space turns a card at once."""
    with opened(browser) as page:
        for how in ("Escape", "#end-close"):
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
            assert page.evaluate("document.activeElement.id") == "table", how
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
