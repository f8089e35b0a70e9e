"""Row-keyed scratch data about one state of a batch (see ``Game.scratch``).

A game's mask often works out what its step then applies (the options it masks), and a step
often works out what the next mask asks (an analysis of the board it leaves). A ``Scratch``
carries such values from one to the other without a check of the arrays they came from: it
describes exactly one state, so the base game makes a new one on every step, drops it on
``invalidate``, and drops the rows that ``forget_rows`` names (``put`` replaced them).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Values = tuple[np.ndarray, ...]


class Scratch:
    """Named entries over the rows of a batch: which rows each holds and, per row, its values
    (a leading batch axis, kept in arrays as large as the batch, so that every call is one
    NumPy operation on the rows concerned)."""

    def __init__(self, batch_size: int) -> None:
        self.batch_size = batch_size
        self._held: dict[str, np.ndarray] = {}  # (B,) bool per entry
        self._values: dict[str, Values] = {}  # (B, ...) per value of an entry

    def put(self, name: str, rows: np.ndarray, *values: np.ndarray) -> None:
        """Keep ``values`` (each (R, ...)) for ``rows`` (R,) under ``name``, beside what the
        entry holds for other rows."""
        held = self._held.get(name)
        if held is None:
            held = self._held[name] = np.zeros(self.batch_size, dtype=bool)
            self._values[name] = tuple(np.empty((self.batch_size, *v.shape[1:]), dtype=v.dtype)
                                       for v in values)
        held[rows] = True
        for store, value in zip(self._values[name], values, strict=True):
            store[rows] = value

    def get(self, name: str, idx: np.ndarray) -> tuple[np.ndarray, Values]:
        """(R,) bool: the rows ``idx`` the entry holds, and its values at those rows (the
        entries of the other rows are meaningless); no values without an entry."""
        held = self._held.get(name)
        if held is None:
            return np.zeros(idx.size, dtype=bool), ()
        return held[idx], tuple(store[idx] for store in self._values[name])

    def rows(self, name: str, idx: np.ndarray, compute: Callable[[np.ndarray], Values]
             ) -> Values:
        """The entry's values at rows ``idx``, ``compute(rows)`` giving those of the rows it
        lacks, which it then holds too."""
        found, values = self.get(name, idx)
        if found.all():
            return values
        missing = idx[~found]
        fresh = compute(missing)
        self.put(name, missing, *fresh)
        if not found.any():
            return fresh
        for full, part in zip(values, fresh, strict=True):
            full[~found] = part
        return values

    def forget(self, rows: np.ndarray) -> None:
        """Drop ``rows`` from every entry."""
        for held in self._held.values():
            held[rows] = False
