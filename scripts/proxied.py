"""The deployment on one machine: nginx, as configured in scripts/deploy/nginx.conf, in front of
several ``beggar serve`` processes, all on loopback, for trying it, measuring it, and the tests.

    .venv/bin/python scripts/proxied.py                     # until Ctrl+C; prints the address
    .venv/bin/python scripts/proxied.py --processes 2 --plain -- \\
        .venv/bin/python scripts/loadtest.py --url {ws} --tables 500 --seconds 20

nginx runs as this user in the foreground, with every file it writes (pid, logs, temporary files)
and a fresh self-signed certificate in a temporary folder, on free ports. Its site configuration is
scripts/deploy/nginx.conf with only its ports, upstream addresses and certificate changed (one
upstream line per process). The processes share one database in that folder. In a command,
``{url}`` is the page's address (``https://127.0.0.1:<port>/cards/``) and ``{ws}`` the sockets'.
Needs Debian's nginx and openssl (``apt-get install nginx openssl``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NGINX_CONF = ROOT / "scripts" / "deploy" / "nginx.conf"
PREFIX = "/cards"


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now (the tests take theirs from here too)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(
    url: str, process: subprocess.Popen[bytes], why: str, context: ssl.SSLContext | None = None
) -> None:
    # Generous: a server that is starting keeps going, and on a machine busy on every core its
    # imports alone have taken most of a minute; one that has died ends the wait at once.
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url, timeout=5, context=context).read()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{why} did not start") from None
            time.sleep(0.1)


@contextlib.contextmanager
def beggar_serve(*options: str, port: int | None = None, log: Path | None = None) -> Iterator[str]:
    """``beggar serve`` in a process of its own, as deployed; yields ``http://127.0.0.1:<port>``.

    It runs this checkout's code, whatever else is installed; its output goes to ``log`` if given.
    """
    port = port or free_port()
    source = str(ROOT / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "beggar", "serve", "--port", str(port), *options]
    with log.open("w+b") if log else tempfile.TemporaryFile() as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=output)
        url = f"http://127.0.0.1:{port}"
        try:
            try:
                _wait_for(f"{url}/healthz", process, "beggar serve")
            except RuntimeError:
                output.seek(0)
                raise RuntimeError(f"beggar serve did not start: {output.read().decode()}") from None
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def find_nginx() -> str | None:
    """Debian's nginx (in /usr/sbin, often outside a user's PATH), if it and openssl are here."""
    found = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/sbin/nginx") if os.path.exists(path)), None
    )
    return found if found and shutil.which("openssl") else None


def deployed_config(
    listen: int, redirect: int, backends: list[int], cert: Path, key: Path, *, tls: bool = True
) -> str:
    """``scripts/deploy/nginx.conf`` with only its ports, addresses and certificate changed.

    The file's upstreams list 127.0.0.1:8001 and :8002; the second line of each is repeated for
    every further process. Without ``tls`` (for load tests, whose client would spend more time on
    TLS than the servers on the game) the site is plain HTTP, the certificate lines dropped.
    """
    text = NGINX_CONF.read_text()
    changes = [
        ("listen 443 ssl;", f"listen 127.0.0.1:{listen} ssl;" if tls else f"listen 127.0.0.1:{listen};"),
        ("listen 80;", f"listen 127.0.0.1:{redirect};"),
        ("/etc/letsencrypt/live/cards.example/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/cards.example/privkey.pem", str(key)),
    ]
    for old, new in changes:
        if old not in text:
            raise RuntimeError(f"{NGINX_CONF} no longer says {old!r}")
        text = text.replace(old, new)
    lines = []
    for line in text.splitlines():
        if "127.0.0.1:8001" in line:
            lines.append(line.replace("127.0.0.1:8001", f"127.0.0.1:{backends[0]}"))
        elif "127.0.0.1:8002" in line:
            lines += [line.replace("127.0.0.1:8002", f"127.0.0.1:{port}") for port in backends[1:]]
        elif tls or "ssl_certificate" not in line:
            lines.append(line)
    if sum(f"127.0.0.1:{backends[0]}" in line for line in lines) != 2:
        raise RuntimeError(f"{NGINX_CONF} no longer has two upstreams of 127.0.0.1:8001 and :8002")
    return "\n".join(lines) + "\n"


def main_config(folder: Path, site: Path) -> str:
    """nginx's own settings for a run as this user, in the foreground, with every file in ``folder``."""
    temp = [
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    ]
    return "\n".join(
        [
            "daemon off;",
            "user root;" if os.geteuid() == 0 else "",  # as root, workers would otherwise be nobody
            "worker_processes 1;",
            # Each socket is two connections (browser and upstream): room for 1,000 tables of two.
            "worker_rlimit_nofile 16384;",
            "events { worker_connections 8192; }",
            f"pid {folder / 'nginx.pid'};",
            f"error_log {folder / 'error.log'} warn;",
            "http {",
            f"  access_log {folder / 'access.log'};",
            *(f"  {line}" for line in temp),
            f"  include {site};",
            "}",
            "",
        ]
    )


@dataclass
class Proxied:
    """nginx in front of ``beggar serve`` processes, on loopback."""

    url: str
    """The page: ``https://127.0.0.1:<port>/cards/``."""
    port: int
    backends: list[str] = field(default_factory=list)
    """Each process's own address (``http://127.0.0.1:<port>``, without the prefix)."""
    context: ssl.SSLContext = field(default_factory=ssl.create_default_context)
    """An SSL context that accepts the self-signed certificate."""

    @property
    def ws(self) -> str:
        """The sockets' address, to which the page adds ``/<table id>``."""
        return self.url.replace("https://", "wss://").replace("http://", "ws://") + "ws"


@contextlib.contextmanager
def proxied(processes: int = 2, *options: str, tls: bool = True) -> Iterator[Proxied]:
    """nginx on ``https://127.0.0.1:<port>/cards/`` (``http://`` without ``tls``) in front of
    ``processes`` servers (named a, b, ...; ``options`` go to each ``beggar serve``)."""
    nginx = find_nginx()
    if nginx is None:
        raise RuntimeError("Debian's nginx and openssl are needed: apt-get install nginx openssl")
    with tempfile.TemporaryDirectory() as temp, contextlib.ExitStack() as stack:
        folder = Path(temp)
        cert, key = folder / "cert.pem", folder / "key.pem"
        certificate = [
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
        ]
        subprocess.run(
            ["openssl", *certificate, "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True
        )
        common = ["--root-path", PREFIX, "--db", str(folder / "games.sqlite3"), *options]
        ports = [free_port() for _ in range(processes)]
        backends = [
            stack.enter_context(beggar_serve(*common, "--instance", chr(ord("a") + index), port=port))
            for index, port in enumerate(ports)
        ]
        port = free_port()
        site, main = folder / "beggar.conf", folder / "nginx.conf"
        site.write_text(deployed_config(port, free_port(), ports, cert, key, tls=tls))
        main.write_text(main_config(folder, site))
        command = [nginx, "-p", str(folder), "-c", str(main), "-e", str(folder / "error.log")]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        url = f"{'https' if tls else 'http'}://127.0.0.1:{port}{PREFIX}/"
        try:
            try:
                _wait_for(f"{url}healthz", process, "nginx", context)
            except RuntimeError:
                log = folder / "error.log"
                raise RuntimeError(
                    f"nginx did not start: {log.read_text() if log.exists() else ''}"
                ) from None
            yield Proxied(url=url, port=port, backends=backends, context=context)
        finally:
            process.terminate()
            process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2, help="beggar serve processes behind nginx")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="plain HTTP, no TLS (for load tests: the client's TLS costs most)",
    )
    parser.add_argument("command", nargs="*", help="run this ({url}, {ws} filled in), then stop")
    args = parser.parse_args()
    with proxied(args.processes, tls=not args.plain) as proxy:
        print(f"nginx: {proxy.url} in front of {', '.join(proxy.backends)}", flush=True)
        if args.command:
            command = [part.format(url=proxy.url, ws=proxy.ws) for part in args.command]
            sys.exit(subprocess.run(command, check=False).returncode)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()


if __name__ == "__main__":
    main()
