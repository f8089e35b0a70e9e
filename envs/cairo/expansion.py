"""Where a group may grow (§5.4 preconditions 2–4; reachability, precondition 6, is the
board's ``placements``, and paying for it is ``cards.py``'s)."""

from __future__ import annotations

import functools

import numpy as np

from envs.cairo.board import AREA_CODE, Board, any_neighbour
from envs.cairo.data import NUM_COLOURS, NUM_OWNERS

# The bit of each group id (owner * 6 + colour) in a 30-bit set, index 0 (no tile) giving 0.
_GROUP_BIT = np.append(0, np.uint32(1) << np.arange(NUM_OWNERS * NUM_COLOURS, dtype=np.uint32))
_ALL_COLOURS = np.uint8((1 << NUM_COLOURS) - 1)


def expansion_codes(board: Board, players: int) -> np.ndarray:
    """(R, P, 182) uint8 colour sets: for each seat, the colours c whose group of the seat may
    grow onto the cell by §5.4 preconditions 2–4: a free cell of c's area, orthogonally
    adjacent to a tile of the seat's group of c and to no tile of another group of c (another
    seat's or a neutral one; tiles of other colours do not matter, R12).

    One neighbour pass over each cell's set of groups (30 bits) finds every seat's own and
    rival neighbours at once.
    """
    near = any_neighbour(np.take(_GROUP_BIT, board.tile + 1))  # groups next to the cell
    owners = [(near >> np.uint32(NUM_COLOURS * q)).astype(np.uint8) & _ALL_COLOURS
              for q in range(NUM_OWNERS)]  # per owner slot, its colours next to the cell
    open_cells = AREA_CODE * board.free.view(np.uint8)
    out = np.empty((board.tile.shape[0], players, board.tile.shape[1]), dtype=np.uint8)
    for seat in range(players):
        rival = functools.reduce(np.bitwise_or, owners[:seat] + owners[seat + 1:])
        np.bitwise_and(owners[seat], ~rival, out=out[:, seat])  # own group near, no rival
        out[:, seat] &= open_cells
    return out
