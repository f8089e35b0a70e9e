"""The end-of-run evaluation: the trained agent against random and each scripted baseline.

Win rate is the share of games the agent finishes first (shared firsts count, as in
``agents.arena.MatchResult.first_place``) in P-player games where it holds one seat and the
baseline all the others; the agent's seat rotates over all P seats in equal shares, so no
seat advantage leaks in. Chance level is about 1/P (a bit more where ties are common).

Elo comes from a seat-balanced duplicate round robin of all the agents, on the schedule of
``benchmarks.tournament`` (``seat_arrangements``) and rated by ``benchmarks.elo`` (maximum
likelihood Bradley-Terry, random anchored at 1000, bootstrap interval over deal blocks).

Both are played as ONE batch (``agents.arena.play_mixed``): every row has its own
seat-to-agent map, and each agent acts once per step on the rows where one of its seats is to
act, so a game costs its length in steps, not its length times the number of seat
arrangements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.arena import play_mixed
from agents.base import Agent
from envs.core.game import Game


def progress_counter(num_games: int, desc: str, enabled: bool = True):
    """A tqdm bar of finished games and the ``on_step`` callback of ``play_mixed`` that moves
    it (None when disabled)."""
    if not enabled:
        return None, None
    from tqdm import tqdm

    bar = tqdm(total=num_games, unit="game", desc=desc, dynamic_ncols=True, mininterval=1.0)

    def on_step(state, step: int) -> None:
        bar.update(int(state.done.sum()) - bar.n)

    return bar, on_step


def win_rates(game: Game, agent: Agent, opponents: dict[str, Agent], num_games: int,
              seed: int = 0, progress: bool = False) -> list[dict[str, Any]]:
    """The agent's first-place share against each opponent, seat rotated.

    Args:
        game: the rules object.
        agent: the agent under test (one seat).
        opponents: name -> the agent playing all other seats.
        num_games: games per opponent, split evenly over the P seats (rounded up).
        seed: games against every opponent use the same seeds.
        progress: show a bar of the games finished.

    Returns:
        one dict per opponent: opponent, games, win_rate, ci95 (normal approximation
        half-width), mean_reward (the agent's rank reward), chance (1/P).
    """
    num_players = game.num_players
    per_seat = max(1, math.ceil(num_games / num_players))
    names = list(opponents)
    # Rows: opponent-major, then the agent's seat, then the deal.
    opponent = np.repeat(np.arange(1, len(names) + 1), num_players * per_seat)
    agent_seat = np.tile(np.repeat(np.arange(num_players), per_seat), len(names))
    deal = np.tile(np.arange(num_players * per_seat), len(names))
    seat_agents = np.repeat(opponent[:, None], num_players, axis=1)
    seat_agents[np.arange(seat_agents.shape[0]), agent_seat] = 0
    bar, on_step = progress_counter(len(deal), "evaluation", progress)
    result = play_mixed(game, [agent, *opponents.values()], seat_agents, seed + deal,
                        on_step=on_step)
    if bar is not None:
        bar.close()
    first = result.first_place[np.arange(seat_agents.shape[0]), agent_seat]
    reward = result.rewards[np.arange(seat_agents.shape[0]), agent_seat]
    rows = []
    for k, name in enumerate(names, start=1):
        mine = opponent == k
        rate = float(first[mine].mean())
        rows.append({
            "opponent": name,
            "games": int(mine.sum()),
            "win_rate": rate,
            "ci95": 1.96 * math.sqrt(rate * (1 - rate) / mine.sum()),
            "mean_reward": float(reward[mine].mean()),
            "chance": 1.0 / num_players,
        })
    return rows


def elo_table(game: Game, names: Sequence[str], agents: Sequence[Agent], num_games: int,
              seed: int = 0, progress: bool = False) -> list[dict[str, Any]] | None:
    """Elo of the agents from a batched seat-balanced duplicate round robin.

    Args:
        game: the rules object.
        names: the k agent names (``"random"`` among them is the anchor).
        agents: the k agents.
        num_games: games to play at least (rounded up to whole deal blocks).
        seed: deals are seeded from here on.
        progress: show a bar of the games finished.

    Returns:
        one dict per agent, best first: rank, agent, elo, elo_low, elo_high (95% bootstrap
        interval), games, first_place_rate, mean_reward, and ``<names[0]>_minus``: the
        first agent's Elo minus this one's with its bootstrap interval (elo, low, high);
        None where ``benchmarks`` (the tournament schedule and Elo fit) is not available.
    """
    try:
        from benchmarks.elo import elo_ratings, pairwise_wins
        from benchmarks.tournament import seat_arrangements
    except ImportError:
        return None
    schedule = seat_arrangements(len(agents), game.num_players)
    games_each = math.ceil(num_games / len(schedule))
    seat_agents = np.repeat(np.array([s for s, _ in schedule], dtype=np.int64), games_each,
                            axis=0)
    lineups = np.repeat(np.array([j for _, j in schedule], dtype=np.int64), games_each)
    blocks = lineups * games_each + np.tile(np.arange(games_each), len(schedule))
    bar, on_step = progress_counter(len(blocks), "Elo round robin", progress)
    result = play_mixed(game, agents, seat_agents, seed + blocks, on_step=on_step)
    if bar is not None:
        bar.close()
    block_wins = pairwise_wins(result.rewards, seat_agents, len(agents), groups=blocks,
                               num_groups=int(blocks.max()) + 1)
    fit = elo_ratings(block_wins, list(names), seed=seed)
    first = result.first_place
    rows = []
    for k, name in enumerate(names):
        seats = seat_agents == k
        rows.append({
            "agent": name,
            "elo": round(float(fit.ratings[k]), 1),
            "elo_low": round(float(fit.low[k]), 1),
            "elo_high": round(float(fit.high[k]), 1),
            "games": int(seats.sum()),
            "first_place_rate": round(float(first[seats].mean()), 4),
            "mean_reward": round(float(result.rewards[seats].mean()), 4),
        })
    for row in rows:  # each against the first agent (the one evaluated), with its interval
        diff, low, high = fit.difference(names[0], row["agent"])
        row[f"{names[0]}_minus"] = {"elo": round(diff, 1), "low": round(low, 1),
                                    "high": round(high, 1)}
    rows.sort(key=lambda r: -r["elo"])
    return [{"rank": rank, **row} for rank, row in enumerate(rows, start=1)]


def markdown_table(rows: list[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    """A Markdown table of dict rows (floats with 3 decimals)."""
    if not rows:
        return "(no rows)"
    columns = list(columns or rows[0].keys())

    def cell(value: Any) -> str:
        if isinstance(value, dict) and {"elo", "low", "high"} <= set(value):
            return f"{value['elo']:+.0f} [{value['low']:+.0f}, {value['high']:+.0f}]"
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join(lines)
