"""Luring a customer (§5.7), per row: its candidate entrances, their barker costs and the
legal targets, as §9.2 spells them out (one breadth-first search per customer)."""

from __future__ import annotations

import numpy as np

from envs.cairo.board import walk_bits, walk_distances_row
from envs.cairo.data import NUM_COLOURS, NUM_OWNERS
from envs.core.jit import local_zeros, njit


@njit(inline="always")
def entrance_free(s, r, cell):
    """A lure's candidate: the entrance ``cell`` exists and no customer stands on it."""
    if cell < 0:
        return False
    for c in range(NUM_COLOURS):
        if s.customer[r, c] == cell:
            return False
    return True


@njit
def lure_available(s, r, colour):
    """D4's ``LURE_c``: the customer of the colour is on the board with a free entrance of
    its colour to go to (the nearest candidate always costs 0 barkers)."""
    if s.customer[r, colour] < 0:
        return False
    for owner in range(NUM_OWNERS):
        if entrance_free(s, r, s.entrance_cell[r, owner, colour]):
            return True
    return False


@njit
def lure_options(s, r, cells, legal, cost):
    """The candidate entrances of the pending lure (the customer of ``s.colour[r]``) and
    their barker costs (§5.7, R14–R16), per owner slot into ``cells`` (5,) (the entrance of
    the slot's stall of the colour, -1 none), ``legal`` (5,) bool (a legal target for the
    acting seat) and ``cost`` (5,) (barkers): a candidate costs as many barkers as there
    are candidates strictly nearer (ties are the active seat's choice)."""
    seat = s.current_player[r]
    colour = s.colour[r]
    walk = local_zeros(4, np.uint64)
    walk_bits(s.tile[r], walk)
    valid = local_zeros(NUM_OWNERS, np.bool_)
    for owner in range(NUM_OWNERS):
        cells[owner] = s.entrance_cell[r, owner, colour]
        valid[owner] = entrance_free(s, r, cells[owner])
    dist = local_zeros(NUM_OWNERS, np.int32)
    walk_distances_row(walk, s.customer[r, colour], cells, valid, dist)
    for owner in range(NUM_OWNERS):
        valid[owner] &= dist[owner] >= 0
    for owner in range(NUM_OWNERS):
        cost[owner] = 0
        for other in range(NUM_OWNERS):
            if valid[other] and dist[other] < dist[owner]:
                cost[owner] += 1
        legal[owner] = valid[owner] and cost[owner] <= s.barkers[r, seat]
