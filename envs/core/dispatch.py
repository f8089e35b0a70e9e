"""Phase dispatch: the vectorised form of a ``switch (phase)`` over a batch."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np


def dispatch(
    phase: np.ndarray,
    handlers: Mapping[int, Callable[[np.ndarray], None]],
    rows: np.ndarray | None = None,
) -> None:
    """Call each handler with the boolean selector of the rows in its phase.

    Every selector is computed before any handler runs, so a row that a handler moves to a
    later phase is not handled twice in one call. Handlers with no rows are not called.

    Args:
        phase: (B,) int phase of each row.
        handlers: phase value -> handler taking a (B,) bool row selector.
        rows: (B,) bool, restricts dispatch to these rows (e.g. the live ones).
    """
    selectors = []
    for value, handler in handlers.items():
        selected = phase == int(value)  # int(): comparing with an IntEnum member is slow
        if rows is not None:
            selected &= rows
        selectors.append((handler, selected))
    for handler, selected in selectors:
        if selected.any():
            handler(selected)
