"""Contract feasibility (§5.5 FEASIBLE) over a table of candidate fleets.

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

``feasible`` is compiled (numba) and walks the candidates of the requirement (at most 19),
so FEASIBLE costs a few dozen comparisons; a bound on the TV that any fleet reaches settles
most infeasible contracts before the walk.

The flagship enters as a *state* per row: ``NO_FLAG`` (not idle), ``FLAG_OFF`` (idle, cannot
declare the colour) or ``FLAG_ON`` (idle, one of its colours is the contract's).
"""

from __future__ import annotations

import itertools

import numpy as np

from envs.core.jit import njit
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


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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
    return ships, fee, flag_joker, np.array(counts, dtype=np.int8)


CANDIDATE_SHIPS, CANDIDATE_FEE, CANDIDATE_FLAG_JOKER, CANDIDATE_COUNTS = _tables()


@njit
def feasible(match1, match2, match3, other1, other2, other3, jokers, coins, flag, remaining):
    """FEASIBLE (§5.5) for a contract still needing ``remaining`` TV (0..6): some candidate
    fleet is affordable.

    Args:
        match1, match2, match3: idle regular ships of the contract's colour of TV 1, 2, 3
            (a count below 0, one below an absent ship, reads 0).
        other1, other2, other3: idle regular ships of the other colours of TV 1, 2, 3 (the
            same).
        jokers: Jokers left (below 0 reads 0); coins: coins held.
        flag: the flagship state (``NO_FLAG``, ``FLAG_OFF``, ``FLAG_ON``).
    """
    match1, match2, match3 = max(match1, 0), max(match2, 0), max(match3, 0)
    other1, other2, other3 = max(other1, 0), max(other2, 0), max(other3, 0)
    jokers = max(jokers, 0)
    # No fleet reaches more TV than every ship of the colour, as many others as the Jokers
    # pay for and the flagship (one more Joker if it cannot declare the colour), each of
    # those at TV 3 at most. Most contracts that a seat cannot complete fail this bound
    # without the scan of the candidates: 87% of them in random play, where ``forced``
    # asks about every contract of the public bound.
    reach = (match1 + 2 * match2 + 3 * match3
             + NUM_TVS * min(jokers, other1 + other2 + other3)
             + NUM_TVS * (flag == FLAG_ON or (flag == FLAG_OFF and jokers >= 1)))
    if reach < remaining:
        return False
    for i in range(CANDIDATE_COUNTS[remaining]):
        if CANDIDATE_FEE[remaining, flag, i] > coins:
            continue
        short1 = max(CANDIDATE_SHIPS[remaining, i, 0] - match1, 0)
        short2 = max(CANDIDATE_SHIPS[remaining, i, 1] - match2, 0)
        short3 = max(CANDIDATE_SHIPS[remaining, i, 2] - match3, 0)
        if short1 > other1 or short2 > other2 or short3 > other3:
            continue
        if short1 + short2 + short3 + CANDIDATE_FLAG_JOKER[remaining, flag, i] <= jokers:
            return True
    return False
