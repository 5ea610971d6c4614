"""What several test modules share: a game's events by kind and its state, a scripted WebSocket
client, a test client of a fresh server, Chromium's settings and page helpers, the accessibility
audit, and stored never-ending deals (fixtures live in conftest.py and tests/web/conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import shutil
import threading
import time
from collections import Counter
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
from proxied import free_port
from starlette.testclient import TestClient

from beggar.cycle import find_cycle
from beggar.engine import CardTurned, Game, GameRecord, Status, play
from beggar.notation import Deal, random_deal
from beggar.research.cycles.canon import canonical_form
from beggar.research.cycles.kinds import Composition
from beggar.research.exhaust import ExhaustDeck
from beggar.research.store import CycleDeal, Store, StoredCycle
from beggar.rules import STANDARD, Rules, rules_named
from beggar.web.app import create_app
from beggar.web.settings import ServerSettings

SHORT_SEED = 1432
"""A standard deal that ends after 40 cards (9 tricks), led by A at a friend table too."""
SHORT_CARDS, SHORT_TRICKS = 40, 9

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own.

    The session's Chromium is driven by Playwright's sync API, which keeps an event loop running
    in the main thread for as long as the browser is open; asyncio.run() refuses to start there.
    """
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


# -- the WebSocket protocol -----------------------------------------------------------------------


class Socket:
    """A test browser: sends messages and reads until the reply it wants."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def read(self) -> dict[str, Any]:
        message = self.ws.receive_json()
        self.seen.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, kind: str, test: Any = None, limit: int = 2000) -> dict[str, Any]:
        """The next message of this kind that passes ``test``; for a state, the current one may do."""
        if kind == "state" and test is not None and self.state is not None and test(self.state):
            return self.state
        for _ in range(limit):
            message = self.read()
            if message["type"] == kind and (test is None or test(message)):
                return message
        raise AssertionError(f"no {kind} message")

    def error(self) -> str:
        """The next error's message, in lower case (messages are sentences: they start capitalised)."""
        return str(self.until("error")["message"]).lower()


def create(socket: Socket, **fields: Any) -> dict[str, Any]:
    """Create a table over ``socket``; returns the ``joined`` message."""
    socket.send({"type": "create", **fields})
    joined = socket.until("joined")
    socket.until("state")
    return joined


def app_client(*, raise_server_exceptions: bool = True, root_path: str = "", **settings: Any) -> TestClient:
    """Starlette's test client of a fresh table server, to use in a ``with``: an in-memory database
    and a thousand messages a second allowed (a test's script is no flood), unless ``settings``
    say otherwise; ``root_path`` as uvicorn's ``--root-path`` gives it. The ``client`` fixture of
    tests/web/conftest.py is one."""
    base: dict[str, Any] = {"rate": 1000, "burst": 1000, "db": ":memory:"}
    return TestClient(
        create_app(ServerSettings(**{**base, **settings})),
        raise_server_exceptions=raise_server_exceptions,
        root_path=root_path,
    )


# -- a real server and Chromium -------------------------------------------------------------------

CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
"""Debian's build of Chromium's headless shell (package ``chromium-headless-shell``): the browser
Playwright itself runs headless, the same engine as Debian's ``chromium`` without its user
interface (windows, tabs, an address bar). Each new context costs it a renderer and no more: with
the full browser a context opened a window whose address bar preloaded pages of its own, and the
browser tests cost about a quarter more processor time."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 60_000
"""How long a page waits for what a test waits on. Generous: a passing test never waits it out, and
on a machine busy on every core a table's first state has taken longer than 20 seconds."""
PHONE_SCREEN = {"width": 390, "height": 844}
"""A phone's screen in CSS pixels: a viewport for :func:`opened`, or a size to compare with."""
PHONE: dict[str, Any] = {"viewport": PHONE_SCREEN, "is_mobile": True, "has_touch": True}
"""A phone as :func:`opened` takes one (``opened(browser, **PHONE)``): its screen, touch, and the
mobile viewport that a page's ``<meta name="viewport">`` sets."""
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def launch_chromium(playwright: Any) -> Any:
    """Debian's headless Chromium (:data:`CHROMIUM`), with Playwright's own settings and
    :data:`CHROMIUM_ARGS`."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def engine_records(rules: Rules, deals: list[Deal], firsts: list[int]) -> list[GameRecord]:
    """What the reference engine says of each deal, its seat in ``firsts`` leading: what every
    kernel is held to."""
    return [play(deal, rules, first=first) for deal, first in zip(deals, firsts, strict=True)]


def of_type(events: list[Any], kind: type) -> list[Any]:
    """The events of one kind, in order."""
    return [event for event in events if isinstance(event, kind)]


def state(game: Game) -> tuple[Any, ...]:
    """Everything that decides the rest of a game."""
    return (
        tuple(tuple(stack) for stack in game.stacks),
        tuple(game.pile),
        game.to_play,
        game.owed,
        game.creditor,
        tuple(game.out),
        game.cards,
        game.tricks,
        game.first,
    )


@functools.cache
def long_deal() -> Deal:
    """The first standard random deal (by seed, the first hand leading) of more than 150 cards: a
    game that goes on well past the cards a test of a saved or restarted table turns."""
    for seed in range(1, 1000):
        deal = random_deal(STANDARD, seed)
        if play(deal, first=0).cards > 150:
            return deal
    raise AssertionError("no long deal")


@contextlib.contextmanager
def serving(settings: ServerSettings) -> Iterator[str]:
    """The table served by uvicorn in a thread of this process; yields its address."""
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        instance.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def opened(browser: Any, viewport: dict[str, int] | None = None, **options: Any) -> Iterator[Any]:
    """A page in a fresh browser context (its own storage: another person), closed afterwards; a
    script error on it fails the test."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **options)
    created = context.new_page()
    errors: list[str] = []
    created.on("pageerror", lambda exc: errors.append(str(exc)))
    created.set_default_timeout(TIMEOUT_MS)
    try:
        yield created
    finally:
        context.close()
    assert errors == [], errors


def shared_facts(page: Any) -> list[str]:
    """The end dialog's facts, which every seat shares (the headline says the result from each)."""
    script = "dts => dts.map(t => t.nextElementSibling.textContent)"
    return list(page.locator("#end-facts dt").evaluate_all(script))


def cards_turned(page: Any) -> int:
    """The cards turned so far at the table, as its counts line says."""
    return int(page.inner_text("#counts").split()[0].replace(",", ""))  # "8,344 cards turned"


def turn_if_mine(page: Any) -> None:
    """Press Turn if it is this seat's turn, in one step inside the page: asked first and pressed
    after, the button may have gone disabled in between (the trick or the game moved on), and a
    click on a disabled button waits out the whole timeout."""
    page.evaluate("() => { const turn = document.querySelector('#turn'); if (!turn.disabled) turn.click(); }")


def at_table(page: Any) -> None:
    """Wait until the table has drawn its first state: the page shows the table as soon as it has
    joined, and draws the seats when the first state comes, a moment later."""
    page.wait_for_selector("#table:not([hidden]) #seats .seat")


_NEXT_CARD = """([before, selector]) => {
  const cards = parseInt(document.querySelector('#counts').innerText.replace(/,/g, ''));
  if (!(cards > before) && !document.querySelector('#end').open) return null;
  return [cards, document.querySelector(selector).innerText.trim()];
}"""


def next_card(page: Any, before: int, read: str = "#lesson-note") -> tuple[int, str]:
    """Press Space and wait until the table shows more than ``before`` cards turned (or the end):
    the cards turned then, and what ``read`` says in that same moment."""
    page.keyboard.press("Space")
    cards, text = page.wait_for_function(_NEXT_CARD, arg=[before, read]).json_value()
    return int(cards), str(text)


def open_settings(page: Any, **values: str | int) -> None:
    """Open "House rules and table settings" (unless open) and set each field."""
    if not page.locator("#setup").evaluate("el => el.open"):
        page.click("#setup summary")
    for field, value in values.items():
        locator = page.locator(f"#opt-{field}")
        if locator.evaluate("el => el.tagName") == "SELECT":
            locator.select_option(str(value))
        else:
            locator.fill(str(value))


def friend_table(page: Any, server: str, **settings: str | int) -> str:
    """Open a friend table from the home page with these settings; the link to share."""
    page.goto(server)
    open_settings(page, **settings)
    page.click("#play-friend")
    page.wait_for_function("document.querySelector('#share-link').value.includes('/t/')")
    return str(page.locator("#share-link").input_value())


def seat_a_friend(host: Any, guest: Any, server: str, friend: str = "Bea", **settings: str | int) -> str:
    """Open a friend table from ``host``'s page with these settings, and let ``guest``, named
    ``friend``, sit down at it by its link; returns the link once the host sees them seated."""
    link = friend_table(host, server, **settings)
    guest.goto(server)
    open_settings(guest, name=friend)
    guest.goto(link)
    host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting to join')")
    return link


def play_the_computer(page: Any, server: str, **settings: str | int) -> None:
    """From the home page with these settings, play the computer, until it is this person's turn."""
    page.goto(server)
    open_settings(page, **settings)
    page.click("#play-computer")
    page.wait_for_selector("#turn:enabled")


def watch_to_the_end(page: Any, server: str, **settings: str | int) -> None:
    """:func:`play_the_computer`, then let the computer turn both players' cards ("Watch both
    players") and wait for the end dialog."""
    play_the_computer(page, server, **settings)
    page.click("#auto")
    page.wait_for_selector("#end[open]")


def play_my_cards_until_the_end(page: Any) -> None:
    """Press Space whenever it is this person's turn, until the end screen shows."""
    deadline = time.monotonic() + 60
    while not page.locator("#end").evaluate("el => el.open"):
        assert time.monotonic() < deadline, "the game did not end"
        if page.locator("#turn").is_enabled():
            page.keyboard.press("Space")
        page.wait_for_timeout(30)


def axe(page: Any, impacts: tuple[str, ...] | None = ("serious", "critical")) -> list[str]:
    """The violations axe-core (vendored) finds on the page, of these impacts (None: all)."""
    if not page.evaluate("typeof axe === 'object'"):  # once a document: half a megabyte to parse
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
        for v in result["violations"]
        if impacts is None or v["impact"] in impacts
    ]


BOARD_STAYS = ("#seats", "#pile", "#turn", "#table .controls", "#pause", "#again")
"""What news of the others (a friend away, a friend's ask) must not move."""


def board_places(page: Any) -> dict[str, Any]:
    """Where each of :data:`BOARD_STAYS` lies now."""
    return {selector: page.locator(selector).bounding_box() for selector in BOARD_STAYS}


def in_view_over_nothing(page: Any, selector: str) -> list[str]:
    """What is wrong with where `selector` lies: out of the viewport, or over another element."""
    return page.evaluate(
        """selector => {
          const news = document.querySelector(selector), box = news.getBoundingClientRect();
          const wrong = [];
          if (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth)
            wrong.push(`out of view: ${JSON.stringify(box)}`);
          const others = document.querySelectorAll(
            '#table > *:not(.asks-anchor), #table .controls, #table .actions, #table .log-head > *');
          for (const other of others) {
            if (other.contains(news) || news.contains(other) || !other.getClientRects().length) continue;
            const o = other.getBoundingClientRect();
            if (o.width === 0 || o.height === 0) continue;
            const overlap = Math.min(box.bottom, o.bottom) - Math.max(box.top, o.top) > 0.5
              && Math.min(box.right, o.right) - Math.max(box.left, o.left) > 0.5;
            if (overlap) wrong.push(`over ${other.id || other.className || other.tagName}`);
          }
          return wrong;
        }""",
        selector,
    )


# -- never-ending deals in a store ----------------------------------------------------------------

EASY = "half-deck:pay=J1Q2"
EASY_DEALS = ("KJ----Q----KQ/AAJ----------", "--------KKAJA/--Q-----Q--J-")
SHOWN = ("-J----Q-----Q/--J----------", "-----------J-/--Q-----Q--J-")
"""The stored deals as the page shows them: under J1Q2 a king or an ace pays nothing, so it is ``-``."""


def store_rows(path: Path, rows: list[tuple[str, str, str, int, int]]) -> None:
    """Write ``(rules, deal, cycle, pre_period_tricks, pre_period_cards)`` rows as the factory does,
    each with its full-deck cycle row (figures from the canonical form where the deal loops)."""
    store = Store(path)
    campaign = store.campaign({"rules": "test"})
    cycles: dict[tuple[str, str], StoredCycle] = {}
    for rules, deal, cycle, _, _ in rows:
        try:
            form = canonical_form(deal, rules_named(rules))
            period = (form.period_tricks, form.period_cards)
        except Exception:  # a malformed row still gets a cycle row, so that the factory's join keeps it
            period = (1, 1)
        cycles[(rules, cycle)] = StoredCycle(
            cycle, 52, *period, False, 0, 0, "", True, rules=rules, met=1, move="test"
        )
    store.save_factory_unit(
        campaign,
        walker=0,
        unit=0,
        state={},
        scored=0,
        seconds=0.0,
        cycles=list(cycles.values()),
        basins=[],
        deals=[CycleDeal(*row) for row in rows],
        finds=[],
        moves=[],
    )
    store.close()


def factory_row(rules: str, deal: str) -> tuple[str, str, str, int, int]:
    """The row the factory stores for a deal that never ends."""
    cycle = find_cycle(deal, rules_named(rules), first=0)
    assert cycle is not None
    form = canonical_form(deal, rules_named(rules))
    return (rules, deal, form.deal, cycle.pre_period_tricks, cycle.pre_period_cards)


# -- cycles by brute force ------------------------------------------------------------------------


def arrangements(counts: list[int]) -> Iterator[list[int]]:
    """Every order of a multiset of kinds."""
    if sum(counts) == 0:
        yield []
        return
    for kind, count in enumerate(counts):
        if count:
            counts[kind] -= 1
            for rest in arrangements(counts):
                yield [kind, *rest]
            counts[kind] += 1


def leader_cards(deal: str, rules: Rules, period_cards: int) -> int:
    """Of the first ``period_cards`` cards the engine turns from ``deal`` (the first hand leading,
    no limits), how many the leader turns: a cycle's ``k1`` when ``deal`` is on it."""
    game = Game(deal, rules.unlimited(), first=0, complete=False)
    turned = k1 = 0
    while turned < period_cards:
        for event in game.step():
            if isinstance(event, CardTurned):
                turned += 1
                k1 += event.player == 0
    return k1


def brute_force(composition: Composition, max_period: int) -> tuple[set[tuple[int, int, int]], set[str]]:
    """Every (period, k1, n1) some position on a cycle has (with repeats of shorter cycles), and the
    leader-first positions on cycles, from the engine playing every position of the deck."""
    found: set[tuple[int, int, int]] = set()
    on_cycles: set[str] = set()
    for kinds in arrangements(list(composition.counts)):
        for n1 in range(1, composition.size):
            deal = composition.compact(kinds, n1)
            cycle = find_cycle(deal, composition.rules, first=0, complete=False)
            if cycle is None or cycle.pre_period_tricks:
                continue
            on_cycles.add(deal)
            k1 = leader_cards(deal, composition.rules, cycle.period_cards)
            repeat = 1
            while repeat * cycle.period_cards <= max_period:
                found.add((repeat * cycle.period_cards, repeat * k1, n1))
                repeat += 1
    return found, on_cycles


Played = tuple[Counter[int], Counter[int], tuple[int, int], list[int], list[tuple[int, int, int]]]


@functools.cache
def every_deal_by_the_engine(rules: str, cards_spec: str) -> Played:
    """Every deal of a small deck (``beggar exhaust``'s, in index order) played by the reference
    engine: the lengths in cards and tricks, the wins, the never-ending deals' indices and each
    finished game's ``(cards, tricks, index)``."""
    deck = ExhaustDeck.of(rules_named(rules), cards_spec)
    cards: Counter[int] = Counter()
    tricks: Counter[int] = Counter()
    wins = [0, 0]
    never: list[int] = []
    games = []
    for index in range(deck.total):
        record = Game(deck.deal(index), deck.rules, first=0, complete=False).run()
        if record.status is Status.LOOP:
            never.append(index)
            continue
        assert record.winner is not None
        cards[record.cards] += 1
        tricks[record.tricks] += 1
        wins[record.winner] += 1
        games.append((record.cards, record.tricks, index))
    return cards, tricks, (wins[0], wins[1]), never, games
