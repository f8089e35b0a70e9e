"""How the search agent's strength grows with its budget of simulations.

    python -m benchmarks.search_budget --env batavia --simulations 10,40,160 [--games 150]

Each budget is one guest (``ismcts_<n>``) of a single tournament (``benchmarks.tournament``)
whose field is random and the game's scripted baselines: the field plays its round robin
(``--field-games``), each budget ``--games`` games seated with every P - 1 of the field. The
table gives, per budget, the seconds per decision in one game (B = 1, the search alone,
against the best baseline), the Elo with its interval, and the Elo difference to the best
scripted baseline with its bootstrap interval. Writes ``<out>/<env>_search_budget.md``
(default: ``benchmarks/results``) and prints it. Timings vary with the machine's load.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import agents
import envs
from agents.arena import play_match
from benchmarks.tournament import TournamentResult, run_tournament
from envs.core import cli
from envs.core.memory import retain_freed_memory


class _Timed:
    """An agent whose ``act`` calls are timed (each call at B = 1 is one decision)."""

    def __init__(self, agent):
        self.agent, self.name = agent, agent.name
        self.seconds, self.calls = 0.0, 0

    def act(self, game, state, player):
        start = time.perf_counter()
        actions = self.agent.act(game, state, player)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return actions


def seconds_per_decision(env_id: str, players: int, simulations: int, opponent: str,
                         games: int = 1, seed: int = 0) -> float:
    """Mean wall seconds of one search decision in single games (seat 0 searches)."""
    game = envs.make_game(env_id, players)
    search = _Timed(agents.make_agent("ismcts", env_id, players, seed=seed,
                                      simulations=simulations))
    others = [agents.make_agent(opponent, env_id, players, seed=seed + s)
              for s in range(1, players)]
    for k in range(games):
        play_match(game, [search, *others], 1, seed=seed + k)
    return search.seconds / max(search.calls, 1)


def budget_table(result: TournamentResult, budgets: list[int], timing: dict[int, float],
                 best: str) -> str:
    """The Markdown table of one budget tournament."""
    elo = result.elo
    lines = [f"# Search budget: {result.env_id} v{result.version}, {result.num_players} "
             "players", "",
             f"ismcts at each budget, a guest of one tournament ({result.num_games} games; "
             f"field: {', '.join(a for a in result.agents if a not in result.guests)}; "
             f"git {result.git_revision}). Seconds per decision: one game, B = 1, "
             f"against {best}. Best scripted baseline: {best} "
             f"(Elo {elo.ratings[result.agents.index(best)]:.0f}).", "",
             "| simulations | s / decision | Elo | 95% CI | Elo - " + best + " | 95% CI | "
             "games | first place |",
             "|---:|---:|---:|---|---:|---|---:|---:|"]
    for n in budgets:
        name = f"ismcts_{n}"
        i = result.agents.index(name)
        diff, low, high = elo.difference(name, best)
        lines.append(f"| {n} | {timing[n]:.2g} | {elo.ratings[i]:.0f} | "
                     f"[{elo.low[i]:.0f}, {elo.high[i]:.0f}] | {diff:+.0f} | "
                     f"[{low:+.0f}, {high:+.0f}] | {int(result.seats_played[i])} | "
                     f"{result.first_place_rate[i]:.1%} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search_budget",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, help=f"env id: {', '.join(envs.list_envs())}")
    parser.add_argument("--players", type=int, default=None,
                        help="seats per game (default: the game's default count)")
    parser.add_argument("--simulations", default="10,40,160",
                        help="comma-separated budgets (default: 10,40,160)")
    parser.add_argument("--games", type=int, default=150,
                        help="games of each budget (default: 150)")
    parser.add_argument("--field-games", type=int, default=300,
                        help="games of the field's round robin (default: 300)")
    parser.add_argument("--timing-games", type=int, default=1,
                        help="single games timed per budget (default: 1)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (default: 0)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"),
                        help="folder of <env>_search_budget.md (default: benchmarks/results)")
    cli.add_progress(parser)
    args = parser.parse_args(argv)
    env_id = cli.env_ids(parser, args.env)[0]
    players = cli.player_count(parser, env_id, args.players)
    budgets = cli.positive_ints(parser, "--simulations", args.simulations)
    if min(args.games, args.field_games, args.timing_games) < 1:
        parser.error("--games, --field-games and --timing-games must be positive")
    retain_freed_memory()  # batched play: see envs.core.memory

    field = [agents.RANDOM, *agents.list_baselines(env_id)]
    guests = [f"ismcts_{n}=ismcts:simulations={n}" for n in budgets]
    result = run_tournament(env_id, players, field, args.field_games, seed=args.seed,
                            progress=args.progress, guests=guests, guest_games=args.games)
    baselines = field[1:]
    best = max(baselines, key=lambda b: result.elo.ratings[result.agents.index(b)])
    timing = {n: seconds_per_decision(env_id, players, n, best, args.timing_games, args.seed)
              for n in budgets}
    table = budget_table(result, budgets, timing, best)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{env_id}_search_budget.md"
    path.write_text(table)
    print(table)
    print(f"wrote {path}")
    return table


if __name__ == "__main__":
    try:
        main()
    except ValueError as error:
        sys.exit(f"error: {error}")
