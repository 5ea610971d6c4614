"""What a review of the table in Chromium (a laptop, a tablet and a phone, light and dark) found,
each held by a test: the pile's caption stays readable while a card flies over it, and the
landing page loads nothing that only the table uses. Driven in Debian's Chromium, as a person
would use it."""

from __future__ import annotations

import json
from typing import Any

import pytest
import websockets.sync.client

from beggar.records import NEVER_ENDING
from helpers import SHORT_SEED, at_table, axe, open_settings, opened, play_the_computer, seat_a_friend

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}

_HOLD_FLIGHTS = """() => {
  // Every card's flight to the pile is held where it starts, so that the test can look at any
  // moment of it (a flight lasts a fraction of a second).
  const animate = Element.prototype.animate;
  window.flights = [];
  Element.prototype.animate = function (...args) {
    const flight = animate.apply(this, args);
    if (this.closest('#pile')) { flight.pause(); window.flights.push([this, flight]); }
    return flight;
  };
}"""

_CAPTION_UNDER_THE_FLIGHT = """() => {
  // Step through the first flight until the card passes over the caption: what is on top there?
  const [card, flight] = window.flights[0];
  const caption = document.querySelector('#pile-count');
  const c = caption.getBoundingClientRect();
  const duration = Number(flight.effect.getTiming().duration);
  for (let step = 0; step <= 60; step += 1) {
    flight.currentTime = (duration * step) / 60;
    const r = card.getBoundingClientRect();
    const left = Math.max(r.left, c.left), right = Math.min(r.right, c.right);
    const top = Math.max(r.top, c.top), bottom = Math.min(r.bottom, c.bottom);
    if (right - left > 6 && bottom - top > 4) {
      const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
      return {over: true, uncovered: caption.contains(hit), hit: hit && (hit.id || hit.className)};
    }
  }
  return {over: false};
}"""


def test_the_pile_s_caption_stays_uncovered_while_a_card_flies_over_it(server: str, browser: Any) -> None:
    with opened(browser, LAPTOP) as page:
        play_the_computer(page, server)
        page.evaluate(_HOLD_FLIGHTS)
        page.keyboard.press("Space")
        page.wait_for_function("window.flights.length > 0")
        page.wait_for_function("document.querySelector('#pile-count').innerText.includes('in the pile')")
        seen = page.evaluate(_CAPTION_UNDER_THE_FLIGHT)
        assert seen["over"], "the card's flight from your seat should cross the caption under the pile"
        assert seen["uncovered"], f"the flying card covers the pile's caption ({seen['hit']} is on top)"


_BOX = """sel => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}"""


def test_on_a_laptop_open_hands_at_three_and_eight_seats_keep_turn_in_view(server: str, browser: Any) -> None:
    with opened(browser, LAPTOP) as page:
        for players in (3, 8):
            page.goto(server)
            open_settings(page, players=players)
            page.check("#opt-open")
            page.click("#play-computer")
            page.wait_for_selector("#turn:enabled")
            page.evaluate("window.scrollTo(0, 0)")
            # Every hand lies in rows under its seat, and Turn stays in the first screen.
            hands = page.locator("#seats .open-stack").evaluate_all(
                "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [r.top, r.bottom]; })"
            )
            assert len(hands) == players
            assert all(top >= 0 and bottom <= 800 for top, bottom in hands), (players, hands)
            assert page.evaluate(_BOX, "#turn")[3] <= 800, players
        assert axe(page) == []


TABLE_ONLY = ("table.js", "board.js", "cards.js", "log.js", "chart.js", "clock.js", "ring.js")
"""The modules only a table draws with: a first visit to the home page does without them."""


def test_the_landing_page_loads_nothing_only_the_table_uses_and_reads_on_one_line_each_way_to_start(
    server: str, browser: Any
) -> None:
    """On a laptop, the home page loads none of the table's modules, and each way to start reads on
    one line; the modules come with the first table, which plays as before."""
    with opened(browser, LAPTOP) as page:
        page.goto(server, wait_until="networkidle")
        page.wait_for_selector("#play-computer:enabled")
        loaded = page.evaluate("performance.getEntriesByType('resource').map((entry) => entry.name)")
        assert not [name for name in loaded if name.endswith(TABLE_ONLY)], loaded
        lines = page.locator("#home .choices button").evaluate_all(
            """nodes => nodes.map((button) => {
                 const range = document.createRange();
                 range.selectNodeContents(button.firstChild);  // its words, not the line under them
                 return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
               })"""
        )
        assert lines == [1, 1, 1], lines
        # They come with the first table, which plays as before.
        page.click("#play-computer")
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")


def _redealt_sitting(server: str) -> tuple[str, str]:
    """A game against the computer, watched at instant pace, whose first deal loops and is dealt
    again (family table), played over a socket: the replays of its first and its last deal."""
    with websockets.sync.client.connect(server.replace("http", "ws", 1) + "/ws") as ws:
        create = {"rules": "family-table:lead=first-hand", "deal": NEVER_ENDING.deal, "pace": "instant"}
        ws.send(json.dumps({"type": "create", "mode": "computer", **create}))
        ws.send(json.dumps({"type": "watch", "on": True}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "state" and message["over"] and message["reshuffles"]:
                return message["over"]["dealt_again"][0]["replay"], message["over"]["replay"]


_REMEMBER = """([first, last]) => localStorage.setItem('beggar-recent', JSON.stringify([{
  replay: last, earlier: [first], seat: 0, title: 'You against Robin', sentence: '', at: Date.now()}]))"""


def test_a_redealt_sitting_s_first_deal_is_replayed_from_your_seat_and_leads_to_the_next(
    server: str, browser: Any
) -> None:
    first, last = _redealt_sitting(server)
    with opened(browser, LAPTOP) as page:
        page.goto(server)
        page.evaluate(_REMEMBER, [first, last])  # as the table remembers a game of this browser
        page.goto(f"{server}/r/{last}")
        page.wait_for_selector("#replay:not([hidden]) #replay-seats .seat")
        assert page.inner_text("#replay-title") == "Replay: You against Robin"
        page.click("text=Replay the first deal")
        page.wait_for_function("document.querySelector('#replay-where').innerText.includes(' of 474,')")
        # The deal that looped is this person's game too, told as the table told it.
        assert page.inner_text("#replay-title") == "Replay: You against Robin"
        page.click("text=Replay the deal dealt next")
        page.wait_for_url(f"**/r/{last}")
        page.wait_for_selector("text=Replay the first deal")


def test_a_friend_who_reloads_the_page_is_said_to_have_reloaded_it(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser) as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="slow")
        at_table(guest)
        guest.reload()
        at_table(guest)
        host.wait_for_function("document.querySelector('#log').innerText.includes('Bea reloaded the page.')")
        guest.wait_for_function("document.querySelector('#log').innerText.includes('You reloaded the page.')")
        # Said once, as a reload: not as a return from another page.
        assert "came back" not in host.inner_text("#log") + guest.inner_text("#log")


def test_on_a_tablet_a_pile_between_seats_shows_its_cards_corners(server: str, browser: Any) -> None:
    with opened(browser, {"width": 768, "height": 1024}) as page:
        play_the_computer(page, server, players=6, pace="slow")
        page.keyboard.press("Space")
        page.wait_for_selector("#pile .card")
        widths = "pile => [pile.querySelector('.card').offsetWidth, pile.clientWidth]"
        card, pile = page.locator("#pile").evaluate(widths)
        # Two cards side by side fit the pile beside the seats (it held one and a half).
        assert card <= pile / 2, (card, pile)


def test_in_dark_mode_a_lesson_s_notes_in_the_log_are_dark_like_the_page(server: str, browser: Any) -> None:
    with opened(browser, LAPTOP, color_scheme="dark") as page:
        page.goto(f"{server}/#lessons")
        page.click("text=Start lesson 1")
        page.wait_for_selector("#log .note")
        rgb = page.locator("#log .note").first.evaluate("el => getComputedStyle(el).backgroundColor")
        assert max(int(c) for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]) < 80, rgb
