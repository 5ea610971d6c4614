"""The table as a product, in Debian's Chromium driven by Playwright: what happens around a game
(a reload, a friend who goes, the end of a game, the settings) at a desktop's and a phone's size."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

import beggar.web.table
from beggar.lessons import LESSONS
from beggar.notation import random_deal
from helpers import (
    SHORT_SEED,
    at_table,
    axe,
    cards_turned,
    friend_table,
    next_card,
    open_settings,
    opened,
    play_the_computer,
    seat_a_friend,
    shared_facts,
    watch_to_the_end,
)

PHONE = {"width": 390, "height": 844}


def test_a_game_against_the_computer_comes_back_after_a_reload_and_back(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast")
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("location.pathname.startsWith('/t/')")
        for _ in range(2):
            page.wait_for_selector("#turn:enabled")
            page.keyboard.press("Space")
            page.wait_for_timeout(400)
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 3")
        cards = cards_turned(page)
        address = page.url
        page.reload()
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) >= {cards}")
        assert page.url == address and page.get_attribute(".seat.you", "data-seat") == "0"
        assert page.inner_text(".seat.you .name") == "You"
        page.go_back()
        page.wait_for_selector("#home:not([hidden])")
        assert page.locator("#current-game").is_visible()  # the way back, from the home page too
        page.go_forward()
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) >= {cards}")


def test_a_watched_game_has_its_own_address_a_reload_and_back_come_back_to(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="normal")
        page.click("#watch-game")
        at_table(page)
        page.wait_for_function("location.pathname.startsWith('/t/')")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        cards, address, title = cards_turned(page), page.url, page.inner_text("#table-title")
        assert title.startswith("Watching")
        page.reload()
        at_table(page)
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) >= {cards}")
        assert page.url == address and page.inner_text("#table-title") == title
        page.go_back()
        page.wait_for_selector("#current-game:not([hidden])")
        assert page.inner_text("#current-link") == f"Back to your game: {title}"
        page.go_forward()
        at_table(page)
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) >= {cards}")
        assert page.url == address
        # Left by Back, it waited paused (the state that says so shows the table is joined again);
        # Resume lets it play to its end, and watched to its end it is among the recent games.
        page.wait_for_function(
            "document.querySelector('#end').open || !document.querySelector('#paused-banner').hidden"
        )
        if page.locator("#resume-big").is_visible():
            page.locator("#pace").select_option("instant")
            page.wait_for_function("document.querySelector('#pace').value === 'instant'")
            page.click("#resume-big")
        page.wait_for_selector("#end[open]", timeout=60_000)  # at the normal pace if Resume came first
        page.click("#end-close")
        page.click("#leave")
        page.wait_for_selector("#recent:not([hidden])")
        assert title in page.inner_text("#recent-list")


def test_a_friend_who_closes_the_tab_is_named_and_the_computer_may_play_for_them(
    server: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 1.0)
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, seed=SHORT_SEED, name="Ann", pace="fast")
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        guest.wait_for_selector("#table:not([hidden])")
        host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting to join')")
        guest.close()  # the page says it goes: not a lost connection
        host.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (away)')")
        assert (
            "Bea went to another page; you may go on without them once they have been away 1 s"
            in host.inner_text("#notice")
        )
        assert "Bea went to another page." in host.inner_text("#log")
        host.wait_for_selector("text=Let the computer play for Bea")
        assert host.locator("text=New game without Bea").is_visible()
        host.click("text=Let the computer play for Bea")
        host.wait_for_function("document.querySelector('#seats').innerText.includes('(computer playing)')")
        assert host.locator("#offers").is_hidden()


@pytest.mark.parametrize("pace", ["fast", "instant"])
def test_play_again_after_watching_gives_the_cards_back(server: str, browser: Any, pace: str) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace=pace)
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.click("#auto")
        page.wait_for_selector("#end[open]")
        page.click("#end-close")
        assert page.locator("#auto").is_hidden()  # nothing is left to turn: Play again gives the cards back
        page.click("#play-again")
        page.wait_for_selector("#turn:not([hidden])")
        page.wait_for_timeout(1500)
        assert page.locator("#auto").get_attribute("aria-pressed") == "false"
        assert not page.locator("#end").evaluate("el => el.open")
        assert cards_turned(page) <= 1  # at most the computer's lead: the rest waits for the person


@pytest.mark.parametrize("how", ["play-computer", "watch-game"])
def test_a_finished_watched_game_offers_no_stop_watching(server: str, browser: Any, how: str) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click(f"#{how}")
        at_table(page)
        if how == "play-computer":
            page.click("#auto")  # "Watch both players": the game waits for it to end
        page.wait_for_selector("#end[open]")
        page.click("#end-close")
        page.wait_for_selector("#play-again:visible")
        shown = page.locator("#table button:visible").all_inner_texts()
        assert "Stop watching" not in shown and "Play again" in shown, shown


@pytest.mark.parametrize("players", ["4", "8"])
def test_the_end_dialog_opens_at_its_headline_on_a_phone(server: str, browser: Any, players: str) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(server)
        open_settings(page, players=players, pace="instant", spec="max-cards=300")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        assert page.locator("#end").evaluate("el => el.scrollTop") == 0
        assert page.evaluate("document.activeElement.id") == "end-title"
        box = page.locator("#end-title").bounding_box()
        assert box is not None and 0 <= box["y"] < PHONE["height"] / 2


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_the_end_dialog_s_headline_starts_at_its_top(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        page.goto(server)
        open_settings(page, pace="instant", spec="max-cards=300")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        room = page.evaluate(
            """() => {
              const dialog = document.querySelector('#end'), title = document.querySelector('#end-title');
              const inner = dialog.getBoundingClientRect().top + dialog.clientTop
                + parseFloat(getComputedStyle(dialog).paddingTop);
              return title.getBoundingClientRect().top - inner;
            }"""
        )
        assert abs(room) < 1, room  # no empty band above the headline, only the dialog's padding


def test_every_name_and_your_mark_are_whole_on_a_phone_at_eight_seats(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(server)
        open_settings(page, players="8", name="Bartholomew", pace="slow")
        page.click("#play-computer")
        at_table(page)
        names = page.locator("#seats .name")
        assert names.count() == 8
        cut = names.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id)")
        assert cut == []
        mine = page.locator(".seat.you")
        assert "Bartholomew" in mine.inner_text() and "(you)" in mine.inner_text()
        assert mine.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


SEATS_UNEVEN = """() => {
  const board = document.querySelector('#seats').getBoundingClientRect();
  const box = (slot) => {
    const seat = document.querySelector(`#seats > [data-slot='${slot}']`);
    return seat && seat.getBoundingClientRect();
  };
  const wrong = [];
  for (const [left, right] of [['TL2', 'TR2'], ['TL', 'TR'], ['L', 'R'], ['BL', 'BR']]) {
    const a = box(left), b = box(right);
    if (!a || !b) continue;
    if (Math.abs(a.width - b.width) > 1 || Math.abs(a.height - b.height) > 1) {
      wrong.push(`${left} ${a.width}x${a.height}, ${right} ${b.width}x${b.height}`);
    }
    if (Math.abs(a.top - b.top) > 1) wrong.push(`${left} at ${a.top}, ${right} at ${b.top}`);
    const margins = [a.left - board.left, board.right - b.right];
    if (Math.abs(margins[0] - margins[1]) > 1) wrong.push(`${left} and ${right} off-centre: ${margins}`);
  }
  const top = [...document.querySelectorAll("#seats > [data-slot^='T']")]
    .map((seat) => seat.getBoundingClientRect());
  if (new Set(top.map((r) => `${Math.round(r.top)}:${Math.round(r.height)}`)).size > 1) {
    wrong.push(`the top row: ${top.map((r) => `${r.top}+${r.height}`)}`);
  }
  return wrong;
}"""
"""How the seats facing each other across the pile differ: in size, height or distance from the edge."""


@pytest.mark.parametrize("players", ["3", "5", "6", "8"])
def test_at_a_friend_table_on_a_phone_the_seats_around_the_pile_are_even(
    server: str, browser: Any, players: str
) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as host, opened(browser) as guest:
        seat_a_friend(host, guest, server, name="Ann", players=players, humans="2", seed=SHORT_SEED)
        at_table(host)
        host.wait_for_function(f"document.querySelectorAll('#seats > .seat').length === {players}")
        assert host.evaluate(SEATS_UNEVEN) == []


def test_a_bad_deal_is_shown_by_its_field_in_view_until_it_is_fixed(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
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
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        page.clock.run_for(15_000)
        assert page.locator("#opt-error").is_visible()  # it stays until the deal is changed
        page.fill("#opt-deal", "")
        assert page.locator("#opt-error").is_hidden()
        assert page.get_attribute("#opt-deal", "aria-invalid") is None


def test_a_deal_number_and_a_deal_together_are_refused_by_the_number(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=7, deal=random_deal(seed=SHORT_SEED).format())
        page.click("#play-computer")
        page.wait_for_selector("#opt-error:not([hidden])")
        assert "not both" in page.inner_text("#opt-error")
        assert page.get_attribute("#opt-seed", "aria-invalid") == "true"
        assert page.locator("#opt-error").is_visible() and page.locator("#home").is_visible()
        page.fill("#opt-seed", "")
        assert page.locator("#opt-error").is_hidden()
        page.click("#play-computer")
        at_table(page)


def test_the_replay_legend_gives_the_stacks_at_the_card_shown(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("Number(document.querySelector('#scrub').max) > 31")
        page.locator("#scrub").evaluate("el => { el.value = '31'; el.dispatchEvent(new Event('input')); }")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 31 ')")
        stacks = page.locator("#replay-seats .stack-count").all_inner_texts()
        legend = [item.split(": ")[-1] for item in page.locator("#replay-legend li").all_inner_texts()]
        assert legend[: len(stacks)] == stacks


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


def test_a_replay_plays_at_the_speed_chosen_and_its_deal_can_be_played(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("Number(document.querySelector('#scrub').max) > 1000")
        page.select_option("#replay-speed", "400")
        page.click("#replay-play")
        page.wait_for_timeout(1000)
        page.click("#replay-play")
        assert int(page.locator("#scrub").input_value()) >= 150
        page.click("#replay-deal")
        at_table(page)
        page.wait_for_function("location.pathname.startsWith('/t/')")
        assert page.locator("#seats .seat").count() == 2
        assert (
            page.inner_text(".seat.you .name") == "You"
            and page.get_attribute(".seat.you", "data-seat") == "0"
        )
        assert "a standard deck of 52 cards, 2 players" in page.inner_text("#rules-line")
        assert "J1" not in page.inner_text("#rules-line")
        page.wait_for_function("document.querySelector('#log').innerText.includes('New game: ')")
        assert "New game: the deal of the replay, No limits." in page.inner_text("#log")


def test_the_words_fit_the_table(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, players="4", pace="slow")
        page.click("#play-computer")
        at_table(page)
        assert page.inner_text("#auto") == "Watch all players"
        assert "piles" not in page.inner_text("#rules-line")
        page.goto(server)
        assert "piles" not in page.inner_text("#home")
        open_settings(page, players="2")
        page.click("#play-friend")
        page.wait_for_function("location.pathname.startsWith('/t/')")
        page.wait_for_selector("#auto:not([hidden])")
        assert page.inner_text("#auto") == "Play my cards for me"
        table_id = page.url.rsplit("/", 1)[-1]
        assert table_id not in page.title()


def _finish_lesson_one(page: Any, server: str, number: int = 1) -> None:
    """Start the first lesson (or lesson ``number``), let it play itself at instant pace, and wait
    for its end."""
    page.goto(f"{server}/#lessons")
    page.click(f"text=Start lesson {number}")
    page.wait_for_selector("#table:not([hidden])")
    page.click("#auto")
    page.select_option("#pace", "instant")
    page.wait_for_selector("#end[open]")


def test_a_lesson_ends_with_its_closing_sentence_and_the_next_lesson(server: str, browser: Any) -> None:
    with opened(browser) as page:
        _finish_lesson_one(page, server)
        assert page.inner_text("#end-again") == "Start again"
        assert LESSONS[0].outro in page.inner_text("#end-sentence")
        page.click("#end-next")
        page.wait_for_function("document.querySelector('#table-title').innerText.startsWith('Lesson 2')")


def test_the_last_lesson_leads_on_to_a_game_against_the_computer(server: str, browser: Any) -> None:
    with opened(browser) as page:
        _finish_lesson_one(page, server, len(LESSONS))
        assert page.inner_text("#end-next") == "Play the computer"
        page.click("#end-next")
        page.wait_for_function("location.pathname.startsWith('/t/')")
        at_table(page)
        assert page.inner_text("#table-title").startswith("You against")


def test_a_famous_game_does_not_open_on_an_empty_chart(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/#famous")
        page.click("button[aria-label='Watch Casella et al. 2024']")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("document.querySelector('#counts').innerText.length > 0")
        assert page.locator("#chart-box").is_hidden()


def test_a_friend_opening_the_link_is_asked_for_a_name(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, name="Ann", players="2")
        guest.goto(link)
        guest.wait_for_selector("#name-ask:not([hidden])")
        guest.fill("#sit-name", "Bea")
        guest.click("#sit-name-save")
        host.wait_for_function("document.querySelector('#seats').innerText.includes('Bea')")
        guest.wait_for_selector("#name-ask", state="hidden")


def test_a_finished_game_is_listed_on_the_home_page_and_reopens_its_replay(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        assert page.locator("#recent").is_hidden()
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.click("#auto")
        page.wait_for_selector("#end-replay:not([hidden])")
        page.goto(server)
        page.wait_for_selector("#recent:not([hidden])")
        assert page.locator("#recent-list li").count() == 1
        page.click("#recent-list a")
        page.wait_for_function("Number(document.querySelector('#scrub').max) == 40")


def test_dark_mode_and_high_contrast_cards(server: str, browser: Any) -> None:
    with opened(browser, color_scheme="dark") as page:
        page.goto(server)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        light = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert "rgb(17, 22, 20)" in (background, light)
        open_settings(page, seed=SHORT_SEED)
        page.check("#opt-contrast")
        page.click("#play-computer")
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_selector("#pile .card .hc-index")
        assert page.locator("#pile .card .hc-index").first.is_visible()


HC_OVERLAPS = """pile => {
    const cards = [...pile.querySelectorAll('.card')];
    const hit = [];
    cards.slice(0, -1).forEach((card, i) => {
        const label = card.querySelector('.hc-index').getBoundingClientRect();
        const next = cards[i + 1].getBoundingClientRect();
        if (label.right > next.left + 0.5) hit.push(i);
    });
    return [cards.length, hit];
}"""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 768, "height": 1024}, PHONE])
def test_high_contrast_corners_do_not_run_into_each_other_in_the_pile(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        page.goto(server)
        open_settings(page)
        page.check("#opt-contrast")
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("document.querySelector('#scrub').max > 0")
        # Forty presses of "next card" (the replay draws each at once), the pile measured after each.
        steps = page.evaluate(
            f"""steps => {{
              const overlaps = {HC_OVERLAPS};
              const seen = [];
              for (let i = 0; i < steps; i++) {{
                document.querySelector('#replay-next').click();
                seen.push(overlaps(document.querySelector('#replay-pile')));
              }}
              return seen;
            }}""",
            40,
        )
        assert [(shown, hit) for shown, hit in steps if hit] == []
        assert len(steps) == 40 and max(shown for shown, _ in steps) >= 4


@pytest.mark.parametrize("size", [{"width": 768, "height": 1024}])
def test_the_hero_cards_start_at_the_text_s_margin(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        page.goto(server)
        page.wait_for_selector(".hero-card")
        lefts = "[...document.querySelectorAll('.hero-card')].map(c => c.getBoundingClientRect().left)"
        cards = min(page.evaluate(lefts))
        text = page.evaluate("document.querySelector('#home h1').getBoundingClientRect().left")
        assert cards == pytest.approx(text, abs=1.5)


BOARD_CLASHES = r"""() => {
    const clashes = [];
    for (const seat of document.querySelectorAll('#seats .seat')) {
        const stack = seat.querySelector('.stack').getBoundingClientRect();
        const name = seat.querySelector('.name').getBoundingClientRect();
        // a stack above its name: the name below the stack's shadow (4px)
        const under = name.left < stack.right && name.right > stack.left && name.top > stack.top;
        if (under && name.top < stack.bottom + 4) clashes.push(['name', seat.dataset.seat]);
    }
    const card = document.querySelector('#pile .card');
    card.classList.add('challenge');  // the pile's card at its brightest
    const reach = Math.max(...getComputedStyle(card).boxShadow.split(/,(?![^(]*\))/).map(
        (shadow) => shadow.replace(/rgba?\([^)]*\)/, '').trim().split(/\s+/).slice(2, 4)
            .reduce((sum, value) => sum + parseFloat(value), 0)));
    const top = card.getBoundingClientRect().top - reach;
    const pile = card.getBoundingClientRect();
    for (const seat of document.querySelectorAll('#seats .seat')) {
        const box = seat.getBoundingClientRect();
        const above = box.bottom <= pile.top && box.right > pile.left && box.left < pile.right;
        if (above && top < box.bottom) clashes.push(['pile', seat.dataset.seat, top, box.bottom]);
    }
    return clashes;
}"""


@pytest.mark.parametrize("players", ["4", "8"])
@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 768, "height": 1024}, PHONE])
def test_names_stacks_and_the_pile_keep_clear_of_each_other(
    server: str, browser: Any, size: dict[str, int], players: str
) -> None:
    with opened(browser, size) as page:
        play_the_computer(page, server, players=players, pace="slow", name="Bartholomew", seed=SHORT_SEED)
        page.keyboard.press("Space")
        page.wait_for_selector("#pile .card")
        page.wait_for_timeout(600)
        assert page.evaluate(BOARD_CLASHES) == []


def test_a_replay_writes_its_numbers_as_its_position_line_does(server: str, page: Any) -> None:
    page.goto(f"{server}/r/famous-3")  # 1,007 tricks
    page.wait_for_function("document.querySelector('#scrub').max > 0")
    page.click("#replay-end")
    where = page.inner_text("#replay-where")
    assert re.search(r"trick \d{1,3},\d{3}", where), where
    text = page.inner_text("#replay-text")
    assert "(trick 1,007)" in text and not re.search(r"\d{4}", text), text


def test_the_end_dialog_s_way_back_to_the_table_is_in_view_on_a_phone(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(server)
        open_settings(page, players="4", pace="instant", spec="max-cards=300")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        box = page.locator("#end-close").bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"]
        assert page.locator("#end").evaluate("el => el.scrollHeight > el.clientHeight")  # a long dialog
        page.locator("#end-close").click(trial=True, no_wait_after=True)  # nothing covers it


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
        page.wait_for_function("document.querySelector('#scrub').max > 0")
        found["replay"] = axe(page, impacts=None)
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_the_game_gets_the_screen(server: str, browser: Any) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, players="4", pace="slow", seed=SHORT_SEED)
        page.keyboard.press("Space")
        page.wait_for_selector("#pile .card")
        width = page.locator("#pile .card").first.evaluate("el => el.offsetWidth")
        assert width > 84  # cards grow with a desktop window
        pile = page.locator("#pile").bounding_box()
        mine = page.locator(".seat.you").bounding_box()
        others = [box for box in (s.bounding_box() for s in page.locator(".seat:not(.you)").all()) if box]
        assert pile is not None and mine is not None and len(others) == 3
        # Around the pile: one across it, one on each side, this person below it.
        assert len([box for box in others if box["y"] + box["height"] <= pile["y"]]) == 1
        assert len([box for box in others if box["x"] + box["width"] <= pile["x"]]) == 1
        assert len([box for box in others if box["x"] >= pile["x"] + pile["width"]]) == 1
        assert mine["y"] >= pile["y"] + pile["height"]
        # The log is a panel beside the game, as high as the table (whole lines; no "Show the
        # whole log", which a narrow screen has).
        log = page.locator("#log").bounding_box()
        board = page.locator("#seats").bounding_box()
        assert log is not None and board is not None and log["x"] >= board["x"] + board["width"]
        assert log["height"] > 300
        assert page.locator("#log-more").is_hidden()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_winner_of_a_game_is_marked_calmly(server: str, browser: Any, motion: str) -> None:
    with opened(browser, reduced_motion=motion) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        winner = page.locator(".seat.won")
        assert winner.count() == 1
        animation = winner.evaluate("el => getComputedStyle(el).animationName")
        assert animation == ("none" if motion == "reduce" else "won")


def test_no_accessibility_violation_around_an_absent_friend(
    server: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 0.5)
    found: dict[str, list[str]] = {}
    with opened(browser, color_scheme="dark") as host, opened(browser, PHONE, is_mobile=True) as guest:
        link = friend_table(host, server, name="Ann", players="2")
        guest.goto(link)
        guest.wait_for_selector("#name-ask:not([hidden])")
        found["asked for a name"] = axe(guest, impacts=None)
        guest.fill("#sit-name", "Bea")  # the friend sits down once named
        guest.click("#sit-name-save")
        host.wait_for_function("document.querySelector('#seats').innerText.includes('Bea')")
        guest.close()
        host.wait_for_selector("#offers:not([hidden])")
        found["offers"] = axe(host, impacts=None)
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_the_live_region_speaks_to_the_player(server: str, browser: Any) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        # The log names every seat; only what is asked of this person says "you".
        page.wait_for_function("/\\b[Yy]ou\\b/.test(document.querySelector('#narration').innerText)")


def test_on_a_phone_the_secondary_controls_wait_in_a_menu(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(server)
        page.tap("#play-computer")
        page.wait_for_selector("#turn:enabled")
        assert page.locator("#leave").is_hidden() and page.locator("#pace").is_hidden()
        page.tap("#more")
        assert page.get_attribute("#more", "aria-expanded") == "true"
        assert page.locator("#leave").is_visible() and page.locator("#pace").is_visible()
    with opened(browser) as page:
        page.goto(server)
        page.click("#play-computer")
        page.wait_for_selector("#turn:enabled")
        assert page.locator("#more").is_hidden() and page.locator("#leave").is_visible()


def test_the_home_page_leads_back_to_a_game_left_by_back(server: str, browser: Any) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
        page.go_back()
        page.click("#current-link")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
        page.click("#leave")
        assert page.locator("#table").is_visible()  # a game under way: asked first
        page.click("#leave-no")
        assert page.locator("#leave-ask").is_hidden() and page.locator("#table").is_visible()
        page.click("#leave")
        page.click("#leave-yes")
        page.wait_for_selector("#home:not([hidden])")
        assert page.locator("#current-game").is_hidden()


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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_of_presets_fits_a_phone_without_scrolling_sideways(
    server: str, browser: Any, scheme: str
) -> None:
    with opened(browser, PHONE, color_scheme=scheme, is_mobile=True, has_touch=True) as page:
        page.goto(f"{server}/#rules")
        page.wait_for_selector("#preset-table tbody tr")
        assert page.evaluate(PRESETS_FIT) == []
        # Each table's figures still say what they are, and its settings open in place.
        first = page.locator("#preset-table tbody tr").first
        assert re.search(r"A typical game\W+2 players: 195 cards", first.inner_text()), first.inner_text()
        first.locator("summary").click()
        assert first.locator("li").first.is_visible()
        assert page.evaluate(PRESETS_FIT) == []
        assert axe(page, impacts=None) == []
    with opened(browser, color_scheme=scheme) as page:
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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_house_rules_typed_take_the_measured_figures_away_and_say_why(
    server: str, browser: Any, scheme: str
) -> None:
    with opened(browser, PHONE, color_scheme=scheme, is_mobile=True, has_touch=True) as page:
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
        assert axe(page, impacts=None) == []
        # A reload brings the house rules back from this browser, and the sentence with them.
        page.reload()
        open_settings(page)
        page.wait_for_function(f"document.querySelector('#opt-rules-measured').textContent === {text!r}")
        page.locator("#opt-spec").fill("")
        page.locator("#opt-spec").press("Tab")
        page.wait_for_function(expect_figures)
        assert "a typical game turns 195 cards" in (measured.text_content() or "")


def test_the_card_that_wins_a_pile_lands_and_the_pile_slides_to_its_winner(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="normal")
        page.click("#watch-game")
        page.wait_for_selector("#table:not([hidden])")
        page.evaluate(
            """() => {
              window.held = [];
              const pile = document.querySelector('#pile');
              new MutationObserver(() => {
                const box = pile.getBoundingClientRect();
                const place = { top: box.top, left: box.left, height: box.height, width: box.width };
                const cards = [...pile.querySelectorAll('.card.sweeping')];
                if (!pile.classList.contains('empty')) window.full = place;
                if (!cards.length || !pile.classList.contains('empty')) return;
                window.held.push({
                  at: performance.now(), count: cards.length, place, full: window.full,
                  tops: cards.map((c) => c.offsetTop), lefts: cards.map((c) => c.offsetLeft),
                });
              }).observe(pile, { childList: true, subtree: true, attributes: true });
            }"""
        )
        page.wait_for_function("window.held.length > 0", timeout=30000)
        first = page.evaluate("window.held[0]")
        page.wait_for_timeout(300)
        taken = re.search(r"takes the (\d+) cards? of the pile", page.inner_text("#log"))
        assert taken is not None
        assert first["count"] == int(taken.group(1))  # the winning card is on the pile too
        # Held where they lay, on the pile, and not jumped elsewhere first.
        assert first["place"] == first["full"]
        assert all(0 <= top < first["place"]["height"] for top in first["tops"])
        assert all(0 <= left < first["place"]["width"] for left in first["lefts"])


def test_the_turn_button_stays_put_when_the_pile_fills_and_empties(server: str, browser: Any) -> None:
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        with opened(browser, size) as page:
            page.goto(server)
            open_settings(page, seed=SHORT_SEED, pace="slow")
            page.click("#play-computer")
            page.wait_for_selector("#pile.empty")
            empty = page.locator("#turn").bounding_box()
            height = page.evaluate("document.documentElement.scrollHeight")
            page.click("#turn")
            page.wait_for_selector("#pile .card")
            full = page.locator("#turn").bounding_box()
            assert empty is not None and full is not None
            assert abs(empty["y"] - full["y"]) < 1, size
            assert page.evaluate("document.documentElement.scrollHeight") == height


def test_the_header_links_keep_a_game_left_by_back_and_forward(server: str, browser: Any) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
        page.go_back()
        page.wait_for_selector("#home:not([hidden])")
        page.go_forward()
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
        page.click("header nav >> text=Play")
        page.wait_for_selector("#home:not([hidden])")
        page.wait_for_selector("#current-game:not([hidden])")
        page.click("#current-link")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")


def test_a_friend_who_presses_back_keeps_the_seat_and_the_way_back(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser) as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="slow")
        guest.wait_for_selector("#table:not([hidden]) #seats .seat")
        host.go_back()  # by mistake, or to look at the home page
        host.wait_for_selector("#home:not([hidden])")
        host.wait_for_selector("#current-game:not([hidden])")
        assert host.inner_text("#current-link").startswith("Back to your game: ")
        # The friend is told what happened, with its grace: not of someone who left, nor of a lost line.
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Ann (away)')")
        assert guest.inner_text("#notice").startswith("Ann went to another page; you may go on without them")
        assert guest.locator("#offers").is_hidden()
        host.reload()  # the way back outlives a reload of the home page
        host.click("#current-link")
        at_table(host)
        host.wait_for_function("document.querySelector('.seat.you .name').innerText.startsWith('Ann')")
        guest.wait_for_function("!document.querySelector('#seats').innerText.includes('(away)')")
        assert "Ann came back." in guest.inner_text("#log")
        host.wait_for_function("document.querySelector('#log').innerText.includes('You came back.')")
        assert "lost the connection" not in host.inner_text("#log") + guest.inner_text("#log")


def _switch_tab(page: Any, hidden: bool) -> None:
    """Pretend the person switched to another tab (`hidden`) or came back to this one."""
    page.evaluate(
        """hidden => {
          Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
          document.dispatchEvent(new Event('visibilitychange'));
        }""",
        hidden,
    )


def test_a_reload_does_not_pause_and_a_pause_for_a_hidden_tab_is_told_once(server: str, browser: Any) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        board = page.locator("#seats").bounding_box()
        page.reload()
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        page.wait_for_timeout(600)
        assert page.locator("#paused-banner").is_hidden()
        assert "Paused" not in page.inner_text("#log")
        _switch_tab(page, True)
        page.wait_for_selector("#paused-banner:not([hidden])")
        # Said once, and the board has not moved.
        why = "Paused because you switched to another tab."
        assert page.inner_text("#prompt") == why and why not in page.inner_text("#paused-banner")
        assert page.inner_text("#narration").count(why) == 1
        assert page.locator("#seats").bounding_box() == board


def test_a_game_paused_for_a_hidden_tab_stays_paused_after_a_reload_or_back_and_forward(
    server: str, browser: Any
) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="normal")
        page.keyboard.press("Space")
        page.click("#auto")  # the game plays itself
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 3")
        _switch_tab(page, True)
        page.wait_for_selector("#paused-banner:not([hidden])")
        why = "Paused because you switched to another tab."
        _switch_tab(page, False)

        def back_and_forward() -> None:
            page.go_back()
            page.wait_for_selector("#home:not([hidden])")
            page.go_forward()

        for come_back in (page.reload, back_and_forward):
            come_back()
            page.wait_for_selector("#table:not([hidden])")
            page.wait_for_selector("#paused-banner:not([hidden])")
            cards = cards_turned(page)
            page.wait_for_timeout(1500)  # normal pace: a card a second, were it playing
            assert cards_turned(page) == cards, come_back
            assert page.locator("#resume-big").is_visible()
            assert page.inner_text("#prompt") == why  # true still: nobody has resumed it
            assert "Resumed." not in page.inner_text("#log")
        page.click("#resume-big")
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {cards}")


CONTROLS_ROW = """() => {
  const row = document.querySelector('#table .controls').getBoundingClientRect();
  const shown = [...document.querySelectorAll('#table .controls button, #table .controls label')]
    .filter((node) => node.getClientRects().length && getComputedStyle(node).visibility === 'visible')
    .map((node) => [node.id || node.firstChild.textContent.trim(), node.getBoundingClientRect()]);
  const lines = {};
  for (const [, box] of shown) {
    const line = (lines[Math.round(box.top + box.height / 2)] ||= [Infinity, -Infinity]);
    line[0] = Math.min(line[0], box.left);
    line[1] = Math.max(line[1], box.right);
  }
  return {
    places: Object.fromEntries(shown.map(([name, box]) => [name, [box.left, box.top, box.width]])),
    offCentre: Object.values(lines).map(([left, right]) => Math.abs(left - row.left - (row.right - right))),
  };
}"""
"""Where each control seen in the row lies, and how far off-centre each line of them is."""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_the_row_of_controls_stays_put_and_centred_while_paused(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size, color_scheme="dark") as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        before = page.evaluate(CONTROLS_ROW)
        assert max(before["offCentre"]) < 2, before
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        paused = page.evaluate(CONTROLS_ROW)
        assert paused["places"] == before["places"]  # nothing in the row moves, nothing leaves it
        assert max(paused["offCentre"]) < 2, paused
        assert page.locator("#pause").is_disabled()  # Resume, in Turn's place, is the way back
        assert axe(page, impacts=None) == []
        page.click("#resume-big")
        page.wait_for_selector("#turn:enabled")
        assert page.evaluate(CONTROLS_ROW) == before


def test_an_empty_pile_says_paused_while_the_game_is_paused(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast")
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("document.querySelector('#pile').innerText.startsWith('Pile empty')")
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        page.wait_for_function("document.querySelector('#pile').innerText === 'Pile empty — paused'")
        assert "turn" not in page.inner_text("#pile")
        page.click("#resume-big")
        page.wait_for_selector("#paused-banner", state="hidden")
        page.wait_for_function("document.querySelector('#pile').innerText !== 'Pile empty — paused'")


def test_a_new_game_against_the_computer_asks_first_and_sets_the_old_log_apart(
    server: str, browser: Any
) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast")
        page.click("#play-computer")
        for _ in range(2):
            page.wait_for_selector("#turn:enabled")
            page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        board = page.locator("#seats").bounding_box()
        page.click("#again")
        assert page.locator("#abandon").is_visible()
        assert "Abandon this game" in page.inner_text("#abandon")
        assert page.locator("#seats").bounding_box() == board
        page.click("#abandon-no")
        assert page.locator("#abandon").is_hidden() and cards_turned(page) >= 2
        page.click("#again")
        page.click("#abandon-yes")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) === 0")
        assert page.locator("#log li.game-break").count() == 1
        after = page.locator("#log li.game-break ~ li:not(.old)").all_inner_texts()
        assert after and after[0].startswith("New game")
        assert page.locator("#log li.old").count() >= 3


def test_the_offers_about_an_absent_friend_do_not_move_the_board(
    server: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 0.5)
    with opened(browser) as host, opened(browser) as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="fast")
        host.wait_for_selector("#turn:enabled")
        host.keyboard.press("Space")
        guest.wait_for_selector("#turn:enabled")
        guest.keyboard.press("Space")
        host.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        host.wait_for_selector("#turn:enabled")
        places = _board_places(host)
        guest.close()
        host.wait_for_selector("#offers:not([hidden])")
        host.wait_for_timeout(200)
        assert _board_places(host) == places
        # The offers and the notice lie in the page's flow under the controls: whole, in view,
        # over nothing (what follows them moves down instead).
        for news in ("#offers", "#notice"):
            assert _in_view_over_nothing(host, news) == [], news


def test_the_prompt_says_the_player_to_play_is_away_and_the_offers_have_room_below_the_board(
    server: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 0.5)
    with opened(browser) as host, opened(browser) as guest, opened(browser) as spectator:
        link = seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="fast")
        # Ann leads: she turns until it is Bea's turn.
        for _ in range(30):
            host.wait_for_selector(".seat.to-play")
            if not host.locator(".seat.to-play.you").count():
                break
            host.wait_for_selector("#turn:enabled")
            cards = cards_turned(host)
            host.keyboard.press("Space")
            host.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {cards}")
        spectator.goto(link)
        at_table(spectator)
        places = _board_places(host)
        guest.close()
        for page in (host, spectator):  # a player and a spectator are told alike
            page.wait_for_function(
                "document.querySelector('#prompt').innerText.endsWith(' — Bea went to another page.')"
            )
        host.wait_for_selector("#offers:not([hidden])")
        host.wait_for_timeout(200)
        assert _board_places(host) == places
        # Whole, over nothing, and clear of the window's foot.
        for news in ("#offers", "#notice"):
            assert _in_view_over_nothing(host, news) == [], news
            bottom = host.evaluate(f"document.querySelector('{news}').getBoundingClientRect().bottom")
            assert bottom <= 780, news


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_lesson_says_a_sentence_on_every_card(server: str, browser: Any, number: int) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/#lessons")
        page.click(f"text=Start lesson {number}")
        page.wait_for_selector("#turn:enabled")
        # The introduction, before the first card (the table may be drawn a moment after it shows).
        page.wait_for_function("document.querySelector('#lesson-note').innerText.trim() !== ''")
        assert cards_turned(page) == 0
        silent = []
        cards = 0
        while not page.locator("#end").evaluate("el => el.open"):
            cards, note = next_card(page, cards)
            if not note:
                silent.append(cards)
        assert silent == []


def test_a_friend_without_a_name_is_asked_it_before_sitting_down(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, name="Ann", players="2", seed=SHORT_SEED)
        guest.goto(link)
        guest.wait_for_selector("#name-ask:not([hidden])")
        guest.wait_for_timeout(800)
        assert "waiting to join" in host.inner_text("#seats")  # nobody sat down yet
        assert guest.locator("#turn").is_hidden()
        guest.fill("#sit-name", "Bea")
        guest.click("#sit-name-save")
        host.wait_for_function("document.querySelector('#seats').innerText.includes('Bea')")
        guest.wait_for_selector("#name-ask", state="hidden")
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (you)')")
        assert "Player 2" not in guest.inner_text("#table") + host.inner_text("#table")
        guest.reload()  # known now: no question again
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (you)')")
        assert guest.locator("#name-ask").is_hidden()


def test_a_friend_whose_name_the_browser_knows_sits_down_at_once(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, name="Ann", players="2")
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (you)')")
        assert guest.locator("#name-ask").is_hidden()


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_a_chart_in_dark_mode_is_dark_and_its_text_the_legend_s_size(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size, color_scheme="dark") as page:
        page.goto(f"{server}/#famous")
        page.click("button[aria-label='Watch Casella et al. 2024']")
        page.wait_for_selector("#table:not([hidden])")
        page.locator("#pace").evaluate(  # the pace control is in a menu on a phone
            "el => { el.value = 'instant'; el.dispatchEvent(new Event('change', { bubbles: true })); }"
        )
        page.wait_for_selector("#end[open]", timeout=60_000)
        page.click("#end-close")
        page.wait_for_selector("#chart-box:not([hidden])")
        background = page.locator("#chart-box").evaluate("el => getComputedStyle(el).backgroundColor")
        assert background != "rgb(255, 255, 255)"
        assert sum(int(v) for v in re.findall(r"\d+", background)[:3]) < 3 * 80  # a dark panel
        legend = float(
            page.locator("#chart-legend li").first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        )
        axis = page.locator("#chart text").first.evaluate("el => el.getBoundingClientRect().height")
        assert legend == pytest.approx(axis, abs=3), (legend, axis)  # the same size, on a phone too
        assert 12 <= legend <= 14


def test_a_lesson_of_one_trick_draws_no_chart(server: str, browser: Any) -> None:
    with opened(browser) as page:
        _finish_lesson_one(page, server)
        assert page.inner_text("#end-facts dt:text-is('Tricks') + dd") == "1"
        assert page.locator("#end-chart-box").is_hidden()
        page.click("#end-close")
        assert page.locator("#chart-box").is_hidden()


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_next_card_stays_put_through_a_lesson(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        page.goto(f"{server}/#lessons")
        page.click("text=Start lesson 2")
        page.wait_for_selector("#turn:enabled")
        assert page.inner_text("#rules-line") == ""  # not the full game's deck
        places = set()
        while not page.locator("#end").evaluate("el => el.open"):
            box = page.locator("#turn").bounding_box()
            assert box is not None
            places.add(box["y"])
            page.keyboard.press("Space")
            page.wait_for_timeout(150)
        assert len(places) == 1, places


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


def test_a_won_trick_is_told_under_the_pile_and_the_table_moves_on_after_its_sweep(
    server: str, browser: Any
) -> None:
    with opened(browser) as page:
        page.goto(server)
        deal = "Q" + "-" * 25 + "/" + "-" * 11 + "JJJJQQQKKKKAAAA"
        open_settings(page, deal=deal, pace="normal")
        page.click("#play-computer")
        page.wait_for_selector("#turn:enabled")
        # What the table shows, read in one moment once the line under the pile says `told` (the
        # page moves on by itself: a held pile goes, the computer turns its next card).
        now = """(told) => {
          if (!document.querySelector('#pile-count').innerText.includes(told)) return null;
          const stack = (n) => document.querySelector(`.seat[data-seat='${n}'] .stack-count`).innerText;
          return {
            told: document.querySelector('#pile-count').innerText,
            turn: document.querySelector('#turn').disabled ? 'disabled' : 'enabled',
            stacks: [stack(0), stack(1)],
            prompt: document.querySelector('#prompt').innerText,
            cards: parseInt(document.querySelector('#counts').innerText),
            pile: document.querySelectorAll('#pile .card').length,
          };
        }"""
        assert page.evaluate(now, "")["stacks"] == ["26", "26"]
        page.evaluate(
            "window.landed = []; new MutationObserver(() => window.landed.push("
            "document.querySelectorAll('#pile .card').length)).observe("
            "document.querySelector('#pile'), {childList: true})"
        )
        page.keyboard.press("Space")
        # The last card paid lands; the line under the pile says who takes the pile, and the
        # stacks and the prompt say the same moment, while Turn waits for the pile to go.
        held = page.wait_for_function(now, arg="paid", polling="raf").json_value()
        assert held["told"] == "Queen paid: you take 3 cards."
        assert (held["turn"], held["stacks"]) == ("disabled", ["28", "24"])
        assert "owes" not in held["prompt"]
        # Space while the pile goes: the card is turned once it has gone, never onto it.
        page.keyboard.press("Space")
        shown = page.wait_for_function(now, arg="in the pile", polling="raf").json_value()
        assert (shown["cards"], shown["pile"], shown["stacks"]) == (4, 1, ["27", "24"])
        assert max(page.evaluate("window.landed")) <= 3  # the new card never joined the old pile


ONE_MOMENT = """() => {
  const text = (selector) => (document.querySelector(selector) || {}).innerText || '';
  const line = text('#pile-count');
  const inPile = /(\\d+) cards? in the pile/.exec(line);
  const stacks = [...document.querySelectorAll('#seats .stack-count')].map((n) => parseInt(n.innerText));
  const owing = /owes? (\\d+)/.exec(text('#prompt'));
  const marks = document.querySelector('#seats .owed-words');
  window.moments.push({
    line, prompt: text('#prompt'), stacks,
    total: stacks.reduce((a, b) => a + b, 0) + (inPile ? parseInt(inPile[1]) : 0),
    owed: owing ? owing[1] : null, marks: marks ? parseInt(marks.innerText) + '' : null,
    filled: document.querySelectorAll('#seats .mark.paid').length,
    log: [...document.querySelectorAll('#log li')].slice(-1).map((li) => li.innerText)[0] || '',
  });
  if (!window.stopSampling) requestAnimationFrame(window.sample);
}"""
"""Read what the table says in one frame: the stacks and the pile (they add up to the deck), the
prompt, the owed marks and the log's last line."""


@pytest.mark.parametrize(
    "deal",
    [
        "Q" + "-" * 25 + "/" + "-" * 11 + "JJJJQQQKKKKAAAA",  # you win the trick
        "-" * 11 + "JJJQQQQKKKKAAAA/J" + "-" * 25,  # the computer wins it
    ],
)
def test_everything_the_table_says_is_of_one_moment_while_a_won_pile_goes(
    server: str, browser: Any, deal: str
) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, deal=deal, pace="normal")
        page.evaluate(f"window.moments = []; window.sample = {ONE_MOMENT}; window.sample()")
        # Turn (and pay) until a trick is won.
        won = "document.querySelector('#pile-count').innerText.includes('paid:')"
        while not page.evaluate(won):
            page.wait_for_selector("#turn:enabled")
            cards = cards_turned(page)
            page.keyboard.press("Space")
            page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {cards}")
            page.wait_for_function(f"{won} || !document.querySelector('#turn').disabled")
        # The trick's winner leads the next card: the table moves past the won pile.
        page.wait_for_selector("#turn:enabled", timeout=10000)
        page.keyboard.press("Space")
        page.wait_for_function(
            "/\\d+ cards? in the pile/.test(document.querySelector('#pile-count').innerText)"
            " && parseInt(document.querySelector('#counts').innerText) >= 4"
        )
        page.wait_for_timeout(300)
        moments = page.evaluate("window.stopSampling = true; window.moments")
        assert any("paid:" in m["line"] for m in moments)
        for moment in moments:
            assert moment["total"] == 52, moment
            assert moment["owed"] == moment["marks"], moment  # the prompt and the marks agree
            if "paid:" in moment["line"]:
                assert moment["owed"] is None and moment["filled"] == 0, moment
                assert "paid" in moment["log"].lower() or "take" in moment["log"].lower(), moment


def test_the_offers_about_an_absent_friend_are_in_view_and_the_name_question_folds_away(
    server: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 0.5)
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, seed=SHORT_SEED, pace="fast")
        assert host.locator("#name-ask").is_visible()  # "Player 1" is asked for a name before the game
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        host.wait_for_selector("#turn:enabled")
        host.keyboard.press("Space")
        host.wait_for_selector("#name-ask", state="hidden")
        assert host.locator("#rename").is_visible()
        guest.close()
        host.wait_for_selector("#offers:not([hidden])")
        host.wait_for_timeout(200)
        for button in host.locator("#offers button").all():
            box = button.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, box
        host.click("#rename")
        assert host.locator("#name-ask").is_visible()
        assert host.evaluate("document.activeElement.id") == "sit-name"
        host.fill("#sit-name", "Ann")
        host.click("#sit-name-save")
        host.wait_for_selector("#name-ask", state="hidden")
        host.wait_for_function("document.querySelector('.seat.you').innerText.includes('Ann')")
        assert host.locator("#rename").is_hidden()


def test_a_friend_table_waiting_for_its_friend_says_so_under_the_pile(server: str, browser: Any) -> None:
    with opened(browser) as host:
        friend_table(host, server, name="Ann", players="2", seed=SHORT_SEED)
        assert host.inner_text("#prompt") == "Waiting for a friend to join."
        assert host.inner_text("#pile") == "Pile empty — waiting for a friend"
        assert host.inner_text(".seat[data-seat='1'] .name") == "A friend (waiting to join)"
        turn = host.locator("#turn").bounding_box()
        assert turn is not None and turn["y"] + turn["height"] <= 800
    with opened(browser) as host:  # a host without a name is asked for one: Turn stays in view
        friend_table(host, server, players="2", seed=SHORT_SEED)
        assert host.locator("#name-ask").is_visible()
        turn = host.locator("#turn").bounding_box()
        assert turn is not None and turn["y"] + turn["height"] <= 800 - 16, turn


def test_a_bad_deal_is_explained_as_soon_as_its_field_is_left(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, deal="K-KK--ZZ/--Q")
        page.keyboard.press("Tab")
        page.wait_for_selector("#opt-error:not([hidden])")
        assert page.get_attribute("#opt-deal", "aria-invalid") == "true"
        assert page.evaluate("document.activeElement.id") != "opt-deal"  # the focus goes on
        assert page.locator("#table").is_hidden()
        page.fill("#opt-deal", "")
        assert page.locator("#opt-error").is_hidden()


OWED = "-" * 11 + "JJJJQQQQ" + "-" * 7 + "/" + "KKKKAAAA" + "-" * 18
"""A deal where the computer's first card, a king, makes the player owe three cards."""
OWED_AT_EIGHT = "-JJJJQQ/-QQKKK-/-------/-------/------/------/------/KAAAA-"
"""Eight hands: the last seat's first card, a king, makes the player (who leads) owe three."""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_the_owed_marks_say_in_words_what_they_count(server: str, browser: Any, size: dict[str, int]) -> None:
    with opened(browser, size) as page:
        play_the_computer(page, server, deal=OWED, pace="fast")
        page.keyboard.press("Space")
        owed = page.locator(".seat.you .owed")
        owed.wait_for()
        # Beside the marks, in words a new player reads; the same said to a screen reader, and
        # by the pay card's number on the pile.
        assert owed.inner_text() == "3 to pay" and page.locator(".seat.you .owed-words").is_visible()
        assert owed.get_attribute("aria-label") == "You owe 3 more cards; 0 of 3 paid"
        assert owed.get_attribute("title") == owed.get_attribute("aria-label")
        assert (
            page.get_attribute("#pile .card.challenge .pays-badge", "title")
            == "Pays 3: the next player owes 3 cards"
        )
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_function("document.querySelector('.seat.you .owed').innerText === '2 to pay'")
        assert owed.get_attribute("aria-label") == "You owe 2 more cards; 1 of 3 paid"
        assert page.locator(".seat.you .owed .mark.paid").count() == 1


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 768, "height": 1024}])
def test_a_replay_stepped_to_a_payment_says_what_is_left_as_the_table_does(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        page.goto(f"{server}/r/famous-3")
        page.wait_for_function("Number(document.querySelector('#scrub').max) > 2")
        page.locator("#scrub").evaluate("el => { el.value = '2'; el.dispatchEvent(new Event('input')); }")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 2 ')")
        owed = page.locator("#replay-seats .owed")
        assert owed.count() == 1
        # The live table's words (see the test above): beside the marks, and said in full.
        left = owed.locator(".mark:not(.paid)").count()
        marks = owed.locator(".mark").count()
        assert owed.inner_text() == f"{left} to pay" and owed.locator(".owed-words").is_visible()
        name = owed.evaluate("el => el.closest('.seat').querySelector('.name').innerText")
        more = "1 more card" if left == 1 else f"{left} more cards"
        assert owed.get_attribute("aria-label") == f"{name} owes {more}; {marks - left} of {marks} paid"
        assert owed.get_attribute("title") == owed.get_attribute("aria-label")


def test_the_owed_words_fit_a_seat_on_a_phone_at_eight_seats(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
        play_the_computer(page, server, players="8", name="Bartholomew", deal=OWED_AT_EIGHT, pace="fast")
        seats = [page.locator(f".seat[data-seat='{i}']").bounding_box() for i in range(8)]
        page.keyboard.press("Space")
        page.wait_for_selector(".seat.you .owed", timeout=30_000)
        words = page.locator(".seat.you .owed-words")
        assert words.is_visible() and words.inner_text() == "3 to pay"
        whole = "el => el.scrollWidth <= el.clientWidth"
        assert words.evaluate(whole) and page.locator(".seat.you .owed").evaluate(whole)
        assert [page.locator(f".seat[data-seat='{i}']").bounding_box() for i in range(8)] == seats
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_player_without_a_name_is_you_on_their_own_page(server: str, browser: Any) -> None:
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="slow")
        page.wait_for_function("document.querySelector('#table-title').innerText !== ''")
        assert page.inner_text("#table-title") == "You against Robin"
        assert page.title() == "You against Robin — Beggar-My-Neighbour"
        assert page.inner_text(".seat.you .name") == "You"
        assert "Player 1" not in page.inner_text("#table")
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, players="2", seed=SHORT_SEED)
        assert host.inner_text("#table-title") == "Friend table: You and a friend"
        assert "Player 2" not in host.inner_text("#table")
        assert host.inner_text(".seat.you .name") == "You"
        assert "Player 1" not in host.inner_text("#table")
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        guest.wait_for_function("document.querySelector('#table-title').innerText.includes('Bea')")
        # To the others, a person without a name is called by their place at the table.
        assert guest.inner_text("#table-title") == "Friend table: Player 1 and Bea"
        assert "Bea (you)" in guest.inner_text(".seat.you")


QUESTION_STAYS = ("#turn", "#pause", "#again", "#counts", "#log")
"""What a question about a new game or leaving must not move."""

BOARD_STAYS = ("#seats", "#pile", "#turn", "#table .controls", "#pause", "#again")
"""What news of the others (a friend away, a friend's ask) must not move."""


def _board_places(page: Any) -> dict[str, Any]:
    return {selector: page.locator(selector).bounding_box() for selector in BOARD_STAYS}


def _in_view_over_nothing(page: Any, selector: str) -> list[str]:
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


def _places(page: Any) -> dict[str, Any]:
    return {selector: page.locator(selector).bounding_box() for selector in QUESTION_STAYS}


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_a_new_game_or_leave_question_moves_nothing_on_the_table(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast")
        page.click("#play-computer")
        for _ in range(2):
            page.wait_for_selector("#turn:enabled")
            page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        page.wait_for_selector("#turn:enabled")
        places = _places(page)
        page.click("#again")
        assert page.locator("#abandon").is_visible() and page.locator("#abandon-no").is_visible()
        assert _places(page) == places
        page.click("#abandon-no")
        if size == PHONE:
            page.click("#more")
        places = _places(page)
        page.click("#leave")
        assert page.locator("#leave-ask").is_visible() and page.locator("#leave-no").is_visible()
        assert _places(page) == places
        page.click("#leave-no")
        assert page.locator("#leave-ask").is_hidden()
    with opened(browser, size) as host, opened(browser, size) as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="fast")
        guest.wait_for_selector("#again:enabled")
        host.wait_for_selector("#again:enabled")
        places = _board_places(host)
        guest.click("#again")
        host.wait_for_function("document.querySelector('#notice').innerText.includes('asks for a new game')")
        assert host.locator("#notice").is_visible()
        assert _board_places(host) == places  # the counts and the log may move down, nothing above
        assert _in_view_over_nothing(host, "#notice") == []


UNCOVERED = """([question, kept = ['.seat.you', '#prompt', '#turn']]) => {
  const box = document.querySelector(question).getBoundingClientRect();
  const wrong = [];
  if (box.height === 0 || box.top < 0 || box.bottom > innerHeight) wrong.push(`${question} not in view`);
  for (const selector of kept) {
    const o = document.querySelector(selector).getBoundingClientRect();
    if (o.top < 0 || o.bottom > innerHeight) wrong.push(`${selector} out of view`);
    if (Math.min(box.bottom, o.bottom) - Math.max(box.top, o.top) > 0.5
        && Math.min(box.right, o.right) - Math.max(box.left, o.left) > 0.5) wrong.push(`over ${selector}`);
  }
  return wrong;
}"""
"""What a question hides of what the person decides about: their seat, the prompt and Turn."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_a_new_game_question_hides_neither_your_seat_nor_the_prompt_nor_turn(
    server: str, browser: Any, scheme: str
) -> None:
    with opened(browser, PHONE, color_scheme=scheme) as host, opened(browser, PHONE) as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="fast")
        guest.wait_for_selector("#again:enabled")
        host.wait_for_selector("#again:enabled")
        places = _board_places(host)
        guest.click("#again")
        host.wait_for_selector("#new-game-ask:not([hidden])")
        assert host.evaluate(UNCOVERED, ["#new-game-ask"]) == []
        assert _board_places(host) == places
        assert axe(host, impacts=None) == []
    with opened(browser, PHONE, color_scheme=scheme) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        page.click("#again")
        page.wait_for_selector("#abandon:not([hidden])")
        assert page.evaluate(UNCOVERED, ["#abandon"]) == []
        assert axe(page, impacts=None) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_tablet_a_new_game_or_leave_question_hides_neither_your_seat_nor_the_prompt(
    server: str, browser: Any, scheme: str
) -> None:
    """As on a desktop, the question lies over Turn at most, on one row, and moves nothing."""
    with opened(browser, {"width": 768, "height": 1024}, color_scheme=scheme) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        page.wait_for_selector("#turn:enabled")
        page.wait_for_function("document.querySelector('#prompt').innerText.trim() !== ''")
        asked = (("#again", "#abandon", "#abandon-no"), ("#leave", "#leave-ask", "#leave-no"))
        for control, question, keep in asked:
            places = _places(page)
            page.click(control)
            page.wait_for_selector(f"{question}:not([hidden])")
            assert page.evaluate(UNCOVERED, [question, [".seat.you", "#prompt"]]) == []
            assert _places(page) == places
            yes, no = page.locator(f"{question} .confirm").bounding_box(), page.locator(keep).bounding_box()
            assert abs(yes["y"] - no["y"]) < 1, "the answers share one row"
            assert axe(page, impacts=None) == []
            page.click(keep)
            page.wait_for_selector(f"{question}[hidden]", state="attached")


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
@pytest.mark.parametrize("section", ["famous", "lessons", "rules"])
def test_a_section_s_address_shows_it_under_the_site_header(
    server: str, browser: Any, size: dict[str, int], section: str
) -> None:
    with opened(browser, size) as page:
        page.goto(f"{server}/#{section}")
        page.wait_for_selector(f"#{section}:not([hidden]) h1")
        page.wait_for_load_state("load")
        page.wait_for_timeout(1000)  # a browser scrolls to an address's section once it is drawn
        assert page.evaluate("scrollY") == 0
        header = page.locator("header.bar").bounding_box()
        assert header is not None and header["y"] >= 0, header
        heading = page.locator(f"#{section} h1").bounding_box()
        assert heading is not None and header["y"] + header["height"] <= heading["y"] < size["height"] / 2
        # From the home page: by its address typed, and by the header's link.
        for arrive in (
            lambda: page.goto(f"{server}/#{section}"),
            lambda: page.click(f"nav a[href='./#{section}']"),
        ):
            page.goto(server)
            page.wait_for_selector("#home:not([hidden])")
            arrive()
            page.wait_for_selector(f"#{section}:not([hidden]) h1")
            page.wait_for_timeout(300)
            assert page.evaluate("scrollY") == 0


def test_someone_opening_the_link_of_a_full_table_watches_at_once(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser) as guest, opened(browser) as spectator:
        link = seat_a_friend(host, guest, server, name="Ann", players="2", seed=SHORT_SEED)
        spectator.goto(link)  # a browser that knows no name
        spectator.wait_for_selector("#watching:not([hidden])")
        at_table(spectator)
        title = "document.querySelector('#table-title').innerText"
        spectator.wait_for_function(f"{title} === 'Friend table: Ann and Bea'")
        assert spectator.locator("#name-ask").is_hidden()
        assert "name" not in spectator.inner_text("#prompt")
        assert "Ann sits down." in spectator.inner_text("#log")


def _slack(page: Any, selector: str) -> float:
    """How much wider the button is than its shown words."""
    return page.evaluate(
        """selector => {
          const button = document.querySelector(selector), range = document.createRange();
          const shown = [...button.querySelectorAll('span')].find(span => !span.classList.contains('off'));
          range.selectNodeContents(shown || button);
          return button.getBoundingClientRect().width - range.getBoundingClientRect().width;
        }""",
        selector,
    )


def test_the_new_game_button_is_as_snug_as_its_neighbours_before_and_after_asking(
    server: str, browser: Any
) -> None:
    with opened(browser) as host, opened(browser) as guest:
        link = friend_table(host, server, seed=SHORT_SEED, name="Ann", pace="fast")
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting for a friend')")
        host.wait_for_selector("#again:enabled")
        places = _board_places(host)
        assert abs(_slack(host, "#again") - _slack(host, "#pause")) < 1
        host.click("#again")
        host.wait_for_selector("#again:disabled")
        host.wait_for_function("document.querySelector('#notice').innerText.includes('Waiting for Bea')")
        assert abs(_slack(host, "#again") - _slack(host, "#pause")) < 1
        assert _board_places(host) == places
        guest.click("#new-game-no")
        host.wait_for_selector("#again:enabled")
        assert abs(_slack(host, "#again") - _slack(host, "#pause")) < 1
        assert _board_places(host) == places


def test_someone_watching_a_friend_table_stops_watching_instead_of_leaving(server: str, browser: Any) -> None:
    tablet = {"width": 768, "height": 1024}
    with opened(browser) as host, opened(browser) as guest, opened(browser, tablet) as spectator:
        link = friend_table(host, server, name="Ann", players="2", seed=SHORT_SEED)
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting for a friend')")
        spectator.goto(link)
        spectator.wait_for_selector("#watching:not([hidden])")
        at_table(spectator)
        spectator.wait_for_function("document.querySelector('#leave').innerText === 'Stop watching'")
        assert "Leave table" not in spectator.inner_text("#table")
        assert host.inner_text("#leave") == "Leave table"
        spectator.click("#leave")
        spectator.wait_for_selector("#home:not([hidden])")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_someone_watching_a_friend_table_finds_stop_watching_in_the_controls(
    server: str, browser: Any, scheme: str
) -> None:
    with (
        opened(browser) as host,
        opened(browser) as guest,
        opened(browser, PHONE, color_scheme=scheme, is_mobile=True, has_touch=True) as spectator,
    ):
        link = seat_a_friend(host, guest, server, name="Ann", players="2", seed=SHORT_SEED)
        spectator.goto(link)
        spectator.wait_for_selector("#watching:not([hidden])")
        at_table(spectator)
        spectator.wait_for_function("document.querySelector('#leave').innerText === 'Stop watching'")
        # No Turn and no Pause: the row has room for it, without a "More" to open first.
        assert spectator.locator("#leave").is_visible() and spectator.locator("#more").is_hidden()
        row = spectator.locator("#table .controls").bounding_box()
        leave = spectator.locator("#leave").bounding_box()
        assert row is not None and leave is not None
        assert row["y"] <= leave["y"] and leave["y"] + leave["height"] <= min(
            row["y"] + row["height"], PHONE["height"]
        )
        assert spectator.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert axe(spectator, impacts=None) == []
        spectator.tap("#leave")
        spectator.wait_for_selector("#home:not([hidden])")


def test_no_seat_is_marked_to_play_while_the_table_waits(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as host, opened(browser) as guest:
        link = friend_table(host, server, name="Ann", players="4", humans="2", seed=SHORT_SEED)
        at_table(host)
        host.wait_for_function("document.querySelector('#prompt').innerText.includes('Waiting for')")
        assert host.locator(".seat.to-play").count() == 0
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        host.wait_for_selector(".seat.to-play")  # the lead, once everyone is here


def test_a_seated_friend_may_pass_the_link_on_to_the_friend_still_to_come(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser, PHONE) as guest:
        link = friend_table(host, server, name="Ann", players="4", humans="3", seed=SHORT_SEED)
        at_table(host)
        alone = "Send this link to your friends; the game starts when everyone is here."
        assert host.inner_text("#share-text") == alone
        guest.goto(server)
        open_settings(guest, name="Bea")
        guest.goto(link)
        at_table(guest)
        # Every seated person sees the link while someone is awaited: any of them may pass it on.
        words = "Send this link to the friend still to come; the game starts when they arrive."
        for page in (host, guest):
            page.wait_for_function(f"document.querySelector('#share-text').innerText === {words!r}")
            assert page.locator("#share").is_visible()
            assert page.input_value("#share-link") == link


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


def test_a_bad_deal_number_is_answered_by_the_field_s_name(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        page.wait_for_selector("#play-computer:enabled")
        open_settings(page, seed="twelve")
        page.click("#play-computer")
        page.wait_for_selector("#opt-error:not([hidden])")
        assert page.inner_text("#opt-error") == "Deal number must be a whole number."
        assert page.locator("#opt-seed").get_attribute("aria-invalid") == "true"
        label = page.locator("#opt-seed").evaluate("el => el.closest('label').textContent.trim()")
        assert label.startswith("Deal number")


def test_the_replay_of_your_own_game_calls_you_you_as_the_table_did(server: str, browser: Any) -> None:
    with opened(browser) as page, opened(browser) as other:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("document.querySelector('#table-title').textContent !== ''")
        title = page.inner_text("#table-title")
        assert title == "You against Robin"
        page.click("#auto")
        page.wait_for_selector("#end-replay:not([hidden])")
        link = str(page.locator("#end-replay").get_attribute("href"))
        page.goto(server)  # the recent games call it so, and their link opens the replay called so too
        page.wait_for_selector("#recent:not([hidden])")
        assert page.locator("#recent-list a").first.inner_text() == title
        page.locator("#recent-list a").first.click()
        page.wait_for_function("document.querySelector('#replay-title').innerText.startsWith('Replay: ')")
        assert page.inner_text("#replay-title") == f"Replay: {title}"
        assert page.title() == f"Replay: {title} — Beggar-My-Neighbour"
        assert page.inner_text("#replay-seats .seat[data-seat='0'] .name") == "You"
        page.click("#replay-end")  # the sentences, told from this person's seat as the table told them
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 40 ')")
        told = page.inner_text("#replay-rules") + " " + page.inner_text("#replay-text")
        assert "Player 1" not in told and "You " in told
        other.goto(link)  # anyone else with the link: the seat by its place
        other.wait_for_function("document.querySelector('#replay-title').innerText.startsWith('Replay: ')")
        assert other.inner_text("#replay-title") == "Replay: Player 1 and Robin"
        assert "You " not in other.inner_text("#replay-rules")


CONTRAST = """([a, b, edge]) => {
  const lum = (el, prop) => {
    const [r, g, bl] = getComputedStyle(el)[prop].match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const x = lum(document.querySelector(a), edge ? 'borderTopColor' : 'backgroundColor');
  const y = lum(document.querySelector(b), 'backgroundColor');
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}"""
"""The contrast ratio between an element's background (or its edge) and another's background."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_new_game_question_holds_the_computer_and_escape_keeps_playing(
    server: str, browser: Any, scheme: str
) -> None:
    with opened(browser, color_scheme=scheme) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.click("#auto")  # every card is the computer's now
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        page.click("#again")
        page.wait_for_selector("#abandon:not([hidden])")
        page.wait_for_timeout(300)  # a card on its way when the question came may still land
        held = cards_turned(page)
        # One question, one button of each name, and its answer clear against the question's box.
        names = page.locator("#table button:visible").all_inner_texts()
        assert len(names) == len(set(names)), names
        assert page.evaluate(CONTRAST, ["#abandon-yes", "#abandon", True]) >= 3
        page.wait_for_timeout(1500)  # five cards' time at this pace
        assert cards_turned(page) == held
        page.keyboard.press("Escape")
        assert page.locator("#abandon").is_hidden()
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {held}")


PILE_SEEN = """() => {
  const cards = [...document.querySelectorAll('#pile .card:not(.sweeping)')];
  const lefts = [...new Set(cards.map((c) => Math.round(c.getBoundingClientRect().left)))];
  lefts.sort((a, b) => a - b);
  const line = document.querySelector('#pile-count').getBoundingClientRect();
  return {
    width: cards[0].getBoundingClientRect().width,
    steps: lefts.slice(1).map((left, i) => left - lefts[i]),
    outlined: cards.filter((c) => getComputedStyle(c).outlineStyle !== 'none')
      .filter((c) => !c.classList.contains('challenge')).length,
    line: [line.width, line.height, line.right], text: document.querySelector('#pile-count').innerText,
  };
}"""
"""What the pile shows: how far apart its cards' corners are, which glow, and its line."""


def test_on_a_phone_at_eight_seats_the_pile_shows_each_corner_and_its_line(server: str, browser: Any) -> None:
    with opened(browser, PHONE, color_scheme="dark", is_mobile=True, has_touch=True) as page:
        play_the_computer(page, server, players="8", pace="fast", seed=7)
        page.click("#auto")
        page.wait_for_function(
            "document.querySelectorAll('#pile .card:not(.sweeping)').length >= 5"
            " && document.querySelector('#pile .card.pay:not(.challenge)')"
            " && document.querySelector('#pile .challenge')",
            timeout=60000,
            polling=50,
        )
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        seen = page.evaluate(PILE_SEEN)
        assert seen["steps"] and min(seen["steps"]) >= seen["width"] / 4 - 1, seen  # every corner index whole
        assert seen["outlined"] == 0, seen  # only the card being paid for glows
        width, height, right = seen["line"]
        assert height >= 12 and width > 60 and right <= PHONE["width"], seen
        assert re.match(r"\d+ cards in the pile", seen["text"]), seen


BADGE_SEEN = """() => {
  const paid = document.querySelector('#pile .card.challenge:not(.sweeping)');
  const next = paid && paid.nextElementSibling;
  if (!next || next.classList.contains('sweeping')) return null;
  const badge = paid.querySelector('.pays-badge').getBoundingClientRect();
  const cards = paid.parentNode.querySelectorAll('.card:not(.sweeping)').length;
  return {badge: badge.right + 2, next: next.getBoundingClientRect().left, cards};
}"""
"""Where the pay badge of the card being paid for ends (its ring too), and where the next card starts."""


def test_on_a_phone_at_eight_seats_the_badge_of_the_card_being_paid_for_shows_whole(
    server: str, browser: Any
) -> None:
    with opened(browser, PHONE, color_scheme="dark", is_mobile=True, has_touch=True) as page:
        play_the_computer(page, server, players="8", pace="fast", seed=7)
        page.click("#auto")
        seen = []
        while len(seen) < 2:  # a payment begun and one further on, with the pile crowded
            page.wait_for_function(
                f"(() => {{ const s = ({BADGE_SEEN})(); return s && s.cards >= {4 + len(seen)}; }})()",
                timeout=60000,
                polling=50,
            )
            page.click("#pause")
            page.wait_for_selector("#paused-banner:not([hidden])")
            page.wait_for_timeout(100)
            found = page.evaluate(BADGE_SEEN)
            if found:
                seen.append(found)
                assert found["badge"] <= found["next"] + 0.5, found
            page.click("#resume-big")
            page.wait_for_selector("#paused-banner", state="hidden")


FELT_CONTRAST = """(selector) => {
  const lum = (color) => {
    const probe = document.createElement('i');
    probe.style.color = color;
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color.match(/[\\d.]+/g).slice(0, 3).map(Number);
    probe.remove();
    const [r, g, b] = rgb.map((c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const node = document.querySelector(selector);
  const x = lum(getComputedStyle(node).backgroundColor);
  const y = lum(getComputedStyle(document.documentElement).getPropertyValue('--felt').trim());
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}"""
"""The contrast between an element's background and the felt's colour."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_phone_seat_says_its_cards_in_words_and_replay_s_play_stands_out(
    server: str, browser: Any, scheme: str
) -> None:
    with opened(browser, PHONE, color_scheme=scheme, is_mobile=True, has_touch=True) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click("#play-computer")
        at_table(page)
        counts = page.locator("#seats .seat .count")
        assert counts.count() == 2 and all(counts.nth(i).is_visible() for i in range(2))
        assert counts.all_inner_texts() == ["26 cards", "26 cards"]
        page.click("#auto")
        page.wait_for_selector("#end[open]")
        page.goto(str(page.get_attribute("#end-replay", "href")))
        page.wait_for_selector("#replay:not([hidden]) .seat")
        assert page.evaluate(FELT_CONTRAST, "#replay-play") >= 3
        # The one control of its colour, the table's main one's (Turn's).
        background = "s => getComputedStyle(document.querySelector(s)).backgroundColor"
        others = {page.evaluate(background, f"#replay-{name}") for name in ("start", "back", "next", "end")}
        assert page.evaluate(background, "#replay-play") not in others


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_the_end_says_who_won_once_from_your_seat_and_its_choices_are_one_size(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.wait_for_selector("#end-replay:not([hidden])")
        headline = page.inner_text("#end-title")
        assert re.fullmatch(r"You (won: you|lost: Robin) took all 52 cards\.", headline), headline
        said = page.inner_text("#end-sentence") + page.inner_text("#end-facts")
        assert "52" not in said and "win" not in said, said
        heights = {
            round(box["height"])
            for box in (page.locator(f"#end-{c}").bounding_box() for c in ("again", "replay", "close"))
            if box
        }
        assert len(heights) == 1, heights
        page.goto(f"{server}/#famous")
        first = page.locator("#famous-list li").first
        watch, replay = (
            first.locator("button", has_text="Watch").bounding_box(),
            first.locator("a", has_text="Replay").bounding_box(),
        )
        assert watch is not None and replay is not None
        assert (watch["y"], watch["height"]) == (replay["y"], replay["height"])


NUMBERS = "nodes => nodes.map((node) => node.innerText.match(/\\d+/g).map(Number))"
"""The numbers each node of a list says ("Ann: 30" gives [30])."""


def test_the_chart_s_legend_gives_the_hands_the_game_ended_with(server: str, browser: Any) -> None:
    with opened(browser) as page:
        # Deal 2 stops at the card limit with cards still on the pile: the result leaves them out.
        watch_to_the_end(page, server, seed=2, pace="instant", spec="max-cards=60")
        terms = page.locator("#end-facts dt").all_inner_texts()
        held = [int(n) for n in re.findall(r"\d+", shared_facts(page)[terms.index("Cards held")])]
        assert sum(held) < 52, held  # some on the pile
        page.wait_for_selector("#end-chart-box:not([hidden]) #end-chart-legend li")
        assert [n for [n] in page.locator("#end-chart-legend li").evaluate_all(NUMBERS)] == held
        assert str(page.get_attribute("#end-chart", "aria-label")).endswith(", and at the end")
        page.keyboard.press("Escape")
        page.wait_for_selector("#chart-box:not([hidden]) #chart-legend li")
        assert [n for [n] in page.locator("#chart-legend li").evaluate_all(NUMBERS)] == held
        assert page.inner_text("#chart-caption").endswith(", and at the end")
        page.wait_for_selector("#end-replay:not([hidden])", state="attached")
        page.goto(str(page.get_attribute("#end-replay", "href")))
        page.wait_for_selector("#replay:not([hidden]) #replay-legend li")
        page.click("#replay-end")
        page.wait_for_function("document.querySelector('#replay-where').innerText.startsWith('Card 60 ')")
        assert [n for [n] in page.locator("#replay-legend li").evaluate_all(NUMBERS)] == held


@pytest.mark.parametrize("how", ["Escape", "#end-close"])
def test_closing_the_end_window_leaves_the_focus_on_play_again_and_enter_there_on_the_table(
    server: str, browser: Any, how: str
) -> None:
    with opened(browser) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.wait_for_function("document.activeElement.id === 'end-title'")
        if how == "Escape":
            page.keyboard.press("Escape")
        else:
            page.focus(how)
            page.keyboard.press("Enter")  # the keyboard's way to "Look at the table"
        page.wait_for_selector("#end:not([open])", state="attached")
        page.wait_for_function("document.activeElement.id === 'play-again'")
        cards = cards_turned(page)
        page.keyboard.press("Enter")
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) < {cards}")
        page.wait_for_selector("#play-again", state="hidden")
        # Play again hides as the new game starts: the focus goes to the table, not to the page,
        # so that Space turns a card at once.
        page.wait_for_selector("#turn:enabled")
        assert page.evaluate("document.activeElement.id") == "table"
        next_card(page, cards_turned(page), read="#pile-count")


WHOLE_LINES = """() => {
  const log = document.querySelector('#log');
  const box = log.getBoundingClientRect();
  const top = box.top + log.clientTop, bottom = top + log.clientHeight;
  return [...log.children].filter((li) => getComputedStyle(li).clipPath === 'none')
    .map((li) => li.getBoundingClientRect())
    .filter((r) => r.bottom > top + 1 && r.top < bottom - 1)
    .map((r) => [Math.round(r.top - top), Math.round(bottom - r.bottom)]);
}"""
"""Where each log line seen in the log's box lies: its distance from the box's top and bottom."""


def test_the_short_log_shows_whole_lines_only(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast", players="3")
        page.click("#watch-game")
        at_table(page)
        seen = []
        for _ in range(12):
            page.wait_for_timeout(350)
            seen.append(page.evaluate(WHOLE_LINES))
        assert any(len(lines) > 1 for lines in seen)
        for lines in seen:
            assert lines and lines[0][0] >= -1, lines  # the first line seen begins in the box
            assert all(top >= -1 and bottom >= -1 for top, bottom in lines), lines


def test_the_short_log_is_filled_with_its_last_whole_lines(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast", players="4")
        page.click("#watch-game")
        at_table(page)
        page.wait_for_selector("#log li")
        line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#log li')).lineHeight)")
        seen = []
        for _ in range(16):
            page.wait_for_timeout(300)
            seen.append(page.evaluate(WHOLE_LINES))
        assert any(len(lines) > 1 for lines in seen)
        for lines in seen:
            # No blank line's room above the first line seen, and that line begins in the box.
            assert lines and -1 <= lines[0][0] < line - 2, (line, lines)


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_after_play_again_the_short_log_shows_no_cut_line_of_the_last_game(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.click("#end-again")
        page.wait_for_selector("#log li.game-break")
        page.wait_for_function("document.querySelector('#log li:last-child').innerText.startsWith('New')")
        shown = page.evaluate(
            """() => [...document.querySelectorAll('#log li.old')]
              .filter((li) => getComputedStyle(li).clipPath === 'none' && li.classList.contains('clamped'))
              .map((li) => li.innerText)"""
        )
        assert shown == []  # the last game's line above the rule shows whole or not at all
        lines = page.evaluate(WHOLE_LINES)
        assert lines and all(top >= -1 and bottom >= -1 for top, bottom in lines), lines


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_after_play_again_the_new_game_s_lines_start_at_the_short_log_s_top(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        watch_to_the_end(page, server, seed=SHORT_SEED, pace="instant")
        page.click("#end-again")
        page.wait_for_function("document.querySelector('#log li:last-child').innerText.startsWith('New')")
        line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#log li')).lineHeight)")
        # The rule between the games is a thin one, not a band that reads as an empty line.
        gap = page.evaluate(
            """() => {
              const rule = document.querySelector('#log li.game-break');
              return rule.nextElementSibling.getBoundingClientRect().top
                - rule.previousElementSibling.getBoundingClientRect().bottom;
            }"""
        )
        assert 0 < gap <= line / 2, (gap, line)
        lines = page.evaluate(WHOLE_LINES)
        # No blank band where the last game's cut line would be: the rule and the new game's
        # first line lie at the top, whole; the room left is below them.
        assert lines and -1 <= lines[0][0] < 2, (line, lines)
        assert all(top >= -1 and bottom >= -1 for top, bottom in lines), lines
        page.click("#turn")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 1")
        page.wait_for_function("!document.querySelector('#log li:last-child').innerText.startsWith('New')")
        lines = page.evaluate(WHOLE_LINES)
        assert lines and -1 <= lines[0][0] < 2, (line, lines)


HC_COLOURS = """cards => cards.map((card) => {
  const colour = (selector) => {
    const node = card.querySelector(selector);
    return node && getComputedStyle(node).display !== 'none' ? getComputedStyle(node).color : null;
  };
  const face = card.querySelector('.face');
  return [colour('.hc-index'), colour('.hc-pip'), face && getComputedStyle(face).display];
})"""
"""Each card's index colour, its suit sign's colour, and whether its printed face shows."""


def test_a_high_contrast_card_shows_its_suit_in_one_colour(server: str, browser: Any) -> None:
    with opened(browser) as page:
        page.goto(server)
        open_settings(page)
        page.check("#opt-contrast")
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function("document.querySelector('#scrub').max > 0")
        # Forty presses of "next card" (the replay draws each at once), the pile read after each.
        colours = page.evaluate(
            f"""steps => {{
              const read = {HC_COLOURS};
              const seen = [];
              for (let i = 0; i < steps; i++) {{
                document.querySelector('#replay-next').click();
                seen.push(...read([...document.querySelectorAll('#replay-pile .card')]));
              }}
              return seen;
            }}""",
            40,
        )
        assert len({index for index, _, _ in colours}) >= 2  # suits of more than one colour
        for index, pip, face in colours:
            assert index is not None and index == pip and face == "none", (index, pip, face)


HERO_MARGINS = """(() => {
  const boxes = [...document.querySelectorAll('.hero-card')].map((c) => c.getBoundingClientRect());
  return [Math.min(...boxes.map((b) => b.left)), innerWidth - Math.max(...boxes.map((b) => b.right))];
})()"""
AS_RGB = """(colour) => {
  const probe = document.createElement('i');
  probe.style.color = colour;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color;
  probe.remove();
  return rgb;
}"""


def test_the_small_things_look_of_a_piece(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
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
        # A recent game's link is in the page's colours, and its replay opens without a keyboard frame.
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="instant")
        page.click("#watch-game")
        page.wait_for_selector("#end[open]")
        page.goto(server)
        link = page.locator("#recent-list a").first
        link.wait_for()
        ink = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--secondary-ink').trim()"
        )
        assert link.evaluate("a => getComputedStyle(a).color") == page.evaluate(AS_RGB, ink)
        link.click()
        page.wait_for_selector("#replay:not([hidden]) .seat")
        assert page.evaluate("document.activeElement.id") != "scrub"


LANDING_BUDGET = 100_000
"""Bytes the home page may cost a first visit: the page, its styles, scripts, options and pictures."""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
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


def test_a_friend_arriving_by_the_link_is_told_whose_table_it_is(server: str, browser: Any) -> None:
    with opened(browser) as host, opened(browser, PHONE, color_scheme="dark") as guest:
        link = friend_table(host, server, name="Ann", players="3", humans="2", seed=SHORT_SEED)
        guest.goto(link)
        guest.wait_for_selector("#name-ask:not([hidden])")
        guest.wait_for_function("document.querySelector('#table-title').innerText === \"Ann's table\"")
        assert guest.inner_text("#rules-line") == (
            "Ann invites you to a game of Beggar-My-Neighbour: Ann, you and Robin (computer)."
        )
        for hidden in ("#seats", "#more", "#log", ".log-head"):  # nothing to show before sitting
            assert guest.locator(hidden).is_hidden(), hidden
        guest.fill("#sit-name", "Bea")
        guest.click("#sit-name-save")
        guest.wait_for_selector("#seats .seat")
        assert guest.locator("#log").is_visible() and guest.locator("#more").is_visible()


def test_a_lesson_s_sentence_follows_the_dark_theme(server: str, browser: Any) -> None:
    with opened(browser, PHONE, color_scheme="dark") as page:
        page.goto(server)
        page.click("text=Lessons")
        page.locator("#lessons button").first.click()
        page.wait_for_selector("#lesson-note:not([hidden])")
        rgb = page.locator("#lesson-note").evaluate("el => getComputedStyle(el).backgroundColor")
        assert max(int(c) for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]) < 80, rgb


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


def test_the_end_dialog_says_that_a_friend_asks_to_play_again(server: str, browser: Any) -> None:
    with opened(browser, PHONE) as host, opened(browser, PHONE, color_scheme="dark") as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="instant")
        host.click("#auto")
        guest.click("#auto")
        host.wait_for_selector("#end[open]")
        guest.wait_for_selector("#end[open]")
        host.click("#end-again")
        guest.wait_for_function(
            "document.querySelector('#end-notice').innerText.includes('Ann asks for a new game')"
        )
        # In view on a phone too, not under the dialog's choices that stay at its foot.
        on_top = """() => {
          const box = document.querySelector('#end-notice').getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return box.height > 0 && box.bottom <= innerHeight && top && top.id === 'end-notice';
        }"""
        assert guest.evaluate(on_top)
        assert guest.locator("#end-no").is_visible()
        assert axe(guest) == []
        guest.click("#end-no")
        host.wait_for_function("!document.querySelector('#notice').innerText.includes('Waiting for')")
        said = "Bea says no to a new game for now."
        host.wait_for_function(f"document.querySelector('#notice').innerText === '{said}'")
        guest.wait_for_function("document.querySelector('#end-notice').hidden")


def test_back_from_a_friend_table_shows_the_way_back_in_view_on_a_phone(server: str, browser: Any) -> None:
    with opened(browser, PHONE, is_mobile=True, has_touch=True) as page:
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
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box


def test_a_famous_game_has_one_name_in_its_list_at_its_table_and_in_its_replay(
    server: str, browser: Any
) -> None:
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
        page.goto(f"{server}/r/famous-0")
        page.wait_for_function(
            "text => document.querySelector('#replay-title').textContent === text", arg=f"Replay: {heading}"
        )


def test_a_famous_game_watched_has_its_own_address_that_a_reload_comes_back_to(
    server: str, browser: Any
) -> None:
    with opened(browser) as page:
        page.goto(f"{server}/#famous")
        page.locator("#famous-list li button", has_text="Watch").first.click()
        at_table(page)
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


def test_house_rules_taking_the_figures_away_as_the_field_is_left_do_not_steal_the_click(
    server: str, browser: Any
) -> None:
    with opened(browser, PHONE) as page:
        page.goto(server)
        open_settings(page, spec="max-cards=20")
        figures = page.inner_text("#opt-rules-measured")
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


PILE_CENTRE = """() => {
  const pile = document.querySelector('#pile');
  const cards = [...pile.querySelectorAll('.card:not(.sweeping)')];
  if (!cards.length) return null;
  const left = Math.min(...cards.map((node) => node.offsetLeft));
  const right = Math.max(...cards.map((node) => node.offsetLeft + node.offsetWidth));
  const lefts = cards.map((node) => node.offsetLeft);
  return { offCentre: (left + right) / 2 - pile.clientWidth / 2, lefts };
}"""
"""How far the pile's cards, together, lie from the pile's centre, and where each lies in it (where
it is laid: a card flying in is not counted off its place)."""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_the_pile_is_centred_after_a_reload_as_before_it(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        next_card(page, 0, read="#pile-count")
        page.wait_for_selector("#turn:enabled")
        next_card(page, 2, read="#pile-count")
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        page.wait_for_function("document.querySelectorAll('#pile .card').length >= 3")
        before = page.evaluate(PILE_CENTRE)
        assert abs(before["offCentre"]) < 3, before
        page.reload()
        at_table(page)
        centred = f"() => {{ const pile = ({PILE_CENTRE})(); return Math.abs(pile?.offCentre) < 3 && pile; }}"
        try:
            after = page.wait_for_function(centred, timeout=3000).json_value()
        except Exception as missed:
            raise AssertionError(page.evaluate(PILE_CENTRE)) from missed
        assert after["lefts"] == pytest.approx(before["lefts"], abs=1)


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE])
def test_the_row_of_controls_stays_put_while_the_computer_plays_both(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    with opened(browser, size) as page:
        play_the_computer(page, server, pace="slow")
        before = page.evaluate(CONTROLS_ROW)
        page.click("#auto")
        page.wait_for_selector("#auto[aria-pressed='true']")
        assert page.inner_text("#auto") == "Stop watching"
        assert (
            page.get_by_role("button", name="Stop watching", exact=True).count() == 1
        )  # its name: one label
        assert page.evaluate(CONTROLS_ROW)["places"] == before["places"]  # nothing in the row moves
        page.click("#auto")
        page.wait_for_selector("#auto[aria-pressed='false']")
        assert page.inner_text("#auto") == "Watch both players"
        assert page.evaluate(CONTROLS_ROW)["places"] == before["places"]
