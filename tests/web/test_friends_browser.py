"""A friend table in Debian's Chromium: a friend arriving by the link (known by name or asked one),
a friend away and the offers about them, someone watching, and how each person is called."""

from __future__ import annotations

from typing import Any

import pytest

import beggar.web.table
from helpers import (
    PHONE,
    PHONE_SCREEN,
    SHORT_SEED,
    at_table,
    axe,
    board_places,
    cards_turned,
    friend_table,
    in_view_over_nothing,
    open_settings,
    opened,
    play_the_computer,
    seat_a_friend,
)


def test_a_friend_who_goes_is_told_of_and_the_offers_about_them_move_nothing(
    server: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One friend table watched through a friend's going away. Its host, without a name, is asked
    for one with Turn still in view, and their first card folds the question away. The friend
    arriving by the link is asked for a name before sitting down. When the friend closes the tab
    while it is their turn, the host is told who went (in the seats, the notice with its grace, the
    log), the prompt says so to the host and to a spectator alike, and the offers come in the page's
    flow under the controls: whole, in view, over nothing, clear of the window's foot, and the board
    does not move. The host may still take a name ("Rename"), and may let the computer play for
    the friend, which ends the offers. No accessibility violation while the friend is asked for a
    name (on a phone), nor around the offers (in dark mode)."""
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 1.0)
    found: dict[str, list[str]] = {}
    with (
        opened(browser, color_scheme="dark") as host,
        opened(browser, PHONE_SCREEN, is_mobile=True) as guest,
        opened(browser) as spectator,
    ):
        link = friend_table(host, server, seed=SHORT_SEED, pace="fast")
        assert host.locator("#name-ask").is_visible()  # "Player 1" is asked for a name before the game
        turn = host.locator("#turn").bounding_box()
        assert turn is not None and turn["y"] + turn["height"] <= 800 - 16, turn
        guest.goto(link)
        guest.wait_for_selector("#name-ask:not([hidden])")
        found["asked for a name"] = axe(guest, impacts=None)
        guest.fill("#sit-name", "Bea")  # the friend sits down once named
        guest.click("#sit-name-save")
        host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting to join')")
        # The host leads: their first card folds the name question away; they turn until it is
        # Bea's turn.
        host.wait_for_selector("#turn:enabled")
        host.keyboard.press("Space")
        host.wait_for_selector("#name-ask", state="hidden")
        assert host.locator("#rename").is_visible()
        for _ in range(30):
            host.wait_for_selector(".seat.to-play")
            if not host.locator(".seat.to-play.you").count():
                break
            host.wait_for_selector("#turn:enabled")
            cards = cards_turned(host)
            host.keyboard.press("Space")
            host.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {cards}")
        spectator.goto(link)
        at_table(spectator)
        places = board_places(host)
        guest.close()  # the page says it goes: not a lost connection
        host.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (away)')")
        assert (
            "Bea went to another page; you may go on without them once they have been away 1 s"
            in host.inner_text("#notice")
        )
        assert "Bea went to another page." in host.inner_text("#log")
        for page in (host, spectator):  # a player and a spectator are told alike
            page.wait_for_function(
                "document.querySelector('#prompt').innerText.endsWith(' — Bea went to another page.')"
            )
        host.wait_for_selector("#offers:not([hidden])")
        host.wait_for_timeout(200)
        assert board_places(host) == places
        # Whole, over nothing, and clear of the window's foot (what follows them moves down instead).
        for news in ("#offers", "#notice"):
            assert in_view_over_nothing(host, news) == [], news
            bottom = host.evaluate(f"document.querySelector('{news}').getBoundingClientRect().bottom")
            assert bottom <= 780, news
        for button in host.locator("#offers button").all():
            box = button.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, box
        assert host.locator("text=New game without Bea").is_visible()
        found["offers"] = axe(host, impacts=None)
        host.click("#rename")
        assert host.locator("#name-ask").is_visible()
        assert host.evaluate("document.activeElement.id") == "sit-name"
        host.fill("#sit-name", "Ann")
        host.click("#sit-name-save")
        host.wait_for_selector("#name-ask", state="hidden")
        host.wait_for_function("document.querySelector('.seat.you').innerText.includes('Ann')")
        assert host.locator("#rename").is_hidden()
        host.click("text=Let the computer play for Bea")
        host.wait_for_function("document.querySelector('#seats').innerText.includes('(computer playing)')")
        assert host.locator("#offers").is_hidden()
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_a_friend_who_presses_back_keeps_the_seat_and_the_way_back(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser) as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="slow")
        guest.wait_for_selector("#table:not([hidden]) #seats .seat")
        host.go_back()  # by mistake, or to look at the home page
        host.wait_for_selector("#home:not([hidden])")
        host.wait_for_selector("#current-game:not([hidden])")
        assert host.inner_text("#current-link").startswith("Back to your game: ")
        # The friend is told what happened, with its grace: not of someone who left, nor of a lost line.
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Ann (away)')")
        assert guest.inner_text("#notice").startswith("Ann went to another page; you may go on without them")
        assert guest.locator("#offers").is_hidden()
        host.reload()  # the way back outlives a reload of the home page
        host.click("#current-link")
        at_table(host)
        host.wait_for_function("document.querySelector('.seat.you .name').innerText.startsWith('Ann')")
        guest.wait_for_function("!document.querySelector('#seats').innerText.includes('(away)')")
        assert "Ann came back." in guest.inner_text("#log")
        host.wait_for_function("document.querySelector('#log').innerText.includes('You came back.')")
        assert "lost the connection" not in host.inner_text("#log") + guest.inner_text("#log")


def test_a_friend_without_a_name_is_asked_it_before_sitting_down(server: str, browser: Any) -> None:
    """A friend opening the link in a browser that knows no name is asked for one, and sits down
    (the host sees them) only once they have given it; after a reload they are not asked again."""
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, name="Ann", players="2", seed=SHORT_SEED)
        guest.goto(link)
        guest.wait_for_selector("#name-ask:not([hidden])")
        guest.wait_for_timeout(800)
        assert "waiting to join" in host.inner_text("#seats")  # nobody sat down yet
        assert guest.locator("#turn").is_hidden()
        guest.fill("#sit-name", "Bea")
        guest.click("#sit-name-save")
        host.wait_for_function("document.querySelector('#seats').innerText.includes('Bea')")
        guest.wait_for_selector("#name-ask", state="hidden")
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (you)')")
        assert "Player 2" not in guest.inner_text("#table") + host.inner_text("#table")
        guest.reload()  # known now: no question again
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (you)')")
        assert guest.locator("#name-ask").is_hidden()


def test_a_friend_table_waiting_for_its_friend_says_so_under_the_pile(server: str, browser: Any) -> None:
    with opened(browser) as host:
        friend_table(host, server, name="Ann", players="2", seed=SHORT_SEED)
        assert host.inner_text("#prompt") == "Waiting for a friend to join."
        assert host.inner_text("#pile") == "Pile empty — waiting for a friend"
        assert host.inner_text(".seat[data-seat='1'] .name") == "A friend (waiting to join)"
        turn = host.locator("#turn").bounding_box()
        assert turn is not None and turn["y"] + turn["height"] <= 800


def _slack(page: Any, selector: str) -> float:
    """How much wider the button is than its shown words."""
    return page.evaluate(
        """selector => {
          const button = document.querySelector(selector), range = document.createRange();
          const shown = [...button.querySelectorAll('span')].find(span => !span.classList.contains('off'));
          range.selectNodeContents(shown || button);
          return button.getBoundingClientRect().width - range.getBoundingClientRect().width;
        }""",
        selector,
    )


def test_a_player_without_a_name_is_you_on_their_own_page_and_the_new_game_button_stays_snug(
    server: str, browser: Any
) -> None:
    """A person without a name is "You" on their own page, against the computer or at a friend
    table, and never "Player 1"; to the others they are called by their place at the table. A friend
    whose name the browser knows sits down at once, unasked. At that friend table, the new game
    button is as snug around its words as its neighbours before and after asking, and asking moves
    nothing on the board."""
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="slow")
        page.wait_for_function("document.querySelector('#table-title').innerText !== ''")
        assert page.inner_text("#table-title") == "You against Robin"
        assert page.title() == "You against Robin — Beggar-My-Neighbour"
        assert page.inner_text(".seat.you .name") == "You"
        assert "Player 1" not in page.inner_text("#table")
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, players="2", seed=SHORT_SEED)
        assert host.inner_text("#table-title") == "Friend table: You and a friend"
        assert "Player 2" not in host.inner_text("#table")
        assert host.inner_text(".seat.you .name") == "You"
        assert "Player 1" not in host.inner_text("#table")
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        guest.wait_for_function("document.querySelector('#table-title').innerText.includes('Bea')")
        # To the others, a person without a name is called by their place at the table.
        assert guest.inner_text("#table-title") == "Friend table: Player 1 and Bea"
        assert "Bea (you)" in guest.inner_text(".seat.you")
        assert guest.locator("#name-ask").is_hidden()  # known by name: seated at once, unasked
        host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting for a friend')")
        host.wait_for_selector("#again:enabled")
        places = board_places(host)
        assert abs(_slack(host, "#again") - _slack(host, "#pause")) < 1
        host.click("#again")
        host.wait_for_selector("#again:disabled")
        host.wait_for_function("document.querySelector('#notice').innerText.includes('Waiting for Bea')")
        assert abs(_slack(host, "#again") - _slack(host, "#pause")) < 1
        assert board_places(host) == places
        guest.click("#new-game-no")
        host.wait_for_selector("#again:enabled")
        assert abs(_slack(host, "#again") - _slack(host, "#pause")) < 1
        assert board_places(host) == places


def test_someone_opening_the_link_of_a_full_table_watches_and_stops_watching_instead_of_leaving(
    server: str, browser: Any
) -> None:
    """Someone opening the link of a full table, in a browser that knows no name, watches at once,
    unasked. Their Leave says "Stop watching" (a player's says "Leave table"): on a phone it lies in
    the row of controls (no Turn, no Pause: no "More" to open first), in view, the page no wider
    than the screen and passing the accessibility audit in light and dark mode; on a tablet too.
    Stopping watching leads home."""
    with opened(browser) as host, opened(browser) as guest:
        link = seat_a_friend(host, guest, server, name="Ann", players="2", seed=SHORT_SEED)
        with opened(browser, **PHONE) as spectator:
            spectator.goto(link)  # a browser that knows no name
            spectator.wait_for_selector("#watching:not([hidden])")
            at_table(spectator)
            title = "document.querySelector('#table-title').innerText"
            spectator.wait_for_function(f"{title} === 'Friend table: Ann and Bea'")
            assert spectator.locator("#name-ask").is_hidden()
            assert "name" not in spectator.inner_text("#prompt")
            assert "Ann sits down." in spectator.inner_text("#log")
            spectator.wait_for_function("document.querySelector('#leave').innerText === 'Stop watching'")
            assert "Leave table" not in spectator.inner_text("#table")
            assert host.inner_text("#leave") == "Leave table"
            # No Turn and no Pause: the row has room for it, without a "More" to open first.
            assert spectator.locator("#leave").is_visible() and spectator.locator("#more").is_hidden()
            row = spectator.locator("#table .controls").bounding_box()
            leave = spectator.locator("#leave").bounding_box()
            assert row is not None and leave is not None
            assert row["y"] <= leave["y"] and leave["y"] + leave["height"] <= min(
                row["y"] + row["height"], PHONE_SCREEN["height"]
            )
            assert spectator.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
            for scheme in ("light", "dark"):
                spectator.emulate_media(color_scheme=scheme)
                assert axe(spectator, impacts=None) == [], scheme
            spectator.tap("#leave")
            spectator.wait_for_selector("#home:not([hidden])")
        with opened(browser, {"width": 768, "height": 1024}) as spectator:
            spectator.goto(link)
            spectator.wait_for_selector("#watching:not([hidden])")
            at_table(spectator)
            spectator.wait_for_function("document.querySelector('#leave').innerText === 'Stop watching'")
            assert "Leave table" not in spectator.inner_text("#table")
            spectator.click("#leave")
            spectator.wait_for_selector("#home:not([hidden])")


def test_a_seated_friend_may_pass_the_link_on_and_no_seat_is_marked_to_play_until_everyone_is_here(
    server: str, browser: Any
) -> None:
    """A table for three people and a computer: while anyone is awaited no seat is marked to play,
    and every seated person (on a phone too) sees the link, to pass it on to whoever is still to
    come; once everyone is here, the lead is marked."""
    with opened(browser, **PHONE) as host, opened(browser, PHONE_SCREEN) as guest, opened(browser) as third:
        link = friend_table(host, server, name="Ann", players="4", humans="3", seed=SHORT_SEED)
        at_table(host)
        host.wait_for_function("document.querySelector('#prompt').innerText.includes('Waiting for')")
        assert host.locator(".seat.to-play").count() == 0
        alone = "Send this link to your friends; the game starts when everyone is here."
        assert host.inner_text("#share-text") == alone
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        at_table(guest)
        # Every seated person sees the link while someone is awaited: any of them may pass it on.
        words = "Send this link to the friend still to come; the game starts when they arrive."
        for page in (host, guest):
            page.wait_for_function(f"document.querySelector('#share-text').innerText === {words!r}")
            assert page.locator("#share").is_visible()
            assert page.input_value("#share-link") == link
        assert host.locator(".seat.to-play").count() == 0
        third.goto(server)
        open_settings(third, name="Cy")
        third.goto(link)
        host.wait_for_selector(".seat.to-play")  # the lead, once everyone is here


def test_a_friend_arriving_by_the_link_is_told_whose_table_it_is(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser, PHONE_SCREEN, color_scheme="dark") as guest:
        link = friend_table(host, server, name="Ann", players="3", humans="2", seed=SHORT_SEED)
        guest.goto(link)
        guest.wait_for_selector("#name-ask:not([hidden])")
        guest.wait_for_function("document.querySelector('#table-title').innerText === \"Ann's table\"")
        assert guest.inner_text("#rules-line") == (
            "Ann invites you to a game of Beggar-My-Neighbour: Ann, you and Robin (computer)."
        )
        for hidden in ("#seats", "#more", "#log", ".log-head"):  # nothing to show before sitting
            assert guest.locator(hidden).is_hidden(), hidden
        guest.fill("#sit-name", "Bea")
        guest.click("#sit-name-save")
        guest.wait_for_selector("#seats .seat")
        assert guest.locator("#log").is_visible() and guest.locator("#more").is_visible()
