"""The table's board at a desktop's, a tablet's and a phone's size, in Debian's Chromium: the seats,
names and stacks, the pile and its cards, the owed marks and the short log, each whole and where a
person can read it.

Where checks differ only by the window's size, one page is resized (``set_viewport_size``) between
them rather than a new page opened and a new game started for each; where they differ by the game
(the seats, the deal), one page plays one game after another; where a check waits for a moment of a
game, a chosen deal brings that moment within a few cards."""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers import (
    PHONE,
    PHONE_SCREEN,
    SHORT_SEED,
    at_table,
    friend_table,
    next_card,
    open_settings,
    opened,
    play_the_computer,
    watch_to_the_end,
)

DESKTOP = {"width": 1280, "height": 800}
TABLET = {"width": 768, "height": 1024}


SEAT_BOXES = """() => [...document.querySelectorAll('#seats > .seat')].map((seat) => {
  const box = seat.getBoundingClientRect();
  return {you: seat.classList.contains('you'), x: box.x, y: box.y, width: box.width, height: box.height};
})"""
"""Each seat's box, in the order of the seats, read in one step: the board draws its seats afresh
with each state, and seats read one after another may straddle a state (one read as it is replaced
has no box at all)."""


def _resized(page: Any, size: dict[str, int]) -> None:
    """Give ``page`` the window ``size`` and wait two frames: what watches for a resize (the pile's
    fan, the log) has then laid the page out again."""
    page.set_viewport_size(size)
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


OWED_AT_EIGHT = "-JJJJQQ/-QQKKK-/-------/-------/------/------/------/KAAAA-"
"""Eight hands: the last seat's first card, a king, makes the player (who leads) owe three."""


def test_on_a_phone_at_eight_seats_every_name_your_mark_and_the_owed_words_are_whole(
    server: str, browser: Any
) -> None:
    """On a phone at eight seats (one game): every name is whole and this person's seat says
    "(you)" and is outlined, the page no wider than the screen; when the last seat's king makes them
    owe three, the words "3 to pay" show whole in their seat, and no seat moves."""
    with opened(browser, **PHONE) as page:
        play_the_computer(page, server, players="8", name="Bartholomew", deal=OWED_AT_EIGHT, pace="fast")
        names = page.locator("#seats .name")
        assert names.count() == 8
        cut = names.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id)")
        assert cut == []
        mine = page.locator(".seat.you")
        assert "Bartholomew" in mine.inner_text() and "(you)" in mine.inner_text()
        assert mine.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        seats = page.evaluate(SEAT_BOXES)
        assert len(seats) == 8
        page.keyboard.press("Space")
        page.wait_for_selector(".seat.you .owed", timeout=30_000)
        words = page.locator(".seat.you .owed-words")
        assert words.is_visible() and words.inner_text() == "3 to pay"
        whole = "el => el.scrollWidth <= el.clientWidth"
        assert words.evaluate(whole) and page.locator(".seat.you .owed").evaluate(whole)
        assert page.evaluate(SEAT_BOXES) == seats
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


def test_at_a_friend_table_on_a_phone_the_seats_around_the_pile_are_even(server: str, browser: Any) -> None:
    """At three, five, six and eight seats, two of them people (the same two, one friend table
    after another): on the host's phone the seats facing each other across the pile are alike in
    size and height and as far from the edge."""
    with opened(browser, **PHONE) as host, opened(browser) as guest:
        guest.goto(server)
        open_settings(guest, name="Bea")
        for players in ("3", "5", "6", "8"):
            link = friend_table(host, server, name="Ann", players=players, humans="2", seed=SHORT_SEED)
            guest.goto(link)
            host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting to join')")
            at_table(host)
            host.wait_for_function(f"document.querySelectorAll('#seats > .seat').length === {players}")
            assert host.evaluate(SEATS_UNEVEN) == [], players


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


def _the_game_gets_the_screen(page: Any) -> None:
    """At four seats on a desktop, with a card on the pile: the cards are grown, the seats lie
    around the pile, and the log is a panel beside the game."""
    width = page.locator("#pile .card").first.evaluate("el => el.offsetWidth")
    assert width > 84  # cards grow with a desktop window
    pile = page.locator("#pile").bounding_box()
    seats = page.evaluate(SEAT_BOXES)
    [mine] = [box for box in seats if box["you"]]
    others = [box for box in seats if not box["you"]]
    assert pile is not None and len(others) == 3
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


def test_names_stacks_and_the_pile_keep_clear_of_each_other_and_the_game_gets_the_screen(
    server: str, browser: Any
) -> None:
    """At four and at eight seats (one game each, its page resized to a desktop's, a tablet's and a
    phone's size in turn), once the first card has landed: no name lies under its stack's shadow,
    and the glow of the pile's card at its brightest reaches no seat above the pile. At four seats
    on a desktop the game gets the screen (see :func:`_the_game_gets_the_screen`)."""
    with opened(browser, DESKTOP) as page:
        for players in ("4", "8"):
            page.set_viewport_size(DESKTOP)
            play_the_computer(page, server, players=players, pace="slow", name="Bartholomew", seed=SHORT_SEED)
            page.keyboard.press("Space")
            page.wait_for_selector("#pile .card")
            page.wait_for_function("document.getAnimations().length === 0")  # the card has landed
            if players == "4":
                _the_game_gets_the_screen(page)
            for size in (DESKTOP, TABLET, PHONE_SCREEN):
                _resized(page, size)
                page.wait_for_function("document.getAnimations().length === 0")
                assert page.evaluate(BOARD_CLASHES) == [], (players, size)


WON_AT_ONCE = "Q" + "-" * 25 + "/" + "-" * 11 + "JJJJQQQKKKKAAAA"
"""A deal whose first trick the leader wins at its third card: a queen, paid with two cards."""


def test_the_card_that_wins_a_pile_lands_and_the_pile_slides_to_its_winner(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, deal=WON_AT_ONCE, pace="normal")
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
    """At a desktop's size and at a phone's (one game, its page resized): Turn lies where it lay
    with the pile empty once the first card is on it, and the page is as long."""
    sizes = (DESKTOP, PHONE_SCREEN)
    with opened(browser, DESKTOP) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="slow")
        page.click("#play-computer")
        page.wait_for_selector("#pile.empty")
        empty = {}
        for size in sizes:
            _resized(page, size)
            empty[size["width"]] = (
                page.locator("#turn").bounding_box(),
                page.evaluate("document.documentElement.scrollHeight"),
            )
        page.click("#turn")
        page.wait_for_selector("#pile .card")
        for size in reversed(sizes):
            _resized(page, size)
            full = page.locator("#turn").bounding_box()
            box, height = empty[size["width"]]
            assert box is not None and full is not None
            assert abs(box["y"] - full["y"]) < 1, size
            assert page.evaluate("document.documentElement.scrollHeight") == height, size


OWED = "-" * 11 + "JJJJQQQQ" + "-" * 7 + "/" + "KKKKAAAA" + "-" * 18
"""A deal where the computer's first card, a king, makes the player owe three cards."""


def test_the_owed_marks_say_in_words_what_they_count(server: str, browser: Any) -> None:
    """At a desktop's size and at a phone's (one game, its page resized), the marks of what this
    person owes are said in words beside them, to a screen reader, and by the pay card's badge; a
    card paid fills one mark."""
    with opened(browser, DESKTOP) as page:
        play_the_computer(page, server, deal=OWED, pace="fast")
        page.keyboard.press("Space")
        owed = page.locator(".seat.you .owed")
        owed.wait_for()
        for size in (DESKTOP, PHONE_SCREEN):
            _resized(page, size)
            # Beside the marks, in words a new player reads; the same said to a screen reader, and
            # by the pay card's number on the pile.
            assert owed.inner_text() == "3 to pay", size
            assert page.locator(".seat.you .owed-words").is_visible(), size
            assert owed.get_attribute("aria-label") == "You owe 3 more cards; 0 of 3 paid"
            assert owed.get_attribute("title") == owed.get_attribute("aria-label")
            assert (
                page.get_attribute("#pile .card.challenge .pays-badge", "title")
                == "Pays 3: the next player owes 3 cards"
            )
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_function("document.querySelector('.seat.you .owed').innerText === '2 to pay'")
        for size in (PHONE_SCREEN, DESKTOP):
            _resized(page, size)
            assert owed.get_attribute("aria-label") == "You owe 2 more cards; 1 of 3 paid", size
            assert page.locator(".seat.you .owed .mark.paid").count() == 1, size


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


BADGE_SEEN = """() => {
  const paid = document.querySelector('#pile .card.challenge:not(.sweeping)');
  const next = paid && paid.nextElementSibling;
  if (!next || next.classList.contains('sweeping')) return null;
  const badge = paid.querySelector('.pays-badge').getBoundingClientRect();
  const cards = paid.parentNode.querySelectorAll('.card:not(.sweeping)').length;
  return {badge: badge.right + 2, next: next.getBoundingClientRect().left, cards};
}"""
"""Where the pay badge of the card being paid for ends (its ring too), and where the next card starts."""


CROWDED_AT_EIGHT = "-QQ----/-KK----/-Q-----/JJ-----/A-----/-----AK/JJ----/AAKQ-"
"""Eight hands whose first trick crowds the pile at once: three cards, a jack, an ace that pays for
it, and four cards paid for the ace (the next trick is paid for twice over too)."""


def _paused_when(page: Any, condition: str) -> None:
    """Pause the game from the page itself the moment ``condition`` (a script's expression) holds,
    with no round trip to the test between (at fast pace such a moment lasts a few cards), and wait
    until the table says it is paused."""
    page.wait_for_function(
        f"({condition}) ? (document.querySelector('#pause').click(), true) : false", timeout=60000, polling=50
    )
    page.wait_for_selector("#paused-banner:not([hidden])")


def test_on_a_phone_at_eight_seats_the_pile_shows_each_corner_its_line_and_the_badge_being_paid_for(
    server: str, browser: Any
) -> None:
    """On a phone at eight seats, in dark mode, a game watched (paused to look): with five cards or
    more on the pile, a pay card among them and one being paid for, every card's corner index shows
    whole, only the card being paid for glows, and the line under the pile is whole; the pay badge
    of the card being paid for shows whole beside the card after it, when its payment has begun and
    one card further on."""
    with opened(browser, **PHONE, color_scheme="dark") as page:
        play_the_computer(page, server, players="8", pace="fast", deal=CROWDED_AT_EIGHT)
        page.click("#auto")
        _paused_when(
            page,
            "document.querySelectorAll('#pile .card:not(.sweeping)').length >= 5"
            " && document.querySelector('#pile .card.pay:not(.challenge)')"
            " && document.querySelector('#pile .challenge')",
        )
        seen = page.evaluate(PILE_SEEN)
        assert seen["steps"] and min(seen["steps"]) >= seen["width"] / 4 - 1, seen  # every corner index whole
        assert seen["outlined"] == 0, seen  # only the card being paid for glows
        width, height, right = seen["line"]
        assert height >= 12 and width > 60 and right <= PHONE_SCREEN["width"], seen
        assert re.match(r"\d+ cards in the pile", seen["text"]), seen
        page.click("#resume-big")
        page.wait_for_selector("#paused-banner", state="hidden")
        badges = []
        while len(badges) < 2:  # a payment begun and one further on, with the pile crowded
            _paused_when(
                page, f"(() => {{ const s = ({BADGE_SEEN})(); return s && s.cards >= {4 + len(badges)}; }})()"
            )
            page.wait_for_timeout(100)
            found = page.evaluate(BADGE_SEEN)
            if found:
                badges.append(found)
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


def test_the_short_log_shows_whole_lines_only_filled_with_its_last_ones(server: str, browser: Any) -> None:
    """On a phone, two games watched one after the other (one page), the short log sampled as they
    play: at three seats it shows whole lines only, the first beginning in the box; at four seats no
    blank line's room lies above the first line seen."""
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


def test_after_play_again_the_short_log_starts_at_the_new_game_with_no_cut_line_of_the_last(
    server: str, browser: Any
) -> None:
    """After Play again, at a desktop's size and at a phone's (one game watched to its end at each,
    one page): the last game's line above the rule shows whole or not at all; the rule between the
    games is a thin one, not a band that reads as an empty line; the rule and the new game's first
    line lie at the short log's top, whole, and so does the first line once a card is turned."""
    with opened(browser, DESKTOP) as page:
        for size in (DESKTOP, PHONE_SCREEN):
            page.set_viewport_size(size)
            watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
            page.click("#end-again")
            page.wait_for_selector("#log li.game-break")
            page.wait_for_function("document.querySelector('#log li:last-child').innerText.startsWith('New')")
            shown = page.evaluate(
                """() => [...document.querySelectorAll('#log li.old')]
                  .filter((li) => getComputedStyle(li).clipPath === 'none'
                    && li.classList.contains('clamped'))
                  .map((li) => li.innerText)"""
            )
            assert shown == [], size  # the last game's line above the rule shows whole or not at all
            line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#log li')).lineHeight)")
            # The rule between the games is a thin one, not a band that reads as an empty line.
            gap = page.evaluate(
                """() => {
                  const rule = document.querySelector('#log li.game-break');
                  return rule.nextElementSibling.getBoundingClientRect().top
                    - rule.previousElementSibling.getBoundingClientRect().bottom;
                }"""
            )
            assert 0 < gap <= line / 2, (size, gap, line)
            # No blank band where the last game's cut line would be: the rule and the new game's
            # first line lie at the top, whole; the room left is below them. Read once the log has
            # laid out the lines the new game brings (a line being added may be read half laid out).
            whole = "l.every(([top, bottom]) => top >= -1 && bottom >= -1) && l"
            settled = f"(() => {{ const l = ({WHOLE_LINES})(); return {whole}; }})()"
            lines = page.wait_for_function(settled).json_value()
            assert lines and -1 <= lines[0][0] < 2, (size, line, lines)
            page.click("#turn")
            page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
            newest = "document.querySelector('#log li:last-child').innerText"
            page.wait_for_function(f"!{newest}.startsWith('New')")
            lines = page.evaluate(WHOLE_LINES)
            assert lines and -1 <= lines[0][0] < 2, (size, line, lines)


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


def test_the_pile_is_centred_after_a_reload_as_before_it(server: str, browser: Any) -> None:
    """One game with three cards on the pile, paused; at a desktop's size and then at a phone's
    (its page resized): the pile is centred, and after a reload its cards lie where they lay."""
    centred = f"() => {{ const pile = ({PILE_CENTRE})(); return Math.abs(pile?.offCentre) < 3 && pile; }}"
    with opened(browser, DESKTOP) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        next_card(page, 0, read="#pile-count")
        page.wait_for_selector("#turn:enabled")
        next_card(page, 2, read="#pile-count")
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        page.wait_for_function("document.querySelectorAll('#pile .card').length >= 3")
        for size in (DESKTOP, PHONE_SCREEN):
            if size == DESKTOP:
                before = page.evaluate(PILE_CENTRE)
                assert abs(before["offCentre"]) < 3, before
            else:  # resized: the pile lays its cards out again
                _resized(page, size)
                try:
                    before = page.wait_for_function(centred, timeout=3000).json_value()
                except Exception as missed:
                    raise AssertionError(page.evaluate(PILE_CENTRE)) from missed
            page.reload()
            at_table(page)
            try:
                after = page.wait_for_function(centred, timeout=3000).json_value()
            except Exception as missed:
                raise AssertionError((size, page.evaluate(PILE_CENTRE))) from missed
            assert after["lefts"] == pytest.approx(before["lefts"], abs=1), size
