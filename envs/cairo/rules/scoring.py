"""VP, medals, payouts, the end trigger and final scoring, per row (§5.4–§5.7, §7)."""

from __future__ import annotations

from envs.cairo.data import GOLD, MEDAL_VP, MONEY_PER_COLOUR, NUM_COLOURS, SILVER
from envs.core.jit import njit

COIN_SET = 3  # 1 VP per 3 money left at the end (§7.2)
GOLD_VP, SILVER_VP = MEDAL_VP[GOLD], MEDAL_VP[SILVER]


@njit
def award_expansion(s, r, seat, colour):
    """Score an expansion that just grew ``seat``'s ``colour`` group: its size, then medals.

    §5.4 effect 2 and §5.5: a sole largest group takes gold and silver, a tie for the
    largest takes the silver; only medals gained now score at once.
    """
    size = s.group_size[r, seat, colour]
    largest_other = -1
    for p in range(s.vp.shape[1]):  # the neutral groups never hold medals
        if p != seat:
            largest_other = max(largest_other, s.group_size[r, p, colour])
    gained_gold = size > largest_other and s.medal[r, colour, GOLD] != seat
    gained_silver = size >= largest_other and s.medal[r, colour, SILVER] != seat
    if gained_gold:
        s.medal[r, colour, GOLD] = seat
    if gained_silver:
        s.medal[r, colour, SILVER] = seat
    s.vp[r, seat] += size + GOLD_VP * gained_gold + SILVER_VP * gained_silver


@njit
def end_triggered(supply):
    """§7.1: some colour has 0 expansions left, or at least two have exactly 1."""
    ones = 0
    for c in range(NUM_COLOURS):
        if supply[c] == 0:
            return True
        ones += supply[c] == 1
    return ones >= 2


@njit
def tray(s, r, colour):
    """Money left in the colour's tray (the bank, §2.2)."""
    return MONEY_PER_COLOUR - s.money[r, :, colour].sum()


@njit
def pay_lure(s, r, seat, colour, owner):
    """§5.7 payout in the customer's colour to the active ``seat`` and the ``owner`` slot of
    the entrance reached; a short tray pays the active seat first (R18)."""
    size = s.group_size[r, owner, colour]
    own = owner == seat
    left = tray(s, r, colour)
    to_active = min(size if own else 1, left)
    s.money[r, seat, colour] += to_active
    if not own and owner < s.vp.shape[1]:
        s.money[r, owner, colour] += min(size, left - to_active)


@njit
def score_row(s, r, out):
    """§7.2 final VP into ``out`` (P,): in-game VP + held medal values + ⌊money / 3⌋."""
    for p in range(out.shape[0]):
        out[p] = s.vp[r, p] + s.money[r, p].sum() // COIN_SET
    for c in range(NUM_COLOURS):
        if s.medal[r, c, GOLD] >= 0:
            out[s.medal[r, c, GOLD]] += GOLD_VP
        if s.medal[r, c, SILVER] >= 0:
            out[s.medal[r, c, SILVER]] += SILVER_VP


@njit
def ranking(s, r, keys):
    """The final ranking: the final VP alone (ties are shared)."""
    score_row(s, r, keys[:, 0])
