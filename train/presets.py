"""Per-game defaults of ``python -m train.selfplay``: the tuned recipe each game's default run
uses (``Config`` holds the defaults shared by every game).

A run applies its game's entry to every option not given on the command line, unless
``--no-preset``; a resumed run takes its options from the checkpoint instead. Each entry
says what its default run reaches, measured on 2 CPU cores.
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    # discoveries (3 players, 250k decisions): the rank reward alone learns slowly from the
    # long games; the score-margin shaping (potential based, so the best policy is
    # unchanged) makes the agent finish first against two random seats in every evaluation
    # game after 150k decisions.
    "discoveries": {"shaping": 1.0, "timesteps": 250_000},
}
