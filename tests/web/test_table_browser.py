"""A game at the table in Debian's Chromium, against the computer or watched: its address through
a reload and Back, pausing (by hand and for a hidden tab), the questions before a new game or
leaving, a won trick told in one moment, and the row of controls.

Where checks differ only by the window's size or the colour scheme, one page is resized
(``set_viewport_size``) or switched (``emulate_media``) between them rather than a new page opened
and a new game started for each: a page and its table cost Chromium far more than a check."""

from __future__ import annotations

from typing import Any

from helpers import (
    PHONE,
    PHONE_SCREEN,
    SHORT_SEED,
    at_table,
    axe,
    board_places,
    cards_turned,
    in_view_over_nothing,
    next_card,
    open_settings,
    opened,
    play_the_computer,
    seat_a_friend,
)

DESKTOP = {"width": 1280, "height": 800}
TABLET = {"width": 768, "height": 1024}


def test_a_game_against_the_computer_comes_back_after_a_reload_and_back(server: str, browser: Any) -> None:
    """A game against the computer (one page throughout): its empty pile says "paused" while the
    game is paused, and no longer once it is resumed; the live region speaks to the player ("you");
    after a reload and after Back and Forward it comes back to its own address, in this person's
    seat, with the cards turned so far, and the home page has the way back to it."""
    with opened(browser) as page:
        page.goto(server)
        open_settings(page, seed=SHORT_SEED, pace="fast")
        page.click("#play-computer")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("location.pathname.startsWith('/t/')")
        # An empty pile says the game is paused, while it is.
        page.wait_for_function("document.querySelector('#pile').innerText.startsWith('Pile empty')")
        page.click("#pause")
        page.wait_for_selector("#paused-banner:not([hidden])")
        page.wait_for_function("document.querySelector('#pile').innerText === 'Pile empty — paused'")
        assert "turn" not in page.inner_text("#pile")
        page.click("#resume-big")
        page.wait_for_selector("#paused-banner", state="hidden")
        page.wait_for_function("document.querySelector('#pile').innerText !== 'Pile empty — paused'")
        for _ in range(2):
            page.wait_for_selector("#turn:enabled")
            next_card(page, cards_turned(page), read="#pile-count")
            # The log names every seat; only what is asked of this person says "you".
            page.wait_for_function("/\\b[Yy]ou\\b/.test(document.querySelector('#narration').innerText)")
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


def test_on_a_phone_the_secondary_controls_wait_in_a_menu(server: str, browser: Any) -> None:
    with opened(browser, **PHONE) as page:
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
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
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
            page.wait_for_timeout(1000)  # fast pace: three cards' time, were it playing
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


def test_the_row_of_controls_stays_put_and_centred_while_paused_or_watched(server: str, browser: Any) -> None:
    """At a desktop's size and then a phone's (one page, resized), in dark mode: pausing moves
    nothing in the row of controls nor takes anything out of it, each line of it stays centred, and
    the paused table passes the accessibility audit; Resume puts back the row as it was; watching
    both players ("Stop watching", one name) and stopping move nothing in it either."""
    with opened(browser, color_scheme="dark") as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="slow")
        for size in (DESKTOP, PHONE_SCREEN):
            page.set_viewport_size(size)
            page.wait_for_selector("#turn:enabled")
            before = page.evaluate(CONTROLS_ROW)
            assert max(before["offCentre"]) < 2, (size, before)
            page.click("#pause")
            page.wait_for_selector("#paused-banner:not([hidden])")
            paused = page.evaluate(CONTROLS_ROW)
            assert paused["places"] == before["places"], size  # nothing in the row moves, nothing leaves it
            assert max(paused["offCentre"]) < 2, (size, paused)
            assert page.locator("#pause").is_disabled()  # Resume, in Turn's place, is the way back
            assert axe(page, impacts=None) == [], size
            page.click("#resume-big")
            page.wait_for_selector("#turn:enabled")
            assert page.evaluate(CONTROLS_ROW) == before, size
            page.click("#auto")
            page.wait_for_selector("#auto[aria-pressed='true']")
            assert page.inner_text("#auto") == "Stop watching"
            assert page.get_by_role("button", name="Stop watching", exact=True).count() == 1  # one label
            assert page.evaluate(CONTROLS_ROW)["places"] == before["places"], size
            page.click("#auto")
            page.wait_for_selector("#auto[aria-pressed='false']")
            assert page.inner_text("#auto") == "Watch both players"
            assert page.evaluate(CONTROLS_ROW)["places"] == before["places"], size


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


YOU_WIN = "Q" + "-" * 25 + "/" + "-" * 11 + "JJJJQQQKKKKAAAA"
"""A deal whose first trick you win: your queen, paid with two cards."""
ROBIN_WINS = "-" * 11 + "JJJQQQQKKKKAAAA/J" + "-" * 25
"""A deal whose first trick the computer wins: its jack, paid with one card."""

NOW = """(told) => {
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
"""What the table shows, read in one moment once the line under the pile says `told` (the page
moves on by itself: a held pile goes, the computer turns its next card)."""

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


def test_a_won_pile_is_told_in_one_moment_and_the_table_moves_on_after_its_sweep(
    server: str, browser: Any
) -> None:
    """Every frame, while a won pile is told and goes, says one moment: the stacks and the pile add
    up to the deck, the prompt and the owed marks agree, and a won pile owes nothing. When you win
    it, the line under the pile says who takes it while the stacks and the prompt say the same and
    Turn waits; Space pressed while the pile goes turns the card once it has gone, never onto it.
    When the computer wins it, the table moves past it to the winner's lead. (One page, a game for
    each.)"""
    with opened(browser) as page:
        for deal in (YOU_WIN, ROBIN_WINS):
            _a_won_pile_in_one_moment(page, server, deal)


def _a_won_pile_in_one_moment(page: Any, server: str, deal: str) -> None:
    """:func:`test_a_won_pile_is_told_in_one_moment_and_the_table_moves_on_after_its_sweep` for
    one deal."""
    play_the_computer(page, server, deal=deal, pace="normal")
    if deal == YOU_WIN:
        assert page.evaluate(NOW, "")["stacks"] == ["26", "26"]
    page.evaluate(
        "window.landed = []; new MutationObserver(() => window.landed.push("
        "document.querySelectorAll('#pile .card').length)).observe("
        "document.querySelector('#pile'), {childList: true})"
    )
    page.evaluate(f"window.moments = []; window.sample = {ONE_MOMENT}; window.sample()")
    if deal == YOU_WIN:
        page.keyboard.press("Space")
        # The last card paid lands; the line under the pile says who takes the pile, and the
        # stacks and the prompt say the same moment, while Turn waits for the pile to go.
        held = page.wait_for_function(NOW, arg="paid", polling="raf").json_value()
        assert held["told"] == "Queen paid: you take 3 cards."
        assert (held["turn"], held["stacks"]) == ("disabled", ["28", "24"])
        assert "owes" not in held["prompt"]
        # Space while the pile goes: the card is turned once it has gone, never onto it.
        page.keyboard.press("Space")
        shown = page.wait_for_function(NOW, arg="in the pile", polling="raf").json_value()
        assert (shown["cards"], shown["pile"], shown["stacks"]) == (4, 1, ["27", "24"])
        assert max(page.evaluate("window.landed")) <= 3  # the new card never joined the old pile
    else:
        # Turn (and pay) until a trick is won.
        won = "document.querySelector('#pile-count').innerText.includes('paid:')"
        while not page.evaluate(won):
            page.wait_for_selector("#turn:enabled")
            cards = cards_turned(page)
            page.keyboard.press("Space")
            page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {cards}")
            page.wait_for_function(f"{won} || !document.querySelector('#turn').disabled")
        # The trick's winner leads the next card: the table moves past the won pile.
        page.wait_for_selector("#turn:enabled")
        page.keyboard.press("Space")
        page.wait_for_function(
            "/\\d+ cards? in the pile/.test(document.querySelector('#pile-count').innerText)"
            " && parseInt(document.querySelector('#counts').innerText) >= 4"
        )
    sampled = page.evaluate("window.moments.length")  # a few frames more, past the last change
    page.wait_for_function(f"window.moments.length >= {sampled + 10}")
    moments = page.evaluate("window.stopSampling = true; window.moments")
    assert any("paid:" in m["line"] for m in moments)
    for moment in moments:
        assert moment["total"] == 52, moment
        assert moment["owed"] == moment["marks"], moment  # the prompt and the marks agree
        if "paid:" in moment["line"]:
            assert moment["owed"] is None and moment["filled"] == 0, moment
            assert "paid" in moment["log"].lower() or "take" in moment["log"].lower(), moment


QUESTION_STAYS = ("#turn", "#pause", "#again", "#counts", "#log")
"""What a question about a new game or leaving must not move."""


def _places(page: Any) -> dict[str, Any]:
    return {selector: page.locator(selector).bounding_box() for selector in QUESTION_STAYS}


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


def _unhidden_and_audited(page: Any, question: str, kept: list[str]) -> None:
    """In light and in dark mode, ``question`` hides none of ``kept`` and the page passes the
    accessibility audit; light mode again afterwards."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(UNCOVERED, [question, kept]) == [], scheme
        assert axe(page, impacts=None) == [], scheme
    page.emulate_media(color_scheme="light")


def test_a_new_game_or_leave_question_moves_nothing_and_hides_nothing_you_decide_about(
    server: str, browser: Any
) -> None:
    """One game against the computer, its page at a desktop's size, a tablet's and a phone's in
    turn: asking about a new game or about leaving moves nothing on the table, and its answers show.
    On a tablet the question hides neither your seat nor the prompt and its answers share one row;
    on a phone the new game question hides neither your seat, the prompt nor Turn; in light and dark
    mode alike, each passing the accessibility audit."""
    with opened(browser) as page:
        play_the_computer(page, server, seed=SHORT_SEED, pace="fast")
        page.keyboard.press("Space")
        page.wait_for_function("parseInt(document.querySelector('#counts').innerText) >= 2")
        asked = (("#again", "#abandon", "#abandon-no"), ("#leave", "#leave-ask", "#leave-no"))
        for size in (DESKTOP, TABLET, PHONE_SCREEN):
            page.set_viewport_size(size)
            page.wait_for_selector("#turn:enabled")
            page.wait_for_function("document.querySelector('#prompt').innerText.trim() !== ''")
            for control, question, keep in asked:
                if size == PHONE_SCREEN and control == "#leave":
                    page.click("#more")  # on a phone Leave waits behind "More"
                places = _places(page)
                page.click(control)
                page.wait_for_selector(f"{question}:not([hidden])")
                assert page.locator(keep).is_visible(), (size, question)
                assert _places(page) == places, (size, question)
                if size == TABLET:
                    _unhidden_and_audited(page, question, [".seat.you", "#prompt"])
                    yes, no = (
                        page.locator(f"{question} .confirm").bounding_box(),
                        page.locator(keep).bounding_box(),
                    )
                    assert abs(yes["y"] - no["y"]) < 1, "the answers share one row"
                elif size == PHONE_SCREEN and question == "#abandon":
                    _unhidden_and_audited(page, question, [".seat.you", "#prompt", "#turn"])
                page.click(keep)
                page.wait_for_selector(f"{question}[hidden]", state="attached")


def test_a_friend_s_new_game_question_moves_nothing_and_hides_nothing_you_decide_about(
    server: str, browser: Any
) -> None:
    """At a friend table, the host's page at a phone's size and then a desktop's: when the friend
    asks for a new game, the host is told in a notice in view over nothing, and nothing above it
    moves; on a phone the question hides neither the host's seat, the prompt nor Turn, in light and
    dark mode alike, each passing the accessibility audit. The host may keep playing, and the
    friend may ask again."""
    with opened(browser, PHONE_SCREEN) as host, opened(browser, PHONE_SCREEN) as guest:
        seat_a_friend(host, guest, server, seed=SHORT_SEED, name="Ann", pace="fast")
        for size in (PHONE_SCREEN, DESKTOP):
            host.set_viewport_size(size)
            guest.wait_for_selector("#again:enabled")
            host.wait_for_selector("#again:enabled")
            places = board_places(host)
            guest.click("#again")
            host.wait_for_function(
                "document.querySelector('#notice').innerText.includes('asks for a new game')"
            )
            host.wait_for_selector("#new-game-ask:not([hidden])")
            assert host.locator("#notice").is_visible()
            assert board_places(host) == places, size  # the counts and the log may move down, nothing above
            assert in_view_over_nothing(host, "#notice") == [], size
            if size == PHONE_SCREEN:
                _unhidden_and_audited(host, "#new-game-ask", [".seat.you", "#prompt", "#turn"])
                host.click("#new-game-no")
                host.wait_for_selector("#new-game-ask", state="hidden")


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


def test_a_new_game_question_holds_the_computer_and_escape_keeps_playing(server: str, browser: Any) -> None:
    """While the question stands the computer turns no card; it has one button of each name, and its
    answer stands out against its box in light and dark mode alike; Escape keeps playing."""
    with opened(browser) as page:
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
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate(CONTRAST, ["#abandon-yes", "#abandon", True]) >= 3, scheme
        page.wait_for_timeout(1500)  # five cards' time at this pace
        assert cards_turned(page) == held
        page.keyboard.press("Escape")
        assert page.locator("#abandon").is_hidden()
        page.wait_for_function(f"parseInt(document.querySelector('#counts').innerText) > {held}")
