"""The cargo holds (§2.3): placing and removing strips, and the visible crates.

A strip always goes into the lowest empty slot of the junk's current layer (the top layer if
it has room, else a new layer turned by 90 degrees); MOVE_STRIP removes one of the mover's
strips from the top layer (the highest-index slot of them). Every count the rules read comes
from the owners of the strips in the top two layers and the number of empty top slots, by the
spec's closed form ``vis(p, j) = 3 n_h(p, j) + e(j) n_{h-1}(p, j)``. The state keeps the strip
counts of the top three layers and ``vis`` per junk and seat, and ``refresh`` recomputes them
only for the junks a placement or removal touched.

``cell_owners`` is the cell model of §2.3 (the crate of the highest strip over each of the
9 cells): ``cell_visible`` counts it, the reference the closed form is tested against, and
the picture of the board colours the cells by it.
"""

from __future__ import annotations

import numpy as np

from envs.core.arrays import last_axis_sums, second_last_axis_sums
from envs.junk.data import CELLS, MAX_LAYERS, SLOTS
from envs.junk.state import JunkState

_LAYER_STEPS = np.arange(3)  # layers h, h - 1, h - 2


def refresh(state: JunkState, rows: np.ndarray, junks: np.ndarray) -> None:
    """Recompute ``layers`` and ``vis`` of junk ``junks[i]`` in row ``rows[i]`` (R,) from the
    cargo (``rows`` may repeat only with different junks)."""
    players = state.vis.shape[2]
    height = state.height[rows, junks].astype(np.intp)  # (R,)
    layer = height[:, None] - _LAYER_STEPS  # (R, 3)
    valid = layer >= 0
    owners = state.cargo[rows[:, None], junks[:, None], np.maximum(layer, 0)]  # (R, 3, 3)
    owners = np.where(valid[:, :, None], owners, -1)
    counts = second_last_axis_sums(owners[:, :, :, None] == np.arange(players))  # (R, 3, P)
    state.layers[rows, junks] = counts
    empty_top = SLOTS - last_axis_sums(owners[:, 0] >= 0)  # e(j), 3 for an empty hold
    state.vis[rows, junks] = SLOTS * counts[:, 0] + empty_top[:, None] * counts[:, 1]
    state.open_slots[rows, junks] = np.where(height >= 0, empty_top, 0)
    state.presence[rows] = second_last_axis_sums(state.vis[rows] > 0)


def place(state: JunkState, rows: np.ndarray, junks: np.ndarray, owners: np.ndarray) -> None:
    """One strip of colour ``owners[i]`` onto junk ``junks[i]`` of row ``rows[i]`` (distinct
    rows), into the lowest empty slot of the current layer. The supply is not touched."""
    height = state.height[rows, junks].astype(np.intp)
    top = state.cargo[rows, junks, np.maximum(height, 0)]  # (R, 3)
    empty = top < 0
    full = ~empty.any(axis=1)
    layer = np.where(full, height + 1, np.maximum(height, 0))
    slot = np.where(full, 0, np.argmax(empty, axis=1))
    state.cargo[rows, junks, layer, slot] = owners
    state.height[rows, junks] = layer
    refresh(state, rows, junks)


def remove_top(state: JunkState, rows: np.ndarray, junks: np.ndarray,
               owners: np.ndarray) -> None:
    """Take one strip of ``owners[i]`` out of the top layer of junk ``junks[i]`` (it must own
    one there): the highest-index such slot; an emptied top layer lowers the height."""
    height = state.height[rows, junks].astype(np.intp)
    top = state.cargo[rows, junks, height]  # (R, 3)
    own = top == owners[:, None]
    slot = SLOTS - 1 - np.argmax(own[:, ::-1], axis=1)
    state.cargo[rows, junks, height, slot] = -1
    left = (own.sum(axis=1) > 1) | ((top >= 0) & ~own).any(axis=1)
    state.height[rows, junks] = np.where(left, height, height - 1)
    refresh(state, rows, junks)


def top_layer_owner(state: JunkState, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """(R, 5) bool: seat ``seats[i]`` owns a strip in the top layer of each junk (its fully
    visible strips, §2.3)."""
    return state.layers[rows, :, 0, seats] > 0


# ---------------------------------------------------------------- reference models (tests)
def cell_owners(cargo: np.ndarray, height: int) -> np.ndarray:
    """(3, 3) the owner of the crate at each cell ``(r, c)`` of one hold ``cargo`` (27, 3)
    of height ``height`` by the cell model of §2.3 (the highest strip covering the cell), -1
    where no strip lies."""
    owners = np.full((SLOTS, SLOTS), -1, dtype=np.int64)
    for r in range(SLOTS):
        for c in range(SLOTS):
            for k in range(height, -1, -1):
                owner = cargo[k, r if k % 2 == 0 else c]
                if owner >= 0:
                    owners[r, c] = owner
                    break
    return owners


def cell_visible(cargo: np.ndarray, height: int, players: int) -> np.ndarray:
    """(P,) visible crates per seat of one hold ``cargo`` (27, 3) by the cell model of §2.3:
    the crate at each cell is the one of the highest strip covering it."""
    owners = cell_owners(cargo, height)
    counts = np.bincount(owners[owners >= 0], minlength=players)
    assert counts.sum() <= CELLS
    return counts


def derived_from_cargo(cargo: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray, np.ndarray]:
    """``(height, layers, vis, open_slots)`` of holds ``cargo`` (B, 5, 27, 3), computed afresh
    (B, 5), (B, 5, 3, P), (B, 5, P), (B, 5): the invariants compare them with the kept ones."""
    filled = (cargo >= 0).any(axis=3)  # (B, 5, 27)
    height = np.where(filled.any(axis=2),
                      MAX_LAYERS - 1 - np.argmax(filled[:, :, ::-1], axis=2), -1)
    layer = height[:, :, None] - _LAYER_STEPS  # (B, 5, 3)
    owners = np.take_along_axis(cargo, np.maximum(layer, 0)[..., None], axis=2)  # (B,5,3,3)
    owners = np.where((layer >= 0)[..., None], owners, -1)
    counts = (owners[..., None] == np.arange(players)).sum(axis=3)  # (B, 5, 3, P)
    empty_top = SLOTS - (owners[:, :, 0] >= 0).sum(axis=2)
    vis = SLOTS * counts[:, :, 0] + empty_top[..., None] * counts[:, :, 1]
    return height, counts, vis, np.where(height >= 0, empty_top, 0)
