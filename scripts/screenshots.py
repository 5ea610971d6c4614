"""Take the documentation's screenshots of the browser table (run by hand).

    .venv/bin/python scripts/screenshots.py [--out docs] [--all]

Starts ``beggar serve`` on a free loopback port (with a throw-away replay database), drives
Debian's Chromium with Playwright as a player, a friend joining by link and a spectator would, at
desktop 1280x800 and phone 390x844, and writes PNG files to ``docs/`` (``--all`` also writes the
extra views used to check the layout by eye).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from proxied import free_port

DOCS = Path(__file__).resolve().parent.parent / "docs"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
"""Reduced motion: a screenshot shows where the cards are, not a card in flight."""
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "reduced_motion": "reduce",
}


def wait_for_server(base: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def turn_until(page: Any, cards: int) -> None:
    """Turn this person's cards until ``cards`` have been turned at the table."""
    while int(page.inner_text("#counts").split()[0].replace(",", "")) < cards:
        if page.locator("#turn").is_enabled():
            page.keyboard.press("Space")
        page.wait_for_timeout(150)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS)
    parser.add_argument("--all", action="store_true", help="also the views checked by eye")
    options = parser.parse_args()
    out: Path = options.out
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "games.sqlite3"
    server = subprocess.Popen([sys.executable, "-m", "beggar", "serve", "--port", str(port), "--db", str(db)])
    base = f"http://127.0.0.1:{port}"
    extra = options.all
    try:
        wait_for_server(base)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            page = browser.new_page(**DESKTOP)
            page.goto(base)
            if extra:
                page.screenshot(path=out / "home.png")
            page.click("#setup summary")
            page.fill("#opt-seed", "2")
            page.fill("#opt-name", "Ann")
            page.click("#play-computer")
            page.wait_for_selector("#table:not([hidden])")
            turn_until(page, 15)
            while not page.locator(".owed").count():  # a moment with a payment under way
                if page.locator("#turn").is_enabled():
                    page.keyboard.press("Space")
                page.wait_for_timeout(150)
            page.screenshot(path=out / "table.png")

            page.goto(f"{base}/#lessons")
            page.click("text=Start lesson 3")
            page.wait_for_selector("#table:not([hidden])")
            for _ in range(7):
                page.keyboard.press("Space")
                page.wait_for_timeout(150)
            page.screenshot(path=out / "lesson.png")

            page.goto(f"{base}/#famous")
            page.click("button[aria-label='Watch Mann and Wu 2007']")
            page.wait_for_selector("#table:not([hidden])")
            page.select_option("#pace", "instant")
            page.wait_for_function(
                "parseInt(document.querySelector('#counts').innerText.replace(/,/g, '')) > 3000"
            )
            page.select_option("#pace", "slow")
            page.wait_for_timeout(600)
            page.screenshot(path=out / "famous.png")

            page.goto(f"{base}/r/famous-3")
            page.wait_for_function("document.querySelector('#scrub').max > 0")
            page.fill("#scrub", "5000")
            page.dispatch_event("#scrub", "input")
            page.click("#replay-next")
            page.wait_for_timeout(300)
            page.screenshot(path=out / "replay.png")

            host = browser.new_page(**DESKTOP)
            host.goto(base)
            host.click("#setup summary")
            host.fill("#opt-name", "Ann")
            host.click("#play-friend")
            host.wait_for_function("document.querySelector('#share-link').value.includes('/t/')")
            host.screenshot(path=out / "friend-waiting.png")
            link = host.input_value("#share-link")

            phone_context = browser.new_context(**PHONE)
            phone = phone_context.new_page()
            phone.goto(base)
            phone.tap("#setup summary")
            phone.fill("#opt-name", "Bea")
            phone.goto(link)
            phone.wait_for_selector("#table:not([hidden])")
            phone.wait_for_function("!document.querySelector('#prompt').innerText.startsWith('Waiting')")
            for _ in range(12):
                for each in (host, phone):
                    if each.locator("#turn").is_enabled():
                        each.click("#turn")
                        each.wait_for_timeout(250)
            phone.wait_for_timeout(600)
            phone.screenshot(path=out / "phone.png")
            if extra:
                spectator = browser.new_page(**DESKTOP)
                spectator.goto(link)
                spectator.wait_for_selector("#table:not([hidden])")
                spectator.wait_for_timeout(500)
                spectator.screenshot(path=out / "spectator.png")
                host.screenshot(path=out / "friend-host.png")
                host.click("#again")
                phone.wait_for_selector("#notice:not([hidden])")
                phone.screenshot(path=out / "phone-new-game-asked.png")
                closed = browser.new_page(**PHONE)
                closed.goto(f"{base}/t/zzzzzz")
                closed.wait_for_selector("#closed:not([hidden])")
                closed.screenshot(path=out / "closed.png")
                for seats in (4, 8):
                    eight = browser.new_page(**PHONE)
                    eight.goto(base)
                    eight.tap("#setup summary")
                    eight.select_option("#opt-players", str(seats))
                    eight.tap("#play-computer")
                    eight.wait_for_selector("#table:not([hidden])")
                    eight.wait_for_timeout(2500)
                    eight.screenshot(path=out / f"phone-{seats}.png")
                end = browser.new_page(**DESKTOP)
                end.goto(base)
                end.click("#setup summary")
                end.fill("#opt-seed", "763")
                end.select_option("#opt-pace", "instant")
                end.click("#watch-game")
                end.wait_for_selector("#end[open]")
                end.wait_for_timeout(400)
                end.screenshot(path=out / "end.png")
                end.click("#end-close")
                end.screenshot(path=out / "end-table.png")
                home_phone = browser.new_page(**PHONE)
                home_phone.goto(base)
                home_phone.screenshot(path=out / "home-phone.png")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"screenshots written to {out}")


if __name__ == "__main__":
    main()
