"""Decisions: what a game supplies per phase, and the record of the ones applied for it.

A game's rules are a table ``phase -> Decision``: for the rows of a batch that are asked one
decision, one function says which actions are legal and one applies the chosen ones, both
over an index array of rows (one row or a thousand, the same code). ``Game`` dispatches to
them (``rows_by_phase``), validates the actions before anything changes and, after every
step, applies the decisions that public information alone forces (``Decision.forced``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import numpy as np

LegalFn = Callable[..., np.ndarray]
"""``legal(state, rows) -> (R, A) bool``: the legal actions of the rows, ``rows`` (R,) intp."""
ApplyFn = Callable[..., None]
"""``apply(state, rows, actions) -> None``: apply validated ``actions`` (R,) int64 in place."""
ForcedFn = Callable[..., np.ndarray]
"""``forced(state, rows) -> (R,) bool``: True where public information alone leaves one
legal action (design.md, "Forced decisions"). It must read public data only: it decides who
is asked what, which every seat sees."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """One decision point (a phase) of a game."""

    name: str
    legal: LegalFn
    apply: ApplyFn
    forced: ForcedFn | None = None  # None: never applied automatically
    # True: ``legal`` reads public data alone, so a single legal action is forced (and
    # ``forced`` is not asked).
    public_mask: bool = False

    @property
    def may_be_automatic(self) -> bool:
        """Whether ``Game`` ever applies the decision without asking it."""
        return self.public_mask or self.forced is not None


@dataclasses.dataclass(frozen=True)
class AutoDecision:
    """Decisions of one round of the forced-decision loop, applied without being asked."""

    rows: np.ndarray  # (R,) intp, the batch rows
    seats: np.ndarray  # (R,) int, the seat each decision belonged to
    phases: np.ndarray  # (R,) int, the phase (the key of ``Game.decisions``)
    actions: np.ndarray  # (R,) int64, the single legal action applied


@dataclasses.dataclass(frozen=True)
class StepRecord:
    """What the last ``step`` (or ``init``) did besides the asked actions.

    ``revealed`` is the state's own field (it survives ``copy`` and ``take``); ``automatic``
    lists the forced decisions in the order applied, one entry per round of the loop.
    """

    revealed: np.ndarray  # (B, P) bool
    automatic: tuple[AutoDecision, ...]

    def automatic_of(self, row: int) -> list[tuple[int, int, int]]:
        """``(seat, phase, action)`` of each automatic decision of one row, in order."""
        found = []
        for auto in self.automatic:
            for k in np.flatnonzero(auto.rows == row):
                found.append((int(auto.seats[k]), int(auto.phases[k]), int(auto.actions[k])))
        return found


def rows_by_phase(phase: np.ndarray, rows: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """``(phase, selector)`` of every phase present among ``rows``, in phase order.

    ``selector`` indexes ``rows`` (so ``rows[selector]`` are the batch rows in that phase, in
    row order). Every selection is made before the caller acts on any: a handler that moves
    its rows to a later phase does not see them again in the same pass.

    Args:
        phase: (B,) int phase of every row of the batch.
        rows: (R,) intp, the rows concerned.
    """
    if rows.size == 1:
        return iter([(int(phase[rows[0]]), np.zeros(1, dtype=np.intp))])
    values = phase[rows]
    order = np.argsort(values, kind="stable")
    counts = np.bincount(values.astype(np.intp))
    ends = np.cumsum(counts).tolist()
    present = np.flatnonzero(counts).tolist()
    return iter([(p, order[ends[p] - counts[p]:ends[p]]) for p in present])
