"""The bit-parallel kernel: two-player games on decks of at most 64 cards, a few operations per pay card.

The API mirrors :mod:`beggar.kernels.general`, so that a caller dispatches in one line::

    engine = bitkernel if bitkernel.covers(rules) else kernel
    batch = engine.play_random(rules, seed, start, count)

- :func:`covers` ``(rules) -> bool``: two players and a deck of at most 64 cards (every pay scale,
  pile order, empty-hand convention, repeat, stop and award setting); anything else is False.
- :func:`play_random` ``(rules, seed, start, count)`` and :func:`play_deals` ``(deals, rules,
  firsts)`` take the same arguments as :func:`beggar.kernels.general.play_random` and
  :func:`beggar.kernels.general.play_deals` and return the same
  :class:`beggar.kernels.general.Batch`: the same
  columns with the same meaning, byte for byte the same table for the same input (game ``i`` of a
  seed is the kernel's deal and leader, drawn by the kernel's own random functions).
- :func:`warm_up` compiles (or loads from the cache) every entry point.

Two keyword-only options of :func:`play_random` never change a result: ``lockstep`` (the
default) plays random games under the standard settings four at a time in vectorised lockstep
(:mod:`beggar.kernels.lockstep`), and ``lockstep=False`` one at a time in the scalar loop, whose
``count_zeros`` counts trailing zeros with LLVM's ``cttz`` (the default) or a de Bruijn table.
They are there for ``bench/compare.py``, which measured lockstep fastest, then ``cttz``, then de
Bruijn.

How a game is played. A stack is a few 64-bit words, top card at bit 0: one word marks the pay
cards, and two (or, for a scale with more than four pay values, four) *planes* hold the index
of each pay card's value; ordinary cards are zero bits everywhere, since every number card is
the same card to the game. The pile is the same words, oldest card at bit 0 (and, for the
newest-first pile order, the same again newest card first). Then every step of a game is a
count of trailing zeros and a few shifts:

- with no payment due, the leader and the other player turn ordinary cards in alternation; the
  first pay card (or running out) is the earlier of ``2 * tz(leader)`` and ``2 * tz(other) + 1``;
  both stacks and the pile move by one shift each;
- a payer turns ``tz(payer)`` ordinary cards before their next pay card: if that is at least
  the amount owed, the payment is made in one shift, else the pay card is found in one shift;
- a won pile goes under the winner's stack as one shift-and-or per word.

A random game takes about 113 such steps instead of about 255 card turns. Loops, card limits and
the replay bound work as in :mod:`beggar.kernels.general`: a game is played untracked until it ends or
reaches ``min(max-cards, bound)`` cards (a game that ends cannot have repeated a position), and
only a game that reaches that point is replayed by the kernel's own exact tracked player
(:func:`beggar.kernels.general.replay`), so loops (``repeat=trick`` and ``repeat=card`` alike), their
counts at the first repeat and every limit come from the one owner of those rules. (A trick
limit is settled here when nothing else can end the game first: ``repeat=off``.)

Its cache is keyed on every compiled source (:mod:`beggar.kernels.jit`), so an edit to the general
kernel or the bit helpers is always compiled in.

>>> batch = play_deals(["K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"])
>>> int(batch.cards[0]), int(batch.tricks[0]), int(batch.winner[0])
(7157, 1007, 1)
>>> from beggar.kernels import general
>>> bool((play_random(seed=3, count=500).table == general.play_random(seed=3, count=500).table).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from beggar.kernels import general
from beggar.kernels import lockstep as lanes
from beggar.kernels.bits import bit, get, shl, shr, tz
from beggar.kernels.codes import (
    CAPPED,
    CAPPED_AT_TRICK,
    CFG_FIRST,
    CFG_MAX_TRICKS,
    CFG_NEWEST_FIRST,
    CFG_WHEN_EMPTY,
    COL_HOLDINGS,
    REASON_ALL_CARDS,
    REASON_CANNOT_TURN,
    REASON_EMPTY,
)
from beggar.kernels.general import (
    Batch,
    KernelRules,
    buffers,
    caps,
    deal_random,
    finish,
    settle,
)
from beggar.kernels.jit import jit, jit_inline, runtime
from beggar.kernels.rng import seed64
from beggar.notation import Deal
from beggar.rules import STANDARD, EmptyHand, Rules

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]

MAX_CARDS = 64
"""The largest deck the fast path plays: every stack and the pile fit one 64-bit word."""

"""The game reached the trick limit at a trick end: its counts and holdings there are exact."""

_U = np.uint64
_ZERO = _U(0)
_ONE = _U(1)

CountZeros = Literal["llvm", "debruijn"]


def covers(rules: Rules) -> bool:
    """True when the fast path plays ``rules``: two players and a deck of at most 64 cards.

    >>> from beggar.rules import rules_named
    >>> covers(STANDARD), covers(rules_named("practice-table")), covers(rules_named("two-decks"))
    (True, True, False)
    >>> covers(rules_named("standard:players=3"))
    False
    """
    return rules.players == 2 and rules.deck.size <= MAX_CARDS


# == one game ======================================================================================


@jit_inline
def _game(
    xm: np.uint64,
    x0: np.uint64,
    x1: np.uint64,
    x2: np.uint64,
    x3: np.uint64,
    nx: int,
    ym: np.uint64,
    y0: np.uint64,
    y1: np.uint64,
    y2: np.uint64,
    y3: np.uint64,
    ny: int,
    px: int,
    pays: np.ndarray,
    size: int,
    newest: bool,
    when_empty: bool,
    wide: bool,
    debruijn: bool,
    cap_cards: int,
    cap_tricks: int,
    stash: np.ndarray,
) -> tuple[int, int, int, int, int, int, int]:
    """Play one two-player game from its deal, untracked, a pay card or a payment at a time.

    ``X`` (mask ``xm``, value planes ``x0..x3``, ``nx`` cards, seat ``px``) leads; ``Y`` is
    the other player. ``pays[code]`` is the pay value of a plane code. Returns ``(reason, cards,
    tricks, winner, held0, held1, read1)`` as :func:`beggar.kernels.general._fast_two` does, and
    ``read1``, at least the cards seat 1 turned (exact when the game ends at a trick's end, an
    upper bound otherwise): :mod:`beggar.kernels.exhaust` learns from it which of seat 1's dealt
    cards the game never read. ``reason`` is
    :data:`beggar.kernels.general.CAPPED` when the game may reach ``cap_cards`` cards within the step
    it is in (the caller replays it exactly), or :data:`CAPPED_AT_TRICK` at the trick that
    reached ``cap_tricks``.
    """
    we = 1 if when_empty else 0
    pm = p0 = p1 = p2 = p3 = _ZERO
    rm = r0 = r1 = r2 = r3 = _ZERO
    plen = 0
    cards = 0
    tricks = 0
    owed = 0
    read1 = 0
    lost = REASON_EMPTY if when_empty else REASON_CANNOT_TURN
    while True:
        if owed == 0:
            # X leads and the two alternate (X at turns 0, 2, 4, ..., Y at 1, 3, 5, ...) until a
            # pay card, or a player who must turn has none (when-empty: turns their last card).
            sx = nx - we
            sy = ny - we
            lx = tz(xm | bit(sx), debruijn)
            ly = tz(ym | bit(sy), debruijn)
            if lx <= ly:
                if lx == sx:
                    k = 2 * lx + we
                    if cards + k >= cap_cards:
                        return CAPPED, cards, tricks, -1, 0, 0, read1 + cap_cards
                    winner = px ^ 1
                    return lost, cards + k, tricks + 1, winner, size * (1 - winner), size * winner, read1 + k
                t = lx
                kx = lx + 1
                ky = lx
                c = get(x0, t) | (get(x1, t) << 1)
                if wide:
                    c |= (get(x2, t) << 2) | (get(x3, t) << 3)
            else:
                if ly == sy:
                    k = 2 * ly + 1 + we
                    if cards + k >= cap_cards:
                        return CAPPED, cards, tricks, -1, 0, 0, read1 + cap_cards
                    return lost, cards + k, tricks + 1, px, size * (1 - px), size * px, read1 + k
                t = ly
                kx = ly + 1
                ky = ly + 1
                c = get(y0, t) | (get(y1, t) << 1)
                if wide:
                    c |= (get(y2, t) << 2) | (get(y3, t) << 3)
            k = kx + ky
            if cards + k >= cap_cards:
                return CAPPED, cards, tricks, -1, 0, 0, read1 + cap_cards
            cards += k
            read1 += kx * px + ky * (1 - px)
            xm = shr(xm, kx)
            x0 = shr(x0, kx)
            x1 = shr(x1, kx)
            ym = shr(ym, ky)
            y0 = shr(y0, ky)
            y1 = shr(y1, ky)
            if wide:
                x2 = shr(x2, kx)
                x3 = shr(x3, kx)
                y2 = shr(y2, ky)
                y3 = shr(y3, ky)
            nx -= kx
            ny -= ky
            turner_x = lx <= ly
        else:
            # X pays ``owed`` to Y: tz(X) ordinary cards come before X's next pay card.
            lx = tz(xm | bit(nx), debruijn)
            if owed <= lx:
                k = owed
                if cards + k >= cap_cards:
                    return CAPPED, cards, tricks, -1, 0, 0, read1 + cap_cards
                cards += k
                read1 += k * px
                xm = shr(xm, k)
                x0 = shr(x0, k)
                x1 = shr(x1, k)
                if wide:
                    x2 = shr(x2, k)
                    x3 = shr(x3, k)
                nx -= k
                plen += k
                # Paid in full: Y takes the pile under their stack (Game._take).
                if newest:
                    ym |= shl(shl(rm, k), ny)
                    y0 |= shl(shl(r0, k), ny)
                    y1 |= shl(shl(r1, k), ny)
                    if wide:
                        y2 |= shl(shl(r2, k), ny)
                        y3 |= shl(shl(r3, k), ny)
                    rm = r0 = r1 = r2 = r3 = _ZERO
                else:
                    ym |= shl(pm, ny)
                    y0 |= shl(p0, ny)
                    y1 |= shl(p1, ny)
                    if wide:
                        y2 |= shl(p2, ny)
                        y3 |= shl(p3, ny)
                    pm = p0 = p1 = p2 = p3 = _ZERO
                ny += plen
                plen = 0
                tricks += 1
                owed = 0
                if nx == 0:
                    winner = px ^ 1
                    return REASON_ALL_CARDS, cards, tricks, winner, size * (1 - winner), size * winner, read1
                # Y leads the next trick.
                xm, ym = ym, xm
                x0, y0 = y0, x0
                x1, y1 = y1, x1
                x2, y2 = y2, x2
                x3, y3 = y3, x3
                nx, ny = ny, nx
                px ^= 1
                if tricks >= cap_tricks:
                    # The position at this trick's end, for a caller that plays on from it.
                    stash[0], stash[1], stash[2], stash[3], stash[4] = xm, x0, x1, x2, x3
                    stash[5], stash[6], stash[7], stash[8], stash[9] = ym, y0, y1, y2, y3
                    stash[10], stash[11], stash[12] = nx, ny, px
                    held0 = nx if px == 0 else ny
                    return CAPPED_AT_TRICK, cards, tricks, -1, held0, size - held0, read1
                continue
            if lx >= nx - we:
                # X runs out before the payment is made (when-empty: turns their last card).
                if cards + nx >= cap_cards:
                    return CAPPED, cards, tricks, -1, 0, 0, read1 + cap_cards
                winner = px ^ 1
                return lost, cards + nx, tricks + 1, winner, size * (1 - winner), size * winner, read1 + nx
            t = lx
            k = lx + 1
            if cards + k >= cap_cards:
                return CAPPED, cards, tricks, -1, 0, 0, read1 + cap_cards
            cards += k
            read1 += k * px
            c = get(x0, t) | (get(x1, t) << 1)
            if wide:
                c |= (get(x2, t) << 2) | (get(x3, t) << 3)
            xm = shr(xm, k)
            x0 = shr(x0, k)
            x1 = shr(x1, k)
            if wide:
                x2 = shr(x2, k)
                x3 = shr(x3, k)
            nx -= k
            turner_x = True
        # A pay card was turned, the last of the ``k`` cards of this step: it goes on the pile.
        top = plen + k - 1
        pm |= bit(top)
        p0 |= shl(_U(c & 1), top)
        p1 |= shl(_U((c >> 1) & 1), top)
        if wide:
            p2 |= shl(_U((c >> 2) & 1), top)
            p3 |= shl(_U((c >> 3) & 1), top)
        if newest:
            rm = shl(rm, k) | _ONE
            r0 = shl(r0, k) | _U(c & 1)
            r1 = shl(r1, k) | _U((c >> 1) & 1)
            if wide:
                r2 = shl(r2, k) | _U((c >> 2) & 1)
                r3 = shl(r3, k) | _U((c >> 3) & 1)
        plen += k
        owed = pays[c]
        if turner_x:
            # X turned the pay card: Y pays now, so Y becomes X.
            xm, ym = ym, xm
            x0, y0 = y0, x0
            x1, y1 = y1, x1
            x2, y2 = y2, x2
            x3, y3 = y3, x3
            nx, ny = ny, nx
            px ^= 1
        if nx == 0:
            # The payer has no card to turn (rule 8): the pay card's owner takes the pile and wins.
            winner = px ^ 1
            return REASON_CANNOT_TURN, cards, tricks + 1, winner, size * (1 - winner), size * winner, read1


# == dealing ======================================================================================


@jit_inline
def _stack(
    cards: np.ndarray, begin: int, step: int, count: int, flags: np.ndarray, codes: np.ndarray
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """The words of a stack of ``count`` cards ``cards[begin], cards[begin + step], ...`` (top first)."""
    m = v0 = v1 = v2 = v3 = _ZERO
    for i in range(count):
        value = cards[begin + i * step]
        code = codes[value]
        m |= shl(_U(flags[value]), i)
        v0 |= shl(_U(code & 1), i)
        v1 |= shl(_U((code >> 1) & 1), i)
        v2 |= shl(_U((code >> 2) & 1), i)
        v3 |= shl(_U((code >> 3) & 1), i)
    return m, v0, v1, v2, v3


@jit_inline
def _play(
    hands: np.ndarray,
    n0: int,
    n1: int,
    dealt: bool,
    first: int,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    newest: bool,
    when_empty: bool,
    wide: bool,
    debruijn: bool,
    cap_cards: int,
    cap_tricks: int,
    stash: np.ndarray,
) -> tuple[int, int, int, int, int, int, int]:
    """Play a deal: dealt one card at a time (``dealt``), else hand 0 then hand 1 (see :func:`_game`)."""
    # Two calls, not two for each kind of deal: every inlined copy of _stack is compiled anew.
    step = 2 if dealt else 1
    a = _stack(hands, 0, step, n0, flags, codes)
    b = _stack(hands, 1 if dealt else n0, step, n1, flags, codes)
    x, nx, y, ny = (a, n0, b, n1) if first == 0 else (b, n1, a, n0)
    return _game(
        x[0], x[1], x[2], x[3], x[4], nx, y[0], y[1], y[2], y[3], y[4], ny, first,
        pays, n0 + n1, newest, when_empty, wide, debruijn, cap_cards, cap_tricks, stash,
    )  # fmt: skip


@jit
def _play_generic(
    hands: np.ndarray,
    n0: int,
    n1: int,
    dealt: bool,
    first: int,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    stash: np.ndarray,
) -> tuple[int, int, int, int, int, int, int]:
    """:func:`_play` with every setting read at run time (every covered rule set but the standard's)."""
    _, max_tricks, cap_cards = caps(cfg)
    return _play(
        hands, n0, n1, dealt, first, flags, codes, pays,
        cfg[CFG_NEWEST_FIRST] != 0, cfg[CFG_WHEN_EMPTY] != 0, pays.size > 4, False, cap_cards, max_tricks,
        stash,
    )  # fmt: skip


STASH = 13
"""Words of :func:`play_trick`'s stash: both stacks' five words, their sizes, and the leader's seat."""


@jit_inline
def stack_words(
    cards: np.ndarray, begin: int, count: int, flags: np.ndarray, codes: np.ndarray
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """The five words of a stack of ``cards[begin:begin + count]`` (top card first, at bit 0)."""
    return _stack(cards, begin, 1, count, flags, codes)


@jit_inline
def play_trick(
    stash: np.ndarray,
    pays: np.ndarray,
    size: int,
    newest: bool,
    when_empty: bool,
    wide: bool,
    cap_cards: int,
) -> tuple[int, int, int, int, int, int, int]:
    """Play on from the trick-start position in ``stash`` (as :func:`play_trick` leaves it) for
    one trick, for compiled callers that play many deals sharing their start.

    Returns :func:`_game`'s ``(reason, cards, tricks, winner, held0, held1, read1)``, counted from
    the stashed position; a reason of :data:`~beggar.kernels.codes.CAPPED_AT_TRICK` means the
    trick was won and the position at its end is now in ``stash``; :data:`~beggar.kernels.codes.CAPPED`
    (``cap_cards`` reached) asks the caller to settle the whole game with
    :func:`beggar.kernels.general.settle`.
    """
    # Sizes and seat as signed integers: numba would mix an unsigned word and an int into a float.
    nx: int = np.int64(stash[10])  # type: ignore[assignment]
    ny: int = np.int64(stash[11])  # type: ignore[assignment]
    px: int = np.int64(stash[12])  # type: ignore[assignment]
    return _game(
        stash[0], stash[1], stash[2], stash[3], stash[4], nx,
        stash[5], stash[6], stash[7], stash[8], stash[9], ny, px,
        pays, size, newest, when_empty, wide, False, cap_cards, 1, stash,
    )  # fmt: skip


def tables(values: U8) -> tuple[U8, U8, I64]:
    """For every pay value: is it a pay card, and its plane code; and the value of every code."""
    return _tables(values)


# == batches ======================================================================================


@jit_inline
def _random_standard_batch(
    values: np.ndarray,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    seed: np.uint64,
    start: int,
    res: np.ndarray,
    debruijn: bool,
) -> None:
    """Random games under oldest-first, rule 8 and at most four pay values, the settings constant."""
    size = values.size
    buf, head, cnt, out, pile, mask = buffers(runtime(2), size)
    stash = np.zeros(STASH, np.uint64)  # only a trick-by-trick caller reads it
    deck = values.copy()
    lengths = np.zeros(2, np.int64)
    _, max_tricks, cap_cards = caps(cfg)
    n1 = size // 2
    dealt = runtime(True)  # see settle
    for g in range(res.shape[0]):
        first = deal_random(values, deck, seed, start + g, cfg[CFG_FIRST])
        played = _play(
            deck, size - n1, n1, True, first, flags, codes, pays,
            False, False, False, debruijn, cap_cards, max_tricks, stash,
        )  # fmt: skip
        result = settle(played[:6], deck, lengths, dealt, first, cfg, buf, head, cnt, out, pile, mask)
        finish(res, g, cfg, cnt, first, result)


@jit
def _random_standard(
    values: np.ndarray,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    seed: np.uint64,
    start: int,
    res: np.ndarray,
) -> None:
    """Games ``start ..`` of the run seeded with ``seed``, counting zeros with LLVM's ``cttz``."""
    _random_standard_batch(values, flags, codes, pays, cfg, seed, start, res, False)


@jit
def _random_standard_debruijn(
    values: np.ndarray,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    seed: np.uint64,
    start: int,
    res: np.ndarray,
) -> None:
    """:func:`_random_standard` counting trailing zeros with a de Bruijn table (for the benchmark)."""
    _random_standard_batch(values, flags, codes, pays, cfg, seed, start, res, True)


@jit
def _random_any(
    values: np.ndarray,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    seed: np.uint64,
    start: int,
    res: np.ndarray,
) -> None:
    """Random games under every other covered rule set (the settings read at run time)."""
    size = values.size
    buf, head, cnt, out, pile, mask = buffers(runtime(2), size)
    stash = np.zeros(STASH, np.uint64)  # only a trick-by-trick caller reads it
    deck = values.copy()
    lengths = np.zeros(2, np.int64)
    n1 = size // 2
    dealt = runtime(True)  # see settle
    for g in range(res.shape[0]):
        first = deal_random(values, deck, seed, start + g, cfg[CFG_FIRST])
        played = _play_generic(deck, size - n1, n1, dealt, first, flags, codes, pays, cfg, stash)
        result = settle(played[:6], deck, lengths, dealt, first, cfg, buf, head, cnt, out, pile, mask)
        finish(res, g, cfg, cnt, first, result)


@jit
def _deals_any(
    hands: np.ndarray,
    lengths: np.ndarray,
    firsts: np.ndarray,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    res: np.ndarray,
) -> None:
    """Play given deals: row ``g`` of ``hands`` is hand 0 then hand 1, sized by ``lengths[g]``."""
    size = hands.shape[1]
    buf, head, cnt, out, pile, mask = buffers(runtime(2), size)
    stash = np.zeros(STASH, np.uint64)  # only a trick-by-trick caller reads it
    dealt = runtime(False)  # see settle
    for g in range(hands.shape[0]):
        first = firsts[g]
        played = _play_generic(
            hands[g], lengths[g, 0], lengths[g, 1], dealt, first, flags, codes, pays, cfg, stash
        )
        result = settle(played[:6], hands[g], lengths[g], dealt, first, cfg, buf, head, cnt, out, pile, mask)
        finish(res, g, cfg, cnt, first, result)


# == the Python side ==============================================================================


def _tables(values: U8) -> tuple[U8, U8, I64]:
    """For every pay value: is it a pay card, and its plane code; and the value of every code."""
    distinct = sorted({int(v) for v in values if v})
    flags = np.zeros(256, dtype=np.uint8)
    codes = np.zeros(256, dtype=np.uint8)
    for code, value in enumerate(distinct):
        flags[value] = 1
        codes[value] = code
    return flags, codes, np.array(distinct, dtype=np.int64)


def _compiled(rules: Rules | KernelRules) -> KernelRules:
    compiled = rules if isinstance(rules, KernelRules) else KernelRules.of(rules)
    if not covers(compiled.rules):
        raise ValueError(
            f"the bit kernel plays two players and decks of at most {MAX_CARDS} cards, not "
            f"{compiled.rules.players} players and {compiled.rules.deck.size} cards: "
            "use beggar.kernels.general"
        )
    return compiled


def play_random(
    rules: Rules | KernelRules = STANDARD,
    seed: int = 0,
    start: int = 0,
    count: int = 1,
    *,
    lockstep: bool = True,
    count_zeros: CountZeros = "llvm",
) -> Batch:
    """Deal and play games ``start`` to ``start + count - 1`` of the run seeded with ``seed``.

    The same table as :func:`beggar.kernels.general.play_random`. Under the standard settings (oldest
    card first, rule 8, at most four pay values, no trick limit, at most 52 cards) games are
    played in lockstep (:mod:`beggar.kernels.lockstep`) unless ``lockstep`` is False or ``count_zeros``
    is ``debruijn``; ``count_zeros`` chooses how the scalar loop counts trailing zeros (``llvm``
    or ``debruijn``). Neither changes a result; the benchmark compares them.
    """
    compiled = _compiled(rules)
    flags, codes, pays = _tables(compiled.values)
    table = np.zeros((count, COL_HOLDINGS + 2), dtype=np.int64)
    if count:
        cfg = compiled.cfg
        standard = cfg[CFG_NEWEST_FIRST] == 0 and cfg[CFG_WHEN_EMPTY] == 0 and pays.size <= 4
        lanes_fit = count_zeros == "llvm" and compiled.values.size <= lanes.MAX_CARDS
        if standard and lockstep and lanes_fit and cfg[CFG_MAX_TRICKS] == 0:
            lanes.random_standard(compiled.values, flags, codes, pays, cfg, seed64(seed), start, table)
            return Batch(compiled.rules, table)
        if not standard:
            entry = _random_any
        elif count_zeros == "debruijn":
            entry = _random_standard_debruijn
        else:
            entry = _random_standard
        entry(compiled.values, flags, codes, pays, cfg, seed64(seed), start, table)
    return Batch(compiled.rules, table)


def play_random_fastest(
    rules: Rules | KernelRules = STANDARD, seed: int = 0, start: int = 0, count: int = 1
) -> Batch:
    """:func:`beggar.kernels.general.play_random`'s table by the fastest exact path for ``rules``.

    The bit kernel where it :func:`covers` the rules, the general kernel everywhere else: the one
    place that chooses, for ``simulate``, ``search`` and ``bench``.

    >>> from beggar.rules import rules_named
    >>> few = play_random_fastest(rules_named("two-decks"), seed=1, count=3)
    >>> bool((few.table == general.play_random(rules_named("two-decks"), seed=1, count=3).table).all())
    True
    """
    compiled = rules if isinstance(rules, KernelRules) else KernelRules.of(rules)
    if covers(compiled.rules):
        return play_random(compiled, seed, start, count)
    return general.play_random(compiled, seed, start, count)


def play_deals(
    deals: Sequence[Deal | str],
    rules: Rules | KernelRules = STANDARD,
    firsts: Sequence[int] | None = None,
) -> Batch:
    """Play given complete deals: the arguments, checks and table of :func:`general.play_deals`.

    Under a random lead with no ``firsts``, every game is led by the first hand.
    """
    compiled = _compiled(rules)
    base = compiled.rules
    hands, lengths, first = general.deal_arrays(deals, base, firsts)
    table = np.zeros((len(hands), COL_HOLDINGS + 2), dtype=np.int64)
    if len(hands):
        flags, codes, pays = _tables(compiled.values)
        _deals_any(hands, lengths, first, flags, codes, pays, compiled.cfg, table)
    return Batch(base, table)


def warm_up() -> None:
    """Compile (or load from the cache) every entry point."""
    play_random(STANDARD, seed=0, count=1)
    play_random(STANDARD.replace(empty_hand=EmptyHand.WHEN_EMPTY), seed=0, count=1)
    play_deals(["K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"])


__all__ = [
    "MAX_CARDS",
    "STASH",
    "CountZeros",
    "covers",
    "play_deals",
    "play_random",
    "play_trick",
    "stack_words",
    "tables",
    "warm_up",
]
