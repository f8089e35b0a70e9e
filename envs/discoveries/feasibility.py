"""Contract feasibility (§5.5 FEASIBLE) from a precomputed table of candidate fleets.

A contract still needing ``r`` TV (0..6) is completed by some multiset of picks whose TVs sum
to ``r``: regular ships of TV 1, 2 and 3 (``k1 + 2 k2 + 3 k3``), and at most one flagship of
a declared TV ``f`` (0 = no flagship). For ``r = 6`` there are 19 such candidate fleets (7
without the flagship, then 5, 4 and 3 with it at TV 1, 2 and 3), fewer for smaller ``r``.

A candidate is affordable when, for every TV, the ships it needs beyond those of the
contract's colour (``short_t = max(k_t - match_t, 0)``) are available in other colours, each
of those costs a Joker, the flagship costs one more unless it can declare the contract's
colour, and the fees (1 coin a ship, 2 for the flagship) fit the coins. Using the ships of
the contract's colour first never needs more Jokers, so this is exact: FEASIBLE holds exactly
when some candidate is affordable. No search: ``tests/discoveries`` compares it with a plain
depth-first search over the picks.

The search over candidates is done once, at import, for every bounded input
(``FEE_TABLE``: the cheapest affordable fee), so FEASIBLE is one look-up and one comparison
with the coins.

The flagship enters as a *state* per row: ``NO_FLAG`` (not idle), ``FLAG_OFF`` (idle, cannot
declare the colour) or ``FLAG_ON`` (idle, one of its colours is the contract's).
"""

from __future__ import annotations

import itertools

import numpy as np

from envs.discoveries.data import FLAGSHIP_FEE, MAX_REQUIREMENT, NUM_TVS, SHIP_FEE

NO_FLAG, FLAG_OFF, FLAG_ON = 0, 1, 2
NUM_CANDIDATES = 19  # the most candidate fleets of one requirement (r = 6)
_UNAFFORDABLE = 1000  # above any coins (570): a padding entry, a flagship not idle


def _candidates(remaining: int) -> list[tuple[int, int, int, int]]:
    """(k1, k2, k3, flagship TV) with k1 + 2 k2 + 3 k3 + flagship TV = ``remaining``."""
    found = []
    for flag in range(NUM_TVS + 1):
        rest = remaining - flag
        for k3, k2 in itertools.product(range(rest // 3 + 1), range(rest // 2 + 1)):
            k1 = rest - 3 * k3 - 2 * k2
            if k1 >= 0:
                found.append((k1, k2, k3, flag))
    return found


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """Candidate ships per TV (7, 19, 3), and per flagship state the fee (7, 3, 19) and the
    Joker the flagship itself needs (7, 3, 19); padding entries cost ``_UNAFFORDABLE``."""
    ships = np.zeros((MAX_REQUIREMENT + 1, NUM_CANDIDATES, NUM_TVS), dtype=np.int8)
    fee = np.full((MAX_REQUIREMENT + 1, 3, NUM_CANDIDATES), _UNAFFORDABLE, dtype=np.int16)
    flag_joker = np.zeros((MAX_REQUIREMENT + 1, 3, NUM_CANDIDATES), dtype=np.int8)
    counts = []
    for r in range(MAX_REQUIREMENT + 1):
        cands = _candidates(r)
        counts.append(len(cands))
        for i, (k1, k2, k3, flag) in enumerate(cands):
            ships[r, i] = (k1, k2, k3)
            paid = SHIP_FEE * (k1 + k2 + k3) + (FLAGSHIP_FEE if flag else 0)
            for state in (NO_FLAG, FLAG_OFF, FLAG_ON):
                if flag and state == NO_FLAG:
                    continue
                fee[r, state, i] = paid
                flag_joker[r, state, i] = 1 if flag and state == FLAG_OFF else 0
    return ships, fee, flag_joker, counts


CANDIDATE_SHIPS, CANDIDATE_FEE, CANDIDATE_FLAG_JOKER, CANDIDATE_COUNTS = _tables()


# Every input a candidate reads, bounded: the ships of the contract's colour per TV (at most
# 2, 3, 2 copies), those of other colours (capped at 3: a candidate never takes more than
# the 3 Jokers allow), Jokers 0..3, the flagship state and the TV still needed.
_MATCH_SHAPE = (3, 4, 3)
_OTHER_CAP = 3
_MAX_JOKERS = 3
_MATCH_WEIGHTS = np.array([12, 3, 1], dtype=np.int64)
_OTHER_WEIGHTS = np.array([16, 4, 1], dtype=np.int64)
_NUM_MATCH, _NUM_OTHER = 36, 64


def _fee_table() -> np.ndarray:
    """(7 * 3 * 36 * 64 * 4,) int16: the cheapest affordable fee (``_UNAFFORDABLE`` if no
    candidate is affordable), keyed as ``feasible`` keys."""
    match = np.stack(np.unravel_index(np.arange(_NUM_MATCH), _MATCH_SHAPE), axis=1)
    other = np.stack(np.unravel_index(np.arange(_NUM_OTHER), (4, 4, 4)), axis=1)
    table = np.empty((MAX_REQUIREMENT + 1, 3, _NUM_MATCH, _NUM_OTHER, 4), dtype=np.int16)
    for r in range(MAX_REQUIREMENT + 1):
        # Ships each candidate takes from other colours (36, 1, 19, 3), each needing a Joker.
        short = np.maximum(CANDIDATE_SHIPS[r] - match[:, None, None, :], 0)
        fits = (short <= other[None, :, None, :]).all(axis=-1)  # (36, 64, 19)
        jokers = short.sum(axis=-1)  # (36, 1, 19)
        for flag in (NO_FLAG, FLAG_OFF, FLAG_ON):
            needed = jokers + CANDIDATE_FLAG_JOKER[r, flag]
            for j in range(_MAX_JOKERS + 1):
                table[r, flag, :, :, j] = np.where(fits & (needed <= j),
                                                   CANDIDATE_FEE[r, flag], _UNAFFORDABLE
                                                   ).min(axis=-1)
    return table.reshape(-1)


FEE_TABLE = _fee_table()


def feasible(match: np.ndarray, other: np.ndarray, jokers: np.ndarray, coins: np.ndarray,
             flag: np.ndarray, remaining: np.ndarray) -> np.ndarray:
    """FEASIBLE for contracts still needing ``remaining`` TV, elementwise over ``(...)``.

    One look-up of the cheapest affordable candidate's fee (``FEE_TABLE``), compared with the
    coins.

    Args:
        match: (..., 3) idle regular ships of the contract's colour, per TV 1..3 (clipped at
            0: a caller may pass a count one below an absent ship and mask the result).
        other: (..., 3) idle regular ships of the other colours, per TV (clipped the same).
        jokers: (...) Jokers left (clipped to 0..3).
        coins: (...) coins held.
        flag: (...) the flagship state (``NO_FLAG``, ``FLAG_OFF``, ``FLAG_ON``).
        remaining: (...) TV still to attach, 0..6.

    Returns:
        (...) bool: some completion of the contract is legal.
    """
    m = np.maximum(match, 0) @ _MATCH_WEIGHTS
    o = np.minimum(np.maximum(other, 0), _OTHER_CAP) @ _OTHER_WEIGHTS
    key = ((remaining * 3 + flag) * _NUM_MATCH + m) * _NUM_OTHER + o
    key = key * 4 + np.minimum(np.maximum(jokers, 0), _MAX_JOKERS)
    return FEE_TABLE[key] <= coins
