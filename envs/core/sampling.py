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
    counts = mask.sum(axis=1)
    pick = (generator.random(mask.shape[0]) * counts).astype(np.int64)
    # Running counts never pass A, so the smallest unsigned type that holds A is exact; for
    # A < 256 the one-byte running sum costs about a third of the default int64 one.
    small = np.min_scalar_type(mask.shape[1])
    running = np.cumsum(mask, axis=1, dtype=small)
    chosen = np.argmax(running > pick.astype(small)[:, None], axis=1)
    return np.where(counts > 0, chosen, 0)
