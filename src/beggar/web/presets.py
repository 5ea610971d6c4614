"""The rule presets as a player sees them: plain names and plain descriptions.

The rules object owns what each preset *is*; this module owns only how the table *names* it.
Players never see a preset's code name or which seed document it came from.

>>> table_rules_title("practice-table")
'Practice table'
>>> table_rules_title("friend-table:max-tricks=100")
'Friend table, with changes'
"""

from __future__ import annotations

from beggar.rules import PRESETS, Rules

TITLES: dict[str, tuple[str, str]] = {
    "practice-table": (
        "Practice table",
        "You start. The game stops at an exact repeat after any card, or after 4,000 cards; "
        "neither awards a win.",
    ),
    "friend-table": (
        "Friend table",
        "A random player leads. A repeated position or 3,000 piles end the game, and whoever "
        "then holds more cards wins.",
    ),
    "family-table": (
        "Family table",
        "The player after the dealer leads. A game that loops is gathered, shuffled and dealt "
        "again; after 30 minutes whoever holds more cards wins.",
    ),
    "standard": ("No limits", "The standard game: it ends only when one player holds every card, or loops."),
    "jack-pays-2": ("Jack pays two", "A regional scale: the jack asks for two cards."),
    "double-penalty": (
        "Double penalty",
        "Twice the price: jack 2, queen 4, king 6, ace 8.",
    ),
    "court-only": ("Court cards only", "Jack, queen and king pay; the ace is an ordinary card."),
    "jacks-queens": ("Jacks and queens", "Only jacks and queens pay."),
    "stripped": ("Stripped deck", "40 cards: no eights, nines or tens."),
    "two-decks": ("Two decks", "Two decks shuffled together, 104 cards."),
    "half-deck": ("Half deck", "26 cards (hearts and spades), for short games with children."),
    "counter-clockwise": ("Suck the Well", "Four players; the turn passes counter-clockwise."),
    "newest-first": (
        "Newest card first",
        "A won pile goes under the stack newest card first.",
    ),
    "lose-when-empty": (
        "Lose when empty",
        "An empty stack loses at once, even after a last pay card.",
    ),
}
"""For each preset: its name at the table, and one or two sentences saying what it is."""

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


def preset_entries() -> list[dict[str, object]]:
    """Every preset for the home page: its key (what the browser sends), title, description, settings."""
    entries: list[dict[str, object]] = []
    for key, rules in PRESETS.items():
        title, about = TITLES.get(key, (key, rules.description))
        entries.append({"name": key, "title": title, "description": about, "settings": rules.settings()})
    return entries


def rules_entry(rules: Rules) -> dict[str, object]:
    """The rules a table plays by, for its players: plain title and every setting."""
    return {"name": rules.name, "title": table_rules_title(rules.name), "settings": rules.settings()}
