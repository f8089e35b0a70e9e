"""The end-of-run evaluation: the trained agent against random and each scripted baseline.

Win rate is the share of games the agent finishes first (shared firsts count, as in
``agents.arena.MatchResult.first_place``) in P-player games where it holds one seat and the
baseline all the others; the agent's seat rotates over all P seats in equal shares, so no
seat advantage leaks in. Chance level is about 1/P (a bit more where ties are common). Elo
comes from ``benchmarks.tournament.run_tournament`` when that module is present.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.arena import play_match
from agents.base import Agent
from envs.core.game import Game


def win_rates(game: Game, agent: Agent, opponents: dict[str, Agent], num_games: int,
              seed: int = 0) -> list[dict[str, Any]]:
    """The agent's first-place share against each opponent, seat rotated.

    Args:
        game: the rules object.
        agent: the agent under test (one seat).
        opponents: name -> the agent playing all other seats.
        num_games: games per opponent, split evenly over the P seats (rounded up).
        seed: games against every opponent use the same seeds.

    Returns:
        one dict per opponent: opponent, games, win_rate, ci95 (normal approximation
        half-width), mean_reward (the agent's rank reward), chance (1/P).
    """
    num_players = game.num_players
    per_seat = max(1, math.ceil(num_games / num_players))
    rows = []
    for name, opponent in opponents.items():
        firsts, rewards = [], []
        for seat in range(num_players):
            seats: list[Agent] = [opponent] * num_players
            seats[seat] = agent
            result = play_match(game, seats, per_seat, seed=seed + seat * per_seat)
            firsts.append(result.first_place[:, seat])
            rewards.append(result.rewards[:, seat])
        first = np.concatenate(firsts)
        rate = float(first.mean())
        rows.append({
            "opponent": name,
            "games": int(first.size),
            "win_rate": rate,
            "ci95": 1.96 * math.sqrt(rate * (1 - rate) / first.size),
            "mean_reward": float(np.concatenate(rewards).mean()),
            "chance": 1.0 / num_players,
        })
    return rows


def elo_tournament(env_id: str, num_players: int, agent_names: Sequence[str], num_games: int,
                   seed: int = 0) -> Any | None:
    """A seat-balanced round robin of the named agents (``benchmarks.tournament``).

    Returns:
        its ``TournamentResult`` (``rows()`` gives Elo with confidence bounds, best first;
        ``write(dir)`` the Markdown and CSV tables), or None where that module is missing.
    """
    try:
        from benchmarks.tournament import run_tournament
    except ImportError:
        return None
    return run_tournament(env_id, num_players, list(agent_names), num_games, seed=seed,
                          progress=False)


def markdown_table(rows: list[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    """A Markdown table of dict rows (floats with 3 decimals)."""
    if not rows:
        return "(no rows)"
    columns = list(columns or rows[0].keys())

    def cell(value: Any) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join(lines)
