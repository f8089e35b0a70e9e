"""Shared fixtures: the test-only toy game joins the registry for the test session only."""

from __future__ import annotations

import sys
from pathlib import Path

import envs
from envs.core.registry import game_class

sys.path.insert(0, str(Path(__file__).parent))

from toy_game import ToyGame

if "toy" not in envs.list_envs():
    envs.register("toy", ToyGame)

# Every registered env id x player count: a newly registered game is covered at once.
ENV_CASES = [
    (env_id, num_players)
    for env_id in envs.list_envs()
    for num_players in game_class(env_id).PLAYER_COUNTS
]
ENV_IDS = [f"{env_id}-{p}p" for env_id, p in ENV_CASES]
