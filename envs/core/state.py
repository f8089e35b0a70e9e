"""The batched-state base: a dataclass of arrays that all share a leading batch axis B."""

from __future__ import annotations

import dataclasses
import functools
from typing import ClassVar, Self

import numpy as np


@dataclasses.dataclass
class BatchState:
    """Fields every game's state has; games subclass it and add their own arrays.

    Every field is a NumPy array whose first axis is the batch, so ``copy``, ``take`` and
    ``put`` work on any subclass without knowing its fields.
    """

    # The fields that say what the last step did (reset by every step, in finished rows
    # too), as opposed to the game's position.
    STEP_FIELDS: ClassVar[tuple[str, ...]] = ("rewards",)

    current_player: np.ndarray  # (B,) int32, seat to act; -1 where the game is over
    terminated: np.ndarray  # (B,) bool, the game ended by its rules
    truncated: np.ndarray  # (B,) bool, the game hit the safety cap on its length
    rewards: np.ndarray  # (B, P) float32, rewards from the last step
    rng: np.ndarray  # (B, 2) uint64, per-row random key and counter (envs.core.rng)
    # (B, P) bool, the seats the last step (or ``init``) showed hidden information to: a
    # chance outcome drawn, a card or tile turned, a pile searched, automatic decisions
    # included. ``Game.step`` clears it in the rows it plays (a finished row keeps the one of
    # its last step); the game's handlers set it. Left out of the constructor, it starts all
    # False.
    revealed: np.ndarray = dataclasses.field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if self.revealed is None:
            self.revealed = np.zeros(self.rewards.shape, dtype=bool)

    def __getstate__(self) -> dict[str, np.ndarray]:
        # Caches kept on the object by the game (names starting with "_") are derived data:
        # rebuilt on demand, never pickled.
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    @property
    def batch_size(self) -> int:
        return len(self.current_player)

    @property
    def done(self) -> np.ndarray:
        """(B,) bool: terminated or truncated."""
        return self.terminated | self.truncated

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in _field_names(type(self))}

    def copy(self) -> Self:
        """A deep copy (every array copied)."""
        return type(self)(**{k: v.copy() for k, v in self.arrays().items()})

    def take(self, index: np.ndarray | int) -> Self:
        """A new state holding the selected rows (boolean selector, indices or one int)."""
        index = np.atleast_1d(np.asarray(index))
        return type(self)(**{k: v[index] for k, v in self.arrays().items()})  # copies

    def put(self, rows: np.ndarray, other: Self) -> None:
        """Overwrite the selected rows, in order, with the rows of ``other`` (in place)."""
        for name, value in self.arrays().items():
            value[rows] = getattr(other, name)

    def equals(self, other: BatchState) -> bool:
        """True when both states have the same type and identical arrays."""
        if type(self) is not type(other):
            return False
        theirs = other.arrays()
        return all(np.array_equal(v, theirs[k]) for k, v in self.arrays().items())


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The array fields of a state class, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(cls))
