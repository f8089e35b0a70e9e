"""Golden playthroughs: one readable text file per player count, regenerated and diffed.

Each file is a fixed-seed game under a seeded uniform choice over the legal actions: the
board every 50 decisions and at the end, then for each decision the seat to act, the
decision, the legal actions, the chosen action and any non-zero rewards. A difference means
the rules, the action encoding or the rendering changed: review the diff as a rules change
and bump VERSION. Regenerate deliberately with

    CAIRO_REGEN_GOLDEN=1 python -m pytest tests/cairo/test_cairo_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from envs.cairo import VERSION, CairoGame

GOLDEN = Path(__file__).parent / "golden"
BOARD_EVERY = 50
MAX_LISTED = 16


def playthrough(players: int) -> str:
    game = CairoGame(players)
    state = game.init(1, seed=2024)
    rng = np.random.default_rng(players)
    lines = [f"# cairo v{VERSION}, {players} players, seed 2024, policy: uniform legal "
             f"(numpy default_rng({players}))"]
    for step in range(game.max_decisions):
        if state.done[0]:
            break
        if step % BOARD_EVERY == 0:
            lines += ["", game.render(state), ""]
        legal = np.flatnonzero(game.legal_action_mask(state)[0])
        names = [game.action_name(int(a)) for a in legal]
        listed = " ".join(names[:MAX_LISTED]) + (f" ... ({len(names)})" if len(names) >
                                                  MAX_LISTED else "")
        action = int(rng.choice(legal))
        lines.append(f"{step:4d} seat {int(state.current_player[0])} "
                     f"{game.decision_name(state, 0)} | legal: {listed} | -> "
                     f"{game.action_name(action)}")
        state = game.step(state, np.array([action]))
        if state.rewards[0].any():
            lines.append(f"     rewards {state.rewards[0].tolist()}")
    lines += ["", game.render(state), f"scores {game.scores(state)[0].tolist()}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_playthrough(players):
    path = GOLDEN / f"cairo_{players}p.txt"
    text = playthrough(players)
    if os.environ.get("CAIRO_REGEN_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing {path}; regenerate with CAIRO_REGEN_GOLDEN=1"
    assert path.read_text() == text, f"{path.name} differs from a fresh playthrough"
