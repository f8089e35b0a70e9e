"""The batched-state base: a dataclass of arrays that all share a leading batch axis B.

A state's arrays live in one buffer: each field is a C-ordered view of its own aligned
block of ``_buffer`` (uint8), and ``_layout`` says where (per field: the byte offset, then
the shape). The compiled kernels take those two arrays and rebuild every field from them
inside compiled code (``envs.core.packing``): numba unboxes each array it is handed
(~90 ns), and a game's 40 to 85 arrays made that most of a step at B = 1.

A field keeps its dtype: assigning to one writes the values into it (cast as NumPy casts);
an array of another shape gets a new buffer for the whole state, with copies of every
field (so a field read before that is no longer the state's).
"""

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
        self._pack()

    def __setattr__(self, name: str, value: object) -> None:
        fields = self.__dict__
        if "_buffer" in fields and name in _field_set(type(self)):
            current = fields[name]
            if np.shape(value) == current.shape:
                current[...] = value
                return
            object.__setattr__(self, name, np.asarray(value, dtype=current.dtype))
            self._pack()
            return
        object.__setattr__(self, name, value)
        if "_unpacked" in fields and name in _field_set(type(self)):
            self._pack()

    def __getstate__(self) -> dict[str, np.ndarray]:
        # Caches kept on the object by the game (names starting with "_") are derived data:
        # rebuilt on demand, never pickled; so is the buffer, which the fields are views of.
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __setstate__(self, fields: dict[str, np.ndarray]) -> None:
        self.__dict__.update(fields)
        self._pack()

    def _pack(self) -> None:
        """Move every field into one new buffer (``_buffer``, ``_layout``); a state with a
        field still None (a game filling its fields in after construction) waits until the
        last one is set."""
        fields, names = self.__dict__, _field_names(type(self))
        arrays = [fields.get(name) for name in names]
        if any(array is None for array in arrays):
            fields["_unpacked"] = True
            return
        fields.pop("_unpacked", None)
        arrays = [np.asarray(array) for array in arrays]
        for name, array in zip(names, arrays, strict=True):
            if array.ndim >= LAYOUT_WIDTH:
                raise ValueError(f"{type(self).__name__}.{name}: {array.ndim} dimensions, at "
                                 f"most {LAYOUT_WIDTH - 1}")
        spec = _spec_id(tuple((a.dtype, a.ndim) for a in arrays))
        shapes = np.array([a.shape + (1,) * (LAYOUT_WIDTH - 1 - a.ndim) for a in arrays],
                          dtype=np.int64).reshape(len(arrays), LAYOUT_WIDTH - 1)
        self._hold(*_new_buffer(spec, shapes), spec)
        for name, array in zip(names, arrays, strict=True):
            fields[name][...] = array

    def _hold(self, buffer: np.ndarray, layout: np.ndarray, spec: int) -> None:
        """Make every field a view of its block of ``buffer``."""
        fields = self.__dict__
        fields.update(zip(_field_names(type(self)), field_views(buffer, layout, SPECS[spec]),
                          strict=True))
        fields["_buffer"], fields["_layout"], fields["_spec"] = buffer, layout, spec

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
        other = object.__new__(type(self))
        other._hold(self._buffer.copy(), self._layout.copy(), self._spec)
        return other

    def take(self, index: np.ndarray | int) -> Self:
        """A new state holding the selected rows (boolean selector, indices or one int)."""
        index = np.atleast_1d(np.asarray(index))
        size = self.batch_size
        if index.dtype == bool:
            if index.shape != (size,):
                raise IndexError(f"a boolean selector of shape {index.shape} for {size} rows")
            index = np.flatnonzero(index)
        if index.size and (index.min() < -size or index.max() >= size):
            raise IndexError(f"row index out of range for {size} rows: {index}")
        shapes = self._layout[:, 1:].copy()
        shapes[:, 0] = index.size
        other = object.__new__(type(self))
        other._hold(*_new_buffer(self._spec, shapes), self._spec)
        theirs = other.__dict__
        for name, array in self.arrays().items():  # in range: "wrap" only maps negative rows
            array.take(index, axis=0, out=theirs[name], mode="wrap")
        return other

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


# A field's block in the buffer starts at a multiple of this many bytes (a cache line).
_ALIGN = 64
# Columns of ``_layout``: the byte offset, then up to LAYOUT_WIDTH - 1 dimensions (ones
# after the last).
LAYOUT_WIDTH = 6
_SPEC_IDS: dict[tuple, int] = {}
SPECS: list[tuple[tuple[np.dtype, int], ...]] = []
_ITEMSIZES: list[np.ndarray] = []  # per spec, each field's item size


def _spec_id(spec: tuple[tuple[np.dtype, int], ...]) -> int:
    """A number per distinct spec (each field's dtype and rank, what the kernels are
    compiled for): a state carries it, the kernels are looked up by it (``SPECS[id]``)."""
    if spec not in _SPEC_IDS:
        _SPEC_IDS[spec] = len(SPECS)
        SPECS.append(spec)
        _ITEMSIZES.append(np.array([dtype.itemsize for dtype, _ in spec], dtype=np.int64))
    return _SPEC_IDS[spec]


@functools.cache
def _field_set(cls: type) -> frozenset[str]:
    return frozenset(_field_names(cls))


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The array fields of a state class, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(cls))


def _new_buffer(spec: int, shapes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A buffer for fields of ``spec`` with these shapes ((F, LAYOUT_WIDTH - 1), padded with
    ones), and its layout."""
    sizes = shapes.prod(axis=1) * _ITEMSIZES[spec]
    sizes = -(-sizes // _ALIGN) * _ALIGN
    layout = np.empty((len(shapes), LAYOUT_WIDTH), dtype=np.int64)
    layout[:, 0] = np.cumsum(sizes) - sizes
    layout[:, 1:] = shapes
    return np.empty(max(int(sizes.sum()), 1), dtype=np.uint8), layout


def field_views(buffer: np.ndarray, layout: np.ndarray, spec: tuple[tuple[np.dtype, int], ...]
                ) -> list[np.ndarray]:
    """Each field as a view of its block of ``buffer``, in order (what the compiled
    ``envs.core.packing.unpack`` builds in a few instructions)."""
    return [np.ndarray(shape[:ndim], dtype, buffer, offset)
            for (dtype, ndim), (offset, *shape) in zip(spec, layout.tolist(), strict=True)]
