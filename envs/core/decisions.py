"""The record of a step's decisions: the ones applied without being asked (``AutoDecision``)
and what a step showed to whom (``StepRecord``), as ``Game.step_record`` gives them."""

from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class AutoDecision:
    """Decisions applied without being asked: the k-th automatic decision of each of
    ``rows`` in the last step."""

    rows: np.ndarray  # (R,) intp, the batch rows
    seats: np.ndarray  # (R,) int, the seat each decision belonged to
    phases: np.ndarray  # (R,) int, the phase (the decision key, ``Game.phase_name``)
    actions: np.ndarray  # (R,) int64, the single legal action applied


@dataclasses.dataclass(frozen=True)
class StepRecord:
    """What the last ``step`` (or ``init``) did besides the asked actions.

    ``revealed`` is the state's own field (it survives ``copy`` and ``take``); ``automatic``
    lists the forced decisions in the order applied, one entry per position in the rows'
    chains (the first automatic decision of every row, then the second...).
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
