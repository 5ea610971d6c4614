"""Compiled play of every balanced deal of a deck, in index order, with no Python per deal.

The deals of a unit are produced by *next arrangement* in the order of :mod:`beggar.deals` (the
pay values in lexicographic order, the leading hand first, top card first) and played by the bit
kernel's game (:func:`beggar.kernels.bitwise.play_hands`); a game that runs long is settled by the
general kernel's exact tracked player (:func:`beggar.kernels.general.settle`), which detects loops
exactly. So every rule of the game lives where it always has; this module only enumerates and
counts.

Why it is faster than playing every deal. Consecutive deals differ only in their last cards,
which belong to the second hand. A finished game that never turned the second hand's cards from
position ``P`` on (the game reports how many cards that hand turned) plays the same for every
arrangement of those cards; when the deal is the first such arrangement (its cards from ``P`` on
in increasing order), the whole block of deals sharing its first ``P`` cards is counted at once,
and the enumeration jumps past it. A deal is counted once either way.

Under the standard settings (oldest card first, rule 8, at most four pay values) and up to 52
cards, :func:`play_range_lanes` plays four deals at a time in the random games' vectorised
lockstep (:func:`beggar.kernels.lockstep.step`), which counts seat 1's unturned dealt cards for
the blocks; every other rule set is played one game at a time (:func:`play_range_any`).

Per unit, the kernel fills exact histograms of finished games' lengths in cards and tricks, the
wins of each seat, the offsets of never-ending deals, and the candidates for the longest games
(:func:`keep_longest`), and returns when its count is done or its loop buffer is full.
"""

from __future__ import annotations

import numpy as np

from beggar.kernels import lockstep as lanes
from beggar.kernels.arrangements import next_arrangement
from beggar.kernels.bits import shl, shr, tz_llvm
from beggar.kernels.bitwise import STASH, play_trick, stack_words
from beggar.kernels.codes import CAPPED, CAPPED_AT_TRICK, CFG_NEWEST_FIRST, CFG_WHEN_EMPTY, REASON_REPEAT
from beggar.kernels.general import buffers, caps, settle
from beggar.kernels.jit import jit, jit_borrowing, jit_inline, runtime

LONGEST = 100
"""How many of the longest finished games are kept, by cards and by tricks."""
CANDIDATES = 1024
"""Rows of each candidate buffer of long games before it is cut back to the longest."""
HISTOGRAM = 1 << 16
"""Lengths the histograms hold: a finished game of more cards or tricks stops the unit."""
CAP_EVERY = 32
"""Lockstep passes between two looks for games past the card cap (a power of two)."""
LOOPS = 4096
"""Never-ending deals recorded before the kernel hands them back."""

DONE, LOOPS_FULL, TOO_LONG = 0, 1, 2
"""How :func:`play_range` returned: its count done, its loop buffer full, or a game too long for
the histograms."""

# Columns of a candidate row.
C_OFFSET, C_CARDS, C_TRICKS, C_WINNER, C_TIMES = 0, 1, 2, 3, 4
C_WIDTH = 5

_SATURATED = 1 << 62
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@jit
def binomials(size: int) -> np.ndarray:
    """``C(n, k)`` for ``n, k <= size``, saturated at ``2**62``."""
    table = np.zeros((size + 1, size + 1), np.int64)
    for n in range(size + 1):
        table[n, 0] = 1
        for k in range(1, n + 1):
            value = table[n - 1, k - 1] + table[n - 1, k]
            table[n, k] = value if value < _SATURATED else _SATURATED
    return table


@jit_inline
def _block(deck: np.ndarray, start: int, binom: np.ndarray, kinds: np.ndarray) -> int:
    """Arrangements of ``deck[start:]`` if it is the first of them (increasing order), else 1.

    Saturates at ``2**62``; ``kinds`` is scratch of one counter per pay value of the deck.
    """
    n = deck.size
    if start >= n - 1:
        return 1
    for i in range(start + 1, n):
        if deck[i] < deck[i - 1]:
            return 1
    kinds[:] = 0
    for i in range(start, n):
        kinds[deck[i]] += 1
    total = 0
    result = 1
    for value in range(kinds.size):
        c = kinds[value]
        if c:
            total += c
            factor = binom[total, c]
            if result > _SATURATED // factor:
                return _SATURATED
            result *= factor
    return result


@jit_inline
def _last_then_next(deck: np.ndarray, start: int) -> int:
    """Jump past every arrangement of ``deck[start:]``, then to the next deal
    (see :func:`~beggar.kernels.arrangements.next_arrangement`)."""
    n = deck.size
    # Reverse the increasing tail: its last arrangement.
    i, j = start, n - 1
    while i < j:
        deck[i], deck[j] = deck[j], deck[i]
        i += 1
        j -= 1
    return next_arrangement(deck)


@jit
def keep_longest(rows: np.ndarray, count: int, column: int, histogram: np.ndarray) -> tuple[int, int]:
    """Cut a candidate buffer back to what the :data:`LONGEST` longest games may need.

    ``threshold`` is the largest length that at least :data:`LONGEST` games (counted in
    ``histogram``) reach; every candidate longer than it stays (fewer than :data:`LONGEST`), and
    the :data:`LONGEST` of exactly that length with the smallest offsets (the rows may be in any
    order). Returns the rows kept and the threshold.
    """
    threshold = 0
    reached = 0
    for length in range(histogram.size - 1, -1, -1):
        reached += histogram[length]
        if reached >= LONGEST:
            threshold = length
            break
    # Of the rows of exactly that length, those of the LONGEST smallest offsets (rows may come
    # in any order: games played in lockstep end out of order). Each row starts a range of
    # indices of its own, so they hold the LONGEST first games of that length.
    ties = 0
    for r in range(count):
        if rows[r, column] == threshold:
            ties += 1
    last = _SATURATED
    if ties > LONGEST:
        # The LONGEST-th smallest of their (distinct) offsets, by halving the range of offsets:
        # nothing allocated, so that the exhaust kernel's loop can call this (jit_borrowing).
        low, high = _SATURATED, 0
        for r in range(count):
            if rows[r, column] == threshold:
                low = min(low, rows[r, C_OFFSET])
                high = max(high, rows[r, C_OFFSET])
        while low < high:
            middle = low + (high - low) // 2
            below = 0
            for r in range(count):
                if rows[r, column] == threshold and rows[r, C_OFFSET] <= middle:
                    below += 1
            if below >= LONGEST:
                high = middle
            else:
                low = middle + 1
        last = low
    kept = 0
    for r in range(count):
        value = rows[r, column]
        if value > threshold or (value == threshold and rows[r, C_OFFSET] <= last):
            for c in range(C_WIDTH):
                rows[kept, c] = rows[r, c]
            kept += 1
    return kept, threshold


@jit_inline
def _offer(
    rows: np.ndarray,
    state: np.ndarray,
    slot: int,
    column: int,
    histogram: np.ndarray,
    offset: int,
    cards: int,
    tricks: int,
    winner: int,
    times: int,
) -> None:
    """Add a finished game (or block of equal games) to a candidate buffer if it may be among the longest."""
    value = cards if column == C_CARDS else tricks
    if value < state[slot + 1]:
        return
    n = state[slot]
    if n == rows.shape[0]:
        n, state[slot + 1] = keep_longest(rows, n, column, histogram)
        if value < state[slot + 1]:
            state[slot] = n
            return
    rows[n, C_OFFSET] = offset
    rows[n, C_CARDS] = cards
    rows[n, C_TRICKS] = tricks
    rows[n, C_WINNER] = winner
    rows[n, C_TIMES] = times
    state[slot] = n + 1


# Slots of the state vector: deals done, loops found, candidate rows and thresholds, games played
# (fewer than the deals done where blocks of equal games were counted at once).
S_DONE, S_LOOPS, S_BY_CARDS, S_BY_TRICKS, S_PLAYED = 0, 1, 2, 4, 6
S_SIZE = 7


MARKS = 1024
"""Trick starts remembered per game (a longer game simply remembers its first ones)."""


@jit_inline
def _range(
    deck: np.ndarray,
    lead: int,
    count: int,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    skip: bool,
    cards_hist: np.ndarray,
    tricks_hist: np.ndarray,
    wins: np.ndarray,
    loops: np.ndarray,
    loop_rows: np.ndarray,
    by_cards: np.ndarray,
    by_tricks: np.ndarray,
    state: np.ndarray,
    newest: bool,
    when_empty: bool,
    wide: bool,
) -> int:
    """:func:`play_range` with the pile order, the empty-hand rule and the width as arguments."""
    n = deck.size
    n1 = n - lead
    _, _, cap_cards = caps(cfg)
    buf, head, cnt, out, pile, mask = buffers(runtime(2), n)
    lengths = np.empty(2, np.int64)
    lengths[0] = lead
    lengths[1] = n1
    binom = binomials(n)
    kinds = np.zeros(int(deck.max()) + 1, np.int64)  # one counter a pay value of the deck
    marks_w = np.zeros((MARKS, STASH), np.uint64)
    marks_i = np.zeros((MARKS, 3), np.int64)  # cards, tricks, second hand's turns at a trick start
    stash = np.zeros(STASH, np.uint64)
    h = np.zeros(5, np.uint64)  # the second hand's dealt cards as stack words
    marks = 0
    pivot = 0
    done = state[S_DONE]
    while done < count:
        if not skip or pivot < lead or marks == 0:
            a = stack_words(deck, 0, lead, flags, codes)
            b = stack_words(deck, lead, n1, flags, codes)
            for w in range(5):
                marks_w[0, w] = a[w]
                marks_w[0, 5 + w] = b[w]
                h[w] = b[w]
            marks_w[0, 10] = lead
            marks_w[0, 11] = n1
            marks_w[0, 12] = 0
            marks_i[0, 0] = 0
            marks_i[0, 1] = 0
            marks_i[0, 2] = 0
            marks = 1
        else:
            # The second hand's words from the pivot on, then the last trick start still shared.
            low = pivot - lead
            part = stack_words(deck, pivot, n - pivot, flags, codes)
            keep = shl(_ONE, low) - _ONE
            for w in range(5):
                h[w] = (h[w] & keep) | shl(part[w], low)
            k = marks - 1
            while marks_i[k, 2] > low:
                k -= 1
            marks = k + 1
            turned = marks_i[k, 2]
            if turned < n1:
                fresh = shl(_ONE, n1 - turned) - _ONE
                base = 0 if marks_w[k, 12] == 1 else 5  # where the second hand's stack is
                for w in range(5):
                    marks_w[k, base + w] = (marks_w[k, base + w] & ~fresh) | (shr(h[w], turned) & fresh)
        k = marks - 1
        for w in range(STASH):
            stash[w] = marks_w[k, w]
        cards = marks_i[k, 0]
        tricks = marks_i[k, 1]
        read = marks_i[k, 2]
        while True:
            played = play_trick(stash, pays, n, newest, when_empty, wide, cap_cards - cards)
            if played[0] != CAPPED_AT_TRICK:
                break
            cards += played[1]
            tricks += 1
            read += played[6]
            if skip and marks < MARKS:
                for w in range(STASH):
                    marks_w[marks, w] = stash[w]
                marks_i[marks, 0] = cards
                marks_i[marks, 1] = tricks
                marks_i[marks, 2] = read
                marks += 1
        times = 1
        if played[0] >= 0:
            reason, winner = played[0], played[3]
            cards += played[1]
            tricks += played[2]
            read += played[6]
            if skip and read < n1:
                times = _block(deck, lead + read, binom, kinds)
                if times > count - done:
                    times = count - done
        else:
            # A long game: the general kernel replays it from its deal, remembering positions.
            result = settle(
                (CAPPED, 0, 0, -1, 0, 0),
                deck,
                lengths,
                runtime(False),
                0,
                cfg,
                buf,
                head,
                cnt,
                out,
                pile,
                mask,
            )
            reason, cards, tricks, winner = result[0], result[1], result[2], result[3]
            if reason == REASON_REPEAT:
                k = state[S_LOOPS]
                loops[k] = done
                loop_rows[k, 0] = result[4]
                loop_rows[k, 1] = result[5]
                loop_rows[k, 2] = cards - result[4]
                loop_rows[k, 3] = tricks - result[5]
                state[S_LOOPS] = k + 1
        if reason != REASON_REPEAT:
            if cards >= cards_hist.size or tricks >= tricks_hist.size:
                state[S_DONE] = done
                return TOO_LONG
            cards_hist[cards] += times
            tricks_hist[tricks] += times
            wins[winner] += times
            _offer(by_cards, state, S_BY_CARDS, C_CARDS, cards_hist, done, cards, tricks, winner, times)
            _offer(by_tricks, state, S_BY_TRICKS, C_TRICKS, tricks_hist, done, cards, tricks, winner, times)
        done += times
        state[S_PLAYED] += 1
        # A block counted at once ends at its last arrangement; then the next deal.
        pivot = _last_then_next(deck, lead + read) if times > 1 else next_arrangement(deck)
        if pivot < 0:
            break
        if state[S_LOOPS] == loops.size:
            break
    state[S_DONE] = done
    if done < count and state[S_LOOPS] == loops.size:
        return LOOPS_FULL
    return DONE


@jit
def play_range(
    deck: np.ndarray,
    lead: int,
    count: int,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    skip: bool,
    cards_hist: np.ndarray,
    tricks_hist: np.ndarray,
    wins: np.ndarray,
    loops: np.ndarray,
    loop_rows: np.ndarray,
    by_cards: np.ndarray,
    by_tricks: np.ndarray,
    state: np.ndarray,
) -> int:
    """Play deals from ``deck`` on, in index order, until ``state[S_DONE]`` reaches ``count``.

    ``deck`` (pay values, the leading hand's ``lead`` cards first) is the deal of offset
    ``state[S_DONE]``. Finished games go into the histograms and ``wins``; the offset of each
    never-ending deal into ``loops``, with ``(lead-in cards, lead-in tricks, period cards, period
    tricks)`` in ``loop_rows``; candidates for the longest games into ``by_cards`` and
    ``by_tricks``. ``skip`` shares work between consecutive deals (False: every deal played from
    its start, one game a deal, for tests and the benchmark). Returns :data:`DONE`,
    :data:`LOOPS_FULL` (``deck`` is then the next deal to play) or :data:`TOO_LONG`. Under the
    standard settings (oldest card first, rule 8, at most four pay values); :func:`play_range_any`
    plays every other covered rule set.

    How deals share work. The position at each trick start of a game is remembered with the
    cards the second hand had turned by then. The next deal differs from position ``pivot`` on:
    if that is in the second hand, the game is the same up to the last remembered trick start at
    which the second hand had turned fewer than ``pivot - lead`` cards; there the second hand's
    unturned dealt cards (the top of its stack) are replaced by the new deal's, and play goes on.
    """
    return _range(
        deck, lead, count, flags, codes, pays, cfg, skip, cards_hist, tricks_hist, wins, loops,
        loop_rows, by_cards, by_tricks, state,
        False, False, False,
    )  # fmt: skip


@jit
def play_range_any(
    deck: np.ndarray,
    lead: int,
    count: int,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    skip: bool,
    cards_hist: np.ndarray,
    tricks_hist: np.ndarray,
    wins: np.ndarray,
    loops: np.ndarray,
    loop_rows: np.ndarray,
    by_cards: np.ndarray,
    by_tricks: np.ndarray,
    state: np.ndarray,
) -> int:
    """:func:`play_range` under any covered rule set (the settings read at run time)."""
    return _range(
        deck, lead, count, flags, codes, pays, cfg, skip, cards_hist, tricks_hist, wins, loops,
        loop_rows, by_cards, by_tricks, state,
        cfg[CFG_NEWEST_FIRST] != 0, cfg[CFG_WHEN_EMPTY] != 0, pays.size > 4,
    )  # fmt: skip


# == four games at a time ==============================================================================


@jit_inline
def _lane_words(
    deck: np.ndarray,
    pivot: int,
    lead: int,
    words: np.ndarray,
    lane: int,
    flags: np.ndarray,
    codes: np.ndarray,
) -> None:
    """Bring ``lane``'s row of ``words`` (hand 0's mask and value planes, then hand 1's) up to date
    with ``deck``, changed from ``pivot`` on (0: all of it)."""
    n = deck.size
    if pivot < lead:
        a = stack_words(deck, 0, lead, flags, codes)
        b = stack_words(deck, lead, n - lead, flags, codes)
        for w in range(3):
            words[lane, w] = a[w]
            words[lane, 3 + w] = b[w]
        return
    low = pivot - lead
    part = stack_words(deck, pivot, n - pivot, flags, codes)
    keep = shl(_ONE, low) - _ONE
    for w in range(3):
        words[lane, 3 + w] = (words[lane, 3 + w] & keep) | shl(part[w], low)


@jit_inline
def _deal_lane(s: np.ndarray, lane: int, words: np.ndarray, lead: int, n: int) -> None:
    """Deal ``lane``'s words into its lane, the first hand to lead."""
    lanes.put_lane(
        s, lane, words[lane, 0], words[lane, 1], words[lane, 2], lead,
        words[lane, 3], words[lane, 4], words[lane, 5], n - lead, 0,
    )  # fmt: skip
    lanes.set_unturned1(s, lane, n - lead)


@jit_inline
def _claim(pos: np.ndarray, stop: np.ndarray, following: int) -> int:
    """The first chunk from ``following`` on with deals left, or ``pos.size`` if none."""
    while following < pos.size and pos[following] >= stop[following]:
        following += 1
    return following


@jit_inline
def _tally(
    cards_hist: np.ndarray,
    tricks_hist: np.ndarray,
    wins: np.ndarray,
    by_cards: np.ndarray,
    by_tricks: np.ndarray,
    state: np.ndarray,
    offset: int,
    times: int,
    cards: int,
    tricks: int,
    winner: int,
) -> None:
    """Count ``times`` equal finished games, the deals of offsets ``offset`` on."""
    cards_hist[cards] += times
    tricks_hist[tricks] += times
    wins[winner] += times
    _offer(by_cards, state, S_BY_CARDS, C_CARDS, cards_hist, offset, cards, tricks, winner, times)
    _offer(by_tricks, state, S_BY_TRICKS, C_TRICKS, tricks_hist, offset, cards, tricks, winner, times)


@jit
def play_range_lanes(
    decks: np.ndarray,
    pos: np.ndarray,
    stop: np.ndarray,
    lead: int,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    skip: bool,
    cards_hist: np.ndarray,
    tricks_hist: np.ndarray,
    wins: np.ndarray,
    loops: np.ndarray,
    loop_rows: np.ndarray,
    by_cards: np.ndarray,
    by_tricks: np.ndarray,
    state: np.ndarray,
) -> int:
    """Play a unit's deals :data:`beggar.kernels.lockstep.LANES` at a time in lockstep, cut into chunks.

    Chunk ``c`` is the deals of offsets ``pos[c]`` to ``stop[c] - 1`` of the unit, ``decks[c]``
    the deal of offset ``pos[c]`` (pay values, the leading hand's ``lead`` cards first); the
    kernel moves both on as it plays, so that a call that returns :data:`LOOPS_FULL` is taken up
    by the next call with the same arrays. Each lane takes a chunk and plays its deals one after
    the other in index order, then takes the next chunk with deals left. ``state[S_DONE]`` counts
    the deals done, and the counts and records are those of :func:`play_range`, for the standard
    settings (oldest card first, rule 8, at most four pay values) and decks of at most
    :data:`beggar.kernels.lockstep.MAX_CARDS` cards.

    Each lane plays a deal by :func:`beggar.kernels.lockstep.step`, the random games' vectorised
    step, counting down seat 1's unturned dealt cards. Games end out of order, so the candidates
    for the longest games come in any order (:func:`keep_longest` keeps the smallest offsets of a
    tie), and never-ending deals too. Since a lane's deals follow one another, a deal differs from
    the one before only from the first position :func:`next_arrangement` changed, and only that
    part of the second hand's words is built again.

    ``skip`` counts blocks of equal games at once, as :func:`play_range` does: a game that ended
    before seat 1 turned its dealt cards from position ``P`` on, on a deal whose cards from ``P``
    on are in increasing order, counts every deal of its chunk sharing its first ``P`` cards, and
    the lane goes past them. A block cut by a chunk's start is played deal by deal there.
    """
    L = lanes.LANES
    n = decks.shape[1]
    buf, head, cnt, out, pile, mask = buffers(runtime(2), n)
    lengths = np.empty(2, np.int64)
    lengths[0] = lead
    lengths[1] = n - lead
    room = lanes.lane_room(lanes.TRACKED_FIELDS)
    s = room[lanes.APART : lanes.APART + lanes.TRACKED_FIELDS * L]
    words = np.zeros((L, 6), np.uint64)  # each lane's deal: hand 0's mask and planes, hand 1's
    chunk = np.full(L, -1, np.int64)  # each lane's chunk, -1 for an idle lane
    ctl = np.zeros(2, np.int64)  # chunks before ctl[0] are taken or done; ctl[1] lanes play
    scratch = (
        binomials(n),
        np.zeros(int(decks.max()) + 1, np.int64),  # one counter a pay value of the deck
        room, words, chunk, ctl,
    )  # fmt: skip
    room_left = state[S_LOOPS] + L <= loops.size  # every lane may find a loop before the next check
    for lane in range(L):
        following = _claim(pos, stop, ctl[0])
        ctl[0] = following
        if following < pos.size and room_left:
            chunk[lane] = following
            ctl[0] = following + 1
            _lane_words(decks[following], 0, lead, words, lane, flags, codes)
            ctl[1] += 1
        # An idle lane plays some deal again and again, unrecorded.
        _deal_lane(s, lane, words, lead, n)
    while True:
        status = _lanes(
            decks, pos, stop, lead, flags, codes, pays, cfg, skip, cards_hist, tricks_hist, wins,
            loops, by_cards, by_tricks, state, scratch,
        )  # fmt: skip
        if status >= 0:
            return status
        # A long game: the general kernel replays it from its deal, remembering positions.
        lane = -1 - status
        c = chunk[lane]
        o = pos[c]
        result = settle(
            (CAPPED, 0, 0, -1, 0, 0), decks[c], lengths, runtime(False), 0, cfg,
            buf, head, cnt, out, pile, mask,
        )  # fmt: skip
        reason, cards, tricks, winner = result[0], result[1], result[2], result[3]
        if reason == REASON_REPEAT:
            k = state[S_LOOPS]
            loops[k] = o
            loop_rows[k, 0] = result[4]
            loop_rows[k, 1] = result[5]
            loop_rows[k, 2] = cards - result[4]
            loop_rows[k, 3] = tricks - result[5]
            state[S_LOOPS] = k + 1
        if _counted(
            lane, 1, n, reason, cards, tricks, winner, decks, pos, stop, lead, flags, codes,
            cards_hist, tricks_hist, wins, loops, by_cards, by_tricks, state, s, words, chunk, ctl,
        ):  # fmt: skip
            return TOO_LONG


LaneScratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
""":func:`_lanes`'s working memory, made by :func:`play_range_lanes`: the binomials, a counter a pay
value, the lanes' room, each lane's words and chunk, and the next chunk to take with the lanes
playing."""


@jit_inline
def _counted(
    lane: int,
    times: int,
    tail: int,
    reason: int,
    cards: int,
    tricks: int,
    winner: int,
    decks: np.ndarray,
    pos: np.ndarray,
    stop: np.ndarray,
    lead: int,
    flags: np.ndarray,
    codes: np.ndarray,
    cards_hist: np.ndarray,
    tricks_hist: np.ndarray,
    wins: np.ndarray,
    loops: np.ndarray,
    by_cards: np.ndarray,
    by_tricks: np.ndarray,
    state: np.ndarray,
    s: np.ndarray,
    words: np.ndarray,
    chunk: np.ndarray,
    ctl: np.ndarray,
) -> bool:
    """Count the game that ended in ``lane`` (``times`` deals, sharing its first ``tail`` cards),
    move the lane to its next deal and deal it; True for a game too long for the histograms."""
    L = lanes.LANES
    n = decks.shape[1]
    c = chunk[lane]
    o = pos[c]
    if reason != REASON_REPEAT:
        if cards >= cards_hist.size or tricks >= tricks_hist.size:
            return True
        _tally(cards_hist, tricks_hist, wins, by_cards, by_tricks, state, o, times, cards, tricks, winner)
    state[S_DONE] += times
    state[S_PLAYED] += 1
    o += times
    pos[c] = o
    room_left = state[S_LOOPS] + L <= loops.size
    if o < stop[c]:
        # A block counted at once ends at its last arrangement; then the next deal.
        row = decks[c]
        pivot = _last_then_next(row, tail) if times > 1 else next_arrangement(row)
        if room_left:
            _lane_words(row, pivot, lead, words, lane, flags, codes)
    if o >= stop[c] or not room_left:
        # The chunk is done (or the loop buffer nearly full: the chunk waits for the next call).
        chunk[lane] = -1
        if room_left:
            following = _claim(pos, stop, ctl[0])
            ctl[0] = following
            if following < pos.size:
                chunk[lane] = following
                ctl[0] = following + 1
                _lane_words(decks[following], 0, lead, words, lane, flags, codes)
        if chunk[lane] < 0:
            ctl[1] -= 1
    _deal_lane(s, lane, words, lead, n)
    return False


@jit_borrowing
def _lanes(
    decks: np.ndarray,
    pos: np.ndarray,
    stop: np.ndarray,
    lead: int,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    cfg: np.ndarray,
    skip: bool,
    cards_hist: np.ndarray,
    tricks_hist: np.ndarray,
    wins: np.ndarray,
    loops: np.ndarray,
    by_cards: np.ndarray,
    by_tricks: np.ndarray,
    state: np.ndarray,
    scratch: LaneScratch,
) -> int:
    """:func:`play_range_lanes`'s loop, from lanes already dealt: its status, or ``-1 - lane`` for a
    game in ``lane`` that reached the cap, which the caller replays, counts and deals on from.

    Compiled without reference counting (:data:`~beggar.kernels.jit.jit_borrowing`): at every
    game's end it takes a row of ``decks`` and hands arrays to inlined helpers, and each such
    hand-over was a locked increment and decrement, a quarter of the kernel's time. So it
    allocates nothing, and the exact replay (which does) is left to the caller. Lanes whose game
    has ended are looked for before the first step, for a call that takes up after such a replay.
    Games past the card cap (never-ending ones) are looked for every :data:`CAP_EVERY` passes
    rather than by the step (a compare fewer a pass, about 4% of the kernel's time).
    """
    binom, kinds, room, words, chunk, ctl = scratch
    L = lanes.LANES
    n = decks.shape[1]
    usize = np.uint64(n)
    _, _, cap_cards = caps(cfg)
    cap = lanes.tally_cap(cap_cards)
    payments = lanes.pay_bytes(pays)
    s = room[lanes.APART : lanes.APART + lanes.TRACKED_FIELDS * L]
    look = True
    passes = 0
    while ctl[1] > 0:
        if look:
            over = _ZERO
            for lane in range(L):
                if lanes.ended(s, lane, cap, usize):
                    over |= _ONE << np.uint64(lane)
            look = False
        else:
            over = lanes.step(s, payments, cap, usize, True, False)
            passes += 1
            if passes & (CAP_EVERY - 1) == 0:
                for lane in range(L):
                    if lanes.ended(s, lane, cap, usize):
                        over |= _ONE << np.uint64(lane)
        while over != _ZERO:
            # Only the lanes whose game has just ended, lowest first.
            lane = tz_llvm(over)
            over &= over - _ONE
            c = chunk[lane]
            if c < 0:
                _deal_lane(s, lane, words, lead, n)
                continue
            reason, cards, tricks, winner = lanes.lane_result(s, lane, cap, usize)
            if reason == CAPPED:
                return -1 - lane
            times = 1
            tail = n
            if skip:
                tail = n - lanes.unturned1(s, lane)
                if tail < n - 1:
                    # The chunk's next deals that share the first ``tail`` cards play this game.
                    times = min(_block(decks[c], tail, binom, kinds), stop[c] - pos[c])
            if _counted(
                lane, times, tail, reason, cards, tricks, winner, decks, pos, stop, lead, flags,
                codes, cards_hist, tricks_hist, wins, loops, by_cards, by_tricks, state, s, words,
                chunk, ctl,
            ):  # fmt: skip
                return TOO_LONG
    for c in range(pos.size):
        if pos[c] < stop[c]:
            return LOOPS_FULL
    return DONE


__all__ = [
    "CANDIDATES",
    "CAP_EVERY",
    "C_CARDS",
    "C_OFFSET",
    "C_TIMES",
    "C_TRICKS",
    "C_WIDTH",
    "C_WINNER",
    "DONE",
    "HISTOGRAM",
    "LONGEST",
    "LOOPS",
    "LOOPS_FULL",
    "MARKS",
    "S_BY_CARDS",
    "S_BY_TRICKS",
    "S_DONE",
    "S_LOOPS",
    "S_PLAYED",
    "S_SIZE",
    "TOO_LONG",
    "binomials",
    "keep_longest",
    "play_range",
    "play_range_any",
    "play_range_lanes",
]
