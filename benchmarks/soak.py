"""Soak test: batched random play checking the rules' invariants after every step.

    python -m benchmarks.soak --env cairo --games 10000 [--players 2,3,4] [--batch 1024]
                              [--seed 0] [--policy uniform] [--check step|end]

Games are played in waves of ``--batch`` rows seeded ``seed, seed + 1, ...`` with uniform
legal actions, or with ``--policy NAME``: an agent of the game (``agents.list_agents``), or
a policy its agents module offers for soaks in ``SOAK_POLICIES`` (a random policy biased
towards the rules uniform play seldom reaches, e.g. discoveries' ``contract_biased``).
After every step the game's ``check_invariants`` runs on the whole batch; with ``--check
end`` only once every game of the wave has ended, on the final positions (many more games an
hour, for the long soaks). A violation stops the run, prints the seed and the action sequence
that replay it on a single game, and writes that game's record (``envs.records``) under
``--out`` (default ``runs/soak``), which ``python -m envs.replay FILE`` prints position by
position. At the end: games/s, env-steps/s, decisions per game, how many games hit the safety
cap (truncated) per player count, and the automatic decisions applied (by decision) and the
decisions asked with a single legal action.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from tqdm import tqdm

import envs
from envs import records
from envs.core import cli
from envs.core.memory import retain_freed_memory
from envs.core.sampling import sample_actions


class InvariantViolation(AssertionError):
    """An invariant failed; the message holds the replay recipe, ``game`` (the seed and the
    actions of the failing game, for its record) when one game is to blame."""

    def __init__(self, message: str, game: tuple[int, list[int]] | None = None):
        super().__init__(message)
        self.game = game


def write_record(game, seed: int, actions: list[int], player: str, out: Path) -> Path:
    """The record of the game ``game.init(1, seed)`` played by ``actions`` (each seat by
    ``player``), written to ``out/<env>_<P>p_seed<seed>.jsonl``."""
    recorder = records.Recorder(game, seed, [player] * game.num_players)
    state = game.init(1, seed=seed)
    recorder.start(state)
    for action in actions:
        recorder.before(state)
        state = game.step(state, np.array([action]))
        recorder.after(state, action)
    recorder.finish(state)
    return recorder.write(out / f"{game.ENV_ID}_{game.num_players}p_seed{seed}.jsonl")


def replay_recipe(env_id: str, players: int, seed: int, actions: list[int],
                  problems: list[str]) -> str:
    return (
        f"invariant violated in {env_id} ({players} players), game seed {seed}, "
        f"after {len(actions)} actions:\n  " + "\n  ".join(problems[:10]) +
        f"\nreplay:\n  import envs, numpy as np\n"
        f"  game = envs.make_game({env_id!r}, {players})\n"
        f"  state = game.init(1, seed={seed})\n"
        f"  for a in {actions}:\n"
        f"      state = game.step(state, np.array([a]))\n"
        f"  print(game.check_invariants(state))"
    )


UNIFORM = "uniform"


def soak_policies(env_id: str) -> dict:
    """The soak policies a game's agents module offers (``SOAK_POLICIES``), by name."""
    try:
        module = importlib.import_module(f"agents.{env_id}")
    except ModuleNotFoundError as error:
        if error.name != f"agents.{env_id}":
            raise
        return {}
    return dict(getattr(module, "SOAK_POLICIES", {}))


def make_policy(env_id: str, players: int, name: str, seed: int):
    """The agent that plays every seat of a soak (None: masked-uniform actions)."""
    if name == UNIFORM:
        return None
    policies = soak_policies(env_id)
    if name in policies:
        return policies[name](players, seed)
    import agents

    return agents.make_agent(name, env_id, players, seed=seed)


def soak_wave(game, batch: int, seed: int, policy=None, counts: Counter | None = None,
              every_step: bool = True) -> tuple[int, int, int]:
    """Play one wave to the end; returns (games, env-steps, truncated games).

    Args:
        policy: the agent that plays every seat (None: masked-uniform actions).
        counts: where to add the automatic decisions applied (by decision name) and the
            decisions asked with one legal action ("asked with one action").
        every_step: check the invariants after every step (False: on the final positions).

    Raises:
        InvariantViolation: with the seed and actions of the first failing row.
    """
    state = game.init(batch, seed=seed)
    generator = np.random.default_rng(seed)
    history = []
    steps = 0
    counts = Counter() if counts is None else counts
    while not state.done.all():
        live = ~state.done
        mask = game.legal_action_mask(state)
        if policy is None:
            actions = sample_actions(mask, generator)
        else:
            actions = np.where(live, policy.act(game, state, state.current_player), 0)
        counts["asked with one action"] += int((mask.sum(axis=1) == 1)[live].sum())
        history.append(np.where(live, actions, -1))
        state = game.step(state, actions)
        for auto in game.step_record(state).automatic:
            for phase, n in zip(*np.unique(auto.phases, return_counts=True), strict=True):
                counts[f"automatic {game.phase_name(int(phase))}"] += int(n)
        steps += int(live.sum())
        if every_step or state.done.all():
            _check(game, state, seed, history)
        if len(history) > game.max_decisions:
            raise InvariantViolation(f"{game!r}: a game ran past max_decisions "
                                     f"({game.max_decisions}) in the wave seeded {seed}")
    return batch, steps, int(state.truncated.sum())


def _check(game, state, seed: int, history: list[np.ndarray]) -> None:
    """Raise an ``InvariantViolation`` naming the first failing row's game, if any."""
    problems = game.check_invariants(state)
    if problems:
        row = _failing_row(game, state, problems)
        taken = [int(a) for a in np.array(history)[:, row] if a >= 0]
        raise InvariantViolation(
            replay_recipe(game.ENV_ID, game.num_players, seed + row, taken,
                          game.check_invariants(state.take(row)) or problems),
            game=(seed + row, taken))


def _failing_row(game, state, problems: list[str]) -> int:
    for row in range(state.batch_size):
        if game.check_invariants(state.take(row)):
            return row
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, help=f"env id: {', '.join(envs.list_envs())}")
    parser.add_argument("--games", type=int, default=10000,
                        help="games per player count (default: 10000)")
    parser.add_argument("--players", default="",
                        help="comma-separated player counts (default: every supported count)")
    parser.add_argument("--batch", type=int, default=1024, help="games per wave (default: 1024)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default: 0)")
    parser.add_argument("--policy", default=UNIFORM,
                        help="who plays every seat: uniform (masked-uniform random, the "
                             "default), an agent of the game, or a policy of its agents "
                             "module's SOAK_POLICIES (e.g. contract_biased for discoveries)")
    parser.add_argument("--out", type=Path, default=Path("runs/soak"),
                        help="where the record of a game that breaks an invariant goes "
                             "(default: runs/soak)")
    parser.add_argument("--check", choices=("step", "end"), default="step",
                        help="when the invariants are checked: after every step (the "
                             "default) or on each game's final position")
    cli.add_progress(parser)
    args = parser.parse_args(argv)
    if args.games < 1 or args.batch < 1:
        parser.error("--games and --batch must be positive")
    if "," in args.env:
        parser.error("--env takes one env id")
    env_id = cli.env_ids(parser, args.env)[0]
    players = cli.player_counts(parser, env_id, args.players)
    if args.policy != UNIFORM and args.policy not in soak_policies(env_id):
        import agents

        if args.policy not in agents.list_agents(env_id):
            parser.error(f"--policy {args.policy!r}: valid: {UNIFORM}, "
                         f"{', '.join([*soak_policies(env_id), *agents.list_agents(env_id)])}")
    retain_freed_memory()  # batched play: see envs.core.memory

    for p in players:
        game = envs.make_game(args.env, p)
        policy = make_policy(env_id, p, args.policy, args.seed)
        counts = Counter()
        games = steps = truncated = 0
        start = time.perf_counter()
        with tqdm(total=args.games, desc=f"{args.env} {p}p", unit="game",
                  disable=not args.progress) as progress:
            while games < args.games:
                batch = min(args.batch, args.games - games)
                try:
                    g, s, t = soak_wave(game, batch, args.seed + games, policy, counts,
                                        every_step=args.check == "step")
                except InvariantViolation as err:
                    print(err, file=sys.stderr)
                    if err.game is not None:
                        path = write_record(game, *err.game, args.policy, args.out)
                        print(f"record: {path} (python -m envs.replay {path})",
                              file=sys.stderr)
                    return 1
                games, steps, truncated = games + g, steps + s, truncated + t
                progress.update(g)
        elapsed = time.perf_counter() - start
        played_by = "" if policy is None else f" ({args.policy})"
        when = "every step" if args.check == "step" else "at the end of each game"
        print(f"{args.env} {p}p{played_by}: {games} games clean, {truncated} truncated, "
              f"{steps / games:.0f} decisions/game, {games / elapsed:,.1f} games/s, "
              f"{steps / elapsed:,.0f} env-steps/s (invariants checked {when})")
        if counts:
            print("  per game: " + ", ".join(f"{name} {n / games:.1f}"
                                             for name, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
