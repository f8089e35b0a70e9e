"""Vectorised uniform sampling of legal actions from a batch of masks."""

from __future__ import annotations

import numpy as np


def sample_actions(mask: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """One action per row, uniform over the row's True entries.

    Args:
        mask: (B, A) bool legal-action mask.
        generator: NumPy generator the draws come from.

    Returns:
        (B,) int64; 0 for a row with no legal action (a finished game ignores it).
    """
    # The row's pick-th legal action is entry first + pick of the flat list of all legal
    # entries, where first counts the legal entries of the rows before (one pass over the
    # mask instead of a running count per row); the rows' counts come from that list too.
    legal = np.flatnonzero(mask)
    counts = np.bincount(legal // mask.shape[1], minlength=mask.shape[0])
    pick = (generator.random(mask.shape[0]) * counts).astype(np.int64)
    if not legal.size:
        return np.zeros(mask.shape[0], dtype=np.int64)
    first = np.cumsum(counts) - counts
    chosen = legal[np.minimum(first + pick, legal.size - 1)] - np.arange(
        mask.shape[0]) * mask.shape[1]
    return np.where(counts > 0, chosen, 0)
