"""The rule presets as a player sees them: plain names and plain descriptions.

:data:`beggar.rules.PRESET_LIST` owns each preset: what it is, its title and its description.
This module only says how a table names rules that start from one. Players never see a preset's
code name.

>>> table_rules_title("practice-table")
'Practice table'
>>> table_rules_title("friend-table:max-tricks=100")
'Friend table, with changes'
"""

from __future__ import annotations

from collections.abc import Mapping

from beggar.research import houserules
from beggar.rules import PRESET_LIST, Rules

TITLES: dict[str, tuple[str, str]] = {
    preset.name: (preset.title, preset.description) for preset in PRESET_LIST
}
"""For each preset: its name at the table, and what it is (from :data:`beggar.rules.PRESET_LIST`)."""

COMPUTER_DEFAULT = "practice-table"
"""The rules of "Play the computer": the practice table a person plays alone."""
FRIEND_DEFAULT = "friend-table"
"""The rules of "Play a friend": the table two friends play at."""


def preset_key(name: str) -> str:
    """The preset a rules name starts from: ``"friend-table:max-tricks=5"`` → ``"friend-table"``."""
    return name.split(":", 1)[0].strip().lower()


def table_rules_title(name: str) -> str:
    """What a table calls its rules: the preset's plain name, and whether anything was changed."""
    key = preset_key(name)
    title = TITLES.get(key, (key.replace("-", " ").capitalize(), ""))[0]
    return f"{title}, with changes" if ":" in name else title


def preset_entries(delays: Mapping[str, float] | None = None) -> list[dict[str, object]]:
    """Every preset for the home page: its key (what the browser sends), title, description,
    settings, and what it does to a game as the kernel measured it (:func:`measured`; ``delays``:
    each pace's seconds a card)."""
    figures = houserules.shipped()
    return [
        {
            "name": preset.name,
            "title": preset.title,
            "description": preset.description,
            "settings": preset.rules.settings(),
            "measured": measured(figures[preset.name], delays or {}) if preset.name in figures else None,
        }
        for preset in PRESET_LIST
    ]


def measured(figures: houserules.HouseRuleFigures, delays: Mapping[str, float]) -> dict[str, object]:
    """A preset's measured figures for the page, with the minutes a typical game lasts at each pace
    of ``delays`` (seconds a card; a person at the table turns about as fast).

    >>> entry = measured(houserules.shipped()["standard"], {"normal": 1.0, "instant": 0.0})
    >>> entry["median_cards"], entry["minutes"]
    (195, {'normal': 3.2})
    """
    return {
        "games": figures.games,
        "median_cards": round(figures.median_cards),
        "p90_cards": round(figures.p90_cards),
        "stopped": figures.stopped,
        "loops": figures.loops,
        "leader_wins": figures.leader_wins,
        "minutes": {
            pace: round(figures.median_cards * delay / 60, 1) for pace, delay in delays.items() if delay
        },
    }


def rules_entry(rules: Rules) -> dict[str, object]:
    """The rules a table plays by, for its players: plain title and every setting."""
    return {"name": rules.name, "title": table_rules_title(rules.name), "settings": rules.settings()}
