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
* Guests (``--guests``, e.g. a search agent too slow for the whole round robin) are rated
  against the field without playing all its games: each guest plays every (P - 1)-subset of
  the field (multisets, when the field is smaller) in every rotation, ``--guest-games`` games
  in all, on deals of their own. The field's games are the same with or without guests.
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


def guest_arrangements(num_field: int, guest: int, num_players: int
                       ) -> list[tuple[int, ...]]:
    """The seat arrangements of agent ``guest`` with the field ``0 .. num_field - 1``: every
    lineup of the guest and P - 1 field agents (all different where the field has enough),
    in its P rotations."""
    others = (itertools.combinations(range(num_field), num_players - 1)
              if num_field >= num_players - 1 else
              itertools.combinations_with_replacement(range(num_field), num_players - 1))
    lineups = [(guest, *rest) for rest in others]
    return [tuple(lineup[(s + r) % num_players] for s in range(num_players))
            for lineup in lineups for r in range(num_players)]


@dataclasses.dataclass(frozen=True)
class Arrangement:
    """One seat arrangement of the schedule and its deals."""

    seats: tuple[int, ...]  # agent index per seat
    lineup: int  # the rotations of one lineup share it, hence their deals
    games: int  # deals played (the same ones in every rotation of the lineup)
    first_block: int  # its deals are seeded seed + first_block, seed + first_block + 1, ...


def schedule(num_field: int, num_guests: int, num_players: int, field_games: int,
             guest_games: int) -> list[Arrangement]:
    """The field's round robin (``seat_arrangements``, ``field_games`` games at least), then
    each guest's arrangements (``guest_arrangements``, ``guest_games`` games at least each);
    games are rounded up to whole deals per arrangement. Guests' agent indices follow the
    field's."""
    parts = [[(seats, j) for seats, j in seat_arrangements(num_field, num_players)]]
    for g in range(num_guests):
        seats = guest_arrangements(num_field, num_field + g, num_players)
        parts.append([(s, k // num_players) for k, s in enumerate(seats)])
    out, next_block, next_lineup = [], 0, 0
    for k, part in enumerate(parts):
        games = math.ceil((field_games if k == 0 else guest_games) / len(part))
        lineups = 1 + max(j for _, j in part)
        out += [Arrangement(seats, next_lineup + j, games, next_block + j * games)
                for seats, j in part]
        next_lineup, next_block = next_lineup + lineups, next_block + lineups * games
    return out


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
    agents: list[str]  # the k agent names (labels of the tables), the guests last
    seed: int
    games_per_arrangement: int  # G: deals per lineup of the field, played in each rotation
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
    guests: list[str] = dataclasses.field(default_factory=list)  # the last agents' names
    guest_games_per_arrangement: int = 0  # deals per guest lineup, in each rotation
    trained: dict[str, str] = dataclasses.field(default_factory=dict)  # label -> its source

    @property
    def num_games(self) -> int:
        return int(self.seat_agents.shape[0])

    @property
    def field_arrangements(self) -> int:
        """Seat arrangements of the field's round robin (the guests' follow them)."""
        field = len(self.agents) - len(self.guests)
        return sum(max(seats) < field for seats in self.arrangements)

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
        last_seed = int(self.deal_seeds.max())
        field, num_field = len(self.agents) - len(self.guests), self.field_arrangements
        lines = [
            ("env", f"{self.env_id} (VERSION {self.version})"),
            ("players", str(self.num_players)),
            ("agents", ", ".join(self.agents[:field])),
            ("games", f"{self.num_games} ({num_field} seat arrangements x "
                      f"{self.games_per_arrangement} duplicate deals"
                      + (f", and {len(self.arrangements) - num_field} of the guests x "
                         f"{self.guest_games_per_arrangement}" if self.guests else "")
                      + f"; {int(self.truncated.sum())} truncated)"),
        ]
        if self.guests:
            lines.append(("guests", ", ".join(self.guests) + " (each seated with every "
                          f"{self.num_players - 1} of the field, not with each other)"))
        lines += [(label, source) for label, source in self.trained.items()]
        return [
            *lines,
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
        for label in self.trained:
            out += ["", f"Paired Elo differences: {label}'s Elo minus each agent's, with the "
                    f"{level} bootstrap interval of the difference (it counts how the two "
                    "ratings move together).", ""]
            out += [f"- {label} − {self.agents[j]}: "
                    + "{:+d} [{:+d}, {:+d}]".format(*(round(v) for v in self.elo.difference(
                        label, self.agents[j])))
                    for j in order if self.agents[j] != label]
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
    guests: Sequence[str] | str = (),
    guest_games: int = 150,
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
        guests: agents (names or paths, as ``agent_names``) rated against the field in
            ``guest_games`` games each (rounded up to whole deals per arrangement) instead of
            playing the whole round robin (see ``schedule``).
        guest_games: games of each guest.

    Raises:
        ValueError: unknown env id, unsupported player count, unknown or repeated agents,
            fewer than two agents, a checkpoint for another game or player count, or a bad
            number of games; all before any game is played.
    """
    game = make_game(env_id, num_players)
    num_players = game.num_players
    field, field_specs = _parse_names(agent_names)
    guest_names, guest_specs = _parse_names(guests, least=0) if guests else ([], [])
    names, specs = field + guest_names, field_specs + guest_specs
    both = sorted(set(field) & set(guest_names))
    if both:
        raise ValueError(f"agents both in the field and guests: {both}")
    for what, value in (("num_games", num_games), ("guest_games", guest_games)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{what} must be a positive int, got {value!r}")
    for spec in specs:  # every agent is made once before any game: bad names fail here
        agent_registry.make_agent(spec, env_id, num_players, seed=seed)
    plan = schedule(len(field), len(guest_names), num_players, num_games, guest_games)
    firsts = np.cumsum([0] + [a.games for a in plan])  # each arrangement's first game
    jobs = [
        (
            [_labelled(agent_registry.make_agent(specs[a], env_id, num_players,
                                                 agent_seed(seed, i, s)), names[a])
             for s, a in enumerate(arrangement.seats)],
            seed + arrangement.first_block,
            arrangement.games,
            int(np.clip(save_games - firsts[i], 0, arrangement.games)),
        )
        for i, arrangement in enumerate(plan)
    ]

    revision = git_revision()  # of the code that plays, before anyone commits meanwhile
    start = time.perf_counter()
    bar = tqdm(total=int(firsts[-1]), unit="game", disable=not progress,
               desc=f"{env_id} {num_players}p tournament", file=sys.stderr)
    try:
        if use_ray:
            results = _play_on_ray(game, jobs, ray_address, bar)
        else:
            results = []
            for seat_agents, deal_seed, games, record in jobs:
                results.append(play_arrangement(game, seat_agents, games, deal_seed, record))
                bar.update(games)
    finally:
        bar.close()
    elapsed = time.perf_counter() - start

    counts = [a.games for a in plan]
    seat_agents = np.repeat(np.array([a.seats for a in plan], dtype=np.int64), counts, axis=0)
    blocks = np.concatenate([a.first_block + np.arange(a.games, dtype=np.int64)
                             for a in plan])
    rewards = np.concatenate([r.rewards for r in results])
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
        games_per_arrangement=plan[0].games,
        arrangements=[a.seats for a in plan],
        seat_agents=seat_agents,
        scores=np.concatenate([r.scores for r in results]).astype(np.float64),
        rewards=rewards,
        truncated=np.concatenate([r.truncated for r in results]),
        deal_seeds=seed + blocks,
        blocks=blocks,
        wins=block_wins.sum(axis=0),
        elo=elo,
        openskill=openskill,
        git_revision=revision,
        decisions=sum(r.decisions for r in results),
        elapsed_s=elapsed,
        used_ray=use_ray,
        records=[r for result in results for r in result.records],
        guests=guest_names,
        guest_games_per_arrangement=plan[-1].games if guest_names else 0,
        trained={name: checkpoint_source(spec) for name, spec in zip(names, specs, strict=True)
                 if agent_registry.looks_like_checkpoint(spec)},
    )


def checkpoint_source(path: str) -> str:
    """How a trained agent came about: the command that reproduces its checkpoint and its
    training steps, as the trainer stored them in the checkpoint (``agents.policy``'s
    ``command``), so that benchmarks need nothing of ``train``."""
    from agents.policy import checkpoint_info

    info = checkpoint_info(path)
    steps = f"{int(info.get('timesteps', 0)):,} timesteps"
    if not info.get("command"):  # written before checkpoints named their command
        return f"checkpoint {path} ({steps})"
    return f"trained by `{info['command']}` ({steps})"


def _parse_names(agent_names: Sequence[str] | str, least: int = 2
                 ) -> tuple[list[str], list[str]]:
    """The agents' labels and what makes each (a name or a path; ``label=path`` entries)."""
    if isinstance(agent_names, str):
        agent_names = agent_names.split(",")
    entries = [n.strip() for n in agent_names]
    if any(not n for n in entries):
        raise ValueError(f"empty agent name in {list(agent_names)!r}")
    # A label has no ':', which tells label=path from an agent's own options
    # (ismcts:simulations=200, itself a name).
    pairs = [entry.partition("=")[::2] if ":" not in entry.partition("=")[0] and "=" in entry
             else (entry, entry) for entry in entries]
    names, specs = [label.strip() for label, _ in pairs], [spec.strip() for _, spec in pairs]
    if any(not n for n in names + specs):
        raise ValueError(f"an empty label or path in {entries!r} (write label=path)")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"agents repeated in the tournament: {repeated}")
    if len(names) < least:
        raise ValueError(f"a tournament needs at least {least} agents, got {names}")
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


def _play_on_ray(game: Game, jobs: list, address: str | None, bar: tqdm
                 ) -> list[MatchResult]:
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        init_ray(address)
    try:
        task = ray.remote(play_arrangement)
        game_ref = ray.put(game)
        pending = {task.remote(game_ref, seat_agents, games, deal_seed, record): i
                   for i, (seat_agents, deal_seed, games, record) in enumerate(jobs)}
        results: list[MatchResult | None] = [None] * len(jobs)
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                results[pending[ref]] = ray.get(ref)
                bar.update(jobs[pending[ref]][2])
        return results  # type: ignore[return-value]
    finally:
        if started:
            ray.shutdown()


# ----------------------------------------------------------------------- the command
DEFAULT_OUT = "runs/tournaments"  # each run writes a new folder <env>_<P>p_<time> in it


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tournament",
        description="Plays a seat-balanced round robin with duplicate deals between the "
                    "agents, prints an Elo table (Bradley-Terry ML, random = 1000, 95% "
                    "bootstrap CI) and OpenSkill ratings, and writes them as "
                    "<out>/<env>_elo.md and .csv (by default <out> is a new folder "
                    f"{DEFAULT_OUT}/<env>_<P>p_<time>, e.g. cairo_3p_20250101-120000). "
                    "Game counts are rounded up to whole duplicate deals; the command "
                    "says so when it rounds.",
    )
    parser.add_argument("--env", required=True, help="env id (see envs.list_envs())")
    parser.add_argument("--players", type=int, default=None,
                        help="seats per game (default: the game's default count)")
    parser.add_argument("--agents", default=None,
                        help="comma-separated agent names or checkpoint paths (label=path "
                             "names one; ismcts:simulations=200 sets a search agent's "
                             "options; default: random and the game's scripted baselines)")
    parser.add_argument("--games", type=int, default=600,
                        help="games to play, rounded up to whole duplicate deals: a deal is "
                             "played in every seat arrangement (600)")
    parser.add_argument("--guests", default=None,
                        help="comma-separated agents rated against the field in "
                             "--guest-games games each instead of the whole round robin "
                             "(e.g. ismcts or openspiel_ismcts, too slow for all of it)")
    parser.add_argument("--guest-games", type=int, default=150,
                        help="games of each guest, rounded up to whole deals: each guest "
                             "plays every lineup of the field in every seat, so with 3 "
                             "players and 3 field agents 6 becomes 18 (150)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (0)")
    parser.add_argument("--out", default=None,
                        help="folder for the Markdown and CSV tables, <out>/<env>_elo.md "
                             "(default: a new folder per run, "
                             f"{DEFAULT_OUT}/<env>_<P>p_<time>, e.g. cairo_3p_20250101-120000)")
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
    if args.games < 1 or args.guest_games < 1 or args.save_games < 0:
        parser.error("--games and --guest-games must be positive and --save-games not "
                     "negative")
    retain_freed_memory()  # batched play: see envs.core.memory
    names = args.agents if args.agents is not None else [
        agent_registry.RANDOM, *agent_registry.list_baselines(args.env)]
    result = run_tournament(
        args.env, args.players, names, args.games, seed=args.seed,
        use_ray=args.ray or args.ray_address is not None, ray_address=args.ray_address,
        progress=args.progress, bootstrap_samples=args.bootstrap, save_games=args.save_games,
        guests=args.guests or (), guest_games=args.guest_games,
    )
    print(result.to_markdown())
    played = result.field_arrangements * result.games_per_arrangement
    if played != args.games:
        print(f"note: {args.games} games asked, {played} played: every one of the "
              f"{result.field_arrangements} seat arrangements plays the same deals")
    if result.guests:
        per_guest = ((len(result.arrangements) - result.field_arrangements)
                     // len(result.guests) * result.guest_games_per_arrangement)
        if per_guest != args.guest_games:
            print(f"note: {args.guest_games} guest games asked, {per_guest} played by each "
                  f"guest: every guest plays the same deals in each of its "
                  f"{per_guest // result.guest_games_per_arrangement} seat arrangements "
                  "(every lineup of the field, every seat)")
    out = args.out or Path(DEFAULT_OUT) / (
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
