"""The ``beggar`` command line: what a user types and what they see."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.records import NEVER_ENDING, RECORDS
from beggar.rules import rules_named

MANN_WU = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"
CASELLA = NEVER_ENDING.deal


def beggar(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_play_prints_the_record_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = beggar(capsys, "play", MANN_WU)
    assert status == 0
    assert out == "finished: 7157 cards, 1007 tricks; the second hand (B) wins; index 585397923484628415911\n"


def test_play_json_has_status_cards_tricks_and_zero_based_winner(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = beggar(capsys, "play", MANN_WU, "--json")
    record = json.loads(out)
    assert status == 0
    assert (record["status"], record["cards"], record["tricks"], record["winner"]) == (
        "finished",
        7157,
        1007,
        1,
    )


def test_a_deal_starting_with_a_dash_is_not_taken_for_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = beggar(capsys, "play", CASELLA)
    assert status == 0, err
    assert out.startswith("loop: 474 cards, 66 tricks; no winner (cycle of 62 tricks, 440 cards)")


def test_options_may_come_before_or_after_a_dash_deal(capsys: pytest.CaptureFixture[str]) -> None:
    _, before, _ = beggar(capsys, "play", "--json", CASELLA)
    _, after, _ = beggar(capsys, "play", CASELLA, "--json")
    _, dashed, _ = beggar(capsys, "play", "--json", "--", CASELLA)
    assert before == after == dashed
    assert json.loads(before)["status"] == "loop"


def test_trace_tells_the_game_card_by_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = beggar(capsys, "play", "--trace", "--partial", "QAT46/6J37K5")
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "standard: A 5, B 6 cards; A leads."
    assert lines[1] == "    1. A turns a queen: B owes 2."
    assert lines[3] == "    3. B turns a jack: the queen is cancelled, and A owes 1."
    assert "The king is paid: B takes the 10 cards of the pile (trick 1)." in lines[10]
    assert lines[-1].endswith("B wins with all 11 cards, after 10 cards and 1 trick.")
    # Without --trace, the one line; a count of one in the singular, numbers ungrouped (programs
    # read these lines from `play -`).
    one = "finished: 10 cards, 1 trick; the second hand (B) wins\n"
    assert beggar(capsys, "play", "--partial", "QAT46/6J37K5")[1] == one


def test_trace_ends_a_loop_with_where_it_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = beggar(capsys, "play", "--trace", CASELLA)
    assert out.splitlines()[-1].endswith(
        "Loop after 474 cards and 66 tricks: this position was already seen after card 34 (trick 4), "
        "so the game can never end. No one wins."
    )


def test_rules_option_changes_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    _, standard, _ = beggar(capsys, "play", MANN_WU, "--json")
    _, newest, _ = beggar(capsys, "play", MANN_WU, "--json", "--rules", "newest-first")
    assert json.loads(standard)["cards"] != json.loads(newest)["cards"]
    assert json.loads(newest)["rules"] == "newest-first"


def test_stdin_mode_plays_one_deal_per_line_and_reports_bad_lines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [game.deal for game in RECORDS] + ["", "# a comment", "KKKK/----"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, _ = beggar(capsys, "play", "-", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [(r["cards"], r["tricks"]) for r in rows[:-1]] == [(g.cards, g.tricks) for g in RECORDS]
    assert rows[-1]["line"] == len(lines)
    assert "52" in rows[-1]["error"]


def test_deal_is_reproducible_from_a_seed_and_playable(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = beggar(capsys, "deal", "--seed", "42")
    _, again, _ = beggar(capsys, "deal", "--seed", "42")
    _, other, _ = beggar(capsys, "deal", "--seed", "43")
    assert first == again != other
    status, out, _ = beggar(capsys, "play", first.strip(), "--json")
    assert status == 0 and json.loads(out)["cards"] > 0


def test_deal_follows_the_rules_deck_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = beggar(capsys, "deal", "--seed", "1", "--rules", "half-deck:players=3", "--notation", "full")
    hands = out.strip().split(" / ")
    assert [len(hand.split()) for hand in hands] == [9, 9, 8]


def test_records_replays_every_published_game_and_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = beggar(capsys, "records", "--json")
    rows = json.loads(out)
    assert status == 0
    assert len(rows) == len(RECORDS) + 1
    assert all(row["agrees"] for row in rows)


def test_records_table_names_every_finder(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = beggar(capsys, "records")
    for game in RECORDS:
        assert f"{game.finder} {game.year}" in out
    assert "cycle 62 tricks, 440 cards" in out


def test_rules_lists_every_preset_and_shows_one(capsys: pytest.CaptureFixture[str]) -> None:
    _, listing, _ = beggar(capsys, "rules", "--json")
    names = [rules["name"] for rules in json.loads(listing)]
    assert {"standard", "practice-table", "friend-table", "double-penalty", "half-deck"} <= set(names)
    _, one, _ = beggar(capsys, "rules", "friend-table")
    assert "max-tricks" in one and "3000" in one


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "K-/-X"], "unknown card 'X' at position 5"),
        (["play", MANN_WU, "--rules", "nonsense"], "unknown rules 'nonsense'"),
        (["play", MANN_WU, "--rules", "standard:players=9"], "players=9"),
        (["play", MANN_WU, "--rules", "standard:players=3"], "the deal has 2 hands"),
        (["play", "KKKKK-/----"], "too many Ks"),
        (["play"], "Missing argument"),
        (["play", MANN_WU, "--bogus"], "No such option"),
        (["deal", "--seed", "x"], "must be a whole number"),
        (["nonsense"], "No such command"),
    ],
)
def test_errors_are_one_line_on_stderr_with_a_nonzero_status(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = beggar(capsys, *args)
    assert status != 0
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("beggar: ")
    assert message in err


def test_no_arguments_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = beggar(capsys)
    assert status == 0
    assert "play" in out and "records" in out


@pytest.mark.system
def test_console_script_and_module_run_as_typed() -> None:
    """Both ways of starting the command, a process each: the console script plays a deal, and
    ``python -m beggar`` refuses a bad one in one line. (What either prints is :func:`run`'s, which
    the tests above hold in this process; a process here proves the entry points reach it.)"""
    script = subprocess.run(
        [str(Path(sys.executable).with_name("beggar")), "play", CASELLA, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert script.returncode == 0, script.stderr
    assert json.loads(script.stdout)["tricks"] == 66
    bad = subprocess.run(
        [sys.executable, "-m", "beggar", "play", "XX/YY"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode != 0
    assert "Traceback" not in bad.stderr
    assert bad.stderr.startswith("beggar: ")


# -- defects found by the review of one owner per rule ---------------------------------------------

ITALIAN = "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"
"""A published cycle of the Italian 40-card game (court-only on the stripped deck)."""


def test_cycle_of_a_deal_that_ends_under_rules_with_a_card_limit_and_no_repeat_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = beggar(capsys, "cycle", MANN_WU, "--rules", "standard:repeat=off:max-cards=100")
    assert status == 0, err
    assert out.startswith("no cycle (A leads): the game ends (finished: 7157 cards, 1007 tricks")


def test_cycle_under_a_random_lead_is_the_same_every_run_and_says_who_led(
    capsys: pytest.CaptureFixture[str],
) -> None:
    runs = {beggar(capsys, "cycle", CASELLA, "--rules", "friend-table", "--json")[1] for _ in range(6)}
    assert len(runs) == 1
    data = json.loads(runs.pop())
    assert data["first"] == rules_named("friend-table").draw_leader(0)
    leaders = {json.loads(beggar(capsys, "cycle", CASELLA, "--rules", "friend-table", "--seed", str(s),
                                 "--json")[1])["first"] for s in range(12)}  # fmt: skip
    assert leaders == {0, 1}
    _, text, _ = beggar(capsys, "cycle", CASELLA, "--rules", "friend-table", "--seed", "3")
    assert f"({'AB'[rules_named('friend-table').draw_leader(3)]} leads)" in text


def test_play_under_a_random_lead_is_the_same_every_run_and_names_the_leader(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outs = {beggar(capsys, "play", MANN_WU, "--rules", "friend-table")[1] for _ in range(5)}
    assert len(outs) == 1
    assert outs.pop().rstrip().endswith(" led")


def test_the_italian_cycle_is_written_with_dashes_for_its_aces(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = beggar(capsys, "cycle", ITALIAN, "--rules", "court-only:deck=stripped", "--reach", "1")
    assert status == 0, err
    assert "lasts 36 tricks (188 cards)" in out
    assert "(20/20, the first hand leads)" in out and "26/26" not in out


def test_a_position_of_any_cards_plays_with_cards_any(capsys: pytest.CaptureFixture[str]) -> None:
    """A public exercise suite plays a position with thirty kings: any multiset, when asked for."""
    thirty_kings = "K" * 15 + "-" * 100 + "/" + "K" * 15 + "-" * 231
    status, _, err = beggar(capsys, "play", thirty_kings, "--partial")
    assert status != 0 and "too many Ks" in err
    status, out, err = beggar(capsys, "play", thirty_kings, "--cards", "any", "--json")
    assert status == 0, err
    record = json.loads(out)
    assert sum(record["holdings"]) == 361


def test_lesson_plays_in_the_terminal_card_by_card(capsys: pytest.CaptureFixture[str]) -> None:
    from beggar.lessons import lesson

    status, out, _ = beggar(capsys, "lesson", "3")
    assert status == 0
    assert out.startswith("Lesson 3: Paying with a pay card\n")
    script = lesson(3).script()
    for step in script:
        assert f"{step.number:>3}. {step.sentence}" in out
        if step.note:
            assert step.note in out
    status, listing, _ = beggar(capsys, "lesson")
    assert status == 0 and "4. Collecting the pile" in listing
    status, _, err = beggar(capsys, "lesson", "9")
    assert status != 0 and "no lesson 9" in err


# -- hostile or unlucky input: one line, no traceback, nothing written -----------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "-n", "10", "--plot", "/nonexistent/x.png"], "the folder /nonexistent does not exist"),
        (["simulate", "-n", "10", "--csv", "/dev/full"], "cannot write /dev/full"),
        (["search", "--db", "/proc/nonexistent/x.db", "--minutes", "0.01"], "does not exist"),
        (["deal", "--seed", "-1"], "must be a whole number written with the digits 0-9, 0 or more"),
        (["play", MANN_WU, "--rules", "standard:max-cards=lots"], "write a whole number of cards"),
    ],
)
def test_unwritable_paths_and_bad_values_are_one_beggar_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, _, err = beggar(capsys, *args)
    assert status != 0
    assert err.startswith("beggar: ") and err.count("\n") == 1, err
    assert message in err
    assert not Path("/nonexistent").exists()


def test_paths_under_a_file_are_refused_and_no_folder_is_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain = tmp_path / "plain"
    plain.write_text("keep me")
    for args in (["search", "--db", str(plain / "x.db"), "--minutes", "0.01"],):
        status, _, err = beggar(capsys, *args)
        assert status != 0 and err.startswith("beggar: ") and err.count("\n") == 1
    assert plain.read_text() == "keep me"
    missing = tmp_path / "new" / "x.db"
    status, _, err = beggar(capsys, "search", "--db", str(missing), "--minutes", "0.01")
    assert status != 0 and "does not exist" in err
    assert not missing.parent.exists()


def test_export_to_paths_that_cannot_be_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from beggar.research.store import Find, Store

    db = tmp_path / "finds.db"
    Store(db).add([Find(MANN_WU, "standard", 7157, 1007, "finished", 1, "random", 0)])
    plain = tmp_path / "plain"
    plain.write_text("keep me")
    for target in ("/dev/full", str(plain / "x")):
        status, _, err = beggar(capsys, "export", "--db", str(db), "-o", target)
        assert status != 0 and err.startswith("beggar: cannot write") and err.count("\n") == 1, err
    assert plain.read_text() == "keep me"


@pytest.mark.system
def test_a_runaway_line_on_standard_input_is_refused_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    huge = "K" + "X" * 10_000_000 + "\n" + MANN_WU + "\n"
    began = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "beggar", "play", "-", "--json"],
        input=huge,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert time.perf_counter() - began < 30
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert "longer than 100,000 characters" in lines[0]["error"]
    assert lines[1]["cards"] == 7157
    assert result.returncode == 1 and "Traceback" not in result.stderr


def test_serve_on_a_port_in_use_is_one_beggar_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _, err = beggar(capsys, "serve", "--port", str(port))
    assert status == 1
    assert err == f"beggar: cannot listen on 127.0.0.1:{port}: the port is in use\n"


@pytest.mark.parametrize(
    "command",
    [
        ["construct", "--period", "30"],
        ["census", "--max-period", "4", "--db", "never-written.db"],
        ["exhaust", "--rules", "half-deck", "--db", "never-written.db"],
        ["deal", "--index", "0"],
    ],
)
def test_every_command_with_cards_reads_and_refuses_them_alike(
    capsys: pytest.CaptureFixture[str], command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = beggar(capsys, *command, "--cards", "6,x")
    assert (status, out) == (2, "")
    assert "bad --cards '6,x': write whole numbers separated by commas" in err
    assert list(tmp_path.iterdir()) == []  # refused before anything is written
    status, out, _ = beggar(capsys, command[0], "--help")
    assert "smaller deck: number cards, then cards of each pay value in rank order" in " ".join(out.split())
