"""The compiled batch kernel: many games at native speed, exactly as the reference engine plays them.

A card is its pay value (0 for a card that pays nothing), so the rules compile to a few numbers and a
deck of pay values (:class:`KernelRules`). :func:`play_random` deals and plays games inside the
kernel; :func:`play_deals` plays given deals. Both return a :class:`Batch` whose
:meth:`Batch.records` are the reference engine's :class:`~beggar.engine.GameRecord` objects,
field for field (the differential tests check this on every preset).

Random deals: game ``i`` of a run with seed ``S`` is shuffled by :mod:`beggar.kernels.rng` from its own
stream, seeded from ``(S, i)`` alone, so a game's deal and result depend only on the seed and its
index, never on the batch size or the number of workers; the deck is dealt one card at a time
round the table, as :func:`beggar.notation.deal_cards` does. :func:`random_deals` gives the same deals as
:class:`~beggar.notation.Deal` objects, so any game can be replayed by the reference engine.

Loops are found exactly without slowing the common case: a game is first played without
remembering positions, up to ``bound`` cards. A game that ends (one player holds every card,
or rule 8) before that cannot have repeated a position, since a repeated position repeats
forever; its result is exact. A game that reaches the bound or a house limit is replayed from
the start with every position remembered (hashed, then compared in full), so its result is
the engine's whatever the bound.

>>> batch = play_deals(["K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"])
>>> int(batch.cards[0]), int(batch.tricks[0]), int(batch.winner[0])
(7157, 1007, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from beggar.cards import Card
from beggar.engine import GameRecord
from beggar.kernels.codes import (
    AWARD_MOST_CARDS,
    AWARD_REDEAL,
    AWARDS,
    CAPPED,
    CAPPED_AT_TRICK,
    CFG_BOUND,
    CFG_DIRECTION,
    CFG_FAST,
    CFG_FIRST,
    CFG_MAX_CARDS,
    CFG_MAX_TRICKS,
    CFG_NEWEST_FIRST,
    CFG_ON_REPEAT,
    CFG_ON_STOP,
    CFG_PLAYERS,
    CFG_REPEAT,
    CFG_SIZE,
    CFG_WHEN_EMPTY,
    COL_CARDS,
    COL_FIRST,
    COL_HOLDINGS,
    COL_OUTCOME,
    COL_REASON,
    COL_REPEAT_CARDS,
    COL_REPEAT_TRICKS,
    COL_STATUS,
    COL_TRICKS,
    COL_WINNER,
    NO_LIMIT,
    OUTCOME_DRAW,
    OUTCOME_NO_WINNER,
    OUTCOME_REDEAL,
    OUTCOME_WIN,
    OUTCOMES,
    PLAYING,
    REASON_ALL_CARDS,
    REASON_CANNOT_TURN,
    REASON_CARD_LIMIT,
    REASON_EMPTY,
    REASON_REPEAT,
    REASON_TRICK_LIMIT,
    REASONS,
    REPEAT_CARD,
    REPEAT_OFF,
    REPEAT_TRICK,
    REPEATS,
    STATUS_LOOP,
    STATUS_OF_REASON,
    STATUS_STOPPED,
    STATUSES,
)
from beggar.kernels.jit import jit, jit_inline, runtime
from beggar.kernels.rng import below, game_state, mix, order, seed64, shuffle
from beggar.notation import Deal, check_deal, deal_cards, parse_deal
from beggar.rules import STANDARD, Direction, EmptyHand, PileOrder, Rules

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]

DEFAULT_BOUND = 20_000
"""Cards a game is played without position tracking before it is replayed with it.

The longest known finished standard game has 8,344 cards; results never depend on this."""

# -- codes shared by the kernel and Python ---------------------------------------------------------

_U = np.uint64
_FNV_PRIME = _U(0x100000001B3)
_FNV_BASIS = _U(0xCBF29CE484222325)

Result = tuple[int, int, int, int, int, int]
"""A game's end as the kernel reports it: reason, cards, tricks, winner, repeat cards, repeat tricks."""


# Compile time (``bench/compile_time.py``). numba compiles each jitted function on its own and
# once for every distinct tuple of argument types, literal constants included; and it links the
# code of every function a function calls into that function's module, where LLVM optimises and
# translates it all again. So constants reach a shared callee through runtime (one compilation
# serves every caller); a large function is inlined (``inline="always"``) only where one copy is
# typed, or where a constant makes it measurably faster; and the small functions that only wrap
# the tracked player (play_general), such as replay, are inlined into their callers, so that the
# player is not optimised once more in a module of their own.


# == game state helpers ============================================================================


@jit
def _deal_round(deck: np.ndarray, players: int, buf: np.ndarray, head: np.ndarray, cnt: np.ndarray) -> None:
    """Deal ``deck`` one card at a time round the table into the players' ring buffers."""
    for p in range(players):
        head[p] = 0
        cnt[p] = 0
    p = 0
    for k in range(deck.size):
        buf[p, cnt[p]] = deck[k]
        cnt[p] += 1
        p += 1
        if p == players:
            p = 0


@jit
def deal_hands(
    cards: np.ndarray,
    lengths: np.ndarray,
    players: int,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """Put given hands (concatenated in seat order, top card first) into the ring buffers."""
    k = 0
    for p in range(players):
        head[p] = 0
        cnt[p] = lengths[p]
        for i in range(lengths[p]):
            buf[p, i] = cards[k]
            k += 1


@jit
def _next_seat(player: int, players: int, direction: int, out: np.ndarray) -> int:
    """The next seat round the table that is still in the game."""
    seat = player
    while True:
        seat += direction
        if seat == players:
            seat = 0
        elif seat < 0:
            seat = players - 1
        if out[seat] == 0:
            return seat


@jit
def _take(
    winner: int,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    pile: np.ndarray,
    plen: int,
    mask: int,
    newest: bool,
) -> None:
    """Put the pile under ``winner``'s stack, oldest or newest card first."""
    tail = head[winner] + cnt[winner]
    if newest:
        for k in range(plen):
            buf[winner, (tail + k) & mask] = pile[plen - 1 - k]
    else:
        for k in range(plen):
            buf[winner, (tail + k) & mask] = pile[k]
    cnt[winner] += plen


# == the two-player fast path (no position tracking) ==============================================


RING = 256
"""Capacity of each hand's ring buffer in the two-player fast path (a constant: decks have < 256 cards)."""


@jit
def _fast_two(
    ring: np.ndarray,
    pile: np.ndarray,
    first: int,
    n0: int,
    n1: int,
    newest: bool,
    when_empty: bool,
    cap_cards: int,
    cap_tricks: int,
) -> tuple[int, int, int, int, int, int]:
    """Play a two-player game without remembering positions, all state in registers.

    One function on purpose: split into calls, the state would leave the registers, and this is
    the loop every random two-player game runs through.

    ``ring`` holds hand 0 from index 0 and hand 1 from index :data:`RING`, ``n0`` and ``n1``
    cards. Returns ``(reason, cards, tricks, winner, held0, held1)``; reason is ``CAPPED``
    when the game reached ``cap_cards`` cards or ``cap_tricks`` tricks before it ended.
    """
    mask = RING - 1
    h0 = 0
    h1 = 0
    p = first
    owed = 0
    creditor = 0
    plen = 0
    cards = 0
    tricks = 0
    while True:
        q = p
        other = q ^ 1
        c = int(ring[q * RING + (h1 if q else h0)])
        h0 = (h0 + other) & mask
        h1 = (h1 + q) & mask
        n0 -= other
        n1 -= q
        pile[plen] = c
        plen += 1
        cards += 1
        if c != 0:
            owed = c
            creditor = q
            p = other
        elif owed != 0:
            owed -= 1
            if owed == 0:
                # The creditor takes the pile under their stack (Game._take).
                if creditor == 0:
                    tail = h0 + n0
                    n0 += plen
                else:
                    tail = h1 + n1
                    n1 += plen
                base = creditor * RING
                for k in range(plen):
                    card = pile[plen - 1 - k] if newest else pile[k]
                    ring[base + ((tail + k) & mask)] = card
                plen = 0
                tricks += 1
                p = creditor
                if (n1 if creditor == 0 else n0) == 0:
                    return REASON_ALL_CARDS, cards, tricks, creditor, n0, n1
                if cards >= cap_cards or tricks >= cap_tricks:
                    return CAPPED, cards, tricks, -1, n0, n1
                continue
        else:
            p = other
        left_q = n1 if q else n0
        left_p = n1 if p else n0
        if left_p == 0 or cards >= cap_cards or (when_empty and left_q == 0):
            # The winner takes the pile (Game._put_out), or the game is capped.
            if when_empty and left_q == 0:
                winner = other
                reason = REASON_EMPTY
            elif left_p == 0:
                winner = p ^ 1
                reason = REASON_CANNOT_TURN
            else:
                return CAPPED, cards, tricks, -1, n0, n1
            if winner == 0:
                n0 += plen
            else:
                n1 += plen
            return reason, cards, tricks + 1, winner, n0, n1


@jit
def _ring_deal(hands: np.ndarray, lengths: np.ndarray, dealt: bool, ring: np.ndarray) -> tuple[int, int]:
    """Put a two-player deal into the fast path's ring; returns the hand sizes."""
    if dealt:
        n1 = hands.size // 2
        n0 = hands.size - n1
        for k in range(n1):
            ring[k] = hands[2 * k]
            ring[RING + k] = hands[2 * k + 1]
        if n0 > n1:
            ring[n1] = hands[hands.size - 1]
        return n0, n1
    n0 = lengths[0]
    n1 = lengths[1]
    for k in range(n0):
        ring[k] = hands[k]
    for k in range(n1):
        ring[RING + k] = hands[n0 + k]
    return n0, n1


# == the general path: any table, optional exact position tracking =================================


@jit
def _position(
    key: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    plen: int,
    mask: int,
    players: int,
    to_play: int,
    owed: int,
    creditor: int,
) -> np.uint64:
    """Write the position into ``key`` and return its hash.

    Layout: each stack's size, every stack's pay values in seat order, the pile's pay values,
    who plays, the out flags, the pile size, the amount owed and the creditor plus one. Equal
    keys are exactly equal engine positions (at a trick end the pile part is always empty).
    """
    k = 0
    for p in range(players):
        key[k] = cnt[p]
        k += 1
    for p in range(players):
        h = head[p]
        for i in range(cnt[p]):
            key[k] = buf[p, (h + i) & mask]
            k += 1
    for i in range(plen):
        key[k] = pile[i]
        k += 1
    key[k] = to_play
    k += 1
    for p in range(players):
        key[k] = out[p]
        k += 1
    key[k] = plen
    key[k + 1] = owed
    key[k + 2] = creditor + 1
    h64 = _FNV_BASIS
    for i in range(key.size):
        h64 = (h64 ^ _U(key[i])) * _FNV_PRIME
    return mix(h64)


@jit
def _seen_lookup_or_add(
    key: np.ndarray,
    h64: np.uint64,
    cards: int,
    tricks: int,
    rows: np.ndarray,
    hashes: np.ndarray,
    marks: np.ndarray,
    table: np.ndarray,
    count: int,
) -> int:
    """Index of the stored position equal to ``key``, or -1 after storing it as row ``count``."""
    tmask = table.size - 1
    slot = np.int64(h64 & _U(tmask))
    width = key.size
    while True:
        r = table[slot]
        if r < 0:
            break
        if hashes[r] == h64:
            same = True
            for i in range(width):
                if rows[r, i] != key[i]:
                    same = False
                    break
            if same:
                return int(r)
        slot = (slot + 1) & tmask
    table[slot] = count
    for i in range(width):  # not rows[count, :] = key, whose error message costs compile time
        rows[count, i] = key[i]
    hashes[count] = h64
    marks[count, 0] = cards
    marks[count, 1] = tricks
    return -1


@jit
def _rehash(hashes: np.ndarray, count: int, size: int) -> np.ndarray:
    table = np.full(size, -1, np.int64)
    tmask = size - 1
    for r in range(count):
        slot = np.int64(hashes[r] & _U(tmask))
        while table[slot] >= 0:
            slot = (slot + 1) & tmask
        table[slot] = r
    return table


# The general path keeps a game's scalars in one small array, so that each of the engine's steps
# (turn a card, take the pile, put a player out, check for a repeat) is a function of its own
# that a reader can hold against :class:`beggar.engine.Game`.
G_TO_PLAY, G_OWED, G_CREDITOR, G_PLEN, G_CARDS, G_TRICKS, G_IN, G_REASON, G_WINNER = range(9)
_G_SIZE = 9


@jit
def _new_game(players: int, first: int, out: np.ndarray) -> np.ndarray:
    g = np.zeros(_G_SIZE, np.int64)
    g[G_TO_PLAY] = first
    g[G_CREDITOR] = -1
    g[G_IN] = players
    g[G_REASON] = PLAYING
    g[G_WINNER] = -1
    for p in range(players):
        out[p] = 0
    return g


@jit_inline
def _end(g: np.ndarray, reason: int, winner: int) -> None:
    g[G_REASON] = reason
    g[G_WINNER] = winner


@jit
def _take_pile(
    g: np.ndarray,
    player: int,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    pile: np.ndarray,
    mask: int,
    size: int,
    newest: bool,
    check_all: bool,
) -> None:
    """``player`` takes the pile and leads (Game._take); holding every card, they win."""
    _take(player, buf, head, cnt, pile, g[G_PLEN], mask, newest)
    g[G_PLEN] = 0
    g[G_TRICKS] += 1
    g[G_OWED] = 0
    g[G_CREDITOR] = -1
    g[G_TO_PLAY] = player
    if check_all and cnt[player] == size:
        _end(g, REASON_ALL_CARDS, player)


@jit
def _turn(
    g: np.ndarray,
    cfg: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
    size: int,
) -> bool:
    """The player to play turns their top card and it is settled (Game.step); True if a pile was taken."""
    player = g[G_TO_PLAY]
    h = head[player]
    card = buf[player, h]
    head[player] = (h + 1) & mask
    cnt[player] -= 1
    pile[g[G_PLEN]] = card
    g[G_PLEN] += 1
    g[G_CARDS] += 1
    if card != 0:
        g[G_CREDITOR] = player
        g[G_OWED] = card
        g[G_TO_PLAY] = _next_seat(player, cfg[CFG_PLAYERS], cfg[CFG_DIRECTION], out)
    elif g[G_OWED] > 0:
        g[G_OWED] -= 1
        if g[G_OWED] == 0:
            _take_pile(g, g[G_CREDITOR], buf, head, cnt, pile, mask, size, cfg[CFG_NEWEST_FIRST] != 0, True)
            return True
    else:
        g[G_TO_PLAY] = _next_seat(player, cfg[CFG_PLAYERS], cfg[CFG_DIRECTION], out)
    return False


@jit
def _put_out(
    g: np.ndarray,
    victim: int,
    why: int,
    cfg: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
    size: int,
) -> bool:
    """``victim`` is out of the game (Game._put_out); True if a pile was taken as a result."""
    players = cfg[CFG_PLAYERS]
    out[victim] = 1
    g[G_IN] -= 1
    if g[G_IN] == 1:
        winner = -1
        for seat in range(players):
            if out[seat] == 0:
                winner = seat
        took = bool(g[G_PLEN] > 0)
        if took:  # the last player in takes the pile, not counted as paid
            cnt[winner] += g[G_PLEN]
            g[G_PLEN] = 0
            g[G_TRICKS] += 1
        _end(g, why, winner)
        return took
    if g[G_OWED] > 0:
        creditor = g[G_CREDITOR]
        if creditor != victim:
            _take_pile(g, creditor, buf, head, cnt, pile, mask, size, cfg[CFG_NEWEST_FIRST] != 0, True)
            return True
        g[G_OWED] = 0
        g[G_CREDITOR] = -1
    if g[G_TO_PLAY] == victim:
        g[G_TO_PLAY] = _next_seat(victim, players, cfg[CFG_DIRECTION], out)
    return False


@jit
def _settle_empty_hands(
    g: np.ndarray,
    player: int,
    cfg: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
    size: int,
) -> bool:
    """Put out whoever can no longer play after ``player``'s card (Game.step's last loop)."""
    took = False
    if g[G_REASON] == PLAYING and cfg[CFG_WHEN_EMPTY] != 0 and cnt[player] == 0:
        took |= _put_out(g, player, runtime(REASON_EMPTY), cfg, buf, head, cnt, out, pile, mask, size)
    cannot_turn = runtime(REASON_CANNOT_TURN)
    while g[G_REASON] == PLAYING and cnt[g[G_TO_PLAY]] == 0:
        took |= _put_out(g, g[G_TO_PLAY], cannot_turn, cfg, buf, head, cnt, out, pile, mask, size)
    return took


Seen = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Positions met so far: their keys, hashes, (cards, tricks) marks, a hash table, and the count."""


@jit
def _new_seen(width: int, tracked: bool) -> Seen:
    capacity = 64 if tracked else 1
    return (
        np.empty((capacity, width), np.uint8),
        np.empty(capacity, np.uint64),
        np.empty((capacity, 2), np.int64),
        np.full(2 * capacity, -1, np.int64),
        np.zeros(1, np.int64),
    )


@jit
def _remember(
    g: np.ndarray,
    seen: Seen,
    key: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
    players: int,
) -> tuple[Seen, int]:
    """Look the position up among those seen (Game._after_card); store it if new.

    Returns the (possibly grown) store and the row of the earlier equal position, or -1.
    """
    rows, hashes, marks, table, count = seen
    h64 = _position(
        key, buf, head, cnt, out, pile, g[G_PLEN], mask, players, g[G_TO_PLAY], g[G_OWED], g[G_CREDITOR]
    )
    r = _seen_lookup_or_add(key, h64, g[G_CARDS], g[G_TRICKS], rows, hashes, marks, table, count[0])
    if r >= 0:
        return seen, r
    count[0] += 1
    n = count[0]
    if n == rows.shape[0]:
        capacity = 2 * n
        new_rows = np.empty((capacity, key.size), np.uint8)
        new_hashes = np.empty(capacity, np.uint64)
        new_marks = np.empty((capacity, 2), np.int64)
        # Element by element: a slice assignment compiles numba's shape-mismatch error message,
        # seconds of compile time for a copy that cannot mismatch.
        for r in range(n):
            for c in range(key.size):
                new_rows[r, c] = rows[r, c]
            new_hashes[r] = hashes[r]
            new_marks[r, 0] = marks[r, 0]
            new_marks[r, 1] = marks[r, 1]
        seen = (new_rows, new_hashes, new_marks, _rehash(new_hashes, n, 2 * capacity), count)
    return seen, -1


@jit
def play_general(
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
    size: int,
    cfg: np.ndarray,
    first: int,
    tracked: bool,
    cap_cards: int,
    cap_tricks: int,
) -> tuple[int, int, int, int, int, int]:
    """Play one game of any table, step for step as :meth:`beggar.engine.Game.step`.

    With ``tracked`` every position the repeat rule looks at is remembered, and a repeat ends
    the game. Returns ``(reason, cards, tricks, winner, repeat_cards, repeat_tricks)``; reason
    is ``CAPPED`` at ``cap_cards`` cards or ``cap_tricks`` tricks.
    """
    players = cfg[CFG_PLAYERS]
    repeat = cfg[CFG_REPEAT]
    g = _new_game(players, first, out)
    key = np.zeros(2 * players + size + 4, np.uint8)
    seen = _new_seen(key.size, tracked)
    if tracked:  # the starting position counts (Game._remember)
        seen, _ = _remember(g, seen, key, buf, head, cnt, out, pile, mask, players)
    while True:
        player = g[G_TO_PLAY]
        trick = _turn(g, cfg, buf, head, cnt, out, pile, mask, size)
        trick |= _settle_empty_hands(g, player, cfg, buf, head, cnt, out, pile, mask, size)
        if g[G_REASON] != PLAYING:
            return g[G_REASON], g[G_CARDS], g[G_TRICKS], g[G_WINNER], -1, -1
        if tracked and (repeat == REPEAT_CARD or (repeat == REPEAT_TRICK and trick)):
            seen, r = _remember(g, seen, key, buf, head, cnt, out, pile, mask, players)
            if r >= 0:
                marks = seen[2]
                return REASON_REPEAT, g[G_CARDS], g[G_TRICKS], -1, marks[r, 0], marks[r, 1]
        if g[G_CARDS] >= cap_cards or g[G_TRICKS] >= cap_tricks:
            return CAPPED, g[G_CARDS], g[G_TRICKS], -1, -1, -1


# == one game, start to end ========================================================================


@jit
def _award(award: int, cnt: np.ndarray, players: int) -> tuple[int, int]:
    """``(outcome, winner)`` for a game stopped or ended by a repeat (engine._award)."""
    if award == AWARD_REDEAL:
        return OUTCOME_REDEAL, -1
    if award == AWARD_MOST_CARDS:
        best = -1
        leader = -1
        ties = 0
        for p in range(players):
            if cnt[p] > best:
                best = cnt[p]
                leader = p
                ties = 1
            elif cnt[p] == best:
                ties += 1
        if ties == 1:
            return OUTCOME_WIN, leader
        return OUTCOME_DRAW, -1
    return OUTCOME_NO_WINNER, -1


@jit
def finish(
    res: np.ndarray,
    g: int,
    cfg: np.ndarray,
    cnt: np.ndarray,
    first: int,
    result: tuple[int, int, int, int, int, int],
) -> None:
    """Write a game's result row."""
    reason, cards, tricks, winner, rep_cards, rep_tricks = result
    players = cfg[CFG_PLAYERS]
    status = STATUS_OF_REASON[reason]
    outcome = OUTCOME_WIN
    if status == STATUS_LOOP:
        outcome, winner = _award(cfg[CFG_ON_REPEAT], cnt, players)
    elif status == STATUS_STOPPED:
        outcome, winner = _award(cfg[CFG_ON_STOP], cnt, players)
    res[g, COL_STATUS] = status
    res[g, COL_REASON] = reason
    res[g, COL_OUTCOME] = outcome
    res[g, COL_CARDS] = cards
    res[g, COL_TRICKS] = tricks
    res[g, COL_WINNER] = winner
    res[g, COL_FIRST] = first
    res[g, COL_REPEAT_CARDS] = rep_cards
    res[g, COL_REPEAT_TRICKS] = rep_tricks
    for p in range(players):
        res[g, COL_HOLDINGS + p] = cnt[p]


@jit
def _limit_reason(cards: int, cfg: np.ndarray) -> int:
    """Which limit stopped a game (the card limit is checked first, as in the engine)."""
    max_cards = cfg[CFG_MAX_CARDS]
    if max_cards > 0 and cards >= max_cards:
        return REASON_CARD_LIMIT
    return REASON_TRICK_LIMIT


@jit
def _deal(
    hands: np.ndarray,
    lengths: np.ndarray,
    dealt: bool,
    players: int,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """Deal ``hands`` round the table if ``dealt``, else as hands sized by ``lengths``."""
    if dealt:
        _deal_round(hands, players, buf, head, cnt)
    else:
        deal_hands(hands, lengths, players, buf, head, cnt)


@jit
def caps(cfg: np.ndarray) -> tuple[int, int, int]:
    """``(max_cards, max_tricks, cards before a replay)`` with :data:`NO_LIMIT` for no limit."""
    max_cards = cfg[CFG_MAX_CARDS] if cfg[CFG_MAX_CARDS] > 0 else NO_LIMIT
    max_tricks = cfg[CFG_MAX_TRICKS] if cfg[CFG_MAX_TRICKS] > 0 else NO_LIMIT
    cap_cards = max_cards if cfg[CFG_REPEAT] == REPEAT_OFF else min(max_cards, cfg[CFG_BOUND])
    return max_cards, max_tricks, cap_cards


@jit
def stopped(cards: int, tricks: int, cfg: np.ndarray) -> Result:
    """The result of a game stopped by a house limit after ``cards`` cards and ``tricks`` tricks."""
    return (_limit_reason(cards, cfg), cards, tricks, -1, -1, -1)


@jit_inline
def replay(
    hands: np.ndarray,
    lengths: np.ndarray,
    dealt: bool,
    first: int,
    cfg: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
) -> Result:
    """Play a deal from the start remembering every position (long games, house limits)."""
    _deal(hands, lengths, dealt, cfg[CFG_PLAYERS], buf, head, cnt)
    max_cards, max_tricks, _ = caps(cfg)
    result = play_general(
        buf, head, cnt, out, pile, mask, hands.size, cfg, first, runtime(True), max_cards, max_tricks
    )
    if result[0] == CAPPED:
        return stopped(result[1], result[2], cfg)
    return result


# Whether a deal was dealt a card at a time reaches _play_generic, settle and replay as
# a run-time flag (runtime), never as the literal True or False: numba compiles a function
# once for every literal argument, and these are among the largest; one compiled copy serves all.
@jit_inline
def settle(
    played: tuple[int, int, int, int, int, int],
    hands: np.ndarray,
    lengths: np.ndarray,
    dealt: bool,
    first: int,
    cfg: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
) -> tuple[int, int, int, int, int, int]:
    """The kernel's result for a game the fast path played: exact, or replayed by the kernel."""
    reason, cards, tricks, winner, held0, held1 = played
    cnt[0] = held0
    cnt[1] = held1
    if reason >= 0:
        return reason, cards, tricks, winner, -1, -1
    if reason == CAPPED_AT_TRICK and cfg[CFG_REPEAT] == REPEAT_OFF:
        return stopped(cards, tricks, cfg)
    # A long game or a limit: the kernel replays it remembering positions (loops, exact stops).
    return replay(hands, lengths, dealt, first, cfg, buf, head, cnt, out, pile, mask)


@jit
def deal_random(values: np.ndarray, deck: np.ndarray, seed: np.uint64, game: int, fixed: int) -> int:
    """Shuffle game ``game``'s deck into ``deck`` as the kernel does; return its leader."""
    for k in range(values.size):  # not deck[:] = values, whose error message costs compile time
        deck[k] = values[k]
    state = shuffle(deck, game_state(seed, game))
    if fixed >= 0:
        return fixed
    _, first = below(state, 2)
    return int(first)


@jit
def _play_one(
    hands: np.ndarray,
    lengths: np.ndarray,
    dealt: bool,
    first: int,
    cfg: np.ndarray,
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    mask: int,
) -> Result:
    """Play one deal of any table to its end (see :func:`play_general` and :func:`replay`)."""
    players = cfg[CFG_PLAYERS]
    repeat = cfg[CFG_REPEAT]
    _, max_tricks, cap_cards = caps(cfg)
    if repeat == REPEAT_OFF or cfg[CFG_BOUND] > 0:
        if players == 2 and cfg[CFG_FAST] != 0:
            ring = np.empty(2 * RING, np.uint8)
            n0, n1 = _ring_deal(hands, lengths, dealt, ring)
            reason, cards, tricks, winner, held0, held1 = _fast_two(
                ring,
                pile,
                first,
                n0,
                n1,
                cfg[CFG_NEWEST_FIRST] != 0,
                cfg[CFG_WHEN_EMPTY] != 0,
                cap_cards,
                max_tricks,
            )
            cnt[0] = held0
            cnt[1] = held1
            result = (reason, cards, tricks, winner, -1, -1)
        else:
            _deal(hands, lengths, dealt, players, buf, head, cnt)
            tracked = runtime(False)
            result = play_general(
                buf, head, cnt, out, pile, mask, hands.size, cfg, first, tracked, cap_cards, max_tricks
            )
        if result[0] != CAPPED:
            return result
        if repeat == REPEAT_OFF:
            return stopped(result[1], result[2], cfg)
    return replay(hands, lengths, dealt, first, cfg, buf, head, cnt, out, pile, mask)


@jit
def buffers(
    players: int, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Ring buffers for every hand, their heads and sizes, out flags, the pile, and the ring mask."""
    capacity = 1
    while capacity < size:
        capacity *= 2
    buf = np.zeros((players, capacity), np.uint8)
    head = np.zeros(players, np.int64)
    cnt = np.zeros(players, np.int64)
    out = np.zeros(players, np.uint8)
    pile = np.zeros(size, np.uint8)
    return buf, head, cnt, out, pile, int(capacity - 1)


Scratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]
"""Working memory for :func:`score_deal`: made once by :func:`scratch`, reused for every deal."""


@jit
def scratch(players: int, size: int) -> Scratch:
    """Working memory to play deals of ``size`` cards at a table of ``players`` (see :func:`score_deal`)."""
    return buffers(players, size)


@jit
def score_deal(
    hands: np.ndarray, lengths: np.ndarray, first: int, cfg: np.ndarray, memory: Scratch
) -> tuple[int, int, int]:
    """``(status, cards, tricks)`` of one deal, for compiled callers such as the search.

    ``hands`` holds every hand's pay values in seat order, top card first, sized by ``lengths``;
    ``cfg`` is :attr:`KernelRules.cfg`; ``memory`` comes from :func:`scratch`. The status is a
    :data:`STATUSES` index. The result is the reference engine's, like every kernel result.
    """
    buf, head, cnt, out, pile, mask = memory
    result = _play_one(hands, lengths, runtime(False), first, cfg, buf, head, cnt, out, pile, mask)
    return STATUS_OF_REASON[result[0]], result[1], result[2]


@jit
def _random_two(values: np.ndarray, cfg: np.ndarray, seed: np.uint64, start: int, res: np.ndarray) -> None:
    """The common case: random two-player deals, played by :func:`_fast_two`.

    Under the standard settings (oldest card first, rule 8) the flags reach :func:`_fast_two` as
    the literals ``False``, so numba compiles a copy of it for them whose loop has those branches
    folded away: about a sixth faster. Every other setting shares the copy compiled for run-time flags.
    """
    buf, head, cnt, out, pile, mask = buffers(runtime(2), values.size)
    ring = np.zeros(2 * RING, np.uint8)
    deck = values.copy()
    lengths = np.zeros(2, np.int64)
    repeat = cfg[CFG_REPEAT]
    _, max_tricks, cap_cards = caps(cfg)
    fixed = cfg[CFG_FIRST]
    newest = cfg[CFG_NEWEST_FIRST] != 0
    when_empty = cfg[CFG_WHEN_EMPTY] != 0
    standard = not newest and not when_empty
    dealt = runtime(True)
    for g in range(res.shape[0]):
        for k in range(values.size):
            deck[k] = values[k]
        state = shuffle(deck, game_state(seed, start + g))
        first = fixed
        if first < 0:
            _, first = below(state, 2)
        n0, n1 = _ring_deal(deck, lengths, dealt, ring)
        if standard:
            played = _fast_two(ring, pile, first, n0, n1, False, False, cap_cards, max_tricks)
        else:
            played = _fast_two(ring, pile, first, n0, n1, newest, when_empty, cap_cards, max_tricks)
        reason, cards, tricks, winner, held0, held1 = played
        cnt[0] = held0
        cnt[1] = held1
        if reason != CAPPED:
            result = (reason, cards, tricks, winner, -1, -1)
        elif repeat == REPEAT_OFF:
            result = stopped(cards, tricks, cfg)
        else:
            result = replay(deck, lengths, dealt, first, cfg, buf, head, cnt, out, pile, mask)
        finish(res, g, cfg, cnt, first, result)


@jit
def _play_random_kernel(
    values: np.ndarray, cfg: np.ndarray, seed: np.uint64, start: int, res: np.ndarray
) -> None:
    """Deal and play games ``start .. start + len(res) - 1`` of the run seeded with ``seed``."""
    players = cfg[CFG_PLAYERS]
    if players == 2 and cfg[CFG_FAST] != 0 and cfg[CFG_BOUND] > 0:
        _random_two(values, cfg, seed, start, res)
        return
    buf, head, cnt, out, pile, mask = buffers(players, values.size)
    deck = values.copy()
    lengths = np.zeros(players, np.int64)
    for g in range(res.shape[0]):
        for k in range(values.size):
            deck[k] = values[k]
        state = shuffle(deck, game_state(seed, start + g))
        first = cfg[CFG_FIRST]
        if first < 0:
            _, first = below(state, players)
        result = _play_one(deck, lengths, runtime(True), first, cfg, buf, head, cnt, out, pile, mask)
        finish(res, g, cfg, cnt, first, result)


@jit
def _play_deals_kernel(
    hands: np.ndarray, lengths: np.ndarray, firsts: np.ndarray, cfg: np.ndarray, res: np.ndarray
) -> None:
    """Play given deals: row ``g`` of ``hands`` is every hand in seat order, sized by ``lengths[g]``."""
    players = cfg[CFG_PLAYERS]
    size = hands.shape[1]
    buf, head, cnt, out, pile, mask = buffers(players, size)
    dealt = runtime(False)
    for g in range(hands.shape[0]):
        result = _play_one(hands[g], lengths[g], dealt, firsts[g], cfg, buf, head, cnt, out, pile, mask)
        finish(res, g, cfg, cnt, firsts[g], result)


@jit
def _orders_kernel(
    seed: np.uint64,
    start: int,
    size: int,
    players: int,
    orders: np.ndarray,
    firsts: np.ndarray,
) -> None:
    """Card-index permutations (in dealing order) and random first players of a run's games."""
    for g in range(orders.shape[0]):
        firsts[g] = order(seed, start + g, size, players, orders[g])


# == the Python side ================================================================================


@dataclass(frozen=True)
class KernelRules:
    """Rules compiled for the kernel: the deck as pay values and a vector of settings."""

    rules: Rules
    values: U8
    """Pay value of every card of the deck, in :meth:`beggar.cards.Deck.cards` order."""
    cfg: I64

    @classmethod
    def of(cls, rules: Rules, *, bound: int = DEFAULT_BOUND, fast: bool = True) -> KernelRules:
        """Compile ``rules``. ``bound`` and ``fast`` change only the speed, never a result."""
        if rules.deck.size > 255:
            raise ValueError("the kernel handles decks of at most 255 cards")
        values = np.array([rules.pay_value(card) for card in rules.deck.cards()], dtype=np.uint8)
        cfg = np.zeros(CFG_SIZE, dtype=np.int64)
        cfg[CFG_PLAYERS] = rules.players
        cfg[CFG_DIRECTION] = 1 if rules.direction is Direction.CLOCKWISE else -1
        cfg[CFG_FIRST] = fixed_first(rules)
        cfg[CFG_NEWEST_FIRST] = rules.pile_order is PileOrder.NEWEST_FIRST
        cfg[CFG_WHEN_EMPTY] = rules.empty_hand is EmptyHand.WHEN_EMPTY
        cfg[CFG_REPEAT] = REPEATS[rules.repeat]
        cfg[CFG_MAX_CARDS] = rules.max_cards or 0
        cfg[CFG_MAX_TRICKS] = rules.max_tricks or 0
        cfg[CFG_ON_REPEAT] = AWARDS[rules.on_repeat]
        cfg[CFG_ON_STOP] = AWARDS[rules.on_stop]
        cfg[CFG_BOUND] = bound
        cfg[CFG_FAST] = fast
        return cls(rules, values, cfg)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def size(self) -> int:
        return int(self.values.size)


def fixed_first(rules: Rules) -> int:
    """The seat that leads under ``rules`` with the default dealer, or -1 for a random lead."""
    leader = rules.default_leader()
    return -1 if leader is None else leader


@dataclass(frozen=True)
class Batch:
    """The results of a batch of games: one row of :data:`COL_STATUS` ... columns per game."""

    rules: Rules
    table: I64

    def __len__(self) -> int:
        return int(self.table.shape[0])

    def _col(self, col: int) -> I64:
        return self.table[:, col]

    @property
    def status(self) -> I64:
        """0 finished, 1 loop, 2 stopped (indices into :data:`STATUSES`)."""
        return self._col(COL_STATUS)

    @property
    def reason(self) -> I64:
        return self._col(COL_REASON)

    @property
    def outcome(self) -> I64:
        return self._col(COL_OUTCOME)

    @property
    def cards(self) -> I64:
        return self._col(COL_CARDS)

    @property
    def tricks(self) -> I64:
        return self._col(COL_TRICKS)

    @property
    def winner(self) -> I64:
        """Seat of the winner, or -1."""
        return self._col(COL_WINNER)

    @property
    def first(self) -> I64:
        return self._col(COL_FIRST)

    @property
    def holdings(self) -> I64:
        return self.table[:, COL_HOLDINGS : COL_HOLDINGS + self.rules.players]

    def record(self, index: int) -> GameRecord:
        """Game ``index`` as the reference engine's record."""
        row = [int(x) for x in self.table[index]]
        winner = row[COL_WINNER]
        repeat_of = None
        if row[COL_REPEAT_CARDS] >= 0:
            repeat_of = (row[COL_REPEAT_CARDS], row[COL_REPEAT_TRICKS])
        return GameRecord(
            status=STATUSES[row[COL_STATUS]],
            cards=row[COL_CARDS],
            tricks=row[COL_TRICKS],
            winner=None if winner < 0 else winner,
            reason=REASONS[row[COL_REASON]],
            outcome=OUTCOMES[row[COL_OUTCOME]],
            holdings=tuple(row[COL_HOLDINGS : COL_HOLDINGS + self.rules.players]),
            first=row[COL_FIRST],
            repeat_of=repeat_of,
        )

    def records(self) -> list[GameRecord]:
        return [self.record(i) for i in range(len(self))]


def _result_table(count: int, players: int) -> I64:
    return np.zeros((count, COL_HOLDINGS + players), dtype=np.int64)


def play_random(
    rules: Rules | KernelRules = STANDARD, seed: int = 0, start: int = 0, count: int = 1
) -> Batch:
    """Deal and play games ``start`` to ``start + count - 1`` of the run seeded with ``seed``.

    >>> a = play_random(seed=7, start=0, count=6)
    >>> b = play_random(seed=7, start=4, count=2)
    >>> bool((a.table[4:] == b.table).all())
    True
    """
    compiled = rules if isinstance(rules, KernelRules) else KernelRules.of(rules)
    table = _result_table(count, compiled.players)
    if count:
        _play_random_kernel(compiled.values, compiled.cfg, seed64(seed), start, table)
    return Batch(compiled.rules, table)


def deal_values(deal: Deal, rules: Rules) -> tuple[U8, I64]:
    """A deal as the kernel reads it: every hand's pay values in seat order, and the hand sizes."""
    values = np.array([rules.pay_value(card) for hand in deal.hands for card in hand], dtype=np.uint8)
    lengths = np.array([len(hand) for hand in deal.hands], dtype=np.int64)
    return values, lengths


def deal_arrays(
    deals: Sequence[Deal | str], rules: Rules, firsts: Sequence[int] | None = None
) -> tuple[U8, I64, I64]:
    """Complete deals as a batch reads them: every hand's pay values, the hand sizes, and leaders.

    Each deal is checked against the rules' deck and table; ``firsts`` gives each game's leader
    (default: as the rules say, and the first hand under a random lead).
    """
    parsed = [parse_deal(d, rules.deck, rules=rules) if isinstance(d, str) else d for d in deals]
    hands = np.zeros((len(parsed), rules.deck.size), dtype=np.uint8)
    lengths = np.zeros((len(parsed), rules.players), dtype=np.int64)
    for g, deal in enumerate(parsed):
        check_deal(deal, rules.deck, rules=rules)
        if deal.players != rules.players:
            raise ValueError(f"deal {g}: {deal.players} hands, but the rules are for {rules.players} players")
        hands[g], lengths[g] = deal_values(deal, rules)
    lead = max(fixed_first(rules), 0)
    first = np.array(firsts if firsts is not None else [lead] * len(parsed), dtype=np.int64)
    if first.shape != (len(parsed),) or ((first < 0) | (first >= rules.players)).any():
        raise ValueError(f"firsts: one seat from 0 to {rules.players - 1} per deal")
    return hands, lengths, first


def play_deals(
    deals: Sequence[Deal | str],
    rules: Rules | KernelRules = STANDARD,
    firsts: Sequence[int] | None = None,
) -> Batch:
    """Play given complete deals; ``firsts`` gives each game's leader (default: as the rules say).

    Under a random lead with no ``firsts``, every game is led by the first hand.
    """
    compiled = rules if isinstance(rules, KernelRules) else KernelRules.of(rules)
    hands, lengths, first = deal_arrays(deals, compiled.rules, firsts)
    table = _result_table(len(hands), compiled.players)
    if len(hands):
        _play_deals_kernel(hands, lengths, first, compiled.cfg, table)
    return Batch(compiled.rules, table)


def deal_orders(rules: Rules, seed: int, start: int, count: int) -> tuple[U8, I64]:
    """The shuffled card indices (into ``rules.deck.cards()``) of a run's games, and their leaders.

    Row ``g`` is game ``start + g`` in dealing order: card ``k`` goes to hand ``k % players``.
    """
    orders = np.zeros((count, rules.deck.size), dtype=np.uint8)
    firsts = np.zeros(count, dtype=np.int64)
    if count:
        _orders_kernel(seed64(seed), start, rules.deck.size, rules.players, orders, firsts)
    lead = fixed_first(rules)
    if lead >= 0:
        firsts[:] = lead
    return orders, firsts


def random_deals(rules: Rules, seed: int, start: int, count: int) -> tuple[list[Deal], list[int]]:
    """The deals (real cards, with suits) and leaders of games ``start .. start + count - 1``.

    >>> deals, firsts = random_deals(STANDARD, seed=7, start=0, count=2)
    >>> from beggar.engine import play
    >>> play(deals[1]) == play_random(STANDARD, seed=7, start=1).record(0)
    True
    """
    cards: list[Card] = rules.deck.cards()
    orders, firsts = deal_orders(rules, seed, start, count)
    deals = [deal_cards([cards[i] for i in row], rules.players) for row in orders]
    return deals, [int(f) for f in firsts]


def warm_up() -> None:
    """Compile (or load from the cache) every kernel entry point."""
    play_random(STANDARD, seed=0, count=1)
    play_deals([deal_cards(STANDARD.deck.cards(), 2)])
    deal_orders(STANDARD, 0, 0, 1)


__all__ = [
    "DEFAULT_BOUND",
    "OUTCOMES",
    "REASONS",
    "STATUSES",
    "Batch",
    "KernelRules",
    "deal_arrays",
    "deal_orders",
    "deal_values",
    "fixed_first",
    "play_deals",
    "play_random",
    "random_deals",
    "warm_up",
]
