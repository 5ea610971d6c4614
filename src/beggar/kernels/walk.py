"""Compiled search steps: mutate a deal, score it, and walk a strategy for a unit of work.

See :mod:`beggar.research.search`, which runs the walks and keeps their finds.
"""

from __future__ import annotations

import math

import numpy as np

from beggar.kernels import rng
from beggar.kernels.codes import STATUS_LOOP
from beggar.kernels.general import Scratch, score_deal, scratch
from beggar.kernels.jit import jit

LOOP_SCORE = 1 << 40
"""The score of a deal that never ends: better than any finite game."""


@jit
def mutate(deal: np.ndarray, lengths: np.ndarray, values: np.ndarray, state: np.uint64) -> np.uint64:
    """Change ``deal`` in place by one move: swap two cards, move a pay card, or rotate a hand."""
    n = deal.size
    state, move = rng.below(state, 10)
    if move < 6:  # swap two cards of different classes
        for _ in range(20):
            state, i = rng.below(state, n)
            state, j = rng.below(state, n)
            if deal[i] != deal[j]:
                deal[i], deal[j] = deal[j], deal[i]
                break
    elif move < 9:  # move a pay card to another place
        for _ in range(20):
            state, i = rng.below(state, n)
            if values[deal[i]] != 0:
                break
        state, j = rng.below(state, n)
        card = deal[i]
        if i < j:
            for k in range(i, j):
                deal[k] = deal[k + 1]
        else:
            for k in range(i, j, -1):
                deal[k] = deal[k - 1]
        deal[j] = card
    else:  # rotate one hand
        state, hand = rng.below(state, lengths.size)
        start = 0
        for h in range(hand):
            start += lengths[h]
        size = lengths[hand]
        if size > 1:
            state, shift = rng.below(state, size - 1)
            shift += 1
            copy = deal[start : start + size].copy()
            for k in range(size):
                deal[start + k] = copy[(k + shift) % size]
    return state


@jit
def deal_score(
    deal: np.ndarray,
    lengths: np.ndarray,
    values: np.ndarray,
    first: int,
    cfg: np.ndarray,
    hands: np.ndarray,
    memory: Scratch,
    by_tricks: bool,
    seek_loops: bool,
) -> tuple[int, int, int, int]:
    """``(score, status, cards, tricks)`` of one candidate, played by the kernel.

    A never-ending deal scores highest when ``seek_loops``, else lowest: a climber after long
    games is not drawn into a loop it cannot leave, and the loop is kept as a find anyway.
    """
    for k in range(deal.size):
        hands[k] = values[deal[k]]
    status, cards, tricks = score_deal(hands, lengths, first, cfg, memory)
    if status == STATUS_LOOP:
        return (LOOP_SCORE if seek_loops else 0), status, cards, tricks
    return (tricks if by_tricks else cards), status, cards, tricks


@jit
def walk(
    current: np.ndarray,
    best: np.ndarray,
    lengths: np.ndarray,
    values: np.ndarray,
    first: int,
    cfg: np.ndarray,
    by_tricks: bool,
    seek_loops: bool,
    state: np.uint64,
    moves: int,
    scores: np.ndarray,
    counters: np.ndarray,
    anneal: bool,
    hot: float,
    cold: float,
    length: int,
    patience: int,
    loops: np.ndarray,
) -> tuple[np.uint64, int]:
    """``moves`` steps of hill climbing (``anneal`` False) or simulated annealing from ``current``.

    One compiled loop on purpose: the whole unit runs without returning to Python.

    ``scores`` holds [current score, best score, best cards, best tricks]; ``counters`` holds
    [moves since the last improvement, moves into the annealing run]. Never-ending candidates
    are copied into ``loops``; returns the new random state and how many were found.
    """
    size = current.size
    hands = np.empty(size, np.uint8)
    memory = scratch(lengths.size, size)
    candidate = np.empty_like(current)
    found = 0
    if scores[0] < 0:  # a fresh start
        state = rng.shuffle(current, state)
        score, status, cards, tricks = deal_score(
            current, lengths, values, first, cfg, hands, memory, by_tricks, seek_loops
        )
        scores[0] = score
        counters[0] = 0
        counters[1] = 0
        if score > scores[1]:
            best[:] = current
            scores[1], scores[2], scores[3] = score, cards, tricks
    for _ in range(moves):
        candidate[:] = current
        state = mutate(candidate, lengths, values, state)
        score, status, cards, tricks = deal_score(
            candidate, lengths, values, first, cfg, hands, memory, by_tricks, seek_loops
        )
        if status == STATUS_LOOP and found < loops.shape[0]:
            loops[found, :] = candidate
            found += 1
        accept = score >= scores[0]
        if not accept and anneal:
            progress = counters[1] / length
            temperature = hot * (cold / hot) ** progress
            state, u = rng.uniform(state)
            accept = u < math.exp((score - scores[0]) / temperature)
        counters[0] += 1
        counters[1] += 1
        if accept:
            current[:] = candidate
            scores[0] = score
        if score > scores[1]:
            best[:] = candidate
            scores[1], scores[2], scores[3] = score, cards, tricks
            counters[0] = 0
        if (anneal and counters[1] >= length) or (not anneal and counters[0] >= patience):
            state = rng.shuffle(current, state)
            scores[0], _, _, _ = deal_score(
                current, lengths, values, first, cfg, hands, memory, by_tricks, seek_loops
            )
            counters[0] = 0
            counters[1] = 0
    return state, found
