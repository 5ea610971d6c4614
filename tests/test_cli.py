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

MANN_WU = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"
CASELLA = NEVER_ENDING.deal


def beggar(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_play_prints_the_record_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = beggar(capsys, "play", MANN_WU)
    assert status == 0
    assert out == "finished: 7157 cards, 1007 tricks; the second hand (B) wins\n"


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
        (["deal", "--seed", "x"], "not a valid integer"),
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


@pytest.mark.parametrize("module", [False, True], ids=["console-script", "python-m"])
def test_console_script_and_module_run_as_typed(module: bool) -> None:
    command = [sys.executable, "-m", "beggar"] if module else [str(Path(sys.executable).with_name("beggar"))]
    result = subprocess.run(
        [*command, "play", CASELLA, "--json"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tricks"] == 66
    bad = subprocess.run([*command, "play", "XX/YY"], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode != 0
    assert "Traceback" not in bad.stderr
    assert bad.stderr.startswith("beggar: ")
