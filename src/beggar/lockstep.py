"""Games in lockstep: eight random games advanced together by one vectorised, branch-free step.

The scalar bit kernel (:mod:`beggar.bitkernel`) takes about 113 steps a random game, and at
each one whether the payer pays in full or turns a pay card, or which player turns the next pay
card, is a branch the processor cannot predict (each goes either way about half the time). Here
:data:`LANES` games are held side by side, one *lane* each, field by field in one flat array
(every game's stack mask, then every game's first value plane, ...), and a pass advances every
lane by one step computed without branches: both outcomes are computed and the right one kept
by masks. Written so, the pass over the lanes is a loop LLVM vectorises (AVX2: four games an
instruction, variable shifts ``vpsrlvq``/``vpsllvq``); trailing zeros are counted as
``popcount((x & -x) - 1)`` (:func:`beggar._bits.tz_lanes`), since there is no vector ``tzcnt``
without AVX-512. The only branch is whether some lane's game has just ended (one pass in about
14, well predicted); an ended game writes its row and its lane deals the next game.

It plays the standard settings (oldest card first, rule 8, at most four pay values, no trick
limit) on random deals; :func:`beggar.bitkernel.play_random` uses it for those unless asked for
the scalar loop. Results are the scalar kernel's, byte for byte: game ``i`` is the kernel's deal
``i``, its row is row ``i``, and a game that may reach the card bound or limit is replayed by the
kernel's exact tracked player.

A step, in the words of :mod:`beggar.bitkernel` (``X`` is the player to turn next, ``Y`` the
other): with no payment due (``owed == 0``) X and Y alternate plain cards until the earlier of
X's pay card at turn ``2 * tz(X)`` and Y's at ``2 * tz(Y) + 1``; with a payment due X turns
``owed`` plain cards (paid: Y takes the pile under their stack and leads) or a pay card first.
Then the payer, or the taker, becomes X.
"""

from __future__ import annotations

import numba
import numpy as np

from beggar._bits import tz_lanes
from beggar.bitkernel import _deal_random, _settle
from beggar.kernel import (
    _CAPPED,
    CFG_FIRST,
    REASON_ALL_CARDS,
    REASON_CANNOT_TURN,
    _buffers,
    _caps,
    _finish,
    _runtime,
)
from beggar.rng import below, game_state, shuffle

LANES = 8
"""Games advanced together: two AVX2 vectors a field, enough independent work to hide latency."""

# The fields of a lane, each a run of LANES words: X's stack (mask, two value planes), Y's, the
# pile (oldest card at bit 0), X's and Y's card counts, the pile's length, the payment due, X's
# seat, the cards and tricks played; then what the last step found, as bits: the game is over
# (_OVER), the player to turn had no card (_RAN_OUT), the payment was made in full (_PAID).
_XM, _X0, _X1, _YM, _Y0, _Y1, _PM, _P0, _P1 = range(9)
_NX, _NY, _PLEN, _OWED, _PX, _CARDS, _TRICKS, _END = range(9, 17)
_FIELDS = 17
_OVER, _RAN_OUT, _PAID = 1, 2, 4

_U = np.uint64
_ZERO = _U(0)
_ONE = _U(1)
_M63 = _U(63)


@numba.njit(cache=True, nogil=True, inline="always")
def _pick(mask: np.uint64, a: np.uint64, b: np.uint64) -> np.uint64:
    """``a`` where ``mask`` is all ones, ``b`` where it is zero, without a branch."""
    return b ^ ((a ^ b) & mask)


@numba.njit(cache=True, nogil=True, inline="always")
def _step(
    s: np.ndarray, q0: np.uint64, q1: np.uint64, q2: np.uint64, q3: np.uint64, cap: np.uint64
) -> np.uint64:
    """Advance every lane of ``s`` by one step; nonzero when some lane's game is over.

    ``q0..q3`` are the payments of the value codes 0 to 3; ``cap`` the cards at which a game is
    handed to the exact replay. Every quantity is an unsigned word and every choice a mask
    (``0`` or all ones), so that the loop over the lanes has no branch.
    """
    L = LANES
    over_any = _ZERO
    for i in range(L):
        xm = s[_XM * L + i]
        x0 = s[_X0 * L + i]
        x1 = s[_X1 * L + i]
        ym = s[_YM * L + i]
        y0 = s[_Y0 * L + i]
        y1 = s[_Y1 * L + i]
        pm = s[_PM * L + i]
        p0 = s[_P0 * L + i]
        p1 = s[_P1 * L + i]
        nx = s[_NX * L + i]
        ny = s[_NY * L + i]
        plen = s[_PLEN * L + i]
        owed = s[_OWED * L + i]
        px = s[_PX * L + i]
        cards = s[_CARDS * L + i]
        tricks = s[_TRICKS * L + i]
        # Plain cards before each player's next pay card, stopped at the end of the stack.
        lx = tz_lanes(xm | (_ONE << (nx & _M63)))
        ly = tz_lanes(ym | (_ONE << (ny & _M63)))
        alt = _U(owed == _ZERO)
        x_first = _U(lx <= ly)
        paid = (_ONE - alt) & _U(owed <= lx)
        # X turned the step's pay card (or paid): always when paying, else if X's comes first.
        from_x = (_ONE - alt) | x_first
        m_alt = _ZERO - alt
        m_first = _ZERO - x_first
        m_paid = _ZERO - paid
        m_x = _ZERO - from_x
        pos = _pick(m_x, lx, ly)
        k_pay = _pick(m_paid, owed, lx + _ONE)
        kx = _pick(m_alt, _pick(m_first, lx, ly) + _ONE, k_pay)
        ky = _pick(m_first, lx, ly + _ONE) & m_alt
        ran_out = ((_U(lx == nx) & from_x) | (_U(ly == ny) & (_ONE - from_x))) & (_ONE - paid)
        c0 = (_pick(m_x, x0, y0) >> pos) & _ONE
        c1 = (_pick(m_x, x1, y1) >> pos) & _ONE
        k = kx + ky
        # Shifts stay below 64 bits (a step that ran out ends its game, whatever it shifted).
        sx = kx & _M63
        sy = ky & _M63
        xm >>= sx
        x0 >>= sx
        x1 >>= sx
        ym >>= sy
        y0 >>= sy
        y1 >>= sy
        nx -= kx
        ny -= ky
        # The step's pay card goes on top of the pile.
        top = (plen + k - _ONE) & _M63
        pm |= (_ONE - paid) << top
        p0 |= c0 << top
        p1 |= c1 << top
        plen += k
        cards += k
        # Paid in full: Y takes the pile under their stack.
        under = ny & _M63
        ym |= (pm << under) & m_paid
        y0 |= (p0 << under) & m_paid
        y1 |= (p1 << under) & m_paid
        keep = ~m_paid
        pm &= keep
        p0 &= keep
        p1 &= keep
        ny += plen & m_paid
        plen &= keep
        tricks += paid
        m_c0 = _ZERO - c0
        owed = _pick(_ZERO - c1, _pick(m_c0, q3, q2), _pick(m_c0, q1, q0)) & keep
        # X is whoever turns next: the payer, or the taker of the pile.
        d = (xm ^ ym) & m_x
        xm ^= d
        ym ^= d
        d = (x0 ^ y0) & m_x
        x0 ^= d
        y0 ^= d
        d = (x1 ^ y1) & m_x
        x1 ^= d
        y1 ^= d
        d = (nx ^ ny) & m_x
        nx ^= d
        ny ^= d
        px ^= from_x
        over = ran_out | (paid & _U(ny == _ZERO)) | ((_ONE - paid) & _U(nx == _ZERO)) | _U(cards >= cap)
        s[_XM * L + i] = xm
        s[_X0 * L + i] = x0
        s[_X1 * L + i] = x1
        s[_YM * L + i] = ym
        s[_Y0 * L + i] = y0
        s[_Y1 * L + i] = y1
        s[_PM * L + i] = pm
        s[_P0 * L + i] = p0
        s[_P1 * L + i] = p1
        s[_NX * L + i] = nx
        s[_NY * L + i] = ny
        s[_PLEN * L + i] = plen
        s[_OWED * L + i] = owed
        s[_PX * L + i] = px
        s[_CARDS * L + i] = cards
        s[_TRICKS * L + i] = tricks
        s[_END * L + i] = over | (ran_out << _ONE) | (paid << _U(2))
        over_any |= over
    return over_any


_EVEN_BYTES = _U(0x00FF00FF00FF00FF)
_LOW_BITS = _U(0x0001000100010001)
_GATHER = _U((1 << 48) | (1 << 33) | (1 << 18) | (1 << 3))
"""Multiplying ``x & _LOW_BITS`` by this puts bit ``16 s`` of ``x`` at bit ``48 + s`` (no carries)."""
_S48 = _U(48)


@numba.njit(cache=True, nogil=True, inline="always")
def _gather4(slots: np.uint64, plane: int) -> np.uint64:
    """Bit ``plane`` of each of the four 16-bit slots of ``slots``, as four bits."""
    return (((slots >> _U(plane)) & _LOW_BITS) * _GATHER) >> _S48


@numba.njit(cache=True, nogil=True)  # not inlined: called at two places, once a game
def _deal_lane(
    s: np.ndarray,
    lane: int,
    packed: np.ndarray,
    padded: np.ndarray,
    words: np.ndarray,
    seed: np.uint64,
    game: int,
    fixed: int,
) -> int:
    """Deal game ``game`` of the run into ``lane`` (its leader's stack is X); return the leader.

    ``packed`` holds each card of the deck as a byte, bit 0 its pay flag and bits 1 and 2 its
    value code; it is shuffled into ``padded[:size]`` by the kernel's own shuffle (the same
    swaps, so the same deal). ``words`` is ``padded`` read eight cards a word: the even bytes
    of a word are four cards of hand 0 and the odd bytes four of hand 1 (cards are dealt one at
    a time), and one multiplication gathers a bit of four cards, so a stack's words are built
    four cards at a time instead of card by card.
    """
    L = LANES
    size = packed.size
    deck = padded[:size]
    for k in range(size):  # not deck[:] = packed, whose error message costs compile time
        deck[k] = packed[k]
    state = shuffle(deck, game_state(seed, game))
    first = fixed
    if first < 0:
        first = int(below(state, 2)[1])
    am = a0 = a1 = bm = b0 = b1 = _ZERO
    for t in range((size + 7) // 8):
        w = words[t]
        even = w & _EVEN_BYTES
        odd = (w >> _U(8)) & _EVEN_BYTES
        at = _U(4 * t)
        am |= _gather4(even, 0) << at
        a0 |= _gather4(even, 1) << at
        a1 |= _gather4(even, 2) << at
        bm |= _gather4(odd, 0) << at
        b0 |= _gather4(odd, 1) << at
        b1 |= _gather4(odd, 2) << at
    n1 = size // 2
    n0 = size - n1
    if first == 0:
        s[_XM * L + lane], s[_X0 * L + lane], s[_X1 * L + lane], s[_NX * L + lane] = am, a0, a1, _U(n0)
        s[_YM * L + lane], s[_Y0 * L + lane], s[_Y1 * L + lane], s[_NY * L + lane] = bm, b0, b1, _U(n1)
    else:
        s[_XM * L + lane], s[_X0 * L + lane], s[_X1 * L + lane], s[_NX * L + lane] = bm, b0, b1, _U(n1)
        s[_YM * L + lane], s[_Y0 * L + lane], s[_Y1 * L + lane], s[_NY * L + lane] = am, a0, a1, _U(n0)
    for field in (_PM, _P0, _P1, _PLEN, _OWED, _CARDS, _TRICKS, _END):
        s[field * L + lane] = _ZERO
    s[_PX * L + lane] = _U(first)
    return first


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
) -> None:
    """Games ``start ..`` of the run seeded with ``seed``, :data:`LANES` at a time, rows in game order."""
    L = LANES
    size = values.size
    count = res.shape[0]
    buf, head, cnt, out, pile, mask = _buffers(_runtime(2), size)
    deck = values.copy()
    lengths = np.zeros(2, np.int64)
    cap = _caps(cfg)[2]
    fixed = cfg[CFG_FIRST]
    # The payment of each value code (a scale of fewer than four values repeats its last).
    q = np.zeros(4, np.uint64)
    for code in range(4 if pays.size > 0 else 0):
        q[code] = _U(pays[min(code, pays.size - 1)])
    packed = np.zeros(size, np.uint8)
    for k in range(size):
        packed[k] = flags[values[k]] | (codes[values[k]] << 1)
    padded = np.zeros(64, np.uint8)
    words = padded.view(np.uint64)
    s = np.zeros(_FIELDS * L, np.uint64)
    games = np.empty(L, np.int64)
    firsts = np.empty(L, np.int64)
    # A lane with no game left to play replays the last game, and its result is not written.
    for lane in range(L):
        games[lane] = lane if lane < count else -1
        game = min(lane, count - 1)
        firsts[lane] = _deal_lane(s, lane, packed, padded, words, seed, start + game, fixed)
    dealt = min(L, count)
    playing = dealt
    ucap = _U(cap)
    on_deck = count >= 0  # True: the deck is dealt a card at a time, a run-time flag (see bitkernel._settle)
    while playing > 0:
        if _step(s, q[0], q[1], q[2], q[3], ucap) == _ZERO:
            continue
        for lane in range(L):
            end = s[_END * L + lane]
            if end & _U(_OVER) == _ZERO:
                continue
            game = games[lane]
            if game >= 0:
                first = firsts[lane]
                cards = int(np.int64(s[_CARDS * L + lane]))
                tricks = int(np.int64(s[_TRICKS * L + lane]))
                px = int(np.int64(s[_PX * L + lane]))
                if cards >= cap:
                    # The exact replay plays this lane's deal again from the start.
                    _deal_random(values, deck, seed, start + game, fixed)
                    reason, winner = _CAPPED, -1
                elif end & _U(_RAN_OUT) != _ZERO:
                    # The player who had to turn had no card (rule 8): the other takes the pile
                    # and wins. The step counted one card too many, the one that was not there.
                    reason, winner = REASON_CANNOT_TURN, px
                    cards -= 1
                    tricks += 1
                elif end & _U(_PAID) != _ZERO:
                    reason, winner = REASON_ALL_CARDS, px
                else:
                    # The payer has no card: the pay card's owner takes the pile and wins.
                    reason, winner = REASON_CANNOT_TURN, px ^ 1
                    tricks += 1
                held0 = size if winner == 0 else 0
                played = (reason, cards, tricks, winner, held0, size - held0)
                result = _settle(played, deck, lengths, on_deck, first, cfg, buf, head, cnt, out, pile, mask)
                _finish(res, game, cfg, cnt, first, result)
                if dealt < count:
                    games[lane] = dealt
                    dealt += 1
                else:
                    games[lane] = -1
                    playing -= 1
            game = games[lane] if games[lane] >= 0 else count - 1
            firsts[lane] = _deal_lane(s, lane, packed, padded, words, seed, start + game, fixed)


__all__ = ["LANES", "random_standard"]
