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
    """Named entries, each a set of batch rows with values (leading axis: one per row)."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[np.ndarray, Values]] = {}

    def put(self, name: str, rows: np.ndarray, *values: np.ndarray) -> None:
        """Keep ``values`` (each (R, ...)) for ``rows`` (R,) under ``name``, beside what the
        entry holds for other rows."""
        rows = np.asarray(rows, dtype=np.intp)
        if rows.size > 1 and not (rows[1:] > rows[:-1]).all():
            order = np.argsort(rows)
            rows, values = rows[order], tuple(v[order] for v in values)
        held = self._entries.get(name)
        if held is not None and held[0].size:
            if not rows.size:
                return
            keep = ~_members(rows, held[0])
            order = np.argsort(np.concatenate([held[0][keep], rows]))
            rows = np.concatenate([held[0][keep], rows])[order]
            values = tuple(np.concatenate([old[keep], new])[order]
                           for old, new in zip(held[1], values, strict=True))
        self._entries[name] = rows, values

    def get(self, name: str, idx: np.ndarray) -> tuple[np.ndarray, Values]:
        """(R,) bool: the rows ``idx`` the entry holds, and its values at those rows (the
        entries of the other rows are meaningless); no values without an entry."""
        entry = self._entries.get(name)
        if entry is None or not entry[0].size:
            return np.zeros(idx.size, dtype=bool), ()
        rows, values = entry
        if rows.size == idx.size and np.array_equal(rows, idx):
            return np.ones(idx.size, dtype=bool), values
        at = np.minimum(np.searchsorted(rows, idx), rows.size - 1)
        return rows[at] == idx, tuple(v[at] for v in values)

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
        rows = np.sort(np.asarray(rows, dtype=np.intp))
        if not rows.size:
            return
        for name, (held, values) in list(self._entries.items()):
            keep = ~_members(rows, held)
            if not keep.all():
                self._entries[name] = held[keep], tuple(v[keep] for v in values)


def _members(rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(len(values),) bool: each value is in ``rows`` (sorted, non-empty)."""
    at = np.minimum(np.searchsorted(rows, values), rows.size - 1)
    return rows[at] == values
