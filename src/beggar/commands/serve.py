"""``beggar serve``: the browser table."""

from __future__ import annotations

import errno
import re
import socket
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

import click

from beggar.commands.options import Amount, Whole
from beggar.web.settings import options

F = TypeVar("F", bound=Callable[..., Any])


def _limit_options(command: F) -> F:
    """One option for each limit :class:`~beggar.web.settings.ServerSettings` declares."""
    for name, option, default in reversed(options()):
        kind = Whole(int(option.low)) if option.whole else Amount(option.low)
        command = click.option(
            option.flag, name, default=default, show_default=True, type=kind, help=option.help
        )(command)
    return command


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=Whole(0, 65535), help="Port.")
@click.option(
    "--db",
    default=None,
    type=click.Path(dir_okay=False),
    help=(
        "SQLite file of finished games (their replay links) and live tables (kept across restarts) "
        "[default: ~/.local/share/beggar/games.sqlite3]."
    ),
)
@click.option(
    "--finds",
    default=None,
    type=click.Path(dir_okay=False),
    help="The store of beggar factory and beggar search, read only: its never-ending deals are listed "
    "with the famous games (default: $BEGGAR_DB, or beggar.db here; a missing file lists none).",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    help="A web origin (https://cards.example) whose pages may open tables here, besides this host "
    "(Host, or X-Forwarded-Host from a reverse proxy). May be given more than once.",
)
@click.option(
    "--root-path",
    default="",
    help="The path prefix a reverse proxy serves the table under (/cards), having stripped it "
    "from each request.",
)
@click.option(
    "--forwarded-allow-ips",
    default="127.0.0.1",
    show_default=True,
    help="Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed "
    "(comma-separated; * for any): the per-address limits then count the real client.",
)
@click.option(
    "--instance",
    default="0",
    show_default=True,
    help="This process's name among several serving the same tables behind one proxy.",
)
@_limit_options
def serve_command(
    host: str,
    port: int,
    db: str | None,
    finds: str | None,
    allowed_origins: tuple[str, ...],
    root_path: str,
    forwarded_allow_ips: str,
    instance: str,
    **limits: float,
) -> None:
    """Serve the browser table: play the computer or a friend, watch, learn."""
    import uvicorn

    from beggar.commands.options import db_path
    from beggar.web.app import create_app, stop_for_restart, tune_garbage_collector
    from beggar.web.archive import DatabaseError
    from beggar.web.deadline import deadline_protocol
    from beggar.web.logs import quiet_client_mistakes
    from beggar.web.settings import ServerSettings

    root_path = _root_path(root_path)
    _check_address(host, port)
    settings = ServerSettings(
        allowed_origins=allowed_origins,
        finds=db_path(finds),
        instance=instance,
    )
    for name, option, _ in options():
        setattr(settings, name, _scaled(limits[name], option.scale))
    if db is not None:
        settings.db = db
    app = create_app(settings)
    try:
        app.state.archive.open()
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    shown = f"[{host}]" if ":" in host else host
    if root_path:
        click.echo(f"beggar: serving http://{shown}:{port}/ for a proxy's {root_path}/ (Ctrl+C stops it)")
    else:
        click.echo(f"beggar: the table is at http://{shown}:{port}/ (Ctrl+C stops it)")
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        root_path=root_path,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        http=deadline_protocol(settings.header_seconds),
    )
    server = uvicorn.Server(config)
    uvicorn_exit = server.handle_exit

    def handle_exit(sig: int, frame: FrameType | None) -> None:
        if not server.should_exit:
            stop_for_restart(app)  # save every table before uvicorn closes the connections (1012)
        uvicorn_exit(sig, frame)

    server.handle_exit = handle_exit  # type: ignore[method-assign]
    tune_garbage_collector()
    quiet_client_mistakes()  # after uvicorn.Config, which sets its loggers up
    server.run()


def _scaled(value: float, scale: float) -> float:
    """A limit as typed, in the unit the settings keep (a whole number stays whole)."""
    return value if scale == 1 else value * scale


def _root_path(text: str) -> str:
    """``/cards/`` or ``/cards`` as uvicorn wants it (``/cards``; none: ``""``), or a plain error."""
    text = text.strip()
    if not text or text == "/":
        return ""
    if not re.fullmatch(r"(/[A-Za-z0-9._~-]+)+/?", text):
        raise click.BadParameter(
            "a path such as /cards or /games/cards: letters, digits and - _ . ~ between slashes",
            param_hint="--root-path",
        )
    return text.rstrip("/")


def _check_address(host: str, port: int) -> None:
    """Refuse an address that cannot be listened on with one plain line (uvicorn would exit 3)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise click.ClickException(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            why = "the port is in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
            raise click.ClickException(f"cannot listen on {host}:{port}: {why}") from None


COMMANDS = (serve_command,)
