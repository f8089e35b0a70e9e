"""The cargo holds (§2.3), per row: placing and removing strips, and the visible crates.

A strip always goes into the lowest empty slot of the junk's current layer (the top layer if
it has room, else a new layer turned by 90 degrees); MOVE_STRIP removes one of the mover's
strips from the top layer (the highest-index slot of them). Every count the rules read comes
from the owners of the strips in the top two layers and the number of empty top slots, by the
spec's closed form ``vis(p, j) = 3 n_h(p, j) + e(j) n_{h-1}(p, j)``. The state keeps the strip
counts of the top three layers and ``vis`` per junk and seat, and ``refresh`` recomputes them
only for the junk a placement or removal touched.

``cell_owners`` is the cell model of §2.3 (the crate of the highest strip over each of the
9 cells), plain NumPy: ``cell_visible`` counts it, the reference the closed form is tested
against, and the picture of the board colours the cells by it; ``derived_from_cargo``
recomputes the kept counts of whole batches for the invariants.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.junk.data import CELLS, MAX_LAYERS, NUM_JUNKS, SLOTS

_LAYER_STEPS = np.arange(3)  # layers h, h - 1, h - 2


@njit
def junk_counts(cargo, height, layers, vis):
    """The counts of one hold ``cargo`` (27, 3) of height ``height`` into ``layers`` (3, P)
    (strips per seat in layers h, h - 1, h - 2) and ``vis`` (P,) (visible crates per seat,
    by the closed form); returns ``e``, the empty slots of the top layer (3 for an empty
    hold)."""
    layers[:, :] = 0
    empty_top = SLOTS
    for k in range(3):
        layer = height - k
        if layer < 0:
            continue
        for slot in range(SLOTS):
            owner = cargo[layer, slot]
            if owner >= 0:
                layers[k, owner] += 1
                if k == 0:
                    empty_top -= 1
    for p in range(vis.shape[0]):
        vis[p] = SLOTS * layers[0, p] + empty_top * layers[1, p]
    return empty_top


@njit
def place_strip(cargo, height, owner):
    """One strip of colour ``owner`` into hold ``cargo`` (27, 3) of height ``height``, in
    the lowest empty slot of the current layer (a new layer when it is full); the new
    height."""
    top = max(height, 0)
    for k in range(SLOTS):
        if cargo[top, k] < 0:
            cargo[top, k] = owner
            return top
    cargo[height + 1, 0] = owner  # the top layer is full: a new one
    return height + 1


@njit
def remove_strip(cargo, height, owner):
    """One strip of ``owner`` out of the top layer of hold ``cargo`` (27, 3) (the
    highest-index such slot; none if it owns none there); the new height (one less when the
    top layer empties)."""
    for k in range(SLOTS - 1, -1, -1):
        if cargo[height, k] == owner:
            cargo[height, k] = -1
            break
    for k in range(SLOTS):
        if cargo[height, k] >= 0:
            return height
    return height - 1


@njit
def refresh(s, r, junk):
    """Recompute ``layers``, ``vis`` and ``open_slots`` of one junk of row ``r`` from its
    cargo, and every seat's ``presence``."""
    height = s.height[r, junk]
    empty_top = junk_counts(s.cargo[r, junk], height, s.layers[r, junk], s.vis[r, junk])
    s.open_slots[r, junk] = empty_top if height >= 0 else 0
    vis = s.vis[r]
    for p in range(vis.shape[1]):
        present = 0
        for j in range(NUM_JUNKS):
            if vis[j, p] > 0:
                present += 1
        s.presence[r, p] = present


@njit
def place(s, r, junk, owner):
    """One strip of colour ``owner`` onto the junk (``place_strip``). The supply is not
    touched."""
    s.height[r, junk] = place_strip(s.cargo[r, junk], s.height[r, junk], owner)
    refresh(s, r, junk)


@njit
def remove_top(s, r, junk, owner):
    """One strip of ``owner`` out of the junk's top layer (``remove_strip``; it owns one
    there)."""
    s.height[r, junk] = remove_strip(s.cargo[r, junk], s.height[r, junk], owner)
    refresh(s, r, junk)


# ---------------------------------------------------------------- reference models (NumPy)
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
