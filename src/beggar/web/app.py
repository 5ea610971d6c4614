"""The ASGI application: the browser table's pages, its options, its replays, and the routes.

The page opens a table's socket at ``/ws/<id>`` (a new table's id comes from ``/api/table-id``):
that socket serves that one table, so that several processes can share the tables behind a proxy
that routes by the id. ``/ws`` serves any table of this process. What a socket does is
:mod:`beggar.web.handler`'s; the tables are :mod:`beggar.web.lobby`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import html
import logging
import mimetypes
from collections import deque
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from beggar.lessons import LESSONS
from beggar.records import ALL_GAMES
from beggar.rules import MAX_PLAYERS, MIN_PLAYERS, parse_whole
from beggar.web.archive import Archive, ArchiveError, DamagedGame
from beggar.web.durable import Keeper
from beggar.web.handler import BROWSER_COOKIE, archiver, browser_mark, deal_problem, serve
from beggar.web.ids import new_table_id, new_token
from beggar.web.limits import AddressLimits
from beggar.web.lobby import Lobby
from beggar.web.logs import flush_summaries
from beggar.web.never_ending import FoundDeal, FoundShelf
from beggar.web.presets import COMPUTER_DEFAULT, FRIEND_DEFAULT, preset_entries
from beggar.web.protocol import MAX_DEAL, MAX_SPEC
from beggar.web.replay import replay_famous, replay_found, replay_saved
from beggar.web.replay_cache import ReplayCache
from beggar.web.settings import ServerSettings
from beggar.web.table import DealtAgain, Mode, Pace
from beggar.web.view import dealt_again_words, famous_json, invitation

STATIC = Path(__file__).parent / "static"
# Some systems' MIME tables lack these; module scripts and SVG faces need the right types.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")
log = logging.getLogger(__name__)


SEAT_HEADER = "Beggar-Seat"
INVITE_HEADER = "Beggar-Invite"
"""A free seat's invitation (:func:`beggar.web.view.invitation`), as percent-encoded JSON."""
"""The header of a table's page (``/t/<id>``) that says whether someone new opening it would sit
down: ``free`` (a seat waits for a person: the page asks their name first) or ``taken`` (every
seat is held: they watch, and are asked nothing). The server decides who sits, so the page asks
it rather than guess from what it has."""


def page(request: Request, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """The one page, its ``<base>`` set to where a reverse proxy mounts this server
    (``--root-path``): every URL in the page and its scripts is relative to that."""
    root = html.escape(str(request.scope.get("root_path", "")).rstrip("/"), quote=True)
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    text = text.replace('<base href="/">', f'<base href="{root}/">', 1)
    response = HTMLResponse(
        text, status_code=status, headers={"Cache-Control": "no-cache", **(headers or {})}
    )
    if not browser_mark(request.cookies.get(BROWSER_COOKIE)):
        # The browser's own mark: its tables are counted by it (a classroom shares one address).
        response.set_cookie(
            BROWSER_COOKIE,
            new_token(),
            max_age=400 * 24 * 3600,
            path=str(request.scope.get("root_path", "")).rstrip("/") + "/",
            httponly=True,
            samesite="lax",
        )
    return response


async def index(request: Request) -> Response:
    """The one page; a link to a table that is not open is answered 404 (the page says so), one to
    an open table says whether a seat is free there (:data:`SEAT_HEADER`)."""
    table_id = request.path_params.get("table_id")
    if table_id is None:
        return page(request)
    lobby: Lobby = request.app.state.lobby
    keeper: Keeper | None = request.app.state.keeper
    if table_id in lobby.restoring and keeper is not None:
        await keeper.ready(table_id)  # a table still being brought back after a restart
    table = lobby.tables.get(table_id)
    if table is None:
        return page(request, 200 if table_id in lobby.restoring else 404)
    headers = {SEAT_HEADER: "taken" if table.free_seat() is None else "free"}
    if table.free_seat() is not None:
        # Whose table it is and its seats, for the name question (a header: the page's HEAD asks
        # for it by the table's own address, which a proxy sends to the process that holds it).
        headers[INVITE_HEADER] = quote(orjson.dumps(invitation(table)).decode())
    return page(request, headers=headers)


async def replay_page(request: Request) -> Response:
    """A replay link; the page fetches the replay from ``/api/replay/<id>`` (404: none such)."""
    game_id = request.path_params["game_id"]
    status = 200
    if game_id.startswith("found-"):
        if await run_in_threadpool(request.app.state.found.get, game_id) is None:
            status = 404
    elif not game_id.startswith("famous-"):
        try:
            request.app.state.archive.load(game_id)
        except ArchiveError:
            status = 404
    elif _famous_index(game_id) is None:
        status = 404
    return page(request, status)


def _famous_index(game_id: str) -> int | None:
    """The famous game ``famous-<n>`` names, if there is one."""
    try:
        return parse_whole(game_id.removeprefix("famous-"), 0, len(ALL_GAMES) - 1, "a famous game")
    except ValueError:
        return None


async def options(request: Request) -> Response:
    # Reading the factory's store plays its deals through the engine: off the event loop.
    found = await run_in_threadpool(request.app.state.found.deals)
    return JSONResponse(site_options(found, request.app.state.settings))


async def table_id(request: Request) -> Response:
    """A fresh id for a table about to be created (any process may answer).

    The page opens the new table's socket at ``/ws/<id>``, so that a reverse proxy routing by
    table id sends its creator, and later everyone with its link, to the same process.
    """
    return JSONResponse({"table": new_table_id()}, headers={"Cache-Control": "no-store"})


async def check_deal(request: Request) -> Response:
    """Whether a deal typed in the settings could be played (``/api/check-deal?deal=…&mode=…``,
    with the ``rules`` and ``players`` the new table would get): ``{"error": sentence}``, the one
    a new table would give, ``""`` if none."""
    query = request.query_params
    deal, spec = query.get("deal", "").strip(), query.get("rules", "").strip() or None
    players = query.get("players", "")
    mode = Mode.FRIENDS if query.get("mode") == "friends" else Mode.COMPUTER
    number = int(players) if players.isdigit() and len(players) < 3 else None
    problem = ""
    if deal and len(deal) <= MAX_DEAL and (spec is None or len(spec) <= MAX_SPEC):
        problem = deal_problem(deal, mode, spec, number)
    return JSONResponse({"error": problem}, headers={"Cache-Control": "no-store"})


async def replay_data(request: Request) -> Response:
    """Every frame of a finished game (``/api/replay/<id>``), a famous one (``famous-<n>``) or a
    never-ending deal found here (``found-<key>``).

    Each answer is built once, in a worker thread, and kept (:mod:`beggar.web.replay_cache`): a
    replay never changes. One address may ask for so many a minute
    (:attr:`~beggar.web.settings.ServerSettings.replays_per_minute`).
    """
    limits: AddressLimits = request.app.state.limits
    if not limits.may_replay(request.client.host if request.client else ""):
        return JSONResponse(
            {"error": "Too many replays asked for from here: wait a minute, then reload."},
            status_code=429,
            headers={"Retry-After": "30"},
        )
    cache: ReplayCache = request.app.state.replays
    game_id = request.path_params["game_id"]
    if game_id.startswith("found-"):
        found = await run_in_threadpool(request.app.state.found.get, game_id)
        if found is None:
            return JSONResponse({"error": "There is no such never-ending deal here."}, status_code=404)
        answer = await cache.get(f"{game_id}:{found.deal}", lambda: replay_found(found))
        return answer.response(request)
    if game_id.startswith("famous-"):
        index = _famous_index(game_id)
        if index is None:
            return JSONResponse({"error": "There is no such famous game."}, status_code=404)
        answer = await cache.get(game_id, lambda: replay_famous(ALL_GAMES[index]))
        return answer.response(request)
    archive: Archive = request.app.state.archive
    damaged = JSONResponse({"error": "This replay is damaged and cannot be shown."}, status_code=404)
    try:
        saved = archive.load(game_id)
    except DamagedGame as exc:
        log.warning("beggar: the stored game %s cannot be read: %s", game_id, exc)
        return damaged
    except ArchiveError:
        return JSONResponse({"error": "This replay does not exist."}, status_code=404)
    # The game's own player (``?you=<seat>``) gets it told from their seat, as their table told it;
    # only a seat a person played in can be asked for, and anyone else gets every seat by name.
    you = None
    asked = request.query_params.get("you")
    if asked is not None:
        try:
            you = parse_whole(asked, 0, len(saved.names) - 1, "a seat")
        except ValueError:
            return JSONResponse({"error": "There is no such seat in this game."}, status_code=400)
        if saved.mode not in (Mode.COMPUTER, Mode.FRIENDS):
            you = None  # watched, famous or a lesson: nobody's own seat, told by names

    def build() -> dict[str, Any]:
        data = replay_saved(saved.game, saved.names, you)
        # A deal dealt again before it in its sitting (a loop under the family table) has a replay
        # of its own: the page says how it ended and links to it.
        before = [DealtAgain.from_json(deal) for deal in saved.dealt_again]
        data["dealt_again"] = [deal.to_json() for deal in before]
        data["notes"] = dealt_again_words(before)
        data["dealt_next"] = archive.dealt_after(game_id)  # this deal looped: the one dealt after it
        # The page calls the game as its table did ("You against Robin"), in the table's own
        # words: it needs the table's mode and the seat it is told from.
        data["mode"] = saved.mode
        data["you"] = you
        data["finished"] = saved.finished
        return data

    try:
        answer = await cache.get(f"{game_id}:{you}", build)
    except Exception as exc:  # a row damaged inside its JSON: whatever breaks, the replay is lost
        log.warning("beggar: the stored game %s cannot be replayed: %s: %s", game_id, type(exc).__name__, exc)
        return damaged
    return answer.response(request)


async def health(request: Request) -> Response:
    """Liveness, the number of tables, how late recent updates left the server, and the rate the
    instant tables may turn cards at now (it falls while the server is busy)."""
    delays: deque[float] = request.app.state.delays
    lobby: Lobby = request.app.state.lobby
    recent = sorted(delays)
    pick = (lambda q: round(recent[min(len(recent) - 1, int(q * len(recent)))] * 1000, 1)) if recent else None
    return JSONResponse(
        {
            "ok": True,
            "instance": request.app.state.settings.instance,
            "tables": len(lobby.tables),
            "updates": len(recent),
            "update_delay_ms": None if pick is None else {"p50": pick(0.5), "p99": pick(0.99)},
            "instant_cards_per_s": round(lobby.budget.rate),
        }
    )


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    lobby: Lobby = app.state.lobby
    app.state.loop = asyncio.get_running_loop()
    if app.state.keeper is not None:
        app.state.keeper.start()
    janitor = asyncio.create_task(_janitor(lobby))
    # Read the factory's deals once now, so that the first visitor does not wait for them.
    reading = asyncio.create_task(run_in_threadpool(app.state.found.deals))
    try:
        yield
    finally:
        janitor.cancel()
        await reading
        _stop_for_restart(app)
        lobby.close_all()
        app.state.archive.close()


def stop_for_restart(app: Starlette) -> None:
    """The server is about to stop (SIGTERM, Ctrl+C): freeze every table and save it, before the
    connections are closed (with 1012, "service restart": the browsers come back to their seats).

    Safe to call from a signal handler: the work is done on the event loop, ahead of the server's
    own shutdown.
    """
    loop: asyncio.AbstractEventLoop | None = getattr(app.state, "loop", None)
    if loop is not None and not loop.is_closed():
        loop.call_soon_threadsafe(_stop_for_restart, app)


def _stop_for_restart(app: Starlette) -> None:
    app.state.lobby.freeze()
    if app.state.keeper is not None:
        app.state.keeper.save_all()


ROUTES = [
    Route("/", index),
    Route("/t/{table_id}", index),
    Route("/r/{game_id}", replay_page),
    Route("/api/options", options),
    Route("/api/table-id", table_id),
    Route("/api/check-deal", check_deal),
    Route("/api/replay/{game_id}", replay_data),
    Route("/healthz", health),
    WebSocketRoute("/ws", serve),
    WebSocketRoute("/ws/{table_id}", serve),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


def create_app(settings: ServerSettings | None = None) -> Starlette:
    """The web application. ``settings`` bound the tables, their idle time and message rates."""
    settings = settings or ServerSettings()
    app = Starlette(
        routes=ROUTES, lifespan=lifespan, middleware=[Middleware(GZipMiddleware, minimum_size=2000)]
    )
    app.state.settings = settings
    app.state.lobby = Lobby(settings)
    app.state.archive = Archive(settings.db)
    app.state.found = FoundShelf(settings.finds)
    app.state.keeper = None
    if str(settings.db) != ":memory:":
        on_game_over = archiver(app.state.archive)
        keeper = Keeper(
            app.state.archive, app.state.lobby, instance=settings.instance, on_game_over=on_game_over
        )
        app.state.lobby.on_open = keeper.watch
        app.state.keeper = keeper
    app.state.limits = AddressLimits(settings)
    app.state.replays = ReplayCache()
    app.state.delays = deque(maxlen=200_000)
    return app


GC_THRESHOLDS = (20_000, 20, 10)
"""The cycle collector's thresholds for a server process (Python's own: 700, 10, 10)."""


def tune_garbage_collector() -> None:
    """Fit Python's cycle collector to a server that holds thousands of live tables.

    Each live table keeps a few hundred objects, and each table and browser waiting for its next
    card or state holds a timer, a future and a coroutine for about a second. With Python's
    thresholds the collector examined those over and over: a fifth of the server's time at 2,000
    tables at normal pace, and a full collection of the whole heap every ten seconds or so, each
    stopping every update for up to 0.3 s. Looking at young objects every 20,000 allocations
    instead finds most of them gone by then (about 2 % of the time, pauses of a few tens of ms;
    measured with scripts/loadtest.py, see the README). Most garbage here has no cycles and is
    freed at once whatever the thresholds; the soak (scripts/soak.py) watches the memory.
    """
    gc.set_threshold(*GC_THRESHOLDS)


def site_options(found: Sequence[FoundDeal] = (), settings: ServerSettings | None = None) -> dict[str, Any]:
    """What the home page offers: rule presets, lessons, famous games, paces, the default rules,
    and the limits it tells people about (so that the page says what this server does).

    ``found``: the never-ending deals the cycle factory found (listed after the famous games).
    """
    settings = settings or ServerSettings()
    return {
        "limits": {**settings.page_limits(), "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS}},
        "presets": preset_entries({str(pace): pace.delay for pace in Pace}),
        "defaults": {"computer": COMPUTER_DEFAULT, "friends": FRIEND_DEFAULT, "watch": COMPUTER_DEFAULT},
        "lessons": [{"number": each.number, "title": each.title, "intro": each.intro} for each in LESSONS],
        "famous": [{"index": i, **famous_json(game)} for i, game in enumerate(ALL_GAMES)],
        "found": [deal.to_json() for deal in found],
        "paces": [str(pace) for pace in Pace],
    }


async def _janitor(lobby: Lobby) -> None:
    while True:
        await asyncio.sleep(30)
        lobby.close_idle()
        lobby.close_unwatched()
        flush_summaries()


__all__ = [
    "GC_THRESHOLDS",
    "ROUTES",
    "SEAT_HEADER",
    "create_app",
    "site_options",
    "stop_for_restart",
    "tune_garbage_collector",
]
