"""Where a batched step's time goes: a sampling profile of one game's compiled kernels.

    python -m benchmarks.profile --env cairo [--players 4] [--batch 1024] [--seconds 10]
                                 [--part all|observe|step] [--threads 1] [--top 25]

Plays random games at B = ``--batch`` on one thread (or ``--threads``: the batch kernels'
rows in parallel, every thread sampled) while Linux ``perf`` samples the process, and prints
the functions that hold the time, the rules by name (``cairo.rules.placement._load_board``)
beside NumPy's and Python's own. ``--part`` keeps the loop to the observation (of eight
batches of positions along random play, made before sampling) or to the step (with the mask
it reads and the restart of finished games). On several threads, an idle thread's wait for
the next parallel loop shows as libgomp's spin, an unnamed address of its own.

perf cannot name compiled numba code by itself: it reads the names of code made at run time
from ``/tmp/perf-<pid>.map``. This writes that map from every compiled library that the
game's kernels reach: the symbols of its object code (``nm``), at the addresses where it was
loaded. Only a library compiled in the process keeps its object code, so the profile runs in
a child process whose kernels compile afresh, in a temporary cache (a minute or two).
Needs ``perf`` and ``nm`` (binutils) on the path.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from typing import Any

import numpy as np

import envs
from envs.core import cli
from envs.core.compiled import _MIN_ROWS_PER_THREAD
from envs.core.jit import check_threads
from envs.core.sampling import sample_actions

CHILD_VARIABLE = "TRADEWINDS_PROFILE_CHILD"  # set in the child that plays and is sampled
PARTS = ("all", "observe", "step")


def short_name(symbol: str) -> str:
    """A compiled function's dotted name from its mangled symbol (``_ZN4envs5cairo...``:
    length-prefixed parts, then numba's tags), without the leading ``envs.``; a symbol of
    another form as it is."""
    if not symbol.startswith("_ZN"):
        return symbol
    text, parts = symbol[3:], []
    while text[:1].isdigit():
        digits = re.match(r"\d+", text).group(0)
        end = len(digits) + int(digits)
        parts.append(text[len(digits):end])
        text = text[end:]
    return ".".join(parts).removeprefix("envs.")


def _libraries(kernels: Iterable[Any]) -> list[Any]:
    """Every code library that the compiled ``kernels`` (numba dispatchers) link in."""
    found: dict[int, Any] = {}
    todo = [result.library for kernel in kernels for result in kernel.overloads.values()]
    while todo:
        library = todo.pop()
        if id(library) not in found:
            found[id(library)] = library
            todo.extend(getattr(library, "_linking_libraries", ()))
    return list(found.values())


def code_map(kernels: Iterable[Any]) -> list[tuple[int, int, str]]:
    """(address, size, name) of every function compiled in this process that ``kernels``
    reach, sorted by address: what perf's map of JIT code lists."""
    entries = set()
    for library in _libraries(kernels):
        try:
            code = library._get_compiled_object()
        except (RuntimeError, ValueError):  # loaded from a cache: no object code kept
            continue
        with tempfile.NamedTemporaryFile(suffix=".o") as handle:
            handle.write(code)
            handle.flush()
            listing = subprocess.run(["nm", "-S", "--defined-only", handle.name],
                                     capture_output=True, text=True, check=True).stdout
        symbols = [(int(value, 16), int(size, 16), name) for value, size, kind, name in
                   (line.split() for line in listing.splitlines() if len(line.split()) == 4)
                   if kind in "tT"]
        loaded = ((library.get_pointer_to_function(name), value) for value, _, name in symbols)
        base = next((address - value for address, value in loaded if address), None)
        if base is not None:
            entries.update((base + value, size, short_name(name))
                           for value, size, name in symbols)
    return sorted(entries)


class _Games:
    """Random games at one batch size, finished rows restarted in place."""

    def __init__(self, game: Any, batch: int):
        self.game, self.state = game, game.init(batch, seed=0)
        self.generator = np.random.default_rng(0)
        self.seed = batch

    def step(self) -> None:
        game, state = self.game, self.state
        game.step(state, sample_actions(game.legal_action_mask(state), self.generator))
        ended = np.flatnonzero(state.done)
        if ended.size:
            game.reset_rows(state, ended, self.seed + np.arange(ended.size))
            self.seed += ended.size


def _positions(games: _Games, count: int = 8, apart: int = 25) -> list[Any]:
    """``count`` copies of the batch, ``apart`` steps after one another: the positions that
    the observation alone is profiled on."""
    positions = []
    for _ in range(count):
        for _ in range(apart):
            games.step()
        positions.append(games.state.copy())
    return positions


def _play(games: _Games, part: str, seconds: float, positions: list[Any]) -> int:
    """``part`` of random play for ``seconds``: the batched calls made."""
    game, calls = games.game, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        if part == "observe":
            state = positions[calls % len(positions)]
            game.observe(state, np.maximum(state.current_player, 0))
        else:
            if part == "all":
                game.observe(games.state, np.maximum(games.state.current_player, 0))
            games.step()
        calls += 1
    return calls


def _profile_here(args: argparse.Namespace) -> int:
    """The child: compile, map, play while perf samples, print perf's table."""
    game = envs.make_game(args.env, num_players=args.players).with_threads(args.threads)
    print(f"compiling {args.env} ({args.players} players) in a fresh cache...", flush=True)
    # Every kernel the profile calls, compiled here: the parallel ones need a batch that
    # gives each thread its share of rows.
    small = _Games(game, 2 if args.threads == 1
                   else min(args.batch, _MIN_ROWS_PER_THREAD * args.threads))
    game.observe(small.state, np.maximum(small.state.current_player, 0))
    small.step()
    rows = np.arange(small.state.batch_size)
    for restarted in (rows[:1], rows):  # few rows restart serially, many in parallel
        game.reset_rows(small.state, restarted, restarted + 1)
    spec = small.state._spec  # the serial kernels too: a restart of a few rows runs them
    entries = code_map([*game._kernels(spec, False), *game._kernels(spec, True)])
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        out.writelines(f"{address:x} {size:x} {name}\n" for address, size, name in entries)
    games = _Games(game, args.batch)
    positions = _positions(games) if args.part == "observe" else []
    data = os.path.join(os.environ["TRADEWINDS_CACHE_DIR"], "perf.data")
    recorder = subprocess.Popen(["perf", "record", "-F", "999", "-p", str(os.getpid()),
                                 "-o", data], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # perf attached
    calls = _play(games, args.part, args.seconds, positions)
    recorder.send_signal(signal.SIGINT)
    recorder.wait()
    report = subprocess.run(["perf", "report", "-i", data, "--sort", "sym", "--stdio"],
                            capture_output=True, text=True).stdout
    rows = [line for line in report.splitlines() if line.strip() and not line.startswith("#")]
    threads = "one thread" if args.threads == 1 else f"{args.threads} threads"
    print(f"{args.env} {args.players}p, B = {args.batch}, {threads}, {args.part}: "
          f"{calls} batched calls in {args.seconds:g} s; share of the samples:")
    print("\n".join(line.replace("[.] ", "").replace("[k] ", "") for line in rows[:args.top]))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile",
                                     description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, help="the env id")
    parser.add_argument("--players", type=int, help="player count (default: the game's)")
    parser.add_argument("--batch", type=int, default=1024, help="batch size (default: 1024)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="time sampled (default: 10)")
    parser.add_argument("--part", choices=PARTS, default="all",
                        help="the whole loop, the observation or the step (default: all)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of the batch kernels, all sampled (default: 1)")
    parser.add_argument("--top", type=int, default=25, help="functions shown (default: 25)")
    args = parser.parse_args(argv)
    args.env = cli.env_ids(parser, args.env)[0]
    args.players = cli.player_count(parser, args.env, args.players)
    if args.batch < 1 or args.seconds <= 0 or args.top < 1:
        parser.error("--batch, --seconds and --top must be positive")
    try:
        check_threads(args.threads)
    except ValueError as error:
        parser.error(str(error))
    if os.environ.get(CHILD_VARIABLE):
        return _profile_here(args)
    missing = [tool for tool in ("perf", "nm") if shutil.which(tool) is None]
    if missing:
        parser.error(f"needs {' and '.join(missing)} on the path (Linux perf, binutils)")
    with tempfile.TemporaryDirectory() as cache:
        child = {**os.environ, CHILD_VARIABLE: "1", "TRADEWINDS_CACHE_DIR": cache,
                 "TRADEWINDS_THREADS": str(args.threads)}
        child.pop("NUMBA_CACHE_DIR", None)
        command = [sys.executable, "-m", "benchmarks.profile", *(argv or sys.argv[1:])]
        return subprocess.run(command, env=child).returncode


if __name__ == "__main__":
    sys.exit(main())
