"""The famous games in Debian's Chromium: one name in the list, at the table and in the replay, an
address of their own, and their charts."""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers import PHONE_SCREEN, at_table, cards_turned, opened


def test_a_famous_game_opens_on_no_chart_and_its_chart_in_dark_mode_is_dark_with_text_the_legend_s_size(
    server: str, browser: Any
) -> None:
    """A famous game watched does not open on an empty chart. Played to its end in dark mode, at a
    desktop's size and a phone's (one page, resized, the game watched again at each), its chart is
    a dark panel whose text is the legend's size."""
    with opened(browser, color_scheme="dark") as page:
        for size in ({"width": 1280, "height": 800}, PHONE_SCREEN):
            page.set_viewport_size(size)
            page.goto(f"{server}/#famous")
            page.click("button[aria-label='Watch Casella et al. 2024']")
            page.wait_for_selector("#table:not([hidden])")
            page.wait_for_function("document.querySelector('#counts').innerText.length > 0")
            assert page.locator("#chart-box").is_hidden(), size  # no empty chart to open on
            page.locator("#pace").evaluate(  # the pace control is in a menu on a phone
                "el => { el.value = 'instant'; el.dispatchEvent(new Event('change', { bubbles: true })); }"
            )
            page.wait_for_selector("#end[open]", timeout=60_000)
            page.click("#end-close")
            page.wait_for_selector("#chart-box:not([hidden])")
            background = page.locator("#chart-box").evaluate("el => getComputedStyle(el).backgroundColor")
            assert background != "rgb(255, 255, 255)"
            assert sum(int(v) for v in re.findall(r"\d+", background)[:3]) < 3 * 80, size  # a dark panel
            legend = float(
                page.locator("#chart-legend li").first.evaluate(
                    "el => parseFloat(getComputedStyle(el).fontSize)"
                )
            )
            axis = page.locator("#chart text").first.evaluate("el => el.getBoundingClientRect().height")
            assert legend == pytest.approx(axis, abs=3), (size, legend, axis)  # the same, on a phone too
            assert 12 <= legend <= 14, size


def test_a_famous_game_has_one_name_and_its_own_address_that_a_reload_comes_back_to(
    server: str, browser: Any
) -> None:
    """The first famous game has one name in its list, at its table and in its replay. Watched, it
    has its own address, which a reload comes back to (the game going on); Back leads to the famous
    games, and from there the header's Play to the way back to it, by that name."""
    with opened(browser) as page:
        page.goto(f"{server}/#famous")
        first = page.locator("#famous-list li").first
        heading = first.locator("h2").inner_text()
        assert heading == "Paulhus 1999"
        assert first.locator("button", has_text="Watch").get_attribute("aria-label") == f"Watch {heading}"
        first.locator("button", has_text="Watch").click()
        at_table(page)
        page.wait_for_function(
            "text => document.querySelector('#table-title').textContent === text", arg=heading
        )
        page.wait_for_function("location.pathname.startsWith('/t/')")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        cards, address, title = cards_turned(page), page.url, page.inner_text("#table-title")
        page.reload()
        at_table(page)
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) >= {cards}")
        assert page.url == address and page.inner_text("#table-title") == title
        page.go_back()  # to the famous games, and from there to the home page: the way back
        page.wait_for_selector("#famous:not([hidden])")
        page.click("header >> text=Play")
        page.wait_for_selector("#current-game:not([hidden])")
        assert page.inner_text("#current-link") == f"Back to your game: {title}"
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function(
            "text => document.querySelector('#replay-title').textContent === text", arg=f"Replay: {heading}"
        )
