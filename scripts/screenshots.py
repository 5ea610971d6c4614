"""Take the README's screenshots of the browser table (run by hand).

    .venv/bin/python scripts/screenshots.py

Starts ``beggar serve`` on a free loopback port, drives Debian's Chromium with Playwright and
writes PNG files to ``docs/``.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

DOCS = Path(__file__).resolve().parent.parent / "docs"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "beggar", "serve", "--port", str(port)])
    base = f"http://127.0.0.1:{port}"
    time.sleep(2.5)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            page = browser.new_page(viewport={"width": 1000, "height": 1000})
            page.goto(base)
            page.click("#setup summary")
            page.fill("#opt-seed", "2")
            page.fill("#opt-name", "Ann")
            page.click("#play-computer")
            page.wait_for_selector("#table:not([hidden])")
            while int(page.inner_text("#counts").split()[0]) < 14:
                if page.locator("#turn").is_enabled():
                    page.keyboard.press("Space")
                page.wait_for_timeout(150)
            page.wait_for_timeout(1200)
            page.screenshot(path=DOCS / "table.png", full_page=True)

            page.goto(f"{base}/#lessons")
            page.click("text=Start lesson 3")
            page.wait_for_selector("#table:not([hidden])")
            for _ in range(7):
                page.keyboard.press("Space")
                page.wait_for_timeout(150)
            page.screenshot(path=DOCS / "lesson.png", full_page=True)

            page.goto(f"{base}/#famous")
            page.click("button[aria-label='Watch Mann and Wu 2007']")
            page.wait_for_selector("#table:not([hidden])")
            page.select_option("#pace", "instant")
            page.wait_for_function("parseInt(document.querySelector('#counts').innerText) > 3000")
            page.select_option("#pace", "slow")
            page.wait_for_timeout(600)
            page.screenshot(path=DOCS / "famous.png", full_page=True)

            phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            phone.goto(base)
            phone.tap("#play-computer")
            phone.wait_for_selector("#table:not([hidden])")
            for _ in range(5):
                phone.tap("#turn") if phone.locator("#turn").is_enabled() else None
                phone.wait_for_timeout(1300)
            phone.screenshot(path=DOCS / "phone.png")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"screenshots written to {DOCS}")


if __name__ == "__main__":
    main()
