"""Games in lockstep: many random games advanced together, one branch-free step per game in turn.

The scalar bit kernel (:mod:`beggar.bitkernel`) takes about 113 steps a random game, and at
each one whether the payer pays in full or turns a pay card, or which player turns the next pay
card, is a branch the processor cannot predict. Here a batch of ``lanes`` games is held in two
small tables (the words and the counts of every game), and each pass over the batch advances
every game by one step computed without branches: both outcomes are computed and the right one
chosen by masks and selects. The only branch is whether a game has just ended (about one step
in 113, well predicted); an ended game writes its row and its lane deals the next game.

It plays the standard settings (oldest card first, rule 8, at most four pay values, no trick
limit) on random deals, when :func:`beggar.bitkernel.play_random` is asked for ``lanes=N``.
Results are the scalar kernel's, byte for byte: game ``i`` is the kernel's deal ``i``, its row is
row ``i``, and a game that may reach the card bound or limit is replayed by the kernel's exact
tracked player.

Measured (``bench/compare.py --lanes 16``), it is *slower* than the scalar bit kernel in numba
on this machine: a branch-free step does the work of both outcomes and loads and stores the lane
state, which costs more than the scalar step's occasional mispredicted branch, and numba does
not vectorise the step (x86-64 with AVX2 has no vector ``tzcnt``). It stays as the
measured answer to whether lockstep pays in numba, and as the starting point for a SIMD version.
"""

from __future__ import annotations

import numba
import numpy as np

from beggar._bits import bit, get, shl, shr, tz
from beggar.bitkernel import _deal_random, _settle, _stack
from beggar.kernel import _CAPPED, CFG_FIRST, REASON_ALL_CARDS, REASON_CANNOT_TURN, _buffers, _caps, _finish

LANES = 16
"""Games advanced together: enough to hide each step's latency, few enough to stay in L1."""

# Word columns of a lane (uint64): X's stack (the player to turn next), Y's stack, the pile.
_XM, _X0, _X1, _YM, _Y0, _Y1, _PM, _P0, _P1 = range(9)
# Count columns of a lane (int64).
_NX, _NY, _PLEN, _OWED, _PX, _CARDS, _TRICKS, _GAME, _FIRST = range(9)

_U = np.uint64
_ZERO = _U(0)
_ONES = ~_U(0)


@numba.njit(cache=True, nogil=True)
def _deal_lane(
    words: np.ndarray,
    counts: np.ndarray,
    lane: int,
    game: int,
    values: np.ndarray,
    deck: np.ndarray,
    flags: np.ndarray,
    codes: np.ndarray,
    seed: np.uint64,
    start: int,
    fixed: int,
) -> None:
    """Deal game ``game`` of the batch into ``lane``: its leader's stack is X."""
    size = values.size
    n1 = size // 2
    n0 = size - n1
    first = _deal_random(values, deck, seed, start + game, fixed)
    a = _stack(deck, 0, 2, n0, flags, codes)
    b = _stack(deck, 1, 2, n1, flags, codes)
    x, nx, y, ny = (a, n0, b, n1) if first == 0 else (b, n1, a, n0)
    words[lane, _XM] = x[0]
    words[lane, _X0] = x[1]
    words[lane, _X1] = x[2]
    words[lane, _YM] = y[0]
    words[lane, _Y0] = y[1]
    words[lane, _Y1] = y[2]
    words[lane, _PM] = _ZERO
    words[lane, _P0] = _ZERO
    words[lane, _P1] = _ZERO
    counts[lane, _NX] = nx
    counts[lane, _NY] = ny
    counts[lane, _PLEN] = 0
    counts[lane, _OWED] = 0
    counts[lane, _PX] = first
    counts[lane, _CARDS] = 0
    counts[lane, _TRICKS] = 0
    counts[lane, _GAME] = game
    counts[lane, _FIRST] = first


@numba.njit(cache=True, nogil=True, inline="always")
def _step(
    words: np.ndarray, counts: np.ndarray, lane: int, pays: np.ndarray, cap_cards: int
) -> tuple[bool, int, int, int, int]:
    """Advance the game in ``lane`` by one step, without branches.

    Returns ``(over, reason, cards, tricks, winner)``; ``over`` is False while the game goes on.
    """
    xm = words[lane, _XM]
    x0 = words[lane, _X0]
    x1 = words[lane, _X1]
    ym = words[lane, _YM]
    y0 = words[lane, _Y0]
    y1 = words[lane, _Y1]
    pm = words[lane, _PM]
    p0 = words[lane, _P0]
    p1 = words[lane, _P1]
    nx = counts[lane, _NX]
    ny = counts[lane, _NY]
    plen = counts[lane, _PLEN]
    owed = counts[lane, _OWED]
    px = counts[lane, _PX]
    cards = counts[lane, _CARDS]
    tricks = counts[lane, _TRICKS]

    # Plain cards before each player's next pay card, stopped at the end of the stack.
    lx = tz(xm | bit(nx), False)
    ly = tz(ym | bit(ny), False)
    alt = owed == 0
    xfirst = lx <= ly
    # With no payment due the earlier pay card of the two is turned (X at even turns, Y at odd
    # ones); a payer pays in full (``paid``) or turns a pay card first.
    paid = owed <= lx
    from_x = xfirst or not alt
    pos = lx if from_x else ly
    kx = min(lx, ly) + 1 if alt else (owed if paid else lx + 1)
    ky = (lx if xfirst else ly + 1) if alt else 0
    has_pay = alt or not paid
    trick = not alt and paid
    ran_out = (lx == nx) if from_x else (ly == ny)
    ran_out = ran_out and has_pay

    c0 = get(x0 if from_x else y0, pos)
    c1 = get(x1 if from_x else y1, pos)
    code = (c0 | (c1 << 1)) if has_pay else 0
    k = kx + ky
    # Shifts stay below 64 bits: kx <= nx + 1 and ky <= ny + 1 with both at most 63, and a game
    # that ran out is not continued.
    kx_safe = min(kx, nx)
    ky_safe = min(ky, ny)
    xm = shr(xm, kx_safe)
    x0 = shr(x0, kx_safe)
    x1 = shr(x1, kx_safe)
    ym = shr(ym, ky_safe)
    y0 = shr(y0, ky_safe)
    y1 = shr(y1, ky_safe)
    nx -= kx_safe
    ny -= ky_safe
    # The step's pay card goes on top of the pile.
    top = min(plen + k - 1, 63)
    pm |= shl(_U(1 if has_pay else 0), top)
    p0 |= shl(_U(code & 1), top)
    p1 |= shl(_U(code >> 1), top)
    plen += k
    # Paid in full: Y takes the pile under their stack.
    take = _ONES if trick else _ZERO
    under = ny if trick else 0
    ym |= shl(pm, under) & take
    y0 |= shl(p0, under) & take
    y1 |= shl(p1, under) & take
    pm &= ~take
    p0 &= ~take
    p1 &= ~take
    ny += plen if trick else 0
    plen = 0 if trick else plen
    tricks += 1 if trick else 0
    owed = pays[code] if has_pay else 0
    cards += k
    # X is whoever turns next: the payer, or the taker of the pile.
    swap = from_x
    nxm = ym if swap else xm
    nx0 = y0 if swap else x0
    nx1 = y1 if swap else x1
    nym = xm if swap else ym
    ny0 = x0 if swap else y0
    ny1 = x1 if swap else y1
    nnx = ny if swap else nx
    nny = nx if swap else ny
    px ^= 1 if swap else 0

    words[lane, _XM] = nxm
    words[lane, _X0] = nx0
    words[lane, _X1] = nx1
    words[lane, _YM] = nym
    words[lane, _Y0] = ny0
    words[lane, _Y1] = ny1
    words[lane, _PM] = pm
    words[lane, _P0] = p0
    words[lane, _P1] = p1
    counts[lane, _NX] = nnx
    counts[lane, _NY] = nny
    counts[lane, _PLEN] = plen
    counts[lane, _OWED] = owed
    counts[lane, _PX] = px
    counts[lane, _CARDS] = cards
    counts[lane, _TRICKS] = tricks

    over = ran_out or (trick and nny == 0) or (has_pay and nnx == 0) or cards >= cap_cards
    if not over:
        return False, 0, 0, 0, 0
    if cards >= cap_cards:
        return True, _CAPPED, cards, tricks, -1
    if ran_out:
        # The player who had to turn had no card (rule 8): the other takes the pile and wins.
        # The step counted one card too many, the one that was not there.
        return True, REASON_CANNOT_TURN, cards - 1, tricks + 1, px
    if trick:
        return True, REASON_ALL_CARDS, cards, tricks, px
    # The payer has no card: the pay card's owner takes the pile and wins.
    return True, REASON_CANNOT_TURN, cards, tricks + 1, px ^ 1


@numba.njit(cache=True, nogil=True)
def random_standard(
    values: np.ndarray,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    seed: np.uint64,
    start: int,
    res: np.ndarray,
    lanes: int,
) -> None:
    """Games ``start ..`` of the run seeded with ``seed``, ``lanes`` at a time, rows in game order."""
    size = values.size
    count = res.shape[0]
    buf, head, cnt, out, pile, mask = _buffers(2, size)
    deck = values.copy()
    lengths = np.zeros(2, np.int64)
    cap_cards = _caps(cfg)[2]
    fixed = cfg[CFG_FIRST]
    lanes = min(lanes, count)
    words = np.zeros((lanes, 9), np.uint64)
    counts = np.zeros((lanes, 9), np.int64)
    for lane in range(lanes):
        _deal_lane(words, counts, lane, lane, values, deck, flags, codes, seed, start, fixed)
    dealt = lanes
    active = lanes
    while active > 0:
        for lane in range(lanes):
            game = counts[lane, _GAME]
            if game < 0:
                continue
            over, reason, cards, tricks, winner = _step(words, counts, lane, pays, cap_cards)
            if not over:
                continue
            first = counts[lane, _FIRST]
            if reason == _CAPPED:
                _deal_random(values, deck, seed, start + game, fixed)
            held0 = size if winner == 0 else 0
            played = (reason, cards, tricks, winner, held0, size - held0)
            result = _settle(played, deck, lengths, True, first, cfg, buf, head, cnt, out, pile, mask)
            _finish(res, game, cfg, cnt, first, result)
            if dealt < count:
                _deal_lane(words, counts, lane, dealt, values, deck, flags, codes, seed, start, fixed)
                dealt += 1
            else:
                counts[lane, _GAME] = -1
                active -= 1


__all__ = ["LANES", "random_standard"]
