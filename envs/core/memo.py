"""Row-checked memo: derived data a game keeps on a state across decisions (opt-in).

The one caching mechanism a game's rules may use, besides the legal-mask cache of
``envs.core.game.Game``. A game that derives something costly from a few of its state's
arrays (cairo: the reachability analysis of a board, which most turns leave as it is) may
keep it per row with ``rows``; a game that does not call it has nothing to think about.

* An entry lives on the state object (its ``__dict__``, under a name starting with "_"), so
  ``copy``, ``take`` and pickling never carry it, and the rules object keeps nothing.
* Each row of an entry keeps the key it was computed from: the bytes of everything the
  values derive from, which the caller passes as the rows' own arrays. A row is reused only
  while its key is unchanged, so whatever changes a row (a step, ``put``, a test editing
  arrays by hand, a resample) makes it compute afresh: nothing is ever invalidated, and a
  row replaced by another game simply misses.
* The values must be a pure function of the key's arrays, so that a row read from the memo
  and a row computed afresh are the same bytes (cairo's tests compare the masks and steps of
  states with and without entries).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from envs.core.state import BatchState

_MEMO = "_row_memo"

Values = tuple[np.ndarray, ...]


class _Entry:
    """One named entry over the rows of a batch: each row's key and values (a leading batch
    axis, in arrays as large as the batch, so that a lookup or a store is one NumPy call)."""

    def __init__(self, batch_size: int, key: np.ndarray, values: Values):
        self.key = np.zeros((batch_size, key.shape[1]), dtype=np.uint8)
        self.held = np.zeros(batch_size, dtype=bool)
        self.values = tuple(np.zeros((batch_size, *v.shape[1:]), dtype=v.dtype) for v in values)


def rows(state: BatchState, name: str, rows: np.ndarray, key: np.ndarray,
         compute: Callable[[np.ndarray], Values], select: tuple[int, ...] | None = None
         ) -> Values:
    """The values of the entry ``name`` at ``rows``, computing those of the rows whose key
    changed (or that have none yet), which the entry then keeps.

    Args:
        state: the batch the entry lives on.
        name: the entry's name (one per kind of derived data).
        rows: (R,) intp, the batch rows asked about.
        key: (R, F) uint8, each row's key: its own bytes (or values, where they fit a byte)
            of everything the values derive from.
        compute: ``compute(miss)``, with ``miss`` (M,) intp positions in ``rows``: the values
            of the rows ``rows[miss]``, a tuple of (M, ...) arrays (the same dtypes and
            shapes past the first axis on every call).
        select: the positions of the values wanted, in ``compute``'s tuple (None: all).

    Returns:
        The (selected) values of the rows, a tuple of (R, ...) arrays (fresh ones, the
        caller's to change).
    """
    memo = state.__dict__.setdefault(_MEMO, {})
    entry = memo.get(name)
    if entry is not None and entry.key.shape[1] == key.shape[1]:
        found = entry.held[rows] & (entry.key[rows] == key).all(axis=1)
        if found.all():
            return _pick(entry.values, select, rows)
        miss = np.flatnonzero(~found)
    else:
        entry = None
        miss = np.arange(rows.size)
    fresh = compute(miss)
    if entry is None:
        entry = memo[name] = _Entry(state.batch_size, key, fresh)
    missing = rows[miss]
    entry.key[missing] = key[miss]
    entry.held[missing] = True
    for store, value in zip(entry.values, fresh, strict=True):
        store[missing] = value
    if miss.size == rows.size:
        return fresh if select is None else tuple(fresh[k] for k in select)
    return _pick(entry.values, select, rows)


def _pick(values: Values, select: tuple[int, ...] | None, rows: np.ndarray) -> Values:
    """The rows of the selected values."""
    if select is None:
        return tuple(value[rows] for value in values)
    return tuple(values[k][rows] for k in select)
