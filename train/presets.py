"""Per-game defaults of ``python -m train.selfplay``: the tuned recipe each game's default run
uses (``Config`` holds the defaults shared by every game).

A run applies its game's entry to every option not given on the command line, unless
``--no-preset``; a resumed run takes its options from the checkpoint instead. Each entry
says what its default run reaches, measured on 2 CPU cores.
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    # batavia, 4 players: the policy reads greedy's action values (hints) and starts from
    # an imitation of greedy, then PPO with no entropy bonus, half its opponents random.
    # Measured on 2 shared cores: 3 min 38 s in all (6 min 41 s under heavy load), first
    # place in 85% (88%) of the games against three random seats; PPO from scratch reached
    # 60-66% after 400k decisions, and 300k decisions here trade it for strength against
    # the baselines (81% against random, 51% first against three greedy).
    "batavia": {"hints": "greedy", "imitate": "greedy", "imitate_decisions": 100_000,
                "timesteps": 150_000, "ent_coef": 0.0, "learning_rate": 1e-4,
                "opp_random": 0.5, "opp_scripted": 0.2, "opp_self": 0.15, "opp_snapshot": 0.15},
}
