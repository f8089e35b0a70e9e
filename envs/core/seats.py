"""Turn order inside the compiled rules."""

from __future__ import annotations

from envs.core.jit import njit


@njit
def after(seat: int, other: int, players: int) -> int:
    """How many places ``seat`` sits after ``other`` in turn order (both seats of a game of
    ``players``): ``(seat - other) % players`` without the integer division, which costs an
    observation more than the features it places."""
    gap = seat - other
    return gap + players if gap < 0 else gap


@njit
def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` in turn order: ``(seat + 1) % players`` without the
    division."""
    return seat + 1 if seat + 1 < players else 0
