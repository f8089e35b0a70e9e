"""Uniform sampling of legal actions from a batch of masks, compiled."""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit


def sample_actions(mask: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """One action per row, uniform over the row's True entries: row ``r`` takes its
    ``floor(u_r * count_r)``-th legal action, ``u_r`` the generator's ``r``-th uniform draw.

    Args:
        mask: (B, A) legal-action mask (bool, or any dtype whose nonzero entries are legal).
        generator: NumPy generator the draws come from (one ``random`` call of B draws).

    Returns:
        (B,) int64; 0 for a row with no legal action (a finished game ignores it).
    """
    mask = np.ascontiguousarray(mask, dtype=bool)
    draws = generator.random(mask.shape[0])
    actions = np.empty(mask.shape[0], dtype=np.int64)
    _pick_rows(mask, draws, actions)
    return actions


@njit
def _pick_rows(mask: np.ndarray, draws: np.ndarray, out: np.ndarray) -> None:
    """Row ``r``'s ``floor(draws[r] * count)``-th legal action into ``out[r]``, 0 where none
    is legal. One pass to count and one to find, both over the row's bytes: a NumPy version
    (the flat list of every legal entry, then a count per row) cost 0.08-0.22 µs a row at
    B = 1024, as much as a game's step."""
    for i in range(mask.shape[0]):
        r = np.uint64(i)
        row = mask[r]
        count = 0
        for a in range(np.uint64(row.shape[0])):
            count += row[a]
        # The float64 product truncated, as NumPy's ``astype``: below ``count`` for a draw
        # below 1, so a row with a legal action always finds one.
        pick = np.int64(draws[r] * count)
        chosen = 0
        for a in range(row.shape[0]):
            if row[a]:
                if pick == 0:
                    chosen = a
                    break
                pick -= 1
        out[r] = chosen
