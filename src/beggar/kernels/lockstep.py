"""Games in lockstep: four random games advanced together by one vectorised, branch-free step.

The scalar bit kernel (:mod:`beggar.kernels.bitwise`) takes about 113 steps a random game, and at
each one whether the payer pays in full or turns a pay card, or which player turns the next pay
card, is a branch the processor cannot predict (each goes either way about half the time). Here
:data:`LANES` games are held side by side, one *lane* each, field by field in one flat array
(every game's stack mask, then every game's first value plane, ...), and a pass advances every
lane by one step computed without branches: both outcomes are computed and the right one kept
by masks. Written so, the pass over the lanes is a loop LLVM vectorises (AVX2: four games an
instruction, variable shifts ``vpsrlvq``/``vpsllvq``). There is no vector ``tzcnt`` without
AVX-512, so trailing zeros are counted through the floating-point unit: the lowest set bit,
``2**t``, is turned into the double ``2.0**t`` exactly (or-ing it into the mantissa of ``2**52``
and subtracting ``2**52``), whose exponent field is ``1023 + t``
(:func:`beggar.kernels.bits.tz_float`, six vector instructions where counting bits took nine). The
only branch is whether some lane's game has just ended (one pass in about 28, well predicted);
an ended game writes its row and its lane deals the next game.

It plays the standard settings (oldest card first, rule 8, at most four pay values, no trick
limit) on random deals of at most :data:`MAX_CARDS` cards; :func:`beggar.kernels.bitwise.play_random`
uses it for those unless asked for the scalar loop. Results are the scalar kernel's, byte for
byte: game ``i`` is the kernel's deal ``i``, its row is row ``i``, and a game that may reach the
card bound or limit is replayed by the kernel's exact tracked player.

A step, in the words of :mod:`beggar.kernels.bitwise` (``X`` is the player to turn next, ``Y`` the
other): with no payment due (``owed == 0``) X and Y alternate plain cards until the earlier of
X's pay card at turn ``2 * tz(X)`` and Y's at ``2 * tz(Y) + 1``; with a payment due X turns
``owed`` plain cards (paid: Y takes the pile under their stack and leads) or a pay card first.
Then the payer, or the taker, becomes X.
"""

from __future__ import annotations

import numpy as np

from beggar.kernels.bits import tz_float as _tz
from beggar.kernels.codes import (
    CAPPED,
    CFG_FIRST,
    REASON_ALL_CARDS,
    REASON_CANNOT_TURN,
)
from beggar.kernels.general import (
    buffers,
    caps,
    deal_random,
    finish,
    settle,
)
from beggar.kernels.jit import jit, jit_inline, runtime
from beggar.kernels.rng import below, game_state, shuffle

LANES = 4
"""Games advanced together: one AVX2 vector a field. Eight (two vectors a field) measured slower:
twice the values live at once in sixteen vector registers, so more of them go to memory each pass."""

MAX_CARDS = 52
"""The largest deck played in lockstep: :func:`beggar.kernels.bits.tz_float` is exact while the
lowest set bit is below bit 52, and a stack's end marker, at its card count, is at most bit
``size - 1`` in a game still being played (a player holding every card has won)."""

# The fields of a lane, each a run of LANES words: X's stack (mask, two value planes), Y's, the
# pile (oldest card at bit 0), X's and Y's card counts, the payment due, and the cards played,
# X's seat and the tricks played in one word (_CARDS_AT, _SEAT_BIT). The pile's length is not
# kept: it is the deck's size less both counts (no card leaves the game). Every word the state
# saves is one store fewer a pass, and stores are what a pass waits for most (one 256-bit store
# a cycle on this machine). How a game ended is read back from its fields (see ended).
_XM, _X0, _X1, _YM, _Y0, _Y1, _PM, _P0, _P1 = range(9)
_NX, _NY, _OWED, _TALLY = range(9, 13)
_FIELDS = 13
_D1 = 13
"""With ``track``, a fourteenth field: how many of seat 1's dealt cards it has not turned yet
(:mod:`beggar.kernels.exhaust` learns from it which of them a game never read)."""
TRACKED_FIELDS = 14

APART = 64
"""Words of room on each side of a call's lane state: a cache line is 8 words, and 64 keep it clear
of whatever the allocator puts next to it, also with adjacent-line prefetch."""

_U = np.uint64
_ZERO = _U(0)
_ONE = _U(1)
_ALL = _U(0xFFFFFFFFFFFFFFFF)
_CARDS_AT = _U(32)
_SEAT_BIT = _U(1 << 31)
_TRICKS = _U((1 << 31) - 1)
_MAX_TALLY_CARDS = 1 << 30
"""Cards beyond which a game is handed to the exact replay whatever the rules' bound (the
tally's card field must stay clear of its sign bit; the replay is exact at any length)."""


@jit_inline
def _pick(mask: np.uint64, a: np.uint64, b: np.uint64) -> np.uint64:
    """``a`` where ``mask`` is all ones, ``b`` where it is zero, without a branch."""
    return b ^ ((a ^ b) & mask)


@jit_inline
def _mask(flag: bool) -> np.uint64:
    """All ones for True, zero for False."""
    return _ZERO - _U(flag)


@jit_inline
def _le(a: np.uint64, b: np.uint64) -> bool:
    """``a <= b`` for words below ``2**63``, compared as signed (one instruction in AVX2, not three)."""
    return bool(np.int64(a) <= np.int64(b))


@jit_inline
def step(
    s: np.ndarray, pays: np.uint64, cap: np.uint64, size: np.uint64, track: bool, capping: bool = True
) -> np.uint64:
    """Advance every lane of ``s`` by one step; the lanes whose game is over, as bits (lane ``i``: bit ``i``).

    ``pays`` holds the payment of value code ``c`` in its byte ``c``; ``cap`` is the tally at
    which a game is handed to the exact replay (cards from bit 32); ``size`` is the deck's size.
    ``track`` (a constant where it is inlined) also counts down seat 1's unturned dealt cards
    (:data:`TRACKED_FIELDS`), past zero (:func:`unturned1` reads a negative count as none: a
    subtraction a step, where stopping at zero took a compare and a choice more, and the step's
    values already fill the sixteen vector registers). Each lane's step returns its bit ``i`` of
    the result, set when its game is over, so that the caller visits only those lanes. With
    ``capping`` False (a constant) a game past ``cap`` is not reported: the caller looks for those
    with :func:`ended` every so many passes (a compare fewer a step; a game may then run a few
    steps past the cap, and one that ends past it is replayed exactly all the same).
    Every quantity is an unsigned word and every choice a mask (``0`` or all ones), so that the
    loop over the lanes has no branch. Every shift is by less than 64 while a lane's game is
    being played (the largest is by the deck's size, at most :data:`MAX_CARDS`), so no shift
    count needs masking.
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
        owed = s[_OWED * L + i]
        tally = s[_TALLY * L + i]
        plen = size - nx - ny
        # Plain cards before each player's next pay card, stopped at the end of the stack.
        lx = _tz(xm | (_ONE << nx))
        ly = _tz(ym | (_ONE << ny))
        m_alt = _mask(owed == _ZERO)
        # X turned the step's pay card (or paid): always when paying, else if X's comes first.
        m_x = _mask(_le(lx, ly)) | ~m_alt
        m_paid = _mask(_le(owed, lx)) & ~m_alt
        pos = _pick(m_x, lx, ly)
        kx = _pick(m_paid, owed, pos + _ONE)
        ky = (pos + _ONE + m_x) & m_alt  # pos + 1 - (X turned it), while alternating
        k = kx + ky
        c0 = (_pick(m_x, x0, y0) >> pos) & _ONE
        c1 = (_pick(m_x, x1, y1) >> pos) & _ONE
        under = ny  # where a pile paid for goes under Y's stack (Y turns nothing when X pays)
        xm >>= kx
        x0 >>= kx
        x1 >>= kx
        ym >>= ky
        y0 >>= ky
        y1 >>= ky
        nx -= kx
        ny -= ky
        # The step's pay card goes on top of the pile.
        top = plen + k - _ONE
        pm |= (_ONE << top) & ~m_paid
        p0 |= c0 << top
        p1 |= c1 << top
        plen += k
        # Paid in full: Y takes the pile under their stack.
        ym |= (pm << under) & m_paid
        y0 |= (p0 << under) & m_paid
        y1 |= (p1 << under) & m_paid
        keep = ~m_paid
        pm &= keep
        p0 &= keep
        p1 &= keep
        ny += plen & m_paid
        owed = (pays >> ((c0 << _U(3)) | (c1 << _U(4)))) & _U(255) & keep
        if track:
            # Seat 1 turned kx cards if it is X, else ky (the turner with no card left counts one
            # too many, but that is never seat 1 while it still holds dealt cards, so the count
            # is exact down to zero, and only its sign matters below).
            k1 = _pick(_mask((tally & _SEAT_BIT) != _ZERO), kx, ky)
            s[_D1 * L + i] -= k1
        tally = ((tally + (k << _CARDS_AT)) - m_paid) ^ (m_x & _SEAT_BIT)
        # X is whoever turns next: the payer, or the taker of the pile.
        nx, ny = _pick(m_x, ny, nx), _pick(m_x, nx, ny)
        s[_XM * L + i] = _pick(m_x, ym, xm)
        s[_YM * L + i] = _pick(m_x, xm, ym)
        s[_X0 * L + i] = _pick(m_x, y0, x0)
        s[_Y0 * L + i] = _pick(m_x, x0, y0)
        s[_X1 * L + i] = _pick(m_x, y1, x1)
        s[_Y1 * L + i] = _pick(m_x, x1, y1)
        s[_PM * L + i] = pm
        s[_P0 * L + i] = p0
        s[_P1 * L + i] = p1
        s[_NX * L + i] = nx
        s[_NY * L + i] = ny
        s[_OWED * L + i] = owed
        s[_TALLY * L + i] = tally
        # tally >= cap compared as signed words (both are below 2**63): one instruction, not three.
        over = _U(_pick(m_paid, ny, nx) == _ZERO) | _U(ny == _ALL)
        if capping:
            over |= _U(not _le(tally, cap - _ONE))
        over_any |= over << _U(i)
    return over_any


@jit_inline
def ended(s: np.ndarray, lane: int, cap: np.uint64, size: np.uint64) -> bool:
    """Whether the game in ``lane`` ended at the last step, read from its fields.

    A step that paid in full leaves an empty pile, both players holding the whole deck (any other
    puts its pay card on the pile); one whose turner had no card left counted one card too many,
    so Y's count is ``-1``.
    """
    L = LANES
    ny = s[_NY * L + lane]
    nx = s[_NX * L + lane]
    holder = ny if nx + ny == size else nx
    return bool(holder == _ZERO or ny == _ALL or s[_TALLY * L + lane] >= cap)


@jit_inline
def lane_result(s: np.ndarray, lane: int, cap: np.uint64, size: np.uint64) -> tuple[int, int, int, int]:
    """``(reason, cards, tricks, winner)`` of the game that has :func:`ended` in ``lane``.

    ``reason`` is :data:`~beggar.kernels.codes.CAPPED` (winner ``-1``) for a game that reached
    ``cap``: the caller replays it exactly from its deal.
    """
    L = LANES
    tally = s[_TALLY * L + lane]
    cards = int(np.int64(tally >> _CARDS_AT))
    tricks = int(np.int64(tally & _TRICKS))
    px = int(np.int64((tally & _SEAT_BIT) != _ZERO))
    if tally >= cap:
        return CAPPED, cards, tricks, -1
    if s[_NY * L + lane] == _ALL:
        # The player who had to turn had no card (rule 8): the other takes the pile and wins.
        # The step counted one card too many, the one that was not there.
        return REASON_CANNOT_TURN, cards - 1, tricks + 1, px
    if s[_NX * L + lane] + s[_NY * L + lane] == size:  # the pile is empty
        return REASON_ALL_CARDS, cards, tricks, px
    # The payer has no card: the pay card's owner takes the pile and wins.
    return REASON_CANNOT_TURN, cards, tricks + 1, px ^ 1


@jit_inline
def put_lane(
    s: np.ndarray,
    lane: int,
    am: np.uint64,
    a0: np.uint64,
    a1: np.uint64,
    n0: int,
    bm: np.uint64,
    b0: np.uint64,
    b1: np.uint64,
    n1: int,
    first: int,
) -> None:
    """Deal into ``lane`` hand 0 (``am``, ``a0``, ``a1``: mask and value planes, ``n0`` cards) and
    hand 1, ``first`` to lead (its stack is X)."""
    L = LANES
    if first == 0:
        s[_XM * L + lane], s[_X0 * L + lane], s[_X1 * L + lane], s[_NX * L + lane] = am, a0, a1, _U(n0)
        s[_YM * L + lane], s[_Y0 * L + lane], s[_Y1 * L + lane], s[_NY * L + lane] = bm, b0, b1, _U(n1)
    else:
        s[_XM * L + lane], s[_X0 * L + lane], s[_X1 * L + lane], s[_NX * L + lane] = bm, b0, b1, _U(n1)
        s[_YM * L + lane], s[_Y0 * L + lane], s[_Y1 * L + lane], s[_NY * L + lane] = am, a0, a1, _U(n0)
    for field in (_PM, _P0, _P1, _OWED):
        s[field * L + lane] = _ZERO
    s[_TALLY * L + lane] = _U(first) * _SEAT_BIT


@jit_inline
def unturned1(s: np.ndarray, lane: int) -> int:
    """Seat 1's dealt cards not turned yet in ``lane`` (a state with :data:`TRACKED_FIELDS`):
    :func:`step` counts them down past zero."""
    return max(int(np.int64(s[_D1 * LANES + lane])), 0)


@jit_inline
def set_unturned1(s: np.ndarray, lane: int, cards: int) -> None:
    """Start counting seat 1's unturned dealt cards in ``lane`` from ``cards``."""
    s[_D1 * LANES + lane] = _U(cards)


@jit_inline
def pay_bytes(pays: np.ndarray) -> np.uint64:
    """The payment of each value code, a byte each, as :func:`step` reads it (a scale of fewer
    than four values repeats its last)."""
    packed = _ZERO
    for code in range(4 if pays.size > 0 else 0):
        packed |= _U(pays[min(code, pays.size - 1)]) << _U(8 * code)
    return packed


@jit_inline
def tally_cap(cap: int) -> np.uint64:
    """The tally at which a game of at most ``cap`` cards is handed to the exact replay."""
    return _U(min(cap, _MAX_TALLY_CARDS)) << _CARDS_AT


@jit_inline
def lane_room(fields: int) -> np.ndarray:
    """Room for the lanes' state of ``fields`` fields, on cache lines of its own.

    The lanes' state is stored on every pass. Whatever the allocator puts beside it (another
    worker thread's data) must not share its cache lines, or each store bounces a line between
    the cores: two threads measured 1.5 times one, with a quarter more CPU time, where two
    processes gave 2.0. So it gets lines of its own: take ``[APART : APART + fields * LANES]``.
    """
    return np.zeros(fields * LANES + 2 * APART, np.uint64)


_EVEN_BYTES = _U(0x00FF00FF00FF00FF)
_LOW_BITS = _U(0x0001000100010001)
_GATHER = _U((1 << 48) | (1 << 33) | (1 << 18) | (1 << 3))
"""Multiplying ``x & _LOW_BITS`` by this puts bit ``16 s`` of ``x`` at bit ``48 + s`` (no carries)."""
_S48 = _U(48)


@jit_inline
def _gather4(slots: np.uint64, plane: int) -> np.uint64:
    """Bit ``plane`` of each of the four 16-bit slots of ``slots``, as four bits."""
    return (((slots >> _U(plane)) & _LOW_BITS) * _GATHER) >> _S48


@jit  # not inlined: called at two places, once a game
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
    put_lane(s, lane, am, a0, a1, size - n1, bm, b0, b1, n1, first)
    return first


@jit
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
    buf, head, cnt, out, pile, mask = buffers(runtime(2), size)
    deck = values.copy()
    lengths = np.zeros(2, np.int64)
    cap = caps(cfg)[2]
    fixed = cfg[CFG_FIRST]
    payments = pay_bytes(pays)
    packed = np.zeros(size, np.uint8)
    for k in range(size):
        packed[k] = flags[values[k]] | (codes[values[k]] << 1)
    padded = np.zeros(64, np.uint8)
    words = padded.view(np.uint64)
    room = lane_room(_FIELDS)
    s = room[APART : APART + _FIELDS * L]
    games = np.empty(L, np.int64)
    firsts = np.empty(L, np.int64)
    # A lane with no game left to play replays the last game, and its result is not written.
    for lane in range(L):
        games[lane] = lane if lane < count else -1
        game = min(lane, count - 1)
        firsts[lane] = _deal_lane(s, lane, packed, padded, words, seed, start + game, fixed)
    dealt = min(L, count)
    playing = dealt
    cap_tally = tally_cap(cap)
    usize = _U(size)
    on_deck = count >= 0  # True: the deck is dealt a card at a time, a run-time flag (see bitkernel.settle)
    while playing > 0:
        if step(s, payments, cap_tally, usize, False) == _ZERO:
            continue
        for lane in range(L):
            if not ended(s, lane, cap_tally, usize):
                continue
            game = games[lane]
            if game >= 0:
                first = firsts[lane]
                reason, cards, tricks, winner = lane_result(s, lane, cap_tally, usize)
                if reason == CAPPED:
                    # The exact replay plays this lane's deal again from the start.
                    deal_random(values, deck, seed, start + game, fixed)
                held0 = size if winner == 0 else 0
                if reason >= 0:
                    # bitkernel.settle's answer for a game that ended, without the call (a tenth
                    # of a game's time, for its eight array arguments).
                    cnt[0] = held0
                    cnt[1] = size - held0
                    result = (reason, cards, tricks, winner, -1, -1)
                else:
                    played = (reason, cards, tricks, winner, held0, size - held0)
                    result = settle(
                        played, deck, lengths, on_deck, first, cfg, buf, head, cnt, out, pile, mask
                    )
                finish(res, game, cfg, cnt, first, result)
                if dealt < count:
                    games[lane] = dealt
                    dealt += 1
                else:
                    games[lane] = -1
                    playing -= 1
            game = games[lane] if games[lane] >= 0 else count - 1
            firsts[lane] = _deal_lane(s, lane, packed, padded, words, seed, start + game, fixed)


__all__ = [
    "APART",
    "LANES",
    "MAX_CARDS",
    "TRACKED_FIELDS",
    "ended",
    "lane_result",
    "lane_room",
    "pay_bytes",
    "put_lane",
    "random_standard",
    "set_unturned1",
    "step",
    "tally_cap",
    "unturned1",
]
