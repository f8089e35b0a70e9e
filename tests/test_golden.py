"""Golden playthroughs of every registered game and player count (``tests/golden/``).

A fresh playthrough (``playthrough.py``) must equal the committed file. A missing file fails.
Regenerate deliberately with

    TRADEWINDS_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py

and review the diff: a change of the trace (decisions, legal actions, automatic decisions,
rewards) is a change of the rules or the encoding and needs a VERSION bump, so regenerating
refuses it under the file's VERSION; a change of the rendered boards alone is regenerated as
it is.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import ENV_CASES, ENV_IDS
from playthrough import playthrough, trace, version_of

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = bool(os.environ.get("TRADEWINDS_REGEN_GOLDEN"))


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_golden_playthrough(env_id, num_players):
    path = GOLDEN / f"{env_id}_{num_players}p.txt"
    fresh = playthrough(env_id, num_players)
    old = path.read_text() if path.exists() else None
    if REGENERATE:
        if old is not None and version_of(old) == version_of(fresh) and trace(old) != trace(
                fresh):
            pytest.fail(f"{path.name}: the trace changed under VERSION {version_of(old)}: a "
                        "rules or encoding change needs a VERSION bump before regenerating")
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(fresh)
        return
    assert old is not None, f"missing {path}; generate it with TRADEWINDS_REGEN_GOLDEN=1"
    if old != fresh:
        what = ("the trace changed: a rules or encoding change (bump VERSION, then regenerate)"
                if trace(old) != trace(fresh) else
                "only the rendered boards changed (regenerate; no VERSION bump needed)")
        pytest.fail(f"{path.name} differs from a fresh playthrough: {what}")
