"""``beggar serve``: the browser table."""

from __future__ import annotations

import errno
import re
import socket
from types import FrameType

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port.")
@click.option(
    "--max-tables", default=1000, show_default=True, type=click.IntRange(1), help="Live tables at most."
)
@click.option(
    "--idle-minutes",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Close untouched tables.",
)
@click.option(
    "--instant-cards",
    default=8000.0,
    show_default=True,
    type=click.FloatRange(1),
    help="Cards a second all instant-pace tables together may turn.",
)
@click.option(
    "--db",
    default=None,
    type=click.Path(dir_okay=False),
    help="SQLite file for finished games' replay links [default: ~/.local/share/beggar/games.sqlite3].",
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
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Seconds a client has to send a request's line and headers before it is cut off.",
)
def serve_command(
    host: str,
    port: int,
    max_tables: int,
    idle_minutes: float,
    instant_cards: float,
    db: str | None,
    finds: str | None,
    allowed_origins: tuple[str, ...],
    root_path: str,
    forwarded_allow_ips: str,
    instance: str,
    header_timeout: float,
) -> None:
    """Serve the browser table: play the computer or a friend, watch, learn."""
    import uvicorn

    from beggar.commands.options import db_path
    from beggar.web.app import (
        ServerSettings,
        create_app,
        quiet_client_mistakes,
        stop_for_restart,
        tune_garbage_collector,
    )
    from beggar.web.archive import DatabaseError
    from beggar.web.deadline import deadline_protocol

    root_path = _root_path(root_path)
    _check_address(host, port)
    settings = ServerSettings(
        max_tables=max_tables,
        idle_seconds=idle_minutes * 60,
        instant_cards=instant_cards,
        allowed_origins=allowed_origins,
        finds=db_path(finds),
        instance=instance,
    )
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
        http=deadline_protocol(header_timeout),
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
