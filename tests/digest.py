"""Digests of what the contract shows over random play, to prove a port leaves a game the same.

    python -m tests.digest --env cairo --out /tmp/cairo.json       # play and digest
    python -m tests.digest --env cairo --check                      # against the committed file
    python -m tests.digest --env cairo --write                      # (re)write the committed file

Run it from the root of the tree to digest (``python -m`` puts that tree's packages first).
The committed figures live in ``tests/golden/digests/<env>.json``; a port must leave every one
equal (with a fresh numba cache: ``NUMBA_CACHE_DIR=$(mktemp -d)``, see ``envs.core.jit``).

What is digested is what a user of the contract sees, never the state's fields (a port may
group them): after ``init`` and after every step, the legal mask, every seat's observation
(and the acting seats' as one (B,) call), the rewards, ``terminated``/``truncated``, the
scores, the seat to act and the name of the decision asked in every row, and the automatic
decisions of ``step_record``. Games are played with random legal actions from a fixed
generator, for every player count and option set (the defaults, then each option's other
values one at a time; an int option takes a tenth of its default, so a game with a turn cap
is run to it), through

* ``make_game`` at B = 1 (three games), B = 5 and B = 64 (every game to its end),
* the PettingZoo AEC env (two episodes: ``last()`` and every agent's ``observe``),
* the auto-resetting vector env at B = 16 (a fixed number of steps, many games restarted),

and each scripted baseline plays whole games against itself at B = 4 (default options):
its actions are digested exactly and its ``action_values`` as a fingerprint (a weighted sum
over the legal actions, with the sum of the weighted absolute values as its scale), compared
with a relative tolerance of 1e-9, since a compiled sum may add in another order.

Each configuration keeps one hash per kind; ``--out`` also keeps a short hash per step, so
two such files name the first step that differs (``--compare``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

import agents
import envs

GOLDEN = Path(__file__).resolve().parent / "golden" / "digests"
KINDS = ("mask", "obs", "rewards", "scores", "turn", "auto", "agent")
VEC_STEPS = 700
VALUES_RTOL = 1e-9


class Digest:
    """Running hashes of one configuration: one per kind, and a short one per step."""

    def __init__(self) -> None:
        self.kinds = {kind: hashlib.blake2b(digest_size=12) for kind in KINDS}
        self.steps: list[str] = []
        self.values = np.zeros(2)  # the action values' fingerprint and its scale
        self._step = hashlib.blake2b(digest_size=6)

    def add(self, kind: str, *values: Any) -> None:
        for value in values:
            value = np.ascontiguousarray(value)
            head = f"{value.dtype.str}{value.shape}".encode()
            for target in (self.kinds[kind], self._step):
                target.update(head)
                target.update(value.tobytes())

    def add_text(self, kind: str, text: str) -> None:
        self.add(kind, np.frombuffer(text.encode(), dtype=np.uint8))

    def end_step(self) -> None:
        self.steps.append(self._step.hexdigest())
        self._step = hashlib.blake2b(digest_size=6)

    def result(self, with_steps: bool) -> dict[str, Any]:
        out: dict[str, Any] = {k: h.hexdigest() for k, h in self.kinds.items()}
        out["num_steps"] = len(self.steps)
        if self.values[1]:
            out["values"] = self.values.tolist()
        if with_steps:
            out["steps"] = self.steps
        return out


def option_sets(game_class: type) -> dict[str, dict[str, Any]]:
    """The defaults, then each option's other values one at a time; a value the game takes
    only beside another option's (batavia's ``open_layout`` needs ``variant="open"``) on top
    of the first set before it that makes it valid."""
    sets: dict[str, dict[str, Any]] = {"default": {}}
    for key, default in game_class.OPTIONS.items():
        if isinstance(default, bool):
            others = [not default]
        elif isinstance(default, int):
            others = [max(1, default // 10)]
        else:
            others = [v for v in game_class.OPTION_CHOICES.get(key, ()) if v != default]
        for value in others:
            for base in list(sets.values()):
                options = {**base, key: value}
                try:
                    game_class(**options)
                except ValueError:
                    continue
                sets[",".join(f"{k}={v}" for k, v in options.items())] = options
                break
    return sets


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int64)


def _digest_turn(game, state, digest: Digest) -> None:
    """The seat to act, the decision asked in every live row, and the automatic decisions."""
    digest.add("turn", state.current_player)
    names = [game.decision_name(state, r) if not state.done[r] else ""
             for r in range(state.batch_size)]
    digest.add_text("turn", "|".join(names))
    record = game.step_record(state)
    auto = [(r, *decision) for r in range(state.batch_size)
            for decision in record.automatic_of(r)]
    digest.add("auto", np.asarray(auto, dtype=np.int64).reshape(-1, 4))


def _digest_state(game, state, digest: Digest) -> np.ndarray:
    mask = np.asarray(game.legal_action_mask(state))
    digest.add("mask", mask)
    for seat in range(game.num_players):
        digest.add("obs", game.observe(state, seat))
    digest.add("obs", game.observe(state, np.maximum(state.current_player, 0)))
    digest.add("rewards", state.rewards, state.terminated, state.truncated)
    digest.add("scores", np.asarray(game.scores(state), dtype=np.float64))
    _digest_turn(game, state, digest)
    digest.end_step()
    return mask


def play_batch(game, batch: int, seed: int, rng_seed: int) -> Digest:
    """Random games through ``make_game`` at batch size ``batch``, every game to its end."""
    digest = Digest()
    rng = np.random.default_rng(rng_seed)
    state = game.init(batch, seed=seed)
    mask = _digest_state(game, state, digest)
    for _ in range(game.max_decisions + 1):
        if state.done.all():
            break
        state = game.step(state, _random_actions(mask, rng))
        mask = _digest_state(game, state, digest)
    if not state.done.all():
        raise AssertionError(f"{game.ENV_ID}: a game outlived max_decisions")
    return digest


def play_aec(env_id: str, players: int, options: dict[str, Any], rng_seed: int) -> Digest:
    """Two random episodes of the PettingZoo AEC env."""
    digest = Digest()
    rng = np.random.default_rng(rng_seed)
    env = envs.make_env(env_id, players, **options)
    for episode in range(2):
        env.reset(seed=7 if episode == 0 else None)
        for _agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            digest.add("mask", obs["action_mask"])
            digest.add("obs", obs["observation"],
                       *[env.observe(a)["observation"] for a in env.possible_agents])
            digest.add("rewards", np.array([reward, termination, truncation], dtype=np.float64))
            digest.add("scores", np.asarray(info.get("scores", np.zeros(0)), dtype=np.float64))
            digest.add_text("turn", env.agent_selection)
            digest.end_step()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(rng.random() * legal.size)])
            env.step(action)
    return digest


def play_vec(env_id: str, players: int, options: dict[str, Any], rng_seed: int) -> Digest:
    """The auto-resetting vector env at B = 16 for ``VEC_STEPS`` random steps."""
    digest = Digest()
    rng = np.random.default_rng(rng_seed)
    vec = envs.make_vec(env_id, 16, players, seed=200, **options)
    obs, info = vec.reset()
    digest.add("obs", obs)
    digest.add("mask", info["action_mask"])
    digest.end_step()
    for _ in range(VEC_STEPS):
        obs, rewards, terminated, truncated, info = vec.step(
            _random_actions(info["action_mask"], rng))
        digest.add("obs", obs, info["final_observation"])
        digest.add("mask", info["action_mask"])
        digest.add("rewards", rewards, terminated, truncated)
        digest.add("scores", info["final_scores"])
        digest.add("turn", info["current_player"])
        digest.end_step()
    return digest


def play_agent(env_id: str, players: int, name: str, seed: int) -> Digest:
    """A scripted agent playing every seat of B = 4 games to their end: its actions, and a
    fingerprint of its ``action_values`` at every decision."""
    game = envs.make_game(env_id, players)
    agent = agents.make_agent(name, env_id, players, seed=seed)
    digest = Digest()
    weights = np.random.default_rng(seed).uniform(1.0, 2.0, game.num_actions)
    state = game.init(4, seed=seed)
    for _ in range(game.max_decisions + 1):
        if state.done.all():
            break
        seats = np.maximum(state.current_player, 0)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        for seat in np.unique(seats[~state.done]):
            acting = ~state.done & (seats == seat)
            chosen = np.asarray(agent.act(game, state, int(seat)))
            actions[acting] = chosen[acting]
            values = np.asarray(agent.action_values(game, state, int(seat)))[acting]
            legal = np.asarray(game.legal_action_mask(state))[acting]
            values = np.where(legal, values, 0.0)
            digest.values += (float((values * weights).sum()),
                              float((np.abs(values) * weights).sum()))
        digest.add("agent", actions)
        digest.end_step()
        state = game.step(state, actions)
    return digest


def configurations(env_id: str, quick: bool) -> Iterator[tuple[str, Any]]:
    """``(name, thunk)`` of every configuration; ``quick``: default options, B = 1 (one
    game), B = 5 and the AEC env, for every player count."""
    game_class = type(envs.make_game(env_id))
    sets = {"default": {}} if quick else option_sets(game_class)
    for players in game_class.PLAYER_COUNTS:
        for set_name, options in sets.items():
            base = f"{players}p/{set_name}"
            game = envs.make_game(env_id, players, **options)
            for i in range(1 if quick else 3):
                yield f"{base}/B1/seed{i}", lambda g=game, i=i: play_batch(g, 1, i, 10 + i)
            yield f"{base}/B5", lambda g=game: play_batch(g, 5, 10, 20)
            if not quick:
                yield f"{base}/B64", lambda g=game: play_batch(g, 64, 100, 30)
            yield f"{base}/aec", lambda p=players, o=options: play_aec(env_id, p, o, 40)
            if not quick:
                yield f"{base}/vec16", lambda p=players, o=options: play_vec(env_id, p, o, 50)
        if not quick:
            for name in agents.list_baselines(env_id):
                yield (f"{players}p/agent={name}",
                       lambda p=players, n=name: play_agent(env_id, p, n, 300))


def run(env_id: str, quick: bool = False, with_steps: bool = False,
        only: str | None = None, verbose: bool = True) -> dict[str, dict[str, Any]]:
    """Play and digest every configuration of ``env_id`` (those whose name contains
    ``only``, when given)."""
    results = {}
    for name, thunk in configurations(env_id, quick):
        if only and only not in name:
            continue
        started = time.perf_counter()
        results[name] = thunk().result(with_steps)
        if verbose:
            print(f"{env_id} {name}: {time.perf_counter() - started:.1f} s", file=sys.stderr,
                  flush=True)
    return results


def differences(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]
                ) -> list[str]:
    """One line per configuration that differs (only the configurations both have when one
    side is a subset, e.g. a quick run against the full committed file)."""
    lines = []
    for name in sorted(set(before) & set(after)):
        a, b = before[name], after[name]
        kinds = [k for k in (*KINDS, "num_steps") if a.get(k) != b.get(k)]
        if "values" in a or "values" in b:
            (x, scale), (y, _) = a.get("values", (0.0, 0.0)), b.get("values", (0.0, 0.0))
            if abs(x - y) > VALUES_RTOL * max(scale, 1e-300):
                kinds.append("values")
        if not kinds:
            continue
        where = ""
        if "steps" in a and "steps" in b:
            pairs = zip(a["steps"], b["steps"], strict=False)
            first = next((i for i, (s, t) in enumerate(pairs) if s != t),
                         min(len(a["steps"]), len(b["steps"])))
            where = f" from step {first}"
        lines.append(f"{name}: differs in {', '.join(kinds)}{where} "
                     f"({a['num_steps']} vs {b['num_steps']} steps)")
    return lines


def committed(env_id: str) -> dict[str, dict[str, Any]]:
    return json.loads((GOLDEN / f"{env_id}.json").read_text())["results"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.digest", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, choices=envs.list_envs())
    parser.add_argument("--quick", action="store_true",
                        help="default options only, B = 1 (one game), B = 5 and the AEC env")
    parser.add_argument("--only", help="only the configurations whose name contains this")
    parser.add_argument("--out", help="write the digests, with a hash per step, to this file")
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed digests (exit 1 if any differs)")
    parser.add_argument("--write", action="store_true",
                        help=f"write the committed digests ({GOLDEN}/<env>.json); after "
                        "--quick or --only, those configurations replace theirs, the others stay")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="compare two --out files instead of playing")
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(Path(p).read_text())["results"] for p in args.compare)
        lines = differences(before, after)
        print("\n".join(lines) or f"all {len(set(before) & set(after))} equal")
        return 1 if lines else 0
    results = run(args.env, args.quick, with_steps=bool(args.out), only=args.only)
    if args.out:
        Path(args.out).write_text(json.dumps({"env": args.env, "results": results}))
    if args.write:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        partial = args.quick or args.only
        payload = {"env": args.env, "results": {**committed(args.env), **results} if partial
                   else results}
        (GOLDEN / f"{args.env}.json").write_text(json.dumps(payload, indent=1) + "\n")
    if args.check:
        lines = differences(committed(args.env), results)
        print("\n".join(lines) or f"{args.env}: all {len(results)} configurations equal")
        return 1 if lines else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
