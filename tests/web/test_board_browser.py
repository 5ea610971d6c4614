"""The table's board at a desktop's, a tablet's and a phone's size, in Debian's Chromium: the seats,
names and stacks, the pile and its cards, the owed marks and the short log, each whole and where a
person can read it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers import (
    PHONE,
    PHONE_SCREEN,
    SHORT_SEED,
    at_table,
    next_card,
    open_settings,
    opened,
    play_the_computer,
    seat_a_friend,
    watch_to_the_end,
)


def test_every_name_and_your_mark_are_whole_on_a_phone_at_eight_seats(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, players="8", name="Bartholomew", pace="slow")
        page.click("#play-computer")
        at_table(page)
        names = page.locator("#seats .name")
        assert names.count() == 8
        cut = names.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id)")
        assert cut == []
        mine = page.locator(".seat.you")
        assert "Bartholomew" in mine.inner_text() and "(you)" in mine.inner_text()
        assert mine.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]


SEATS_UNEVEN = """() => {
  const board = document.querySelector('#seats').getBoundingClientRect();
  const box = (slot) => {
    const seat = document.querySelector(`#seats > [data-slot='${slot}']`);
    return seat && seat.getBoundingClientRect();
  };
  const wrong = [];
  for (const [left, right] of [['TL2', 'TR2'], ['TL', 'TR'], ['L', 'R'], ['BL', 'BR']]) {
    const a = box(left), b = box(right);
    if (!a || !b) continue;
    if (Math.abs(a.width - b.width) > 1 || Math.abs(a.height - b.height) > 1) {
      wrong.push(`${left} ${a.width}x${a.height}, ${right} ${b.width}x${b.height}`);
    }
    if (Math.abs(a.top - b.top) > 1) wrong.push(`${left} at ${a.top}, ${right} at ${b.top}`);
    const margins = [a.left - board.left, board.right - b.right];
    if (Math.abs(margins[0] - margins[1]) > 1) wrong.push(`${left} and ${right} off-centre: ${margins}`);
  }
  const top = [...document.querySelectorAll("#seats > [data-slot^='T']")]
    .map((seat) => seat.getBoundingClientRect());
  if (new Set(top.map((r) => `${Math.round(r.top)}:${Math.round(r.height)}`)).size > 1) {
    wrong.push(`the top row: ${top.map((r) => `${r.top}+${r.height}`)}`);
  }
  return wrong;
}"""
"""How the seats facing each other across the pile differ: in size, height or distance from the edge."""


@pytest.mark.parametrize("players", ["3", "5", "6", "8"])
def test_at_a_friend_table_on_a_phone_the_seats_around_the_pile_are_even(
    server: str, browser: Any, players: str
) -> None:
    with opened(browser, **PHONE) as host, opened(browser) as guest:
        seat_a_friend(host, guest, server, name="Ann", players=players, humans="2", seed=SHORT_SEED)
        at_table(host)
        host.wait_for_function(f"document.querySelectorAll('#seats > .seat').length === {players}")
        assert host.evaluate(SEATS_UNEVEN) == []


def test_dark_mode_and_high_contrast_cards(server: str, browser: Any) -> None:
    with opened(browser, color_scheme="dark") as page:
        page.goto(server)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        light = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert "rgb(17, 22, 20)" in (background, light)
        open_settings(page, seed=SHORT_SEED)
        page.check("#opt-contrast")
        page.click("#play-computer")
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_selector("#pile .card .hc-index")
        assert page.locator("#pile .card .hc-index").first.is_visible()


BOARD_CLASHES = r"""() => {
    const clashes = [];
    for (const seat of document.querySelectorAll('#seats .seat')) {
        const stack = seat.querySelector('.stack').getBoundingClientRect();
        const name = seat.querySelector('.name').getBoundingClientRect();
        // a stack above its name: the name below the stack's shadow (4px)
        const under = name.left < stack.right && name.right > stack.left && name.top > stack.top;
        if (under && name.top < stack.bottom + 4) clashes.push(['name', seat.dataset.seat]);
    }
    const card = document.querySelector('#pile .card');
    card.classList.add('challenge');  // the pile's card at its brightest
    const reach = Math.max(...getComputedStyle(card).boxShadow.split(/,(?![^(]*\))/).map(
        (shadow) => shadow.replace(/rgba?\([^)]*\)/, '').trim().split(/\s+/).slice(2, 4)
            .reduce((sum, value) => sum + parseFloat(value), 0)));
    const top = card.getBoundingClientRect().top - reach;
    const pile = card.getBoundingClientRect();
    for (const seat of document.querySelectorAll('#seats .seat')) {
        const box = seat.getBoundingClientRect();
        const above = box.bottom <= pile.top && box.right > pile.left && box.left < pile.right;
        if (above && top < box.bottom) clashes.push(['pile', seat.dataset.seat, top, box.bottom]);
    }
    return clashes;
}"""


@pytest.mark.parametrize("players", ["4", "8"])
@pytest.mark.parametrize(
    "size", [{"width": 1280, "height": 800}, {"width": 768, "height": 1024}, PHONE_SCREEN]
)
def test_names_stacks_and_the_pile_keep_clear_of_each_other(
    server: str, browser: Any, size: dict[str, int], players: str
) -> None:
    with opened(browser, size) as page:
        play_the_computer(page, server, players=players, pace="slow", name="Bartholomew", seed=SHORT_SEED)
        page.keyboard.press("Space")
        page.wait_for_selector("#pile .card")
        page.wait_for_function("document.getAnimations().length === 0")  # the card has landed
        assert page.evaluate(BOARD_CLASHES) == []


def test_the_game_gets_the_screen(server: str, browser: Any) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, players="4", pace="slow", seed=SHORT_SEED)
        page.keyboard.press("Space")
        page.wait_for_selector("#pile .card")
        width = page.locator("#pile .card").first.evaluate("el => el.offsetWidth")
        assert width > 84  # cards grow with a desktop window
        pile = page.locator("#pile").bounding_box()
        mine = page.locator(".seat.you").bounding_box()
        others = [box for box in (s.bounding_box() for s in page.locator(".seat:not(.you)").all()) if box]
        assert pile is not None and mine is not None and len(others) == 3
        # Around the pile: one across it, one on each side, this person below it.
        assert len([box for box in others if box["y"] + box["height"] <= pile["y"]]) == 1
        assert len([box for box in others if box["x"] + box["width"] <= pile["x"]]) == 1
        assert len([box for box in others if box["x"] >= pile["x"] + pile["width"]]) == 1
        assert mine["y"] >= pile["y"] + pile["height"]
        # The log is a panel beside the game, as high as the table (whole lines; no "Show the
        # whole log", which a narrow screen has).
        log = page.locator("#log").bounding_box()
        board = page.locator("#seats").bounding_box()
        assert log is not None and board is not None and log["x"] >= board["x"] + board["width"]
        assert log["height"] > 300
        assert page.locator("#log-more").is_hidden()


def test_the_card_that_wins_a_pile_lands_and_the_pile_slides_to_its_winner(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="normal")
        page.click("#watch-game")
        page.wait_for_selector("#table:not([hidden])")
        page.evaluate(
            """() => {
              window.held = [];
              const pile = document.querySelector('#pile');
              new MutationObserver(() => {
                const box = pile.getBoundingClientRect();
                const place = { top: box.top, left: box.left, height: box.height, width: box.width };
                const cards = [...pile.querySelectorAll('.card.sweeping')];
                if (!pile.classList.contains('empty')) window.full = place;
                if (!cards.length || !pile.classList.contains('empty')) return;
                window.held.push({
                  at: performance.now(), count: cards.length, place, full: window.full,
                  tops: cards.map((c) => c.offsetTop), lefts: cards.map((c) => c.offsetLeft),
                });
              }).observe(pile, { childList: true, subtree: true, attributes: true });
            }"""
        )
        page.wait_for_function("window.held.length > 0", timeout=30000)
        first = page.evaluate("window.held[0]")
        told = "/takes the \\d+ cards? of the pile/.test(document.querySelector('#log').innerText)"
        page.wait_for_function(told)  # the log says who took the pile, and how many cards
        taken = re.search(r"takes the (\d+) cards? of the pile", page.inner_text("#log"))
        assert taken is not None
        assert first["count"] == int(taken.group(1))  # the winning card is on the pile too
        # Held where they lay, on the pile, and not jumped elsewhere first.
        assert first["place"] == first["full"]
        assert all(0 <= top < first["place"]["height"] for top in first["tops"])
        assert all(0 <= left < first["place"]["width"] for left in first["lefts"])


def test_the_turn_button_stays_put_when_the_pile_fills_and_empties(server: str, browser: Any) -> None:
    for size in ({"width": 1280, "height": 800}, PHONE_SCREEN):
        with opened(browser, size) as page:
            page.goto(server)
            open_settings(page, seed=SHORT_SEED, pace="slow")
            page.click("#play-computer")
            page.wait_for_selector("#pile.empty")
            empty = page.locator("#turn").bounding_box()
            height = page.evaluate("document.documentElement.scrollHeight")
            page.click("#turn")
            page.wait_for_selector("#pile .card")
            full = page.locator("#turn").bounding_box()
            assert empty is not None and full is not None
            assert abs(empty["y"] - full["y"]) < 1, size
            assert page.evaluate("document.documentElement.scrollHeight") == height


OWED = "-" * 11 + "JJJJQQQQ" + "-" * 7 + "/" + "KKKKAAAA" + "-" * 18
"""A deal where the computer's first card, a king, makes the player owe three cards."""


OWED_AT_EIGHT = "-JJJJQQ/-QQKKK-/-------/-------/------/------/------/KAAAA-"
"""Eight hands: the last seat's first card, a king, makes the player (who leads) owe three."""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_the_owed_marks_say_in_words_what_they_count(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        play_the_computer(page, server, deal=OWED, pace="fast")
        page.keyboard.press("Space")
        owed = page.locator(".seat.you .owed")
        owed.wait_for()
        # Beside the marks, in words a new player reads; the same said to a screen reader, and
        # by the pay card's number on the pile.
        assert owed.inner_text() == "3 to pay" and page.locator(".seat.you .owed-words").is_visible()
        assert owed.get_attribute("aria-label") == "You owe 3 more cards; 0 of 3 paid"
        assert owed.get_attribute("title") == owed.get_attribute("aria-label")
        assert (
            page.get_attribute("#pile .card.challenge .pays-badge", "title")
            == "Pays 3: the next player owes 3 cards"
        )
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_function("document.querySelector('.seat.you .owed').innerText === '2 to pay'")
        assert owed.get_attribute("aria-label") == "You owe 2 more cards; 1 of 3 paid"
        assert page.locator(".seat.you .owed .mark.paid").count() == 1


def test_the_owed_words_fit_a_seat_on_a_phone_at_eight_seats(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        play_the_computer(page, server, players="8", name="Bartholomew", deal=OWED_AT_EIGHT, pace="fast")
        seats = [page.locator(f".seat[data-seat='{i}']").bounding_box() for i in range(8)]
        page.keyboard.press("Space")
        page.wait_for_selector(".seat.you .owed", timeout=30_000)
        words = page.locator(".seat.you .owed-words")
        assert words.is_visible() and words.inner_text() == "3 to pay"
        whole = "el => el.scrollWidth <= el.clientWidth"
        assert words.evaluate(whole) and page.locator(".seat.you .owed").evaluate(whole)
        assert [page.locator(f".seat[data-seat='{i}']").bounding_box() for i in range(8)] == seats
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]


PILE_SEEN = """() => {
  const cards = [...document.querySelectorAll('#pile .card:not(.sweeping)')];
  const lefts = [...new Set(cards.map((c) => Math.round(c.getBoundingClientRect().left)))];
  lefts.sort((a, b) => a - b);
  const line = document.querySelector('#pile-count').getBoundingClientRect();
  return {
    width: cards[0].getBoundingClientRect().width,
    steps: lefts.slice(1).map((left, i) => left - lefts[i]),
    outlined: cards.filter((c) => getComputedStyle(c).outlineStyle !== 'none')
      .filter((c) => !c.classList.contains('challenge')).length,
    line: [line.width, line.height, line.right], text: document.querySelector('#pile-count').innerText,
  };
}"""
"""What the pile shows: how far apart its cards' corners are, which glow, and its line."""


def test_on_a_phone_at_eight_seats_the_pile_shows_each_corner_and_its_line(server: str, browser: Any) -> None:
    with opened(browser, **PHONE, color_scheme="dark") as page:
        play_the_computer(page, server, players="8", pace="fast", seed=7)
        page.click("#auto")
        page.wait_for_function(
            "document.querySelectorAll('#pile .card:not(.sweeping)').length >= 5"
            " && document.querySelector('#pile .card.pay:not(.challenge)')"
            " && document.querySelector('#pile .challenge')",
            timeout=60000,
            polling=50,
        )
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        seen = page.evaluate(PILE_SEEN)
        assert seen["steps"] and min(seen["steps"]) >= seen["width"] / 4 - 1, seen  # every corner index whole
        assert seen["outlined"] == 0, seen  # only the card being paid for glows
        width, height, right = seen["line"]
        assert height >= 12 and width > 60 and right <= PHONE_SCREEN["width"], seen
        assert re.match(r"\d+ cards in the pile", seen["text"]), seen


BADGE_SEEN = """() => {
  const paid = document.querySelector('#pile .card.challenge:not(.sweeping)');
  const next = paid && paid.nextElementSibling;
  if (!next || next.classList.contains('sweeping')) return null;
  const badge = paid.querySelector('.pays-badge').getBoundingClientRect();
  const cards = paid.parentNode.querySelectorAll('.card:not(.sweeping)').length;
  return {badge: badge.right + 2, next: next.getBoundingClientRect().left, cards};
}"""
"""Where the pay badge of the card being paid for ends (its ring too), and where the next card starts."""


def test_on_a_phone_at_eight_seats_the_badge_of_the_card_being_paid_for_shows_whole(
    server: str, browser: Any
) -> None:
    with opened(browser, **PHONE, color_scheme="dark") as page:
        play_the_computer(page, server, players="8", pace="fast", seed=7)
        page.click("#auto")
        seen = []
        while len(seen) < 2:  # a payment begun and one further on, with the pile crowded
            page.wait_for_function(
                f"(() => {{ const s = ({BADGE_SEEN})(); return s && s.cards >= {4 + len(seen)}; }})()",
                timeout=60000,
                polling=50,
            )
            page.click("#pause")
            page.wait_for_selector("#paused-banner:not([hidden])")
            page.wait_for_timeout(100)
            found = page.evaluate(BADGE_SEEN)
            if found:
                seen.append(found)
                assert found["badge"] <= found["next"] + 0.5, found
            page.click("#resume-big")
            page.wait_for_selector("#paused-banner", state="hidden")


WHOLE_LINES = """() => {
  const log = document.querySelector('#log');
  const box = log.getBoundingClientRect();
  const top = box.top + log.clientTop, bottom = top + log.clientHeight;
  return [...log.children].filter((li) => getComputedStyle(li).clipPath === 'none')
    .map((li) => li.getBoundingClientRect())
    .filter((r) => r.bottom > top + 1 && r.top < bottom - 1)
    .map((r) => [Math.round(r.top - top), Math.round(bottom - r.bottom)]);
}"""
"""Where each log line seen in the log's box lies: its distance from the box's top and bottom."""


def test_the_short_log_shows_whole_lines_only(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast", players="3")
        page.click("#watch-game")
        at_table(page)
        seen = []
        for _ in range(12):
            page.wait_for_timeout(350)
            seen.append(page.evaluate(WHOLE_LINES))
        assert any(len(lines) > 1 for lines in seen)
        for lines in seen:
            assert lines and lines[0][0] >= -1, lines  # the first line seen begins in the box
            assert all(top >= -1 and bottom >= -1 for top, bottom in lines), lines


def test_the_short_log_is_filled_with_its_last_whole_lines(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast", players="4")
        page.click("#watch-game")
        at_table(page)
        page.wait_for_selector("#log li")
        line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#log li')).lineHeight)")
        seen = []
        for _ in range(16):
            page.wait_for_timeout(300)
            seen.append(page.evaluate(WHOLE_LINES))
        assert any(len(lines) > 1 for lines in seen)
        for lines in seen:
            # No blank line's room above the first line seen, and that line begins in the box.
            assert lines and -1 <= lines[0][0] < line - 2, (line, lines)


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_after_play_again_the_short_log_shows_no_cut_line_of_the_last_game(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.click("#end-again")
        page.wait_for_selector("#log li.game-break")
        page.wait_for_function("document.querySelector('#log li:last-child').innerText.startsWith('New')")
        shown = page.evaluate(
            """() => [...document.querySelectorAll('#log li.old')]
              .filter((li) => getComputedStyle(li).clipPath === 'none' && li.classList.contains('clamped'))
              .map((li) => li.innerText)"""
        )
        assert shown == []  # the last game's line above the rule shows whole or not at all
        lines = page.evaluate(WHOLE_LINES)
        assert lines and all(top >= -1 and bottom >= -1 for top, bottom in lines), lines


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_after_play_again_the_new_game_s_lines_start_at_the_short_log_s_top(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.click("#end-again")
        page.wait_for_function("document.querySelector('#log li:last-child').innerText.startsWith('New')")
        line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#log li')).lineHeight)")
        # The rule between the games is a thin one, not a band that reads as an empty line.
        gap = page.evaluate(
            """() => {
              const rule = document.querySelector('#log li.game-break');
              return rule.nextElementSibling.getBoundingClientRect().top
                - rule.previousElementSibling.getBoundingClientRect().bottom;
            }"""
        )
        assert 0 < gap <= line / 2, (gap, line)
        lines = page.evaluate(WHOLE_LINES)
        # No blank band where the last game's cut line would be: the rule and the new game's
        # first line lie at the top, whole; the room left is below them.
        assert lines and -1 <= lines[0][0] < 2, (line, lines)
        assert all(top >= -1 and bottom >= -1 for top, bottom in lines), lines
        page.click("#turn")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
        page.wait_for_function("!document.querySelector('#log li:last-child').innerText.startsWith('New')")
        lines = page.evaluate(WHOLE_LINES)
        assert lines and -1 <= lines[0][0] < 2, (line, lines)


PILE_CENTRE = """() => {
  const pile = document.querySelector('#pile');
  const cards = [...pile.querySelectorAll('.card:not(.sweeping)')];
  if (!cards.length) return null;
  const left = Math.min(...cards.map((node) => node.offsetLeft));
  const right = Math.max(...cards.map((node) => node.offsetLeft + node.offsetWidth));
  const lefts = cards.map((node) => node.offsetLeft);
  return { offCentre: (left + right) / 2 - pile.clientWidth / 2, lefts };
}"""
"""How far the pile's cards, together, lie from the pile's centre, and where each lies in it (where
it is laid: a card flying in is not counted off its place)."""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_the_pile_is_centred_after_a_reload_as_before_it(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        next_card(page, 0, read="#pile-count")
        page.wait_for_selector("#turn:enabled")
        next_card(page, 2, read="#pile-count")
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        page.wait_for_function("document.querySelectorAll('#pile .card').length >= 3")
        before = page.evaluate(PILE_CENTRE)
        assert abs(before["offCentre"]) < 3, before
        page.reload()
        at_table(page)
        centred = f"() => {{ const pile = ({PILE_CENTRE})(); return Math.abs(pile?.offCentre) < 3 && pile; }}"
        try:
            after = page.wait_for_function(centred, timeout=3000).json_value()
        except Exception as missed:
            raise AssertionError(page.evaluate(PILE_CENTRE)) from missed
        assert after["lefts"] == pytest.approx(before["lefts"], abs=1)
