"""The two scorings, the special tasks and the final ranking (§2.7, §7), per row."""

from __future__ import annotations

from envs.core.jit import njit
from envs.discoveries.data import (
    ALL,
    AT_LEAST_ONE,
    DURATIONS,
    FINAL_OFF,
    FINAL_SAME,
    FIRST_OFF,
    FIRST_SAME,
    HALF,
    MAJORITY,
    NUM_CONTRACTS,
    NUM_EXPEDITIONS,
    NUM_TYPES,
    TRACK,
)
from envs.discoveries.state import Flag, Phase, Played

ACTIVE, DISCARDED = int(Played.ACTIVE), int(Played.DISCARDED)
FLAG_IDLE, FLAG_VOYAGE, FLAG_EXPEDITION = int(Flag.IDLE), int(Flag.VOYAGE), int(Flag.EXPEDITION)


@njit
def qualifies(count, total, kind):
    """An expedition with ``total`` ships, ``count`` of them the seat's, meets task ``kind``
    (§2.7)."""
    if kind == AT_LEAST_ONE:
        return count >= 1
    if kind == HALF:
        return count >= 1 and 2 * count >= total
    if kind == MAJORITY:
        return count > total - count
    if kind == ALL:
        return count == total and total >= 1
    return False


@njit
def expedition_points(s, r, seat, same, off):
    """The seat's points for its ships on the expeditions: ``same`` (12,) per ship of the
    card's colour, ``off`` (12,) per other ship."""
    total = 0
    for e in range(NUM_EXPEDITIONS):
        matching = s.exp_same[r, e, seat]
        total += matching * same[e] + (s.exp_count[r, e, seat] - matching) * off[e]
    return total


@njit
def task_points(s, r, seat):
    """The special-task bonus: qualifying expeditions x track(completed) (§2.7, §2.8)."""
    kind = s.task[r, seat]
    met = 0
    for e in range(NUM_EXPEDITIONS):
        met += qualifies(s.exp_count[r, e, seat], s.exp_size[r, e], kind)
    return met * TRACK[s.completed[r, seat]]


@njit
def ships_not_on_expeditions(s, r, seat):
    """The seat's ships not on an expedition: idle, on voyages and in the build (regular),
    and the flagship unless it is on an expedition (§7.2 step 3, the tie-break)."""
    total = 0
    for t in range(NUM_TYPES):
        total += s.idle[r, seat, t]
        for timer in range(DURATIONS):
            total += s.voyage_fleet[r, seat, timer, t]
        if s.phase[r] == Phase.BUILD_CONTRACT and s.current_player[r] == seat:
            total += s.build_ships[r, t]
    return total + (s.flag_where[r, seat] != FLAG_EXPEDITION)


@njit
def first_scoring(s, r):
    """§7.1: every ship on an expedition scores its First value."""
    for seat in range(s.coins.shape[1]):
        s.vp_first[r, seat] = expedition_points(s, r, seat, FIRST_SAME, FIRST_OFF)
    s.first_done[r] = True


@njit
def final_scoring(s, r):
    """§7.2 steps 0-3: unfinished voyages boxed (their ships return), the Final values, the
    special tasks and one point per ship not on an expedition."""
    players = s.coins.shape[1]
    for c in range(NUM_CONTRACTS):
        if s.con_state[r, c] == ACTIVE:
            s.con_state[r, c] = DISCARDED
            s.con_due[r, c] = 0
            s.contracts_discarded[r] += 1
    for seat in range(players):
        for timer in range(DURATIONS):
            for t in range(NUM_TYPES):
                s.idle[r, seat, t] += s.voyage_fleet[r, seat, timer, t]
                s.voyage_fleet[r, seat, timer, t] = 0
            s.voyage_revenue[r, seat, timer] = 0
            s.voyage_ships[r, seat, timer] = 0
        if s.flag_where[r, seat] == FLAG_VOYAGE:
            s.flag_where[r, seat] = FLAG_IDLE
    for seat in range(players):
        s.vp_final[r, seat] = (expedition_points(s, r, seat, FINAL_SAME, FINAL_OFF)
                               + task_points(s, r, seat)
                               + ships_not_on_expeditions(s, r, seat))


@njit
def seat_vp(s, r, seat):
    """One seat's VP: the first scoring's and the final one's."""
    return s.vp_first[r, seat] + s.vp_final[r, seat]


@njit
def score_row(s, r, out):
    """Every seat's VP into ``out`` (P,)."""
    for seat in range(out.shape[0]):
        out[seat] = seat_vp(s, r, seat)


@njit
def ranking(s, r, keys):
    """The ranking keys (P, 2): VP, then ships not on expeditions (§7.2)."""
    for seat in range(keys.shape[0]):
        keys[seat, 0] = seat_vp(s, r, seat)
        keys[seat, 1] = ships_not_on_expeditions(s, r, seat)
