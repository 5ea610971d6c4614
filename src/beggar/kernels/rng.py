"""The project's one random generator: every shuffle, deal and random lead comes from here.

SplitMix64 (Steele, Lea and Flood) gives the numbers; Lemire's method maps them to an unbiased
integer below a bound; Fisher-Yates shuffles. Game ``g`` of a run seeded with ``S`` has a stream of
its own, seeded from ``(S, g)`` alone, so a game's deal never depends on how many games are played
at once or on how many workers play them. The functions are compiled with numba, so the kernel
calls them inside its loops, and Python calls the very same functions (:func:`deal_order`,
:func:`draw`).

>>> order, leader = deal_order(seed=7, game=0, size=52, players=2)
>>> sorted(order) == list(range(52)), leader in (0, 1)
(True, True)
>>> deal_order(seed=7, game=0, size=52, players=2) == (order, leader)
True
"""

from __future__ import annotations

import numpy as np

from beggar.kernels.jit import jit

_U = np.uint64
_GOLDEN = _U(0x9E3779B97F4A7C15)
_MIX1 = _U(0xBF58476D1CE4E5B9)
_MIX2 = _U(0x94D049BB133111EB)
_LOW32 = _U(0xFFFFFFFF)
_TWO32 = _U(1 << 32)
_GAME_SALT = _U(0xD1B54A32D192ED03)
_S30, _S27, _S31, _S32 = _U(30), _U(27), _U(31), _U(32)

LEAD_STREAM = 1 << 62
"""The stream a single game's random lead is drawn from (far from the streams of a run's games)."""


@jit
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijective 64-bit mix."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def game_state(seed: np.uint64, game: int) -> np.uint64:
    """The starting state of game ``game``'s random stream in a run seeded with ``seed``."""
    return mix(mix(seed) + _U(game) * _GAME_SALT + _GOLDEN)


@jit
def stream(seed: int, name: int) -> np.uint64:
    """The starting state of the stream ``name`` of ``seed`` (a search walker's, a game's)."""
    return game_state(_U(seed), name)


@jit
def next64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The new random state and a random 64-bit number from it (one SplitMix64 step)."""
    state = state + _GOLDEN
    return state, mix(state)


@jit
def _bounded(r: np.uint64, n: np.uint64, state: np.uint64) -> tuple[np.uint64, np.int64]:
    """Lemire's unbiased map of the 32-bit draw ``r`` to ``[0, n)``; rare rejections draw again."""
    m = r * n
    low = m & _LOW32
    if low < n:
        threshold = (_TWO32 - n) % n
        while low < threshold:
            state = state + _GOLDEN
            m = (mix(state) >> _S32) * n
            low = m & _LOW32
    return state, np.int64(m >> _S32)


@jit
def below(state: np.uint64, bound: int) -> tuple[np.uint64, np.int64]:
    """An unbiased integer in ``[0, bound)`` and the new random state."""
    state = state + _GOLDEN
    return _bounded(mix(state) >> _S32, _U(bound), state)


@jit
def uniform(state: np.uint64) -> tuple[np.uint64, float]:
    """A float uniform in ``[0, 1)`` (53 random bits) and the new random state."""
    state = state + _GOLDEN
    return state, float(mix(state) >> _U(11)) * (1.0 / 9007199254740992.0)


@jit
def shuffle(deck: np.ndarray, state: np.uint64) -> np.uint64:
    """Fisher-Yates shuffle of ``deck`` in place; returns the new random state.

    Each 64-bit draw gives two 32-bit numbers: the high half for one swap, the low for the next.
    """
    i = deck.size - 1
    while i > 0:
        state = state + _GOLDEN
        z = mix(state)
        state, j = _bounded(z >> _S32, _U(i + 1), state)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
        i -= 1
        if i == 0:
            break
        state, j = _bounded(z & _LOW32, _U(i + 1), state)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
        i -= 1
    return state


@jit
def order(seed: np.uint64, game: int, size: int, players: int, cards: np.ndarray) -> np.int64:
    """Fill ``cards`` with game ``game``'s shuffled card indices; return its random leader.

    The leader is drawn from the game's stream right after the shuffle.
    """
    for k in range(size):
        cards[k] = k
    state = shuffle(cards, game_state(seed, game))
    _, leader = below(state, players)
    return leader


def seed64(seed: int) -> np.uint64:
    """A seed of any size as the generator's 64-bit seed."""
    return _U(seed % (1 << 64))


def deal_order(seed: int, game: int, size: int, players: int) -> tuple[list[int], int]:
    """Game ``game`` of the run seeded with ``seed``: its card indices in dealing order, and its leader."""
    cards = np.zeros(size, dtype=np.int64)
    leader = order(seed64(seed), game, size, players, cards)
    return [int(k) for k in cards], int(leader)


def draw(seed: int, bound: int) -> int:
    """An integer in ``[0, bound)`` drawn from ``seed`` alone (a single game's random lead).

    >>> draw(5, 4) == draw(5, 4) and 0 <= draw(5, 4) < 4
    True
    """
    _, value = below(_U(stream(seed % (1 << 63), LEAD_STREAM)), bound)
    return int(value)
