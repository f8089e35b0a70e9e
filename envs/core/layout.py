"""Named layouts of a flat action space and of a flat observation vector."""

from __future__ import annotations

import dataclasses
import math

import numpy as np


@dataclasses.dataclass(frozen=True)
class ActionRange:
    """A contiguous block of actions: ``start <= a < stop``."""

    name: str
    start: int
    size: int
    stop: int = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "stop", self.start + self.size)  # a field: read in hot loops

    def __contains__(self, action: int) -> bool:
        return self.start <= action < self.stop


class ActionLayout:
    """Consecutive named ranges of one flat Discrete action space.

    Example:
        ``ActionLayout([("PLAY", 5, lambda i: f"PLAY_{i}"), ("PASS", 1, None)])`` gives
        ``layout.PLAY.start == 0``, ``layout.PASS.start == 5``, ``layout.size == 6``.
    """

    def __init__(self, blocks: list[tuple[str, int, object]]):
        self.ranges: dict[str, ActionRange] = {}
        names: list[str] = []
        start = 0
        for name, size, namer in blocks:
            self.ranges[name] = ActionRange(name, start, size)
            # Plain attributes too: the rules read ``layout.NAME.start`` in their hot paths,
            # where ``__getattr__`` costs a microsecond per access.
            if not hasattr(type(self), name):
                self.__dict__.setdefault(name, self.ranges[name])
            if namer is None:
                names.extend([name] if size == 1 else [f"{name}_{i}" for i in range(size)])
            else:
                names.extend(namer(i) for i in range(size))
            start += size
        self.size = start
        self.names: tuple[str, ...] = tuple(names)

    def __getattr__(self, name: str) -> ActionRange:
        try:
            return self.__dict__["ranges"][name]
        except KeyError:
            raise AttributeError(name) from None

    def name(self, action: int) -> str:
        """Readable name of one action."""
        return self.names[action]

    def block_mask(self, first: ActionRange, values: np.ndarray,
                   last: ActionRange | None = None) -> np.ndarray:
        """(R, A) bool: ``values`` (R, n) over the actions of ``first`` (through ``last``),
        False elsewhere: the mask of a decision whose legal actions lie in one block."""
        stop = (last or first).stop
        mask = np.zeros((len(values), self.size), dtype=bool)
        mask[:, first.start:stop] = values
        return mask


@dataclasses.dataclass(frozen=True)
class Piece:
    """One named piece of an observation vector, and what it holds (``python -m envs.docs``
    prints the descriptions into the game's page).

    Attributes:
        meaning: what the values are, in a sentence.
        index: how the axes are indexed, in the letters of the layout's guide, e.g. ``[j, c]``.
        scale: how a value is made from the state, e.g. ``one-hot`` or ``money / 20``.
        privacy: who may know it, under each option that changes it.
        labels: the name of each entry of the last axis, where they have names.
    """

    name: str
    shape: tuple[int, ...]
    public: bool  # False: information only the observing seat may know
    high: float  # every value lies in [0, high] (or [-high, high] when signed)
    signed: bool = False
    meaning: str = ""
    index: str = ""
    scale: str = ""
    privacy: str = "public"
    labels: tuple[str, ...] = ()


class ObservationLayout:
    """An ordered list of pieces over one flat float32 buffer per row.

    ``view(buf, name)`` returns a writable view of a ``(B, size)`` buffer reshaped to
    ``(B, *piece.shape)``, so an encoder fills the pieces in place.
    """

    def __init__(self, pieces: list[Piece], guide: str = ""):
        self.guide = guide  # how to read the vector, in Markdown (``envs.docs``)
        self.pieces = {p.name: p for p in pieces}
        self.offsets: dict[str, slice] = {}
        start = 0
        for p in pieces:
            size = math.prod(p.shape)
            self.offsets[p.name] = slice(start, start + size)
            start += size
        self.size = start

    def new_buffer(self, batch_size: int) -> np.ndarray:
        return np.zeros((batch_size, self.size), dtype=np.float32)

    def view(self, buf: np.ndarray, name: str) -> np.ndarray:
        return buf[:, self.offsets[name]].reshape((buf.shape[0], *self.pieces[name].shape))

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-entry ``(low, high)`` float32 arrays of shape ``(size,)``."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.zeros(self.size, dtype=np.float32)
        for name, sl in self.offsets.items():
            piece = self.pieces[name]
            high[sl] = piece.high
            low[sl] = -piece.high if piece.signed else 0.0
        return low, high
