"""The home page in Debian's Chromium: its settings (a deal, a deal number, house rules and the
figures measured for them), its sections and their addresses, the way back to a game left by
Back, the recent games, and what a first visit costs."""

from __future__ import annotations

import json
import math
import re
import time
from typing import Any

import pytest

from beggar.notation import random_deal
from helpers import PHONE, PHONE_SCREEN, SHORT_SEED, at_table, axe, open_settings, opened, play_the_computer


def test_a_bad_deal_is_shown_by_its_field_in_view_until_it_is_fixed(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        page.clock.install()
        page.goto(server)
        open_settings(page, deal="K-K")
        page.mouse.wheel(0, -2000)
        page.click("#play-computer")
        page.wait_for_selector("#opt-error:not([hidden])")
        assert "two hands" in page.inner_text("#opt-error")
        assert page.get_attribute("#opt-deal", "aria-invalid") == "true"
        assert page.locator("#opt-error").is_visible()
        box = page.locator("#opt-error").bounding_box()
        # In view: a fraction of a pixel past the edge is layout rounding, not a hidden message.
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE_SCREEN["height"] + 0.5
        page.clock.run_for(15_000)
        assert page.locator("#opt-error").is_visible()  # it stays until the deal is changed
        page.fill("#opt-deal", "")
        assert page.locator("#opt-error").is_hidden()
        assert page.get_attribute("#opt-deal", "aria-invalid") is None


def test_a_bad_deal_or_deal_number_is_answered_by_its_field(server: str, browser: Any) -> None:
    """On one page, each mistake put right before the next: a deal that is not one is explained by
    its field as soon as the field is left (the focus goes on); a deal number that is not a whole
    number is answered by the field's name; a deal number and a deal together are refused by the
    number, and the game starts once the number is taken away."""
    with opened(browser) as page:
        page.goto(server)
        page.wait_for_selector("#play-computer:enabled")
        open_settings(page, deal="K-KK--ZZ/--Q")
        page.keyboard.press("Tab")
        page.wait_for_selector("#opt-error:not([hidden])")
        assert page.get_attribute("#opt-deal", "aria-invalid") == "true"
        assert page.evaluate("document.activeElement.id") != "opt-deal"  # the focus goes on
        assert page.locator("#table").is_hidden()
        page.fill("#opt-deal", "")
        assert page.locator("#opt-error").is_hidden()

        open_settings(page, seed="twelve")
        page.click("#play-computer")
        page.wait_for_selector("#opt-error:not([hidden])")
        assert page.inner_text("#opt-error") == "Deal number must be a whole number."
        assert page.locator("#opt-seed").get_attribute("aria-invalid") == "true"
        label = page.locator("#opt-seed").evaluate("el => el.closest('label').textContent.trim()")
        assert label.startswith("Deal number")

        open_settings(page, seed=7, deal=random_deal(seed=SHORT_SEED).format())
        page.click("#play-computer")
        page.wait_for_function("document.querySelector('#opt-error').innerText.includes('not both')")
        assert page.get_attribute("#opt-seed", "aria-invalid") == "true"
        assert page.locator("#opt-error").is_visible() and page.locator("#home").is_visible()
        page.fill("#opt-seed", "")
        assert page.locator("#opt-error").is_hidden()
        page.click("#play-computer")
        at_table(page)


def test_the_table_settings_are_remembered_after_a_reload(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, rules="double-penalty", players="4", pace="fast", spec="max-cards=500")
        page.check("#opt-open")
        page.reload()
        page.wait_for_function("document.querySelector('#opt-rules').options.length > 1")
        fields = ("rules", "players", "pace", "spec")
        chosen = {field: page.locator(f"#opt-{field}").input_value() for field in fields}
        assert chosen == {"rules": "double-penalty", "players": "4", "pace": "fast", "spec": "max-cards=500"}
        assert page.locator("#opt-open").is_checked()


@pytest.mark.parametrize("size", [{"width": 768, "height": 1024}])
def test_the_hero_cards_start_at_the_text_s_margin(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        page.goto(server)
        page.wait_for_selector(".hero-card")
        lefts = "[...document.querySelectorAll('.hero-card')].map(c => c.getBoundingClientRect().left)"
        cards = min(page.evaluate(lefts))
        text = page.evaluate("document.querySelector('#home h1').getBoundingClientRect().left")
        assert cards == pytest.approx(text, abs=1.5)


def test_no_accessibility_violation_in_dark_mode_or_with_the_new_controls(server: str, browser: Any) -> None:
    found: dict[str, list[str]] = {}
    with opened(browser, color_scheme="dark") as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.check("#opt-contrast")
        # Last, as a person would: leaving the deal's field shows its error by it, which moves the
        # fields below, the contrast box among them.
        open_settings(page, deal="K-K")
        page.click("#play-computer")
        page.wait_for_selector("#opt-error:not([hidden])")
        found["home, a setting refused"] = axe(page, impacts=None)
        page.fill("#opt-deal", "")
        page.click("#play-computer")
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_timeout(300)
        found["table"] = axe(page, impacts=None)
        page.click("#auto")
        page.wait_for_selector("#end[open]")
        found["end"] = axe(page, impacts=None)
        page.goto(server)
        page.wait_for_selector("#recent:not([hidden])")
        found["home, recent games"] = axe(page, impacts=None)
        for name in ("famous", "rules"):
            page.goto(f"{server}/#{name}")
            page.wait_for_selector(f"#{name}:not([hidden])")
            found[name] = axe(page, impacts=None)
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("document.querySelector('#scrub')?.max > 0")
        found["replay"] = axe(page, impacts=None)
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_the_home_page_and_its_header_lead_back_to_a_game_left_by_back(server: str, browser: Any) -> None:
    """A game left by Back: Forward comes back to it; the home page's way back and the header's
    Play (then the way back) lead to it, and it goes on; leaving it asks first, and once left the
    way back is gone."""
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
        page.go_back()
        page.wait_for_selector("#home:not([hidden])")
        # Back at the table once its state is drawn (Turn waits disabled until then; the counts
        # still drawn from before would not say so).
        page.go_forward()
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#turn:enabled")
        page.go_back()
        page.click("#current-link")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#turn:enabled")
        page.click("header nav >> text=Play")
        page.wait_for_selector("#home:not([hidden])")
        page.wait_for_selector("#current-game:not([hidden])")
        page.click("#current-link")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#turn:enabled")
        page.click("#leave")
        assert page.locator("#table").is_visible()  # a game under way: asked first
        page.click("#leave-no")
        assert page.locator("#leave-ask").is_hidden() and page.locator("#table").is_visible()
        page.click("#leave")
        page.click("#leave-yes")
        page.wait_for_selector("#home:not([hidden])")
        assert page.locator("#current-game").is_hidden()


def test_back_before_a_game_is_drawn_again_keeps_the_way_back(server: str, browser: Any) -> None:
    """Forward to a game left by Back, and Back again before its state has come (the server's
    answers held after "joined"): the home page still leads back to the game, which goes on."""
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.go_back()
        page.wait_for_selector("#current-game:not([hidden])")
        routed: list[Any] = []

        def hold(socket: Any) -> None:
            """The first socket routed lets "joined" through and holds the server's other answers."""
            to_server = socket.connect_to_server()
            routed.append(socket)
            if len(routed) > 1:
                return  # connected: its messages pass both ways

            def answer(text: str | bytes) -> None:
                if json.loads(text)["type"] == "joined":
                    socket.send(text)

            to_server.on_message(answer)

        page.route_web_socket(re.compile(r"/ws/"), hold)
        page.go_forward()
        # "joined" is drawn (it focuses the table); the table's state is held back.
        page.wait_for_function("document.activeElement === document.querySelector('#table')")
        page.go_back()
        page.wait_for_selector("#home:not([hidden])")
        assert page.locator("#current-game").is_visible()
        page.click("#current-link")
        page.wait_for_selector("#turn:enabled")  # the game goes on, its state drawn


def test_a_section_chosen_before_a_new_game_has_its_table_stays(server: str, browser: Any) -> None:
    """Play the computer, then Rules before the server has answered (its answers held): the rules
    page stays, and the table opened meanwhile does not take the page over when they come."""
    with opened(browser) as page:
        page.goto(server)
        held: list[str | bytes] = []
        routed: list[Any] = []
        closed: list[bool] = []

        def hold(socket: Any) -> None:
            to_server = socket.connect_to_server()
            routed.append(socket)
            to_server.on_message(lambda message: held.append(message))
            socket.on_close(lambda *_: closed.append(True))

        page.route_web_socket(re.compile(r"/ws/"), hold)
        page.click("#play-computer")
        deadline = time.monotonic() + 30
        while not held:  # the table is open at the server, its first answer held
            assert time.monotonic() < deadline, "the server did not answer"
            page.wait_for_timeout(20)
        page.click("header nav >> text=Rules")
        page.wait_for_selector("#rules:not([hidden])")
        if not closed:
            for message in held:
                routed[0].send(message)
        # Either the page let the table go (its socket closed) or the table's answers took it over.
        while not closed and page.locator("#table").is_hidden():
            assert time.monotonic() < deadline, "the page neither let the table go nor showed it"
            page.wait_for_timeout(20)
        assert page.locator("#rules").is_visible() and "/t/" not in page.url


def test_each_preset_says_what_it_does_to_a_game_as_measured(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, rules="double-penalty", pace="slow")
        text = page.inner_text("#opt-rules-measured")
        assert text.startswith(
            "With 2 players, a typical game turns 78 cards (about 3 minutes at slow pace)"
        ), text
        assert "Whoever leads wins 50% of games (measured over 20,000 deals)." in text
        open_settings(page, rules="two-decks", pace="normal")
        assert page.inner_text("#opt-rules-measured").startswith(
            "With 2 players, a typical game turns 779 cards (about 13 minutes"
        )
        page.goto(f"{server}/#rules")
        page.wait_for_selector("#preset-table table")
        assert page.locator("#preset-table th").nth(2).inner_text() == "A typical game"
        assert (
            "2 players: 195 cards (1 in 10: over 526); the leader wins 50%"
            in page.locator("#preset-table tbody tr").first.inner_text()
        )
        well = page.locator("#preset-table tbody tr", has_text="Suck the Well").inner_text()
        assert "4 players: 316 cards" in well, well
        assert "20,000 random deals" in page.inner_text("#preset-table p")


PRESETS_FIT = """() => {
  const box = document.querySelector('#preset-table');
  const wrong = [];
  if (box.scrollWidth > box.clientWidth + 1) wrong.push(`scrolls: ${box.scrollWidth} > ${box.clientWidth}`);
  if (document.documentElement.scrollWidth > innerWidth) wrong.push('the page scrolls sideways');
  for (const cell of box.querySelectorAll('tbody td, tbody th')) {
    const r = cell.getBoundingClientRect();
    if (r.left < 0 || r.right > innerWidth) wrong.push(`${cell.innerText.slice(0, 20)} out of view`);
  }
  return wrong;
}"""
"""What of the rules page's table of presets lies beyond the window's width."""


def test_the_table_of_presets_fits_a_phone_without_scrolling_sideways(server: str, browser: Any) -> None:
    """On a phone the rules page's table of presets lies within the screen, its figures say what
    they are, its settings open in place, and it passes the accessibility audit in light and dark
    mode; a desktop keeps its columns."""
    with opened(browser, **PHONE) as page:
        page.goto(f"{server}/#rules")
        page.wait_for_selector("#preset-table tbody tr")
        assert page.evaluate(PRESETS_FIT) == []
        # Each table's figures still say what they are, and its settings open in place.
        first = page.locator("#preset-table tbody tr").first
        assert re.search(r"A typical game\W+2 players: 195 cards", first.inner_text()), first.inner_text()
        first.locator("summary").click()
        assert first.locator("li").first.is_visible()
        assert page.evaluate(PRESETS_FIT) == []
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe(page, impacts=None) == [], scheme
    with opened(browser) as page:
        page.goto(f"{server}/#rules")
        page.wait_for_selector("#preset-table tbody tr")
        assert page.locator("#preset-table thead").is_visible()  # a desktop keeps its columns


def test_the_figures_beside_the_rules_are_those_of_the_players_chosen(server: str, browser: Any) -> None:
    from beggar.research import houserules

    shipped = houserules.shipped()

    def shows(name: str, players: int) -> None:
        figures = shipped[name][players]
        text = f"With {players} players, a typical game turns {round(figures.median_cards):,} cards ("
        page.wait_for_function(
            "text => document.querySelector('#opt-rules-measured').textContent.startsWith(text)", arg=text
        )
        shown = page.locator("#opt-rules-measured").text_content() or ""
        assert f"; 1 in 10 goes past {round(figures.p90_cards):,}." in shown, shown
        assert f"Whoever leads wins {math.floor(figures.leader_wins * 100 + 0.5)}% of games" in shown, shown

    with opened(browser) as page:
        page.goto(server)
        open_settings(page, rules="counter-clockwise", pace="normal")
        assert page.locator("#opt-players").input_value() == "4"  # the preset's own number
        shows("counter-clockwise", 4)
        for players in (2, 8, 3):
            open_settings(page, players=players)
            shows("counter-clockwise", players)
            # The description says nothing the number chosen would contradict.
            assert "four players" not in page.inner_text("#opt-rules-about")
        assert shipped["counter-clockwise"][2] != shipped["counter-clockwise"][4]
        # The table's own rules follow the number chosen too (the computer's table, by default).
        open_settings(page, rules="", players=4)
        shows("practice-table", 4)
        page.reload()  # the number kept in this browser comes back with its figures
        shows("practice-table", 4)


def test_house_rules_typed_take_the_measured_figures_away_and_say_why(server: str, browser: Any) -> None:
    """On a phone: typing house rules changes nothing above the field; leaving it replaces the
    measured figures by a sentence that says why, in view and passing the accessibility audit in
    light and dark mode; a reload brings both back, and emptying the field the figures."""
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, rules="standard")
        measured = page.locator("#opt-rules-measured")
        expect_figures = "document.querySelector('#opt-rules-measured').textContent.startsWith('With 2 ')"
        page.wait_for_function(expect_figures)
        page.locator("#opt-spec").fill("max-cards=20")
        # Typing changes nothing above the field (it would move under the fingers); leaving it does.
        assert (measured.text_content() or "").startswith("With 2 players")
        page.locator("#opt-spec").press("Tab")
        page.wait_for_function(f"!({expect_figures})")
        text = measured.text_content() or ""
        assert "No limits" in text and "house rules" in text and "cards" not in text, text
        assert measured.is_visible()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe(page, impacts=None) == [], scheme
        # A reload brings the house rules back from this browser, and the sentence with them.
        page.reload()
        open_settings(page)
        page.wait_for_function(f"document.querySelector('#opt-rules-measured').textContent === {text!r}")
        page.locator("#opt-spec").fill("")
        page.locator("#opt-spec").press("Tab")
        page.wait_for_function(expect_figures)
        assert "a typical game turns 195 cards" in (measured.text_content() or "")


def test_the_play_buttons_name_the_rules_chosen_after_a_reload_too(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        page.wait_for_function("document.querySelector('#opt-rules').options.length > 1")
        chosen = page.evaluate("[...document.querySelector('#opt-rules').options].pop().text")
        value = page.evaluate("[...document.querySelector('#opt-rules').options].pop().value")
        open_settings(page, rules=value)
        for button in ("#play-computer", "#play-friend"):
            assert page.inner_text(f"{button} small") == chosen
        page.reload()
        page.wait_for_function("document.querySelector('#opt-rules').options.length > 1")
        assert page.inner_text("#play-computer small") == chosen


def test_a_section_s_address_shows_it_under_the_site_header(server: str, browser: Any) -> None:
    """Each section (famous games, lessons, rules), by its address loaded afresh, by its address
    typed on the home page and by the header's link, shows at the top under the site header, at a
    desktop's size and a phone's: one page, resized, which leaves for a blank page before each
    fresh load (and comes back to the home page by Back before following the header's link)."""
    with opened(browser) as page:
        for size in ({"width": 1280, "height": 800}, PHONE_SCREEN):
            page.set_viewport_size(size)
            for section in ("famous", "lessons", "rules"):
                page.goto("about:blank")  # the next address is a new document, not a jump within one
                page.goto(f"{server}/#{section}")
                page.wait_for_selector(f"#{section}:not([hidden]) h1")
                page.wait_for_load_state("load")
                page.wait_for_timeout(1000)  # a browser scrolls to an address's section once it is drawn
                assert page.evaluate("scrollY") == 0, (size, section)
                header = page.locator("header.bar").bounding_box()
                assert header is not None and header["y"] >= 0, header
                heading = page.locator(f"#{section} h1").bounding_box()
                assert heading is not None
                assert header["y"] + header["height"] <= heading["y"] < size["height"] / 2, (size, section)
                # From the home page: by its address typed, and (back home) by the header's link.
                page.goto(server)
                page.wait_for_selector("#home:not([hidden])")
                for by_link in (False, True):
                    if by_link:
                        page.go_back()
                        page.wait_for_selector("#home:not([hidden])")
                        page.click(f"nav a[href='./#{section}']")
                    else:
                        page.goto(f"{server}/#{section}")
                    page.wait_for_selector(f"#{section}:not([hidden]) h1")
                    page.wait_for_timeout(300)
                    assert page.evaluate("scrollY") == 0, (size, section, by_link)


def test_the_players_chosen_stay_when_the_rules_change_and_people_fit(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        page.wait_for_selector("#play-friend:enabled")
        open_settings(page, players="4")
        humans = "el => [...el.options].map(o => o.value)"
        assert page.locator("#opt-humans").evaluate(humans) == ["2", "3", "4"]
        open_settings(page, rules="double-penalty")
        assert page.locator("#opt-players").input_value() == "4"
        open_settings(page, rules="lose-when-empty")  # a rule for two players: it says so by the field
        assert page.locator("#opt-players").input_value() == "2"
        assert page.inner_text("#opt-players-about") == "Lose when empty is a game for 2 players only."
        assert page.locator("#opt-humans").evaluate(humans) == ["2"]
        open_settings(page, rules="friend-table")
        assert page.locator("#opt-players").input_value() == "4"
        assert page.locator("#opt-players-about").is_hidden()
        open_settings(page, humans="3")
        page.click("#play-friend")
        at_table(page)
        assert page.locator("#seats .seat").count() == 4
        assert page.inner_text("#prompt") == "Waiting for a friend and a second friend to join."


HERO_MARGINS = """(() => {
  const boxes = [...document.querySelectorAll('.hero-card')].map((c) => c.getBoundingClientRect());
  return [Math.min(...boxes.map((b) => b.left)), innerWidth - Math.max(...boxes.map((b) => b.right))];
})()"""


def test_the_small_things_look_of_a_piece(server: str, browser: Any) -> None:
    """On a phone the hero's fan is centred and the rules table's "Settings" keeps to one line (a
    recent game's link: tests/web/test_replay_browser.py, with the replay of one's own game)."""
    with opened(browser, **PHONE) as page:
        page.goto(server)
        page.wait_for_selector(".hero-card")
        # The hero's fan is centred on a phone.
        fan = page.evaluate(HERO_MARGINS)
        assert abs(fan[0] - fan[1]) <= 12, fan
        # The rules table's "Settings" stays on one line with its marker.
        page.goto(f"{server}/#rules")
        summary = page.locator("#preset-table summary").first
        box = summary.bounding_box()
        assert box is not None and box["height"] < 30, box


LANDING_BUDGET = 100_000
"""Bytes the home page may cost a first visit: the page, its styles, scripts, options and pictures."""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE_SCREEN])
def test_the_home_page_costs_a_first_visit_under_100_kb(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        page.goto(server, wait_until="networkidle")
        page.wait_for_function("document.querySelectorAll('.hero-card').length === 4")
        page.wait_for_function("[...document.querySelectorAll('.hero-card')].every((img) => img.complete)")
        sent = page.evaluate(
            """() => ['navigation', 'resource'].flatMap((kind) => performance.getEntriesByType(kind))
                .map((entry) => [entry.name, entry.transferSize])"""
        )
    assert all(size > 0 for _, size in sent), sent  # none came from a cache: this is a first visit
    assert sum(size for _, size in sent) < LANDING_BUDGET, sorted(sent, key=lambda item: -item[1])


def test_a_deal_s_error_shown_as_its_field_is_left_does_not_steal_the_click_that_left_it(
    server: str, browser: Any
) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, deal="K-K")
        page.locator("#opt-contrast").scroll_into_view_if_needed()
        box = page.locator("#opt-contrast").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        with page.expect_response(lambda response: "/api/check-deal" in response.url):
            page.mouse.down()  # the deal's field is left: the server is asked about the deal
        page.wait_for_timeout(100)  # a person's press lasts about this long
        page.mouse.up()
        page.wait_for_selector("#opt-error:not([hidden])")
        assert page.locator("#opt-contrast").is_checked(), "the press on the box became its click"
        assert page.get_attribute("#opt-deal", "aria-invalid") == "true"


def test_back_from_a_friend_table_shows_the_way_back_in_view_on_a_phone(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
        page.goto(server)
        open_settings(page, name="Ann", pace="slow")
        # The play buttons at the top of the screen, as after scrolling down to the house rules.
        page.locator("#play-friend").evaluate("el => el.scrollIntoView({block: 'start'})")
        page.click("#play-friend")
        page.wait_for_function("document.querySelector('#share-link').value.includes('/t/')")
        page.go_back()
        page.wait_for_selector("#current-game:not([hidden])")
        page.wait_for_timeout(300)  # the browser puts back the old scroll after the page is drawn
        box = page.locator("#current-link").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE_SCREEN["height"], box


def test_house_rules_taking_the_figures_away_as_the_field_is_left_do_not_steal_the_click(
    server: str, browser: Any
) -> None:
    with opened(browser, PHONE_SCREEN) as page:
        page.goto(server)
        # the measured figures are drawn once the page has the presets (read before, they were
        # empty, and the presets' arrival then drew the shorter sentence under the press)
        page.wait_for_function(
            "document.querySelector('#opt-rules-measured').textContent.startsWith('With ')"
        )
        open_settings(page, spec="max-cards=20")
        figures = page.inner_text("#opt-rules-measured")
        assert figures.startswith("With ")
        page.locator("#opt-contrast").scroll_into_view_if_needed()
        box = page.locator("#opt-contrast").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()  # the field is left: its figures give way to a shorter sentence…
        page.wait_for_timeout(100)  # a person's press lasts about this long
        # …but not under the press, which would move what it is on before the click.
        assert page.inner_text("#opt-rules-measured") == figures
        page.mouse.up()
        said = "document.querySelector('#opt-rules-measured').innerText.startsWith('No figures')"
        page.wait_for_function(said)
        assert page.locator("#opt-contrast").is_checked(), "the press on the box became its click"
