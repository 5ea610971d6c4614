"""The server's random names (beggar.web.ids): table ids, replay ids and seat tokens."""

from __future__ import annotations

from beggar.engine import Game
from beggar.notation import parse_deal
from beggar.web.archive import Archive
from beggar.web.ids import (
    ID_ALPHABET,
    REPLAY_ID_LENGTH,
    TABLE_ID_LENGTH,
    is_table_id,
    new_table_id,
    new_token,
    token_hash,
)


def test_a_replay_id_is_drawn_from_the_alphabet_of_table_ids() -> None:
    """No id a person reads aloud holds a letter or digit that can be misread."""
    game = Game(parse_deal("Q-/-J", complete=False), complete=False)
    while not game.over:
        game.step()
    replay = Archive(":memory:").save(game, ["Ann", "Bea"], mode="watch")
    assert len(replay) == REPLAY_ID_LENGTH and set(replay) <= set(ID_ALPHABET)
    assert not set(ID_ALPHABET) & set("ilo01")


def test_a_table_id_reads_as_one_and_a_token_is_kept_only_as_its_hash() -> None:
    table_id = new_table_id()
    assert len(table_id) == TABLE_ID_LENGTH and is_table_id(table_id)
    assert not is_table_id(table_id[:-1]) and not is_table_id(table_id[:-1] + "0")
    token = new_token()
    assert len(token) >= 24 and token != new_token()
    assert token_hash(token) == token_hash(token) != token and len(token_hash(token)) == 64
