"""Compile every game's kernels ahead of time: ``python -m envs.compile``.

The rules are compiled by numba on their first use and cached on disk (``envs.core.jit``:
under ``$TRADEWINDS_CACHE_DIR``, else ``~/.cache/tradewinds``, in a folder named by the
digest of the rules' sources). Run this once after an install, or before starting workers
that share one cache folder (Ray workers, a read-only install: point
``TRADEWINDS_CACHE_DIR`` at a writable folder they all read), so that no process pays the
compile at its first step. It plays a few random decisions of every game at every player
count, on one thread and on several, which compiles every kernel: several games at once,
one process a core (numba compiles on one core; the four games' serial kernels take 5
minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import envs
from envs.core.jit import CACHE_DIR, check_threads
from envs.core.sampling import sample_actions

# Enough rows for the batch kernels to run on two threads (the parallel kernels).
_PARALLEL_ROWS = 64


def compile_game(env_id: str, num_players: int, steps: int = 5,
                 threads: tuple[int, ...] | None = None) -> None:
    """Compile ``env_id``'s kernels for ``num_players`` seats: init, step, observe,
    observe_rows, reset_rows, scores and the rest, serial and parallel (``threads``: 1 for
    the serial kernels, more for the parallel ones; by default both where numba has two
    threads)."""
    game = envs.make_game(env_id, num_players)
    generator = np.random.default_rng(0)
    for count in threads or ([1, 2] if _two_threads() else [1]):
        game.with_threads(count)
        state = game.init(_PARALLEL_ROWS if count > 1 else 1, seed=0)
        for _ in range(steps):
            game.observe(state, np.maximum(state.current_player, 0))
            game.step(state, sample_actions(game.legal_action_mask(state), generator))
        rows = np.arange(state.batch_size)
        game.observe_rows(state, rows, state.current_player)
        game.reset_rows(state, rows, rows)
        game.scores(state)
        game.ranking_keys(state)
        game.settle(state)
        game.refresh(state)


def compile_env(env_id: str, threads: tuple[int, ...] | None = None) -> list[str]:
    """Compile one game at every player count; a line of seconds per count."""
    lines = []
    for players in envs.game_class(env_id).PLAYER_COUNTS:
        started = time.perf_counter()
        compile_game(env_id, players, threads=threads)
        lines.append(f"{env_id} {players}p: {time.perf_counter() - started:.1f} s")
    return lines


def compile_envs(env_ids: list[str], jobs: int = 1,
                 threads: tuple[int, ...] | None = None) -> None:
    """Compile ``env_ids`` (printing the seconds of each), ``jobs`` games at once."""
    if jobs == 1:
        for env_id in env_ids:
            print("\n".join(compile_env(env_id, threads)), flush=True)
        return
    # The largest rules first, so that the longest compiles do not start last; a fresh
    # interpreter per worker, as numba's threading layer is not safe across a fork.
    env_ids = sorted(env_ids, key=_source_size, reverse=True)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for lines in pool.map(compile_env, env_ids, [threads] * len(env_ids)):
            print("\n".join(lines), flush=True)


def _source_size(env_id: str) -> int:
    """The bytes of a game's package sources: a proxy for the time its kernels compile."""
    package = Path(sys.modules[envs.game_class(env_id).__module__].__file__).parent
    return sum(path.stat().st_size for path in package.rglob("*.py"))


def _two_threads() -> bool:
    try:
        check_threads(2)
    except ValueError:
        return False
    return True


def _threads(text: str) -> tuple[int, ...]:
    try:
        return tuple(check_threads(int(part)) for part in text.split(","))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.compile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", action="append", choices=envs.list_envs(),
                        help="only this game (repeat for several; default: every game)")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                        help="games compiled at once, one process each (default: one a "
                             "core, here %(default)s)")
    parser.add_argument("--threads", type=_threads, default=None,
                        help="thread counts to compile for, e.g. 1 for the serial kernels "
                             "only (default: 1,2 where numba has two threads)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    print(f"cache: {CACHE_DIR}")
    compile_envs(args.env or envs.list_envs(), args.jobs, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
