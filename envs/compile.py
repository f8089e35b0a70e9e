"""Compile every game's kernels ahead of time: ``python -m envs.compile``.

The rules are compiled by numba on their first use and cached on disk (``envs.core.jit``:
under ``$TRADEWINDS_CACHE_DIR``, else ``~/.cache/tradewinds``, in a folder named by the
digest of the rules' sources). Run this once after an install, or before starting workers
that share one cache folder (Ray workers, a read-only install: point
``TRADEWINDS_CACHE_DIR`` at a writable folder they all read), so that no process pays the
compile at its first step. It plays a few random decisions of every game at every player
count, on one thread and on several, which compiles every kernel.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import envs
from envs.core.jit import CACHE_DIR, check_threads
from envs.core.sampling import sample_actions

# Enough rows for the batch kernels to run on two threads (the parallel kernels).
_PARALLEL_ROWS = 64


def compile_game(env_id: str, num_players: int, steps: int = 5) -> None:
    """Compile ``env_id``'s kernels for ``num_players`` seats: init, step, observe, scores
    and the rest, serial and parallel."""
    game = envs.make_game(env_id, num_players)
    generator = np.random.default_rng(0)
    threads = [1, 2] if _two_threads() else [1]
    for count in threads:
        game.with_threads(count)
        state = game.init(_PARALLEL_ROWS if count > 1 else 1, seed=0)
        for _ in range(steps):
            game.observe(state, np.maximum(state.current_player, 0))
            game.step(state, sample_actions(game.legal_action_mask(state), generator))
        game.scores(state)
        game.ranking_keys(state)
        game.settle(state)
        game.refresh(state)


def _two_threads() -> bool:
    try:
        check_threads(2)
    except ValueError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.compile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", action="append", choices=envs.list_envs(),
                        help="only this game (repeat for several; default: every game)")
    args = parser.parse_args(argv)
    print(f"cache: {CACHE_DIR}")
    for env_id in args.env or envs.list_envs():
        for players in envs.game_class(env_id).PLAYER_COUNTS:
            started = time.perf_counter()
            compile_game(env_id, players)
            print(f"{env_id} {players}p: {time.perf_counter() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
