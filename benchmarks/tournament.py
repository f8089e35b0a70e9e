"""Seat-balanced round robin with duplicate deals, rated by Elo and OpenSkill.

    python -m benchmarks.tournament --env cairo --players 3 --agents random,greedy,b --games 600
    python -m benchmarks.tournament --env cairo --agents random,runs/cairo/best.zip --ray

How the games are arranged (``seat_arrangements``):

* A *lineup* is a set of P agents for the P seats. With at least as many agents as seats
  (k >= P) the lineups are all P-subsets of the k agents; with fewer, all multisets of size P
  with at least two different agents (an agent then holds several seats, each with its own
  instance). Every agent is in equally many lineups, and every pair of agents meets in
  equally many.
* Each lineup is played in its P cyclic rotations (seat s gets member ``(s + r) % P`` in
  rotation r), so every member holds every seat equally often: the tournament is
  seat-balanced.
* Duplicate deals: the rotations of a lineup replay the same seeds, so each deal (shuffle,
  dice, first player) is played once from every seat by every member and the luck of the
  deal cancels. Lineup j uses seeds ``seed + j * G .. seed + (j + 1) * G - 1`` for its G
  games per rotation. A deal and its rotations are one *block*, the unit the Elo bootstrap
  resamples (the games of a block are not independent).
* Each rotation (seat arrangement) is one batched ``play_match``: its G games advance
  together. With ``--ray`` each arrangement is one Ray task; its agents are made in the
  driver with the same seeds and sent along with the game object, so the result is the same
  as the local run's, and no worker needs the env or agent registries (test-only games and
  agents travel by reference to their modules, which a local Ray finds on the driver's
  ``sys.path``, see ``init_ray``).

Pairwise results come from each game's final ranking (equal ranks are a draw); Elo is the
Bradley–Terry maximum-likelihood fit of ``benchmarks.elo`` with ``random`` at 1000 and a 95%
bootstrap interval; OpenSkill rates the full rankings in a fixed game order. Results go to
``<out>/<env_id>_elo.md`` and ``<out>/<env_id>_elo.csv`` with the env VERSION, git revision,
seeds, games and players.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import io
import itertools
import math
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import agents as agent_registry
from agents.arena import MatchResult, play_match
from benchmarks import elo as elo_lib
from envs.core import cli
from envs.core.game import Game
from envs.core.memory import retain_freed_memory
from envs.core.registry import make_game

MAX_BATCH = 4096  # games of one arrangement played at once; more are played in chunks


# ----------------------------------------------------------------------- the schedule
def seat_arrangements(num_agents: int, num_players: int) -> list[tuple[tuple[int, ...], int]]:
    """Every seat arrangement of a seat-balanced tournament, with its lineup.

    Returns:
        ``[(seats, lineup), ...]``: ``seats[s]`` is the agent index in seat s; arrangements
        of one lineup (its cyclic rotations) share the lineup index, hence their deals.
    """
    if num_agents < 2:
        raise ValueError(f"a tournament needs at least 2 agents, got {num_agents}")
    if num_agents >= num_players:
        lineups = list(itertools.combinations(range(num_agents), num_players))
    else:
        lineups = [
            c for c in itertools.combinations_with_replacement(range(num_agents), num_players)
            if len(set(c)) > 1
        ]
    return [
        (tuple(lineup[(s + r) % num_players] for s in range(num_players)), j)
        for j, lineup in enumerate(lineups)
        for r in range(num_players)
    ]


def agent_seed(seed: int, arrangement: int, seat: int) -> int:
    """Seed of the agent in one seat of one arrangement (independent streams per seat)."""
    return int(np.random.SeedSequence([seed, arrangement, seat]).generate_state(1)[0])


def play_arrangement(game: Game, seat_agents: Sequence, num_games: int, seed: int,
                     record: int = 0) -> MatchResult:
    """The games of one seat arrangement, ``num_games`` deals from ``seed`` on (the records
    of the first ``record`` kept).

    The unit of work of the local loop and of a Ray task alike. Plays in chunks of at most
    ``MAX_BATCH`` games; game i is seeded ``seed + i`` either way.
    """
    parts = []
    for start in range(0, num_games, MAX_BATCH):
        size = min(MAX_BATCH, num_games - start)
        parts.append(play_match(game, seat_agents, size, seed=seed + start,
                                record=max(0, record - start)))
    if len(parts) == 1:
        return parts[0]
    return MatchResult(
        scores=np.concatenate([p.scores for p in parts]),
        rewards=np.concatenate([p.rewards for p in parts]),
        truncated=np.concatenate([p.truncated for p in parts]),
        decisions=sum(p.decisions for p in parts),
        records=[r for p in parts for r in p.records],
    )


# ----------------------------------------------------------------------- the result
@dataclasses.dataclass
class TournamentResult:
    """Every game of a tournament and the ratings from them.

    Games are stored arrangement by arrangement, in schedule order.
    """

    env_id: str
    version: int
    num_players: int
    agents: list[str]  # the k agent names (labels of the tables)
    seed: int
    games_per_arrangement: int  # G: deals per lineup, played in each rotation
    arrangements: list[tuple[int, ...]]  # agent index per seat, one tuple per arrangement
    seat_agents: np.ndarray  # (N, P) int64, agent index in each seat of each game
    scores: np.ndarray  # (N, P) float64, the game's own final scores
    rewards: np.ndarray  # (N, P) float32, rank rewards (+1 sole winner, -1 sole loser)
    truncated: np.ndarray  # (N,) bool, the game hit the safety cap (scored where it stopped)
    deal_seeds: np.ndarray  # (N,) int64, the seed of each game's deal
    blocks: np.ndarray  # (N,) int64, duplicate-deal block (one deal in all its rotations)
    wins: np.ndarray  # (k, k) float64, wins of i over j, draws as halves
    elo: elo_lib.EloFit
    openskill: elo_lib.OpenSkillRatings | None  # None when openskill is not installed
    git_revision: str
    decisions: int  # decisions taken over all games
    elapsed_s: float  # wall-clock seconds of play
    used_ray: bool = False
    records: list = dataclasses.field(default_factory=list)  # envs.records.Recorder

    @property
    def num_games(self) -> int:
        return int(self.seat_agents.shape[0])

    def _per_agent(self, values: np.ndarray) -> np.ndarray:
        """Mean of a (N, P) per-seat quantity over each agent's seats."""
        k = len(self.agents)
        total = np.bincount(self.seat_agents.ravel(), weights=values.ravel(), minlength=k)
        return total / np.maximum(self.seats_played, 1)

    @property
    def seats_played(self) -> np.ndarray:
        """(k,) seats each agent held over all games (its games, when it holds one seat)."""
        return np.bincount(self.seat_agents.ravel(), minlength=len(self.agents))

    @property
    def first_place_rate(self) -> np.ndarray:
        """(k,) share of its seats that finished first (shared firsts count)."""
        first = self.rewards == self.rewards.max(axis=1, keepdims=True)
        return self._per_agent(first.astype(np.float64))

    @property
    def mean_reward(self) -> np.ndarray:
        """(k,) mean rank reward per seat held."""
        return self._per_agent(self.rewards.astype(np.float64))

    @property
    def mean_score(self) -> np.ndarray:
        """(k,) mean final game score per seat held."""
        return self._per_agent(self.scores.astype(np.float64))

    def pairwise_score(self) -> np.ndarray:
        """(k, k) share of the pairwise points i took from j (NaN where they never met)."""
        met = self.wins + self.wins.T
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(met > 0, self.wins / met, np.nan)

    def order(self) -> list[int]:
        """Agent indices by Elo, best first."""
        return [int(i) for i in np.argsort(-self.elo.ratings, kind="stable")]

    # ------------------------------------------------------------------- reports
    def header_lines(self) -> list[tuple[str, str]]:
        num_lineups = len(self.arrangements) // max(self.num_players, 1)
        last_seed = self.seed + num_lineups * self.games_per_arrangement - 1
        return [
            ("env", f"{self.env_id} (VERSION {self.version})"),
            ("players", str(self.num_players)),
            ("agents", ", ".join(self.agents)),
            ("games", f"{self.num_games} ({len(self.arrangements)} seat arrangements x "
                      f"{self.games_per_arrangement} duplicate deals; "
                      f"{int(self.truncated.sum())} truncated)"),
            ("seed", f"{self.seed} (deal seeds {self.seed}..{last_seed})"),
            ("git revision", self.git_revision),
            ("Elo", f"Bradley-Terry maximum likelihood, {self.elo.anchor} = "
                    f"{self.elo.anchor_rating:g}, {self.elo.level:.0%} bootstrap interval "
                    f"({self.elo.num_samples} resamples of deal blocks), "
                    f"smoothing {self.elo.smoothing:g}"),
            ("OpenSkill", "Plackett-Luce, mu - 3 sigma as ordinal" if self.openskill
             else "not computed (pip install 'tradewinds[bench]')"),
            ("play time", f"{self.elapsed_s:.1f} s{' on Ray' if self.used_ray else ''}, "
                          f"{self.decisions} decisions"),
        ]

    def rows(self) -> list[dict[str, object]]:
        """One dict per agent, best Elo first: the columns of the CSV."""
        rows = []
        for rank, i in enumerate(self.order(), start=1):
            row: dict[str, object] = {
                "rank": rank,
                "agent": self.agents[i],
                "elo": round(float(self.elo.ratings[i]), 1),
                "elo_low": round(float(self.elo.low[i]), 1),
                "elo_high": round(float(self.elo.high[i]), 1),
                "openskill_mu": "",
                "openskill_sigma": "",
                "openskill_ordinal": "",
                "games": int(self.seats_played[i]),
                "first_place_rate": round(float(self.first_place_rate[i]), 4),
                "mean_reward": round(float(self.mean_reward[i]), 4),
                "mean_score": round(float(self.mean_score[i]), 3),
            }
            if self.openskill is not None:
                row["openskill_mu"] = round(float(self.openskill.mu[i]), 3)
                row["openskill_sigma"] = round(float(self.openskill.sigma[i]), 3)
                row["openskill_ordinal"] = round(float(self.openskill.ordinal[i]), 3)
            rows.append(row)
        return rows

    def to_markdown(self) -> str:
        out = [f"# Tournament: {self.env_id} v{self.version}, {self.num_players} players", ""]
        out += ["| | |", "|---|---|"]
        out += [f"| {key} | {value} |" for key, value in self.header_lines()]
        level = f"{self.elo.level:.0%}"
        out += [
            "",
            f"| rank | agent | Elo | {level} CI | OpenSkill mu | sigma | ordinal | games | "
            "first place | mean reward | mean score |",
            "|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in self.rows():
            out.append(
                f"| {r['rank']} | {r['agent']} | {r['elo']:.0f} | "
                f"[{r['elo_low']:.0f}, {r['elo_high']:.0f}] | {_fmt(r['openskill_mu'])} | "
                f"{_fmt(r['openskill_sigma'])} | {_fmt(r['openskill_ordinal'])} | "
                f"{r['games']} | {r['first_place_rate']:.1%} | {r['mean_reward']:+.3f} | "
                f"{r['mean_score']:.2f} |"
            )
        order = self.order()
        score = self.pairwise_score()
        out += [
            "",
            "Pairwise: share of the points the row agent took from the column agent "
            "(win 1, draw 1/2).",
            "",
            "| | " + " | ".join(self.agents[j] for j in order) + " |",
            "|---|" + "---:|" * len(order),
        ]
        for i in order:
            cells = ["" if i == j or np.isnan(score[i, j]) else f"{score[i, j]:.1%}"
                     for j in order]
            out.append(f"| {self.agents[i]} | " + " | ".join(cells) + " |")
        return "\n".join(out) + "\n"

    def to_csv(self) -> str:
        meta = {
            "env_id": self.env_id,
            "version": self.version,
            "num_players": self.num_players,
            "num_games": self.num_games,
            "seed": self.seed,
            "git_revision": self.git_revision,
        }
        rows = [{**meta, **r} for r in self.rows()]
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue()

    def write(self, out_dir: str | os.PathLike) -> tuple[Path, Path]:
        """Write ``<out_dir>/<env_id>_elo.md`` and ``.csv`` (and the saved game records as
        ``<out_dir>/<env_id>_games/game_<k>.jsonl``); returns the tables' paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        md, table = out / f"{self.env_id}_elo.md", out / f"{self.env_id}_elo.csv"
        md.write_text(self.to_markdown())
        table.write_text(self.to_csv())
        for k, recorder in enumerate(self.records):
            recorder.write(out / f"{self.env_id}_games" / f"game_{k:04d}.jsonl")
        return md, table


def _fmt(value: object) -> str:
    return "" if value == "" else f"{value:.2f}"


# ----------------------------------------------------------------------- running it
def run_tournament(
    env_id: str,
    num_players: int | None,
    agent_names: Sequence[str] | str,
    num_games: int,
    seed: int = 0,
    use_ray: bool = False,
    ray_address: str | None = None,
    progress: bool = True,
    bootstrap_samples: int = 1000,
    save_games: int = 0,
) -> TournamentResult:
    """Play a seat-balanced duplicate tournament and rate the agents.

    Args:
        env_id: the game.
        num_players: seats per game (None: the game's default count).
        agent_names: names from ``agents.list_agents(env_id)`` or checkpoint paths, as a
            list or a comma-separated string; at least two, no repeats. ``label=path``
            names a checkpoint ``label`` in the tables.
        num_games: games to play at least; rounded up to a whole number of deals per seat
            arrangement (the result's ``num_games`` is what was played).
        seed: deals are seeded from here on; agents' seeds derive from it.
        use_ray: run each seat arrangement as a Ray task (same results as the local run).
        ray_address: a Ray cluster to connect to; None starts (or reuses) a local Ray.
        progress: show a tqdm progress bar.
        bootstrap_samples: refits for the Elo confidence intervals.
        save_games: keep the game records (``envs.records``) of the first this many games
            (in schedule order), in the result's ``records``.

    Raises:
        ValueError: unknown env id, unsupported player count, unknown or repeated agents,
            fewer than two agents, a checkpoint for another game or player count, or a bad
            number of games; all before any game is played.
    """
    game = make_game(env_id, num_players)
    num_players = game.num_players
    names, specs = _parse_names(agent_names)
    if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) \
            or num_games < 1:
        raise ValueError(f"num_games must be a positive int, got {num_games!r}")
    for spec in specs:  # every agent is made once before any game: bad names fail here
        agent_registry.make_agent(spec, env_id, num_players, seed=seed)
    schedule = seat_arrangements(len(names), num_players)
    games_each = math.ceil(num_games / len(schedule))
    jobs = [
        (
            [_labelled(agent_registry.make_agent(specs[a], env_id, num_players,
                                                 agent_seed(seed, i, s)), names[a])
             for s, a in enumerate(seats)],
            seed + lineup * games_each,
            max(0, min(games_each, save_games - i * games_each)),
        )
        for i, (seats, lineup) in enumerate(schedule)
    ]

    start = time.perf_counter()
    bar = tqdm(total=games_each * len(schedule), unit="game", disable=not progress,
               desc=f"{env_id} {num_players}p tournament", file=sys.stderr)
    try:
        if use_ray:
            results = _play_on_ray(game, jobs, games_each, ray_address, bar)
        else:
            results = []
            for seat_agents, deal_seed, record in jobs:
                results.append(play_arrangement(game, seat_agents, games_each, deal_seed,
                                                record))
                bar.update(games_each)
    finally:
        bar.close()
    elapsed = time.perf_counter() - start

    seat_agents = np.repeat(np.array([s for s, _ in schedule], dtype=np.int64), games_each,
                            axis=0)
    offsets = np.tile(np.arange(games_each, dtype=np.int64), len(schedule))
    lineups = np.repeat(np.array([j for _, j in schedule], dtype=np.int64), games_each)
    rewards = np.concatenate([r.rewards for r in results])
    blocks = lineups * games_each + offsets
    block_wins = elo_lib.pairwise_wins(rewards, seat_agents, len(names), groups=blocks,
                                       num_groups=int(blocks.max()) + 1)
    elo = elo_lib.elo_ratings(block_wins, names, num_samples=bootstrap_samples, seed=seed)
    openskill = (elo_lib.openskill_ratings(rewards, seat_agents, names)
                 if elo_lib.openskill_available() else None)
    return TournamentResult(
        env_id=env_id,
        version=int(game.VERSION),
        num_players=num_players,
        agents=names,
        seed=seed,
        games_per_arrangement=games_each,
        arrangements=[s for s, _ in schedule],
        seat_agents=seat_agents,
        scores=np.concatenate([r.scores for r in results]).astype(np.float64),
        rewards=rewards,
        truncated=np.concatenate([r.truncated for r in results]),
        deal_seeds=seed + blocks,
        blocks=blocks,
        wins=block_wins.sum(axis=0),
        elo=elo,
        openskill=openskill,
        git_revision=git_revision(),
        decisions=sum(r.decisions for r in results),
        elapsed_s=elapsed,
        used_ray=use_ray,
        records=[r for result in results for r in result.records],
    )


def _parse_names(agent_names: Sequence[str] | str) -> tuple[list[str], list[str]]:
    """The agents' labels and what makes each (a name or a path; ``label=path`` entries)."""
    if isinstance(agent_names, str):
        agent_names = agent_names.split(",")
    entries = [n.strip() for n in agent_names]
    if any(not n for n in entries):
        raise ValueError(f"empty agent name in {list(agent_names)!r}")
    pairs = [entry.partition("=")[::2] if "=" in entry else (entry, entry) for entry in entries]
    names, specs = [label.strip() for label, _ in pairs], [spec.strip() for _, spec in pairs]
    if any(not n for n in names + specs):
        raise ValueError(f"an empty label or path in {entries!r} (write label=path)")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"agents repeated in the tournament: {repeated}")
    if len(names) < 2:
        raise ValueError(f"a tournament needs at least 2 agents, got {names}")
    return names, specs


def _labelled(agent: Any, label: str) -> Any:
    """The agent named as the tournament's tables (and game records) call it."""
    with contextlib.suppress(AttributeError):  # a read-only name: the tables use the label
        agent.name = label
    return agent


def git_revision() -> str:
    """The commit of the checkout this module lives in, or ``"unknown"``."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=Path(__file__).resolve().parent,
            capture_output=True, text=True, timeout=10, check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


# ----------------------------------------------------------------------- Ray
def import_ray() -> Any:
    """The ``ray`` module, or an ImportError that says how to install it."""
    try:
        import ray
    except ImportError as error:
        raise ImportError("--ray needs Ray: pip install 'tradewinds[ray]'") from error
    return ray


def init_ray(address: str | None = None, num_cpus: int | None = None, **kwargs):
    """Connect to a Ray cluster at ``address``, or start a local Ray.

    A local Ray's workers get the driver's ``sys.path`` (through the runtime environment's
    PYTHONPATH), so games and agents defined in modules the driver imported from outside the
    installed packages (the test suite's toy game) unpickle on the workers as they do here.
    A cluster's workers need the package installed (or a ``runtime_env`` of your own passed
    in ``kwargs``).
    """
    ray = import_ray()
    if address is not None:
        return ray.init(address=address, **kwargs)
    path = os.pathsep.join(p for p in sys.path if p)
    kwargs.setdefault("runtime_env", {"env_vars": {"PYTHONPATH": path}})
    kwargs.setdefault("include_dashboard", False)
    return ray.init(num_cpus=num_cpus, **kwargs)


def _play_on_ray(game: Game, jobs: list, games_each: int, address: str | None,
                 bar: tqdm) -> list[MatchResult]:
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        init_ray(address)
    try:
        task = ray.remote(play_arrangement)
        game_ref = ray.put(game)
        pending = {task.remote(game_ref, seat_agents, games_each, deal_seed, record): i
                   for i, (seat_agents, deal_seed, record) in enumerate(jobs)}
        results: list[MatchResult | None] = [None] * len(jobs)
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                results[pending[ref]] = ray.get(ref)
                bar.update(games_each)
        return results  # type: ignore[return-value]
    finally:
        if started:
            ray.shutdown()


# ----------------------------------------------------------------------- the command
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tournament",
        description="Seat-balanced round robin with duplicate deals; writes an Elo table "
                    "(Bradley-Terry ML, random = 1000, 95% bootstrap CI) and OpenSkill "
                    "ratings as <out>/<env>_elo.md and .csv.",
    )
    parser.add_argument("--env", required=True, help="env id (see envs.list_envs())")
    parser.add_argument("--players", type=int, default=None,
                        help="seats per game (default: the game's default count)")
    parser.add_argument("--agents", default=None,
                        help="comma-separated agent names or checkpoint paths (label=path "
                             "names one; ismcts:simulations=200 sets a search agent's "
                             "options; default: random and the game's scripted baselines)")
    parser.add_argument("--games", type=int, default=600,
                        help="games to play, rounded up to whole duplicate deals (600)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (0)")
    parser.add_argument("--out", default=None,
                        help="folder for the Markdown and CSV tables, <out>/<env>_elo.md "
                             "(default: a new folder per run, runs/tournaments/<env>_<time>)")
    parser.add_argument("--save-games", type=int, default=0,
                        help="save the records of the first N games (envs.records) beside "
                             "the tables, for python -m envs.replay (default: 0)")
    parser.add_argument("--bootstrap", type=int, default=1000,
                        help="bootstrap refits for the Elo intervals (1000)")
    parser.add_argument("--ray", action="store_true",
                        help="run each seat arrangement as a Ray task (local Ray by default)")
    parser.add_argument("--ray-address", default=None,
                        help="address of a Ray cluster to run on (implies --ray)")
    cli.add_progress(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> TournamentResult:
    parser = build_parser()
    args = parser.parse_args(argv)
    cli.env_ids(parser, args.env)
    args.players = cli.player_count(parser, args.env, args.players)
    if args.games < 1 or args.save_games < 0:
        parser.error("--games must be positive and --save-games not negative")
    retain_freed_memory()  # batched play: see envs.core.memory
    names = args.agents if args.agents is not None else [
        agent_registry.RANDOM, *agent_registry.list_baselines(args.env)]
    result = run_tournament(
        args.env, args.players, names, args.games, seed=args.seed,
        use_ray=args.ray or args.ray_address is not None, ray_address=args.ray_address,
        progress=args.progress, bootstrap_samples=args.bootstrap, save_games=args.save_games,
    )
    print(result.to_markdown())
    if result.num_games != args.games:
        print(f"note: {args.games} games asked, {result.num_games} played: every one of the "
              f"{len(result.arrangements)} seat arrangements plays the same deals")
    out = args.out or Path("runs/tournaments") / (
        f"{args.env}_{args.players}p_{time.strftime('%Y%m%d-%H%M%S')}")
    md, table = result.write(out)
    print(f"wrote {md} and {table}"
          + (f" and {len(result.records)} game records in {md.parent / (args.env + '_games')}"
             if result.records else ""))
    return result


if __name__ == "__main__":
    try:
        main()
    except (ValueError, ImportError) as error:
        sys.exit(f"error: {error}")
