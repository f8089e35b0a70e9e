"""Per-game defaults of ``python -m train.selfplay``: the tuned recipe each game's default run
uses (``Config`` holds the defaults shared by every game).

A run applies its game's entry to every option not given on the command line, unless
``--no-preset``; a resumed run takes its options from the checkpoint instead. Each entry
says what its default run reaches, measured on 2 CPU cores.
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {}
# junk (4 players): a behaviour clone of the cashier baseline, its action values as hints,
# then PPO; measured on 2 shared cores (see the junk closing note for the figures).
PRESETS["junk"] = {"imitate": "cashier", "imitate_decisions": 60_000, "hints": "cashier",
                   "timesteps": 120_000}
