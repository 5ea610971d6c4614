"""Never-ending deals found by the cycle factory, in the famous-games viewer, in Debian's Chromium:
listed with the famous games, opened in the replay viewer, the cycle's start and one period marked
on the chart."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from beggar.records import ALL_GAMES, NEVER_ENDING
from beggar.web.settings import ServerSettings
from helpers import (
    EASY,
    EASY_DEALS,
    PHONE,
    PHONE_SCREEN,
    SHOWN,
    axe,
    factory_row,
    opened,
    serving,
    store_rows,
)

pytestmark = pytest.mark.browser

L, R = 40, 10
"""The chart's margins (chart.js): trick ``t`` of ``n`` is drawn at ``L + t / n * (W - L - R)``,
``W`` the chart's width (its viewBox's)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    finds = tmp_path_factory.mktemp("factory") / "beggar.db"
    store_rows(
        finds, [factory_row("standard", NEVER_ENDING.deal), *(factory_row(EASY, d) for d in EASY_DEALS)]
    )
    with serving(ServerSettings(db=":memory:", finds=finds)) as url:
        # The server checks stored deals within a time bound a read, and reads again soon while
        # some are left (never_ending.FoundShelf): on a busy machine the first reads list only
        # some. The tests start once it lists all three.
        deadline = time.monotonic() + 120
        while len(json.load(urllib.request.urlopen(f"{url}/api/options"))["found"]) < 3:
            assert time.monotonic() < deadline, "the server never listed the three deals found"
            time.sleep(0.5)
        yield url


def x_of(page: Any, trick: int, tricks: int) -> float:
    width = float((page.get_attribute("#replay-chart", "viewBox") or "").split()[2])
    return L + trick / tricks * (width - L - R)


def test_a_never_ending_deal_found_here_opens_and_is_watched_with_its_cycle_marked_on_the_chart(
    server: str, page: Any
) -> None:
    """The never-ending deals found here are listed with the famous games, in plain words; the
    second opens in the replay viewer with its cycle's start and one period marked on the chart
    and in its legend, and, watched at instant pace (from the list, Back), ends at its first repeat
    with the cycle on the live chart."""
    page.goto(f"{server}/#famous")
    page.wait_for_selector("#found-group:not([hidden])")
    items = page.locator("#found-list li")
    assert items.count() == 3
    assert "A cycle of 62 tricks" in items.nth(0).inner_text()
    second = items.nth(1).inner_text()
    assert "After 2 tricks (7 cards) it enters its cycle, which repeats every 50 tricks (352 cards)" in second
    assert SHOWN[0] in second and "Half deck + 1 house rule (Jacks and queens)" in second
    assert EASY not in second  # its rules in plain words, not as a spec
    assert "beggar factory" not in page.inner_text("#found-group")  # and no command named
    page.click("a[aria-label='Replay never-ending deal 2']")
    page.wait_for_selector("#replay:not([hidden]) #replay-chart .cycle-start", state="attached")
    assert "/r/found-" in page.url
    assert "never-ending deal found here" in page.inner_text("#replay-title")
    legend = page.inner_text("#replay-legend")
    assert "Cycle: starts after trick 2 (card 7), repeats every 50 tricks (352 cards)" in legend
    # The game stops at its first repeat, one period after the cycle starts: trick 52 of 52.
    start = float(page.get_attribute("#replay-chart .cycle-start", "x1") or "nan")
    assert start == pytest.approx(x_of(page, 2, 52), abs=0.01)
    shade = page.locator("#replay-chart .cycle rect")
    right = float(shade.get_attribute("x") or "nan") + float(shade.get_attribute("width") or "nan")
    assert right == pytest.approx(x_of(page, 52, 52), abs=0.01)
    page.click("#replay-end")
    assert "Card 359 of 359, trick 52" in page.inner_text("#replay-where")
    page.go_back()
    page.wait_for_selector("#found-group:not([hidden])")
    page.click("button[aria-label='Watch never-ending deal 2']")
    page.wait_for_selector("#table:not([hidden])")
    page.select_option("#pace", "instant")
    page.wait_for_selector("#end[open]", timeout=60_000)
    assert "this position was already seen after card 7 (trick 2)" in page.inner_text("#end-sentence")
    page.click("#end-close")
    assert page.locator("#chart .cycle-start").count() == 1
    assert "starts after trick 2 (card 7), repeats every 50 tricks (352 cards)" in page.inner_text(
        "#chart-legend"
    )
    assert "52 tricks" in page.inner_text("#chart-caption")


def test_the_2024_deal_has_the_same_marking(server: str, page: Any) -> None:
    page.goto(f"{server}/r/famous-{ALL_GAMES.index(NEVER_ENDING)}")
    page.wait_for_selector("#replay-chart .cycle-start", state="attached")
    legend = page.inner_text("#replay-legend")
    assert "Cycle: starts after trick 4 (card 34), repeats every 62 tricks (440 cards)" in legend
    start = float(page.get_attribute("#replay-chart .cycle-start", "x1") or "nan")
    assert start == pytest.approx(x_of(page, 4, 66), abs=0.01)
    page.goto(f"{server}/r/famous-0")  # a record game that ends has no cycle
    page.wait_for_function("document.querySelector('#scrub')?.max > 0")
    assert page.locator("#replay-chart .cycle").count() == 0
    assert "Cycle" not in page.inner_text("#replay-legend")


def test_the_found_deals_fit_a_phone_and_pass_the_accessibility_audit(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as phone:
        phone.goto(f"{server}/#famous")
        phone.wait_for_selector("#found-list li")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        problems = {"famous": axe(phone)}
        phone.tap("a[aria-label='Replay never-ending deal 1']")
        phone.wait_for_selector("#replay-chart .cycle-start", state="attached")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        problems["replay"] = axe(phone)
    assert {name: found for name, found in problems.items() if found} == {}
