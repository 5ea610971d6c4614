"""The browser table as people use it, in Debian's Chromium: the two buttons' tables,
who is "you", the keyboard, agreeing on a new game, waiting for a friend, closed tables, replays,
the phone layout, and an accessibility audit of every page with axe-core (vendored)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from beggar.web.table import Pace
from helpers import (
    CHROMIUM_ARGS,
    PHONE,
    SHORT_CARDS,
    SHORT_SEED,
    SHORT_TRICKS,
    TIMEOUT_MS,
    at_table,
    axe,
    cards_turned,
    friend_table,
    open_settings,
    opened,
    play_the_computer,
    turn_if_mine,
)

pytestmark = pytest.mark.browser

YOU = re.compile(r"\byou\b|\byour\b", re.IGNORECASE)
assert CHROMIUM_ARGS and TIMEOUT_MS


def test_the_test_browser_opens_no_address_bar_pages(browser: Any, server: str) -> None:
    with opened(browser) as page:
        page.goto(server)
        session = page.context.browser.new_browser_cdp_session()
        urls = [target["url"] for target in session.send("Target.getTargets")["targetInfos"]]
    assert server + "/" in urls
    assert not [url for url in urls if url.startswith("chrome://")], urls


# -- 1. the two buttons' tables --------------------------------------------------------------------


def test_the_computer_plays_the_practice_table_and_a_friend_the_friend_table(server: str, page: Any) -> None:
    page.goto(server)
    page.click("#play-computer")
    at_table(page)
    assert page.inner_text("#rules-line").startswith("Practice table: ")
    assert "stops after 4,000 cards" in page.inner_text("#rules-line")
    page.click("#leave")
    if page.locator("#leave-ask").is_visible():  # asked once a card of the game is turned
        page.click("#leave-yes")
    page.click("#play-friend")
    page.wait_for_function("document.querySelector('#rules-line').innerText.startsWith('Friend table')")
    assert "random lead, stops after 3,000 tricks" in page.inner_text("#rules-line")
    page.goto(server)
    page.click("#setup summary")
    options = " ".join(page.locator("#opt-rules option").all_inner_texts())
    shown = options + page.inner_text("#opt-rules-about")
    assert "Practice table" in shown and "Friend table" in shown and "No limits" in shown
    assert "seed" not in shown.lower() and "-table" not in shown


# -- 2. only a seated person is "you" ----------------------------------------------------------------


def _turn_until(host: Any, guest: Any, cards: int) -> None:
    """Both friends turn whenever it is their turn, until ``cards`` cards are turned."""
    while cards_turned(host) < cards:
        for each in (host, guest):
            turn_if_mine(each)
        host.wait_for_timeout(60)


def test_a_spectator_is_never_you_and_a_new_game_needs_both_friends(server: str, browser: Any) -> None:
    """One friend table, Ann's, that Bea joins by its link, watched through three things. Someone
    opening its link once both seats are taken watches, is told so in the one line that speaks to
    them, is asked no name, and is never addressed as "you" while the friends turn cards. Ann's ask
    for a new game is put to Bea alone, in the words of its two buttons, wiping nothing; Bea's
    agreeing starts it for both. A second ask that Bea answers "Keep playing" is told to Ann (in
    the log and the notice), ends the ask, and the game goes on."""
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, name="Ann", seed=SHORT_SEED)
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        guest.wait_for_selector("#table:not([hidden])")
        host.wait_for_selector("#share", state="hidden")
        # A spectator is never "you".
        with opened(browser) as spectator:
            spectator.goto(link)  # the table's link; both seats are taken
            spectator.wait_for_selector("#watching:not([hidden])")  # the one line that speaks to them
            assert spectator.locator("#name-ask").is_hidden()  # nobody to sit down: no name asked
            seen = []
            for _ in range(8):
                for each in (host, guest):
                    turn_if_mine(each)
                spectator.wait_for_timeout(150)
                seen.append(spectator.inner_text("#table").replace("You are watching", "", 1))
            assert "(you)" in host.inner_text("#seats")
            assert cards_turned(spectator) >= 4
            for text in seen:
                assert not YOU.search(text), text
        # A new game needs both friends: Bea agrees.
        _turn_until(host, guest, 3)
        host.click("#again")
        guest.wait_for_selector("#notice:not([hidden])")
        # The notice names the two answers by the words their buttons say.
        notice = "Ann asks for a new game: press Agree to a new game or Keep playing."
        assert guest.inner_text("#notice") == notice
        assert guest.inner_text("#new-game-yes") == "Agree to a new game"
        assert guest.inner_text("#new-game-no") == "Keep playing"
        assert host.locator("#new-game-ask").is_hidden()  # the asker is not asked
        assert cards_turned(guest) >= 3  # nothing was wiped
        assert "Ann asks for a new game" in guest.inner_text("#log")
        guest.click("#new-game-yes")
        for each in (host, guest):
            each.wait_for_function("parseInt(document.querySelector('#counts').innerText) === 0")
        assert "Bea agrees: a new game." in host.inner_text("#log")
        # A friend may say no to a new game.
        _turn_until(host, guest, 3)
        host.click("#again")
        guest.wait_for_selector("#new-game-no:visible")
        before = cards_turned(guest)
        guest.click("#new-game-no")
        guest.wait_for_selector("#new-game-ask", state="hidden")
        said = "Bea wants to keep playing: no new game."
        host.wait_for_function(f"document.querySelector('#log').innerText.includes('{said}')")
        host.wait_for_function(f"document.querySelector('#notice').innerText === '{said}'")  # and told
        host.wait_for_function("document.querySelector('#again').innerText === 'New game'")  # the ask is over
        assert guest.locator("#notice").is_hidden()
        assert cards_turned(host) >= before  # the game goes on


PROMPTS = (
    "window.prompts = []; new MutationObserver(() => window.prompts.push("
    "document.querySelector('#prompt').innerText)).observe(document.querySelector('#prompt'),"
    " {childList: true, characterData: true, subtree: true})"
)
"""Keep every prompt the page shows, card by card, in ``window.prompts`` (from this moment on)."""


@pytest.fixture
def brisk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fast pace at a card every 0.05 s on the test server, where pacing is not what a test proves
    (what a table at fast pace shows is the same; it only comes sooner)."""
    delay = Pace.__dict__["delay"]
    monkeypatch.setattr(Pace, "delay", property(lambda pace: 0.05 if pace is Pace.FAST else delay.fget(pace)))


def test_watching_both_players_or_a_famous_game_never_says_you(server: str, page: Any, brisk: None) -> None:
    """Watching both players of a game (at fast pace), then a famous game on the same page: no
    prompt the page shows over the first 30 cards, nor the table at the end, says "you"; the
    prompts do name the first seat ("A owes ..." or "A's turn")."""
    for how in ("watch", "famous"):
        if how == "watch":
            page.goto(server)
            page.evaluate(PROMPTS)  # before the game starts: every prompt it shows, from the first
            open_settings(page, pace="fast", seed=SHORT_SEED)
            page.click("#watch-game")
            page.wait_for_selector("#table:not([hidden])")
        else:
            page.goto(f"{server}/#famous")
            page.evaluate(PROMPTS)
            page.click("button[aria-label='Watch Casella et al. 2024']")
            page.wait_for_selector("#table:not([hidden])")
            page.select_option("#pace", "fast")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 30", timeout=60_000)
        prompts = page.evaluate("window.prompts")
        assert any(" A owes " in text or text.startswith("A's turn") for text in prompts), (how, prompts)
        assert not [text for text in prompts if YOU.search(text)], (how, prompts)
        assert not YOU.search(page.inner_text("#table")), (how, page.inner_text("#table"))


# -- 3. Space after clicking a control turns a card ------------------------------------------------


def test_space_turns_a_card_after_clicking_each_control(server: str, page: Any) -> None:
    page.goto(server)
    open_settings(page, pace="fast", seed=SHORT_SEED)
    page.click("#play-computer")
    page.wait_for_selector("#table:not([hidden])")

    def space_turns_a_card() -> None:
        page.wait_for_selector("#turn:enabled")
        before = cards_turned(page)
        page.keyboard.press("Space")
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {before}")

    for control, back in (("#pause", "#resume-big"), ("#auto", "#auto"), ("#sound", "#sound")):
        page.wait_for_selector("#turn:enabled")
        page.click(control)  # Pause, Watch both players, Sound on ...
        page.click(back)  # ... and back: Resume, Stop watching, Sound off
        space_turns_a_card()
    page.click("#again")  # New game: alone at the table, it starts once this game is given up
    page.click("#abandon-yes")
    page.wait_for_function("parseInt(document.querySelector('#counts').innerText) === 0")
    space_turns_a_card()
    page.select_option("#pace", "normal")
    space_turns_a_card()
    page.keyboard.press("Enter")  # Enter works the same way, on the next turn
    page.wait_for_selector("#turn:enabled")
    before = cards_turned(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {before}")


# -- 5 and 8. the friend table waits for the friend; only the creator sees the link ------------------


def test_the_friend_table_waits_for_the_friend(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser, **PHONE) as guest:
        host.goto(server)
        open_settings(host, name="Ann")
        host.click("#play-friend")
        waiting = "document.querySelector('#prompt').innerText === 'Waiting for a friend to join.'"
        host.wait_for_function(waiting)
        assert host.locator("#turn").is_disabled()
        assert host.locator("#share").is_visible()
        host.keyboard.press("Space")
        host.wait_for_timeout(500)
        assert cards_turned(host) == 0
        guest.goto(host.input_value("#share-link"))
        guest.wait_for_selector("#table:not([hidden])")
        guest.fill("#sit-name", "Bea")  # asked before sitting down
        guest.click("#sit-name-save")
        host.wait_for_selector("#share", state="hidden")
        assert guest.locator("#share").is_hidden()  # everyone is here: nobody is left to send it to
        host.wait_for_function("!document.querySelector('#prompt').innerText.startsWith('Waiting')")
        leader = host if host.locator("#turn").is_enabled() else guest
        leader.click("#turn")
        host.wait_for_function("parseInt(document.querySelector('#counts').innerText) === 1")


# -- 6. a closed table --------------------------------------------------------------------------------


def test_a_table_that_is_closed_or_never_existed_says_so(server: str, page: Any) -> None:
    page.goto(f"{server}/t/zzzzzz")
    page.wait_for_selector("#closed:not([hidden])")
    assert page.inner_text("#closed-title") == "This table is closed or never existed."
    assert page.locator("#table").is_hidden()
    page.click("text=Back to the home page")
    page.wait_for_selector("#home:not([hidden])")


# -- 7. layout details ----------------------------------------------------------------------------------


def test_an_eight_seat_chart_legend_fits_and_is_legible_on_a_phone(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as phone:
        phone.goto(server)
        open_settings(phone, rules="standard", players="8", pace="instant", seed="5")
        phone.tap("#watch-game")
        phone.wait_for_selector("#end[open]", timeout=60_000)
        phone.tap("#end-close")
        phone.wait_for_selector("#chart-box:not([hidden])")
        legend = phone.locator("#chart-legend li")
        assert legend.count() == 8
        box = phone.locator("#chart-box").bounding_box()
        for item in legend.all():
            rect = item.bounding_box()
            assert rect["x"] >= box["x"] and rect["x"] + rect["width"] <= box["x"] + box["width"] + 0.5
            assert float(item.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 12
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_cards_are_whole_everywhere(server: str, browser: Any, page: Any) -> None:
    # The deal in the end dialog never breaks inside a card.
    page.goto(server)
    open_settings(page, pace="instant", seed=SHORT_SEED)
    page.click("#watch-game")
    page.wait_for_selector("#end[open]")
    page.set_viewport_size({"width": 420, "height": 800})
    broken = page.evaluate(
        "[...document.querySelectorAll('#end-deal .deal-card')]"
        ".filter(c => c.getClientRects().length > 1).length"
    )
    assert page.locator("#end-deal .deal-card").count() == 52 and broken == 0
    # The "10" fits the open-hand mini cards.
    page.goto(server)
    open_settings(page, seed=SHORT_SEED)
    page.check("#opt-open")
    page.click("#play-computer")
    page.wait_for_selector(".open-stack .card.mini.ten")
    overflowing = page.evaluate(
        "[...document.querySelectorAll('.card.mini')].filter(c => c.scrollWidth > c.clientWidth"
        " || c.scrollHeight > c.clientHeight).length"
    )
    assert overflowing == 0
    # The hero cards are whole on a phone.
    with opened(browser, **PHONE) as phone:
        phone.goto(server)
        for card in phone.locator(".hero-card").all():
            rect = card.bounding_box()
            assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 390 and rect["y"] >= 0
        # A famous game shows real faces, not blank cards.
        phone.goto(f"{server}/#famous")
        phone.tap("button[aria-label='Watch Paulhus 1999']")
        phone.wait_for_selector("#pile .card img.face")
        assert "number card" not in phone.inner_text("#log")


# -- 12. the family table's time limit is a visible clock ------------------------------------------


def test_the_family_table_shows_its_clock(server: str, page: Any) -> None:
    page.goto(server)
    open_settings(page, rules="family-table")
    page.click("#play-computer")
    page.wait_for_selector("#clock:not([hidden])")
    assert re.fullmatch(r"(30:00|29:[0-5]\d)", page.inner_text("#clock"))
    assert page.get_attribute("#clock", "role") == "timer"


# -- 10. pay cards are the server's word ------------------------------------------------------------


def test_under_court_only_an_ace_is_not_drawn_as_a_pay_card(server: str, page: Any) -> None:
    page.goto(server)
    open_settings(page, rules="court-only", seed="1")
    page.check("#opt-open")
    page.click("#play-computer")
    page.wait_for_selector(".open-stack .card")
    aces = page.locator(".open-stack .card[aria-label^='ace']")
    kings = page.locator(".open-stack .card[aria-label^='king']")
    assert aces.count() == 4 and kings.count() == 4
    assert all("pay" not in (ace.get_attribute("class") or "").split() for ace in aces.all())
    assert all("pay" in (king.get_attribute("class") or "").split() for king in kings.all())


# -- replays -----------------------------------------------------------------------------------------


SCRUB_EACH = """last => {
  const scrub = document.querySelector('#scrub'), said = [];
  for (let card = 1; card <= last; card += 1) {
    scrub.value = String(card);
    scrub.dispatchEvent(new Event('input', {bubbles: true}));
    said.push([document.querySelector('#replay-text').innerText,
               document.querySelector('#replay-where').innerText]);
  }
  return said;
}"""
"""Each card from 1 to ``last`` chosen on the replay's slider, as a person drags it: what the replay
says then (its line for the card, and where it is)."""


def test_a_replay_link_reproduces_the_game_card_for_card(server: str, browser: Any, page: Any) -> None:
    page.goto(server)
    open_settings(page, pace="instant", seed=SHORT_SEED)
    page.click("#watch-game")
    page.wait_for_selector("#end[open]")
    page.wait_for_selector("#end-replay:not([hidden])")
    link = page.input_value("#end-link")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/r/[a-z0-9]{8}", link)
    page.click("#end-close")
    told = page.locator("#log li").all_inner_texts()[1:]  # after "New game: ..."
    assert len(told) == SHORT_CARDS
    with opened(browser) as viewer:  # anyone with the link: a fresh browser
        viewer.goto(link)
        viewer.wait_for_function(f"document.querySelector('#scrub')?.max === '{SHORT_CARDS}'")
        # The slider moved to each card in turn, in the page (one round trip, not two a card):
        # what the replay then says, and where it says it is.
        shown = viewer.evaluate(SCRUB_EACH, SHORT_CARDS)
        assert len(shown) == SHORT_CARDS
        for card, (text, where) in enumerate(shown, start=1):
            assert text == told[card - 1]
            assert where.startswith(f"Card {card} of {SHORT_CARDS}")
        viewer.click("#replay-start")
        assert viewer.inner_text("#replay-where") == f"Card 0 of {SHORT_CARDS}, trick 0"
        viewer.click("#replay-next-trick")
        first_trick = viewer.inner_text("#replay-where")
        assert first_trick.endswith("trick 1")
        viewer.click("#replay-back")
        assert viewer.inner_text("#replay-where").endswith("trick 0")
        viewer.click("#replay-end")
        end = f"Card {SHORT_CARDS} of {SHORT_CARDS}, trick {SHORT_TRICKS}"
        assert viewer.inner_text("#replay-where") == end
        assert viewer.locator("#replay-chart line.cursor").count() == 1


def test_a_famous_game_replay_reaches_any_card(server: str, page: Any) -> None:
    page.goto(f"{server}/#famous")
    page.click("a[aria-label='Replay Mann and Wu 2007']")
    page.wait_for_function("document.querySelector('#scrub')?.max === '7157'")
    for card in (7157, 1, 3579, 7000):
        page.fill("#scrub", str(card))
        page.dispatch_event("#scrub", "input")
        assert page.inner_text("#replay-where").startswith(f"Card {card:,} of 7,157")
    assert "B wins with all 52 cards" in page.inner_text("#replay-rules")


# -- the phone layout -----------------------------------------------------------------------------------


FIRST_SCREEN = """(() => {
  if (!document.querySelector('.owed')) return null;
  const boxes = {};
  for (const selector of ['#turn', '#pile', '#prompt', '.owed', '#seats']) {
    const {x, y, width, height} = document.querySelector(selector).getBoundingClientRect();
    boxes[selector] = width || height ? {x, y, width, height} : null;  // null: not shown
  }
  return {boxes, scrollY, scrollWidth: document.documentElement.scrollWidth};
})()"""
"""Once someone owes (else null): where the pile, what is owed, the prompt, the seats and the turn
button lie, the scroll, and the page's width, read in one moment (a marker goes as the debt is paid)."""


def test_on_a_phone_the_seats_sit_around_the_pile_and_the_first_screen_holds_the_play(
    server: str, browser: Any, brisk: None
) -> None:
    """On a phone, at a table of 2, 4 and 8 seats (one phone, one table each): before the first
    card, the seats sit around the pile (this person below it, someone across it, and with four
    seats or more someone on each side), every name whole and in view, this person's seat marked;
    then, played until someone owes, the pile, what is owed, the prompt, the seats and the turn
    button all lie in the first screen, nothing scrolled and nothing wider than the screen."""
    width, height = PHONE["viewport"]["width"], PHONE["viewport"]["height"]
    with opened(browser, **PHONE) as phone:
        for seats in (2, 4, 8):
            phone.goto(server)
            open_settings(phone, players=str(seats), name="Bartholomew", pace="slow", seed="11")
            phone.tap("#play-computer")
            phone.wait_for_selector("#pile.empty")
            # The seats around the pile, before the first card (slow pace: the computer waits).
            for name in phone.locator("#seats .name").all():
                box = name.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
                assert box["y"] >= 0 and box["y"] + box["height"] <= height, name.inner_text()
                assert name.evaluate("el => el.scrollWidth <= el.clientWidth"), name.inner_text()
                assert name.evaluate("el => getComputedStyle(el).textOverflow") != "ellipsis"
            mine = phone.locator(".seat.you")
            assert re.search(r"Bartholomew\s+\(you\)", mine.inner_text())
            assert float(mine.evaluate("el => parseFloat(getComputedStyle(el).outlineWidth)")) >= 3
            turn = phone.locator("#turn").bounding_box()
            assert turn is not None and turn["y"] + turn["height"] <= height
            pile = phone.locator("#pile").bounding_box()
            me = mine.bounding_box()
            others = [
                box for box in (seat.bounding_box() for seat in phone.locator(".seat:not(.you)").all()) if box
            ]
            assert pile is not None and me is not None and len(others) == seats - 1
            assert me["y"] >= pile["y"] + pile["height"]  # this person below the pile
            assert any(box["y"] + box["height"] <= pile["y"] for box in others)  # someone across it
            if seats >= 4:  # and someone on each side of it
                assert any(box["x"] + box["width"] <= pile["x"] for box in others)
                assert any(box["x"] >= pile["x"] + pile["width"] for box in others)
            assert phone.evaluate("document.documentElement.scrollWidth") <= width
            # Then played (the computer at fast pace; the control lies behind "More" on a phone)
            # until someone owes, to see the markers in the first screen.
            phone.locator("#pace").evaluate(
                "el => { el.value = 'fast'; el.dispatchEvent(new Event('change', { bubbles: true })); }"
            )
            while (seen := phone.evaluate(FIRST_SCREEN)) is None:
                turn_if_mine(phone)
                phone.wait_for_timeout(100)
                assert cards_turned(phone) < 300
            for selector, box in seen["boxes"].items():
                assert box is not None, selector
                assert box["y"] >= 0 and box["y"] + box["height"] <= height, (seats, selector, box)
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, (seats, selector, box)
            assert seen["scrollY"] == 0
            # Nothing wider than the screen once the cards have landed (a card in flight to a seat
            # at the screen's edge is read after its flight).
            phone.locator("#pace").evaluate(
                "el => { el.value = 'slow'; el.dispatchEvent(new Event('change', { bubbles: true })); }"
            )
            settled = "document.getAnimations().length === 0 ? document.documentElement.scrollWidth : null"
            assert phone.wait_for_function(settled).json_value() <= width


def test_an_empty_pile_says_who_turns_keeps_the_pile_s_size_and_the_cards_grow_with_the_window(
    server: str, page: Any
) -> None:
    """One table, resized: at a phone's width and a desktop's, the empty pile says whose turn it
    is, in a card-sized place of the pile's own height once a card lies on it; and the cards grow
    with the window (a phone's, a tablet's, a desktop's)."""
    sizes = ((390, 844), (1280, 800))
    play_the_computer(page, server, seed=SHORT_SEED, pace="slow")
    page.wait_for_selector("#pile.empty")
    empty, words = {}, {}
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        assert page.inner_text("#pile") == "Pile empty — your turn", (width, height)
        empty[width] = page.locator("#pile").bounding_box()
        words[width] = page.locator(".pile-empty").bounding_box()
    page.click("#turn")
    page.wait_for_selector("#pile .card")
    for width, height in sizes:  # the top card (a narrow pile may hide those under it), landed
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(SETTLED)
        full = page.locator("#pile").bounding_box()
        card = page.locator("#pile .card").last.bounding_box()
        assert empty[width] is not None and full is not None and words[width] is not None and card is not None
        assert empty[width]["height"] == full["height"], (width, height)
        assert words[width]["height"] >= 0.9 * card["height"], (width, height)  # a card-sized place
    landed = (
        "(() => { const top = [...document.querySelectorAll('#pile .card')].pop();"
        " return top && document.getAnimations().length === 0 ? top.offsetWidth : null; })()"
    )
    for (width, height), least in (((390, 844), 70), ((768, 1024), 120), ((1280, 800), 110)):
        page.set_viewport_size({"width": width, "height": height})
        # Read when a card lies on the pile, landed (the computer plays on: the pile may be
        # swept to a winner meanwhile, and a card in flight has not its size yet).
        assert page.wait_for_function(landed).json_value() >= least, (width, height)


# -- accessibility ------------------------------------------------------------------------------------


SETTLED = "document.getAnimations().length === 0"
"""No card is flying or sweeping: what axe-core measures (a colour's contrast) stands still."""


def test_no_page_has_an_accessibility_violation_in_light_or_dark(
    server: str, browser: Any, page: Any
) -> None:
    """axe-core audits every page: in the light theme for serious and critical violations, and in
    the dark theme (where a page has one to show) for violations of every impact. Each page is
    visited once and both themes are audited on that same document: the theme is the style
    sheet's answer to the colour scheme, which changes without a reload."""
    found: dict[str, list[str]] = {}

    def audit(name: str, on: Any = page, dark: bool = True) -> None:
        on.emulate_media(color_scheme="light")
        found[name] = axe(on)
        if dark:
            on.emulate_media(color_scheme="dark")
            found[f"{name}, dark"] = axe(on, impacts=None)
            on.emulate_media(color_scheme="light")

    page.goto(server)
    page.wait_for_selector("#home:not([hidden])")
    page.wait_for_function("document.querySelector('#opt-rules').options.length > 1")
    audit("home")
    open_settings(page, seed=SHORT_SEED, pace="slow")
    page.click("#play-computer")
    page.wait_for_selector("#pile.empty")
    audit("table, empty pile")
    for _ in range(3):
        page.wait_for_selector("#turn:enabled")
        page.click("#turn")
    page.wait_for_selector("#pile .card")
    page.wait_for_function(SETTLED)
    audit("table, mid-play")
    for name in ("lessons", "famous", "rules"):
        page.goto(f"{server}/#{name}")
        page.wait_for_selector(f"#{name}:not([hidden])")
        page.wait_for_function("document.querySelector('#opt-rules').options.length > 1")
        if name == "rules":
            page.wait_for_selector("#preset-table table")
        audit(name, dark=name == "rules")
    page.goto(f"{server}/#lessons")
    page.click("text=Start lesson 3")
    page.wait_for_selector("#table:not([hidden])")
    audit("lesson", dark=False)
    page.goto(server)
    open_settings(page, pace="instant", seed=SHORT_SEED)
    page.click("#watch-game")
    page.wait_for_selector("#end[open]")
    audit("end")
    page.goto(f"{server}/r/famous-0")
    page.wait_for_function("document.querySelector('#scrub')?.max > 0")
    audit("replay")
    page.goto(f"{server}/t/zzzzzz")
    page.wait_for_selector("#closed:not([hidden])")
    audit("closed", dark=False)
    with opened(browser, **PHONE) as phone:
        phone.goto(server)
        phone.tap("#play-computer")
        phone.wait_for_selector("#table:not([hidden])")
        audit("phone table", phone, dark=False)
        phone.goto(server)
        open_settings(phone, players="8", seed="11", pace="slow")
        phone.tap("#play-computer")
        phone.wait_for_selector("#pile.empty")
        audit("phone, eight seats", phone)
    assert {name: problems for name, problems in found.items() if problems} == {}
