"""Benchmarks stand below training: ``benchmarks/`` imports nothing of ``train/``.

The tournament names how a trained agent came about from its checkpoint alone: the trainer
writes the reproducing command into the checkpoint's metadata and the tables quote it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import envs

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> set[str]:
    """Every module a Python file imports, at top level or inside functions alike."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_import_scan_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("import os\n\ndef f():\n    from train.config import Config\n"
                      "    import train.pool as p\n")
    assert imported_modules(source) == {"os", "train.config", "train.pool"}


@pytest.mark.parametrize("path", sorted((ROOT / "benchmarks").rglob("*.py")),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_benchmarks_import_nothing_from_train(path):
    from_train = sorted(m for m in imported_modules(path)
                        if m == "train" or m.startswith("train."))
    assert not from_train, f"{path.relative_to(ROOT)} imports {from_train}"


def test_a_tournament_table_names_the_command_stored_in_a_checkpoint(tmp_path):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from benchmarks.tournament import run_tournament
    from train.checkpoint import save_checkpoint
    from train.pool import OpponentPool
    from train.vec_env import SelfPlayVecEnv

    pool = OpponentPool({"random": 1.0})
    pool.add_baselines("toy", 3)
    env = SelfPlayVecEnv(envs.make_game("toy", 3), 4, pool, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    # A command no config would give: the table can only have read it from the checkpoint.
    command = "python -m train.selfplay --env toy --seed 4 --stored-in-the-checkpoint"
    stored = save_checkpoint(model, tmp_path / "stored.zip", {
        "env_id": "toy", "num_players": 3, "version": 1, "options": {}, "timesteps": 1234,
        "command": command})
    bare = save_checkpoint(model, tmp_path / "bare.zip", {
        "env_id": "toy", "num_players": 3, "version": 1, "options": {}, "timesteps": 99})
    result = run_tournament("toy", 3, ["random", f"mine={stored}", f"old={bare}"], 6,
                            progress=False, bootstrap_samples=10)
    table = result.to_markdown()
    assert f"| mine | trained by `{command}` (1,234 timesteps) |" in table
    assert f"| old | checkpoint {bare} (99 timesteps) |" in table
    # Each trained agent's Elo minus every other agent's, with the interval of the difference
    diff, low, high = result.elo.difference("mine", "random")
    assert low <= diff <= high
    assert f"- mine − random: {round(diff):+d} [{round(low):+d}, {round(high):+d}]" in table
    assert "- old − mine: " in table and "- random − " not in table
