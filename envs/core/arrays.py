"""Small NumPy helpers the games share."""

from __future__ import annotations

import functools

import numpy as np


@functools.cache
def _ones(n: int) -> np.ndarray:
    ones = np.ones(n, dtype=np.int16)
    ones.flags.writeable = False
    return ones


def last_axis_sums(values: np.ndarray) -> np.ndarray:
    """Sums over the last axis of an array of small integers or bools, as int16.

    One matrix-vector product: ``sum(axis=-1)`` along a short last axis (the six colours of
    a player's money, the cards of a hand) costs several times more. The caller keeps the
    sums within int16.
    """
    return values @ _ones(values.shape[-1])


def second_last_axis_sums(values: np.ndarray) -> np.ndarray:
    """Sums over the second-last axis, as ``last_axis_sums`` does over the last one (a
    reduction along a short inner axis costs several times more than the product)."""
    return _ones(values.shape[-2]) @ values


def take_along_rows(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``values[r, index[r, ...]]`` for (R, n) values and (R,) or (R, ...) index: each row's
    entries at its own indices (what ``np.take_along_axis`` gives, at a fraction of its call
    overhead)."""
    rows = np.arange(len(index)).reshape((-1,) + (1,) * (index.ndim - 1))
    return values[rows, index]
