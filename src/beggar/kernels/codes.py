"""The numbers the compiled kernels and Python agree on: status, reason and outcome codes, the
columns of a result row, the slots of a configuration vector, and the sentinels.

Every kernel module reads its codes from here, so that a code means one thing everywhere. Each
code is the index of its enum member in :data:`STATUSES`, :data:`REASONS` or :data:`OUTCOMES`.

>>> REASONS[REASON_REPEAT].status is STATUSES[STATUS_LOOP]
True
"""

from __future__ import annotations

import numpy as np

from beggar.engine import Outcome, Reason, Status
from beggar.rules import Award, RepeatCheck

STATUS_FINISHED, STATUS_LOOP, STATUS_STOPPED = 0, 1, 2
REASON_ALL_CARDS, REASON_CANNOT_TURN, REASON_EMPTY, REASON_REPEAT = 0, 1, 2, 3
REASON_CARD_LIMIT, REASON_TRICK_LIMIT = 4, 5
OUTCOME_WIN, OUTCOME_DRAW, OUTCOME_NO_WINNER, OUTCOME_REDEAL = 0, 1, 2, 3
AWARD_NO_WINNER, AWARD_MOST_CARDS, AWARD_REDEAL = 0, 1, 2
REPEAT_OFF, REPEAT_TRICK, REPEAT_CARD = 0, 1, 2

# Sentinels: negative, so never a reason code, and distinct, so never confused with each other.
CAPPED = -1
"""A reason from a player that stopped at the caller's card or trick cap: the game is unfinished."""
CAPPED_AT_TRICK = -2
"""A reason from the bit kernel's fast path that stopped at the trick where its cap fell."""
PLAYING = -3
"""The general player's reason slot while the game goes on."""

STATUSES = (Status.FINISHED, Status.LOOP, Status.STOPPED)
REASONS = (
    Reason.ALL_CARDS,
    Reason.CANNOT_TURN,
    Reason.EMPTY,
    Reason.REPEAT,
    Reason.CARD_LIMIT,
    Reason.TRICK_LIMIT,
)
OUTCOMES = (Outcome.WIN, Outcome.DRAW, Outcome.NO_WINNER, Outcome.REDEAL)
STATUS_OF_REASON = np.array([STATUSES.index(reason.status) for reason in REASONS], dtype=np.int64)
"""Each reason code's status code: :attr:`beggar.engine.Reason.status`, compiled."""
AWARDS = {Award.NO_WINNER: AWARD_NO_WINNER, Award.MOST_CARDS: AWARD_MOST_CARDS, Award.REDEAL: AWARD_REDEAL}
REPEATS = {RepeatCheck.OFF: REPEAT_OFF, RepeatCheck.TRICK: REPEAT_TRICK, RepeatCheck.CARD: REPEAT_CARD}

# Columns of the per-game result array (holdings follow, one column per player).
COL_STATUS, COL_REASON, COL_OUTCOME, COL_CARDS, COL_TRICKS = 0, 1, 2, 3, 4
COL_WINNER, COL_FIRST, COL_REPEAT_CARDS, COL_REPEAT_TRICKS = 5, 6, 7, 8
COL_HOLDINGS = 9

# Indices of the kernel's configuration vector.
(
    CFG_PLAYERS,
    CFG_DIRECTION,
    CFG_FIRST,
    CFG_NEWEST_FIRST,
    CFG_WHEN_EMPTY,
    CFG_REPEAT,
    CFG_MAX_CARDS,
    CFG_MAX_TRICKS,
    CFG_ON_REPEAT,
    CFG_ON_STOP,
    CFG_BOUND,
    CFG_FAST,
) = range(12)
CFG_SIZE = 12

NO_LIMIT = 1 << 62
"""A card or trick cap that no game reaches: "no limit" to a compiled player."""
