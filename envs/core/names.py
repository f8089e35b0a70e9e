"""Names every game shares: the seats' names and plain-int copies of a game's enums."""

from __future__ import annotations

from enum import IntEnum
from types import SimpleNamespace


def seat_name(seat: int) -> str:
    """The seat's name, as the AEC env's agents and the records name it."""
    return f"player_{seat}"


def plain(enum: type[IntEnum]) -> SimpleNamespace:
    """A namespace of the enum's members as plain ints, for NumPy code outside the compiled
    rules: NumPy takes a slow path for an IntEnum member (comparing an array with one costs
    several µs at B = 1, an int well under one)."""
    return SimpleNamespace(**{member.name: int(member) for member in enum})
