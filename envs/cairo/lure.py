"""Luring a customer (§5.7): its candidate entrances, their barker costs and the legal
targets, exactly as §9.2 spells them out (one breadth-first search per customer)."""

from __future__ import annotations

import numpy as np

from envs.cairo.board import customer_cells, walk_distances
from envs.cairo.data import MARKET
from envs.cairo.state import CairoState
from envs.core.arrays import last_axis_sums, take_along_rows


def lure_options(state: CairoState, rows: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate entrances of each row's pending lure (the customer of ``state.colour``)
    and their barker costs (§5.7, R14–R16).

    Candidates are the entrances of the customer's colour (any owner) that no customer stands
    on; a candidate costs as many barkers as there are candidates strictly nearer (ties are
    the active seat's choice), and it is a legal target when the seat holds that many.

    Returns:
        ``cells`` (R, 5) entrance cell of each owner slot's stall of the colour, -1 none;
        ``legal`` (R, 5) bool, a legal target for the acting seat; ``cost`` (R, 5) barkers.
    """
    seat = state.current_player[rows].astype(np.intp)
    colour = state.colour[rows].astype(np.intp)
    cells = state.entrance_cell[rows, :, colour]  # (R, 5)
    valid = _free_entrances(state, rows, cells)
    walk = MARKET & (state.tile[rows] < 0)
    dist = walk_distances(walk, state.customer[rows, colour], cells, valid)
    valid &= dist >= 0
    nearer = valid[:, None, :] & (dist[:, None, :] < dist[:, :, None])  # (R, e, e')
    cost = last_axis_sums(nearer.view(np.uint8))
    legal = valid & (cost <= state.barkers[rows, seat][:, None])
    return cells, legal, cost


def lure_available(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 6) bool: the customer of the colour is on the board with a free entrance of its
    colour to go to (D4's ``LURE_c``): a candidate of ``lure_options``.

    The nearest candidate always costs 0 barkers, so a candidate is all a lure needs.
    """
    free = _free_entrances(state, rows, state.entrance_cell[rows])  # (R, 5, 6)
    return (state.customer[rows] >= 0) & free.any(axis=1)


def _free_entrances(state: CairoState, rows: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """(R, ...) bool: the entrance ``cells`` (R, ...) of the rows, -1 for none, that exist
    and have no customer on them: a lure's candidates (§5.7)."""
    return (cells >= 0) & ~take_along_rows(customer_cells(state, rows), np.maximum(cells, 0))
