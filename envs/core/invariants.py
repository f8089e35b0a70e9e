"""The invariant report every game's ``check_invariants`` fills: named checks over a batch,
turned into ``row r: what`` messages, at most a few rows a check."""

from __future__ import annotations

import numpy as np

LISTED_ROWS = 4  # rows named per violated check; the count of the rest follows


class InvariantReport:
    """Collects (B,) checks of a batch and reports the rows where one fails.

    >>> report = InvariantReport(3)
    >>> report.check("money >= 0", np.array([True, False, True]))
    >>> report.messages()
    ['row 1: money >= 0']
    """

    def __init__(self, batch_size: int, listed: int = LISTED_ROWS):
        self.batch_size = batch_size
        self.listed = listed
        self._messages: list[str] = []

    def check(self, what: str, ok: np.ndarray | bool) -> None:
        """Record ``what`` for every row where ``ok`` (broadcast to (B,)) is False."""
        self.fail(what, ~np.broadcast_to(np.asarray(ok, dtype=bool), (self.batch_size,)))

    def fail(self, what: str, bad: np.ndarray | bool) -> None:
        """Record ``what`` for every row where ``bad`` (broadcast to (B,)) is True."""
        rows = np.flatnonzero(np.broadcast_to(np.asarray(bad, dtype=bool), (self.batch_size,)))
        self._messages.extend(f"row {int(r)}: {what}" for r in rows[:self.listed])
        if rows.size > self.listed:
            self._messages.append(f"{what}: {rows.size - self.listed} more row(s)")

    def messages(self) -> list[str]:
        """Every violation recorded so far; empty when all checks hold."""
        return list(self._messages)
