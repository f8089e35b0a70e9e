"""Digests of random Kairo play, to show that a refactor leaves every game byte-identical.

    python tests/cairo/digest_cairo.py --out /tmp/before.json      # in the tree to check
    python tests/cairo/digest_cairo.py --compare /tmp/before.json /tmp/after.json

Run it from the root of the tree whose ``envs`` is to be digested (that tree's packages are
imported, whatever the installed ones are). For every player count (2-4) and option set
(default, ``reveal_money=False``, ``auto_pay=True``, ``move_requires_blocked=False`` and a
small ``max_turns``) it plays random legal actions, drawn from a fixed generator, through

* ``make_game`` at B = 1 (three games alone), B = 5 and B = 64 (every game to its end),
* the PettingZoo AEC env (two episodes),
* the auto-resetting vector env at B = 16 (a fixed number of steps, many games restarted),

and digests, after ``init`` and after every step, the legal mask, the observation of every
seat (each seat as an int, and the acting seats as a (B,) array), every state field but
``revealed`` (a field added later: compare the fields both trees have), and the rewards (with
the AEC env's ``last()`` and the vector env's infos). Each configuration gives one digest per
kind and one short digest per step, so a comparison names the first step that differs.
It writes nothing into the repository: ``--out`` is a path of your choice.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.getcwd())  # the tree being digested, not the installed packages

import numpy as np

import envs

OPTION_SETS = {
    "default": {},
    "hidden_money": {"reveal_money": False},
    "auto_pay": {"auto_pay": True},
    "loose_move": {"move_requires_blocked": False},
    "short": {"max_turns": 30},
}
PLAYERS = (2, 3, 4)
SKIPPED_FIELDS = {"revealed"}
VEC_STEPS = 700


class Digest:
    """Running digests of one configuration: one per kind and a short one per step."""

    KINDS = ("mask", "obs", "state", "rewards")

    def __init__(self) -> None:
        self.kinds = {kind: hashlib.blake2b(digest_size=16) for kind in self.KINDS}
        self.steps: list[str] = []
        self._step = hashlib.blake2b(digest_size=6)

    def add(self, kind: str, *arrays) -> None:
        for value in arrays:
            value = np.ascontiguousarray(value)
            head = f"{value.dtype.str}{value.shape}".encode()
            for target in (self.kinds[kind], self._step):
                target.update(head)
                target.update(value.tobytes())

    def end_step(self) -> None:
        self.steps.append(self._step.hexdigest())
        self._step = hashlib.blake2b(digest_size=6)

    def result(self) -> dict:
        return {"kinds": {k: h.hexdigest() for k, h in self.kinds.items()},
                "steps": self.steps}


def _state_arrays(state) -> list[np.ndarray]:
    arrays = state.arrays()
    return [arrays[name] for name in sorted(arrays) if name not in SKIPPED_FIELDS]


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int64)


def _digest_state(game, state, digest: Digest) -> np.ndarray:
    mask = game.legal_action_mask(state)
    digest.add("mask", mask)
    for seat in range(game.num_players):
        digest.add("obs", game.observe(state, seat))
    digest.add("obs", game.observe(state, np.maximum(state.current_player, 0)))
    digest.add("state", *_state_arrays(state))
    digest.add("rewards", state.rewards)
    digest.end_step()
    return mask


def play_batch(game, batch: int, seed: int, rng_seed: int) -> dict:
    digest = Digest()
    rng = np.random.default_rng(rng_seed)
    state = game.init(batch, seed=seed)
    mask = _digest_state(game, state, digest)
    for _ in range(game.max_decisions + 1):
        if state.done.all():
            break
        state = game.step(state, _random_actions(mask, rng))
        mask = _digest_state(game, state, digest)
    assert state.done.all(), "a game outlived max_decisions"
    return digest.result()


def play_aec(env_id: str, players: int, options: dict, rng_seed: int) -> dict:
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
            digest.add("rewards", np.array([reward, termination, truncation], dtype=np.float64),
                       np.asarray(info.get("scores", np.zeros(0)), dtype=np.float64))
            digest.add("state", *_state_arrays(env.state))
            digest.end_step()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(rng.random() * legal.size)])
            env.step(action)
    return digest.result()


def play_vec(env_id: str, players: int, options: dict, rng_seed: int) -> dict:
    digest = Digest()
    rng = np.random.default_rng(rng_seed)
    vec = envs.make_vec(env_id, 16, players, seed=200, **options)
    obs, info = vec.reset()
    digest.add("obs", obs)
    digest.add("mask", info["action_mask"])
    digest.add("state", *_state_arrays(vec.state))
    digest.end_step()
    for _ in range(VEC_STEPS):
        obs, rewards, terminated, truncated, info = vec.step(
            _random_actions(info["action_mask"], rng))
        digest.add("obs", obs, info["final_observation"])
        digest.add("mask", info["action_mask"])
        digest.add("rewards", rewards, terminated, truncated, info["final_scores"],
                   info["current_player"])
        digest.add("state", *_state_arrays(vec.state))
        digest.end_step()
    return digest.result()


def run(quick: bool) -> dict:
    results = {}
    option_sets = {"default": {}} if quick else OPTION_SETS
    for players in PLAYERS:
        for name, options in option_sets.items():
            game = envs.make_game("cairo", players, **options)
            base = f"{players}p/{name}"
            started = time.perf_counter()
            for i in range(1 if quick else 3):
                results[f"{base}/B1/seed{i}"] = play_batch(game, 1, i, 10 + i)
            results[f"{base}/B5"] = play_batch(game, 5, 10, 20)
            if not quick:
                results[f"{base}/B64"] = play_batch(game, 64, 100, 30)
            results[f"{base}/aec"] = play_aec("cairo", players, options, 40)
            if not quick:
                results[f"{base}/vec16"] = play_vec("cairo", players, options, 50)
            print(f"{base}: {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return results


def compare(before_path: str, after_path: str) -> int:
    with open(before_path) as f:
        before = json.load(f)["results"]
    with open(after_path) as f:
        after = json.load(f)["results"]
    failures = 0
    for name in sorted(set(before) | set(after)):
        if name not in before or name not in after:
            print(f"{name}: only in {'before' if name in before else 'after'}")
            failures += 1
            continue
        a, b = before[name], after[name]
        if a == b:
            continue
        failures += 1
        kinds = [k for k in Digest.KINDS if a["kinds"][k] != b["kinds"][k]]
        pairs = zip(a["steps"], b["steps"], strict=False)
        first = next((i for i, (x, y) in enumerate(pairs) if x != y),
                     min(len(a["steps"]), len(b["steps"])))
        print(f"{name}: differs in {', '.join(kinds) or 'length'} from step {first} "
              f"({len(a['steps'])} vs {len(b['steps'])} steps)")
    total = len(set(before) | set(after))
    print(f"{total - failures} of {total} configurations equal")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the digests to this JSON file")
    parser.add_argument("--quick", action="store_true",
                        help="default options only, B = 1 and 5 and the AEC env")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="compare two digest files instead of playing")
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    print(f"digesting {os.path.dirname(envs.__file__)}", file=sys.stderr)
    results = run(args.quick)
    payload = {"tree": os.getcwd(), "results": results}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(payload, f)
    steps = sum(len(r["steps"]) for r in results.values())
    print(f"{len(results)} configurations, {steps} digested steps", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
