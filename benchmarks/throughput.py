"""Env-steps and games per second of every registered game, beside PettingZoo and OpenSpiel.

    python -m benchmarks.throughput [--env cairo] [--players 3] [--batch-sizes 1,64,1024]
                                    [--threads 1,2] [--seconds 2] [--min-batch-steps 600]
                                    [--out benchmarks/results]

Each game is measured at B = 1 through the PettingZoo AEC env and at every batch size through
``make_game`` (via the auto-resetting vector env: every step includes the acting seat's
observation and legal mask). A batched measurement runs for at least ``--min-batch-steps``
steps of the whole batch, so that it averages over whole games (a game's opening placements
cost differently from its middle) rather than over the first moves of B fresh games; the AEC
runs play whole episodes. PettingZoo's ``connect_four_v3`` and
``texas_holdem_no_limit_v6`` AEC envs and OpenSpiel's ``hearts`` (with information-state
tensors) run in the same process with the same masked-uniform random actions, and every
figure is also given as a ratio to ``connect_four_v3``: to ``connect_four_v3`` timed in
quarter-second slices alternating with that figure's own over the same span of time (the
machines we share drift in speed by tens of percent within minutes, and within the seconds
of one figure). A reference whose package is missing is skipped with a note. BLAS threads
are pinned to 1 before NumPy loads; every figure runs on one core except the ones of
``--threads`` above 1, which measure the largest batch again with a compiled game's batch
kernels on that many threads (``TRADEWINDS_THREADS``), and a table gives their speed-up
(of the whole vector step, and of the env's own time from a split on as many threads).

Beside steps/s each figure gives games/s (games finished per second: automatic decisions make
a game's steps fewer and heavier, so steps alone mislead across games) and the minor page
faults per step (memory the allocator maps afresh; ``envs.core.memory`` keeps it low). A
second table splits the time of a batched step at the largest batch size between the acting
seat's observation, the legal mask, the step itself and the restart of finished games. A step
computes the masks of the decisions it leaves to ask (the forced-decision loop reads them
first), so the mask column is the read of that cache and the step's column holds the masks.
Beside the split, the time to write an observation batch's bytes alone (``StoreClock``): the
memory traffic that the observation's size sets, under which no encoder of its layout goes.
A third gives each env's own time, the sampler and the restarts left out on both sides: its
AEC env's ``last`` and ``step``, and a batched step's observation, mask and step per row,
against connect_four_v3's ``last`` and ``step``. The split's thread counts and these own times
are timed in alternating slices over one span (``measure_splits``), as the ratios to
connect_four_v3 are: their ratios are the targets. Each such ratio is the median, over the
rounds of slices, of the ratio within a round (``median_ratio``), and each µs figure of the
own-time table the median of its slices: the shared machines also have bursts of slowness of
a second or less (a core taken away from the guest for a moment), which a mean would count
into whichever figure they hit.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import csv  # noqa: E402
import dataclasses  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

import envs  # noqa: E402
from benchmarks._measure import (  # noqa: E402
    AecOwnClock,
    Counts,
    UnitClock,
    aec_episode_runner,
    alternate,
    median_ratio,
    timed,
    timed_beside,
    vec_runner,
)
from envs.compile import compile_game  # noqa: E402
from envs.core import cli  # noqa: E402
from envs.core.jit import check_threads  # noqa: E402
from envs.core.memory import retain_freed_memory  # noqa: E402
from envs.core.sampling import sample_actions  # noqa: E402

REFERENCE = "pettingzoo connect_four_v3"


@dataclasses.dataclass
class Result:
    system: str
    env: str
    players: int
    mode: str
    batch: int
    steps_per_s: float
    # connect_four_v3's steps/s timed in slices alternating with this figure's, when the run
    # has the reference; the ratio then uses it instead of the run's first reference figure.
    reference: float | None = None
    games_per_s: float | None = None  # games finished per second (tradewinds figures)
    faults_per_step: float | None = None  # minor page faults per batched step
    threads: int = 1  # threads of a compiled game's batch kernels

    @property
    def us_per_row_step(self) -> float:
        return 1e6 / self.steps_per_s


def _connect_four_env():
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def _connect_four() -> Callable[[], int]:
    return aec_episode_runner(_connect_four_env())


def _texas_holdem() -> Callable[[], int]:
    from pettingzoo.classic import texas_holdem_no_limit_v6

    return aec_episode_runner(texas_holdem_no_limit_v6.env())


def _openspiel_hearts() -> Callable[[], int]:
    import pyspiel

    game = pyspiel.load_game("hearts")
    generator = np.random.default_rng(0)

    def run() -> int:
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[generator.choice(len(outcomes), p=probs)])
                continue
            state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(generator.random() * len(legal))])
            steps += 1
        return steps

    return run


def baselines(seconds: float) -> list[Result]:
    """The reference games; one that cannot be imported is skipped with a note."""
    results = []
    for system, env_name, players, factory in (
        ("pettingzoo", "connect_four_v3", 2, _connect_four),
        ("pettingzoo", "texas_holdem_no_limit_v6", 2, _texas_holdem),
        ("openspiel", "hearts", 4, _openspiel_hearts),
    ):
        try:
            runner = factory()
        except ImportError as err:
            print(f"skipping {system} {env_name}: {err}")
            continue
        results.append(Result(system, env_name, players, "AEC" if system == "pettingzoo"
                              else "python", 1, timed(runner, seconds)))
    return results


def measure_game(env_id: str, players: int, batch_sizes: list[int], seconds: float,
                 progress: tqdm, min_batch_steps: int = 0,
                 reference: Callable[[], int] | None = None,
                 threads: tuple[int, ...] = ()) -> list[Result]:
    """The AEC and batched figures of one game and player count, then the largest batch again
    on each of ``threads`` threads above one.

    ``reference`` (a runner of the reference game) is timed in slices alternating with each
    measurement (``timed_beside``): on a machine whose speed drifts, a ratio to a reference
    measured at another time says more about the drift than about the game.
    """
    results = []
    # Every kernel measured compiled first (serial, and parallel for ``threads`` above one):
    # numba compiles on first use, and the parallel ``init`` is first used when 32 games end
    # in one step, mid-measurement.
    compile_game(env_id, players, threads=tuple(sorted({1, *threads})))

    def measure(mode: str, batch: int, run: Callable[[], int], counts: Counts,
                min_steps: int = 0, threads: int = 1) -> None:
        if reference is None:
            rate, beside = timed(run, seconds, min_steps=min_steps), None
        else:
            rate, beside = timed_beside(run, reference, seconds, min_steps=min_steps)
        faults = counts.faults_per_step(batch) if mode == "make_game" else None
        results.append(Result("tradewinds", env_id, players, mode, batch, rate, beside,
                              counts.games_per_s(rate), faults, threads))
        progress.update()

    def measure_batch(batch: int, threads: int = 1) -> None:
        vec = envs.make_vec(env_id, num_envs=batch, num_players=players, seed=0,
                            threads=threads)
        counts = Counts()
        measure("make_game", batch, vec_runner(vec, chunk=min(max(1, 4096 // batch), 64),
                                               counts=counts),
                counts, min_batch_steps * batch, threads)

    progress.set_postfix_str(f"{env_id} {players}p AEC")
    counts = Counts()
    measure("AEC", 1, aec_episode_runner(envs.make_env(env_id, players), counts=counts), counts)
    for batch in batch_sizes:
        progress.set_postfix_str(f"{env_id} {players}p B={batch}")
        measure_batch(batch)
    for count in threads:
        if count > 1:
            progress.set_postfix_str(f"{env_id} {players}p B={max(batch_sizes)} {count} threads")
            measure_batch(max(batch_sizes), count)
        progress.update()
    return results


@dataclasses.dataclass
class Split:
    """Where the time of a batched step goes, in µs per row-step."""

    env: str
    players: int
    batch: int
    observe: float
    mask: float
    step: float
    restart: float
    threads: int = 1
    # The own time (observation, mask and step) in µs per row-step of each slice, and those
    # of the env at B = 1 through the AEC env and of connect_four_v3 timed in the same rounds
    # (``alternate``): µs per decision, ``last`` and ``step`` (``AecOwnClock``); the AEC and
    # reference slices go with the one-thread split, empty when connect_four_v3 is missing.
    own_slices: tuple[float, ...] = ()
    aec_slices: tuple[float, ...] = ()
    reference_slices: tuple[float, ...] = ()
    # µs per row to write an observation batch's bytes alone (``StoreClock``), the median of
    # its slices timed in the same rounds; 0 where not measured (the splits on more threads).
    stores: float = 0.0

    @property
    def total(self) -> float:
        return self.observe + self.mask + self.step + self.restart

    @property
    def own(self) -> float:
        """µs per row-step of the env's own work at this batch: the restart left out."""
        return self.observe + self.mask + self.step


class SplitClock(UnitClock):
    """The vector env's step at ``batch`` on ``threads`` threads, each part timed, a slice at
    a time, in the order ``VecGameEnv.step`` runs them: ``game.step`` (validation, effects,
    automatic decisions and the masks of the decisions left to ask), the restart of the
    games that ended (``reset_rows``), the legal mask (a copy of what the step left) and
    the acting seat's observation; then the random agent picks from the mask. Satisfied
    once it has made ``min_steps`` batched steps.

    The order counts: a mask copied after the observation has written its batch (4-10 MB
    at B = 1024) reads the step's masks back from memory, ~3x the copy's cost right after
    the step, as the vector env makes it."""

    def __init__(self, env_id: str, players: int, batch: int, threads: int = 1,
                 min_steps: int = 0):
        super().__init__()
        self.env_id, self.players, self.batch, self.threads = env_id, players, batch, threads
        self.min_steps = min_steps
        self.game = envs.make_game(env_id, players).with_threads(threads)
        self.generator = np.random.default_rng(0)
        self.state = self.game.init(batch, seed=0)
        self.parts = np.zeros(4)
        self.next_seed, self.steps = batch, 0

    def _unit(self) -> None:  # one batched step, from the mask of the last one
        game, state = self.game, self.state
        t0 = time.perf_counter()
        mask = game.legal_action_mask(state)
        t1 = time.perf_counter()
        game.observe(state, state.current_player)
        t2 = time.perf_counter()
        actions = sample_actions(mask, self.generator)  # the sampler is not the env's time
        t3 = time.perf_counter()
        game.step(state, actions)
        t4 = time.perf_counter()
        ended = np.flatnonzero(state.done)
        if ended.size:
            game.reset_rows(state, ended, self.next_seed + np.arange(ended.size))
            self.next_seed += ended.size
        self.parts += (t2 - t1, t1 - t0, t4 - t3, time.perf_counter() - t4)
        self.steps += 1

    def satisfied(self, seconds: float) -> bool:
        return self.elapsed >= seconds and self.steps >= self.min_steps

    def _tally(self) -> tuple[float, int]:  # the own time: observation, mask and step
        return float(self.parts[:3].sum()), self.steps * self.batch

    def split(self) -> Split:
        observe, mask, step, restart = self.parts * 1e6 / (self.steps * self.batch)
        return Split(self.env_id, self.players, self.batch, observe, mask, step, restart,
                     self.threads, tuple(self.slice_costs))


class StoreClock(UnitClock):
    """The stores of an observation batch alone: a (batch, *shape) float32 array allocated
    and each of its bytes written once (``fill``), a slice at a time. Every observation
    encoder of that size writes at least those bytes, so the observation's µs over these
    are what the encoder adds to the memory traffic that its layout's size sets. A floor
    timed hot: the loop reuses one block, where the vector env's step leaves the next
    observation's block colder."""

    def __init__(self, shape: tuple[int, ...], batch: int):
        super().__init__()
        self.shape = (batch, *shape)
        self.seconds, self.rows = 0.0, 0

    def _unit(self) -> None:  # one batch of observations
        start = time.perf_counter()
        np.empty(self.shape, dtype=np.float32).fill(0)
        self.seconds += time.perf_counter() - start
        self.rows += self.shape[0]

    def satisfied(self, seconds: float) -> bool:
        return self.elapsed >= seconds

    def _tally(self) -> tuple[float, int]:
        return self.seconds, self.rows


def measure_splits(env_id: str, players: int, batch: int, seconds: float,
                   min_batch_steps: int = 0, threads: tuple[int, ...] = (1,),
                   own_time: bool = False) -> list[Split]:
    """The split of the vector env's step at ``batch`` on each of ``threads`` thread counts
    (``SplitClock``), with ``own_time`` the own times of the game's AEC env and of
    connect_four_v3 too (on the first split), all timed in alternating slices over the same
    span (``alternate``): their ratios are the targets, and a drift of the machine's speed
    between measurements taken one after the other would pass for one of them."""
    clocks = [SplitClock(env_id, players, batch, count, min_batch_steps) for count in threads]
    stores = StoreClock(clocks[0].game.observation_shape, batch)
    own = [AecOwnClock(_connect_four_env()), AecOwnClock(envs.make_env(env_id, players))
           ] if own_time else []
    alternate([*clocks, stores, *own], seconds)
    splits = [clock.split() for clock in clocks]
    splits[0].stores = float(np.median(stores.slice_costs))
    if own:
        splits[0].reference_slices, splits[0].aec_slices = (tuple(c.slice_costs) for c in own)
    return splits


def row_cost_fractions(results: list[Result], reference: float | None) -> dict[int, float]:
    """Per batched ``make_game`` figure (by its index in ``results``): the cost of one row-step
    as a fraction of the cost at B = 1 of the same game and player count.

    Each of the two figures counts relative to the reference timed beside it (or to
    ``reference``), so that a change of the machine's speed between them cancels out, as it
    does in the ratios to the reference; without any reference, the plain rates.
    """
    def relative(r: Result) -> float:
        return r.steps_per_s / (r.reference or reference or 1.0)

    single = {(r.system, r.env, r.players): r for r in results
              if r.mode == "make_game" and r.batch == 1}
    out = {}
    for k, r in enumerate(results):
        one = single.get((r.system, r.env, r.players))
        if r.mode == "make_game" and r.batch > 1 and one is not None:
            out[k] = relative(one) / relative(r)
    return out


def thread_speedups(results: list[Result], reference: float | None
                    ) -> list[tuple[Result, float]]:
    """Each figure on more than one thread with its speed-up over the same game, player count
    and batch on one thread, both taken relative to the reference timed beside them."""
    def relative(r: Result) -> float:
        return r.steps_per_s / (r.reference or reference or 1.0)

    single = {(r.env, r.players, r.batch): r for r in results
              if r.mode == "make_game" and r.threads == 1}
    return [(r, relative(r) / relative(single[(r.env, r.players, r.batch)]))
            for r in results if r.threads > 1 and (r.env, r.players, r.batch) in single]


def to_markdown(results: list[Result], reference: float | None) -> str:
    lines = [
        "| system | env | players | mode | B | threads | env-steps/s | games/s "
        "| µs per row-step | × connect_four | row cost ÷ B = 1 | page faults per step |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    fractions = row_cost_fractions(results, reference)
    for k, r in enumerate(results):
        base = r.reference or reference
        ratio = f"{r.steps_per_s / base:.2f}" if base else "n/a"
        row_cost = f"1/{1 / fractions[k]:.1f}" if k in fractions else ""
        games = "" if r.games_per_s is None else f"{r.games_per_s:,.1f}"
        faults = "" if r.faults_per_step is None else f"{r.faults_per_step:.1f}"
        lines.append(f"| {r.system} | {r.env} | {r.players} | {r.mode} | {r.batch} | "
                     f"{r.threads} | {r.steps_per_s:,.0f} | {games} | {r.us_per_row_step:.2f} "
                     f"| {ratio} | {row_cost} | {faults} |")
    return "\n".join(lines)


def threads_markdown(results: list[Result], reference: float | None,
                     splits: list[Split] = ()) -> str:
    """The speed-up of the figures on several threads (empty without any): of the vector
    env's whole step, and of the env's own time (the split's observation, mask and step)."""
    speedups = thread_speedups(results, reference)
    if not speedups:
        return ""
    single = {(s.env, s.players, s.batch): s for s in splits if s.threads == 1}
    own = {(s.env, s.players, s.batch, s.threads): median_ratio(
        single[(s.env, s.players, s.batch)].own_slices, s.own_slices)
        for s in splits if s.threads > 1 and (s.env, s.players, s.batch) in single}
    lines = ["| env | players | B | threads | speed-up over one thread | own time's speed-up |",
             "|---|---|---|---|---|---|"]
    for r, x in speedups:
        mine = own.get((r.env, r.players, r.batch, r.threads))
        lines.append(f"| {r.env} | {r.players} | {r.batch} | {r.threads} | {x:.2f} | "
                     f"{'' if mine is None else f'{mine:.2f}'} |")
    return "\n".join(lines)


def own_time_markdown(splits: list[Split]) -> str:
    """The envs' own time (the issues' targets) against connect_four_v3's: the AEC env at
    B = 1 (``last`` and ``step``) and a batched step's observation, mask and step."""
    lines = ["| env | players | connect_four_v3 µs | AEC µs | AEC × connect_four | B | "
             "batched µs per row-step | batched × connect_four |",
             "|---|---|---|---|---|---|---|---|"]
    for s in splits:
        if not s.reference_slices or s.threads > 1:
            continue
        reference, aec, own = (np.median(x) for x in (s.reference_slices, s.aec_slices,
                                                      s.own_slices))
        lines.append(f"| {s.env} | {s.players} | {reference:.2f} | {aec:.2f} | "
                     f"{median_ratio(s.reference_slices, s.aec_slices):.2f} | {s.batch} | "
                     f"{own:.2f} | {median_ratio(s.reference_slices, s.own_slices):.2f} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def split_markdown(splits: list[Split]) -> str:
    """The split of a batched step's time (µs per row-step and share of the total)."""
    lines = ["| env | players | B | threads | observe | mask | step | restart "
             "| total µs per row-step | the observation's stores alone |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for s in splits:
        cells = " | ".join(f"{v:.2f} ({100 * v / s.total:.0f}%)"
                           for v in (s.observe, s.mask, s.step, s.restart))
        stores = f"{s.stores:.2f}" if s.stores else ""
        lines.append(f"| {s.env} | {s.players} | {s.batch} | {s.threads} | {cells} | "
                     f"{s.total:.2f} | {stores} |")
    return "\n".join(lines)


def write(results: list[Result], reference: float | None, splits: list[Split], out: Path
          ) -> None:
    out.mkdir(parents=True, exist_ok=True)
    header = (f"# Throughput\n\nOne process, one core ({platform.processor() or platform.machine()}"
              f", Python {platform.python_version()}, NumPy {np.__version__}); random legal "
              "actions; each step includes the acting seat's observation and mask. Each "
              "ratio is to connect_four_v3 timed in slices alternating with that figure's "
              "own. A batch's row cost is a fraction of B = 1's with both figures taken "
              "relative to their own connect_four_v3 timing. Games/s counts games finished; "
              "page faults are the process's minor faults per batched step.\n\n")
    split = ("\n\n## Where a batched step's time goes\n\nµs per row-step at the largest "
             "batch: the acting seat's observation, the legal mask (read from what the step "
             "left: the step computes the masks of the decisions it leaves to ask), "
             "`game.step` (automatic decisions and those masks included) and the restart of "
             "finished games, run in the vector env's order (the step, the restart, the mask, "
             "the observation); beside them, on one thread, the time to write an observation "
             "batch's bytes alone (allocate it and fill it with zeros, `StoreClock`), timed "
             "in slices alternating with the split's, hot (one block reused): a floor "
             "under the observation column that no encoder of the layout's size goes "
             "below.\n\n"
             + split_markdown(splits))
    own = own_time_markdown(splits)
    if own:
        split += ("\n\n## The envs' own time\n\nWhat the issues' targets compare: each env's "
                  "own work, the action sampler and the restart of finished games left out, "
                  "against connect_four_v3's (`last` and `step` of random episodes), timed "
                  "in slices alternating with the game's. The AEC env's `last` and `step` at "
                  "B = 1; a batched step's observation, mask and `game.step` at the largest "
                  "batch, per row. Each µs figure is the median of its slices, each ratio the "
                  "median of the ratios of the slices timed in the same round.\n\n" + own)
    threads = threads_markdown(results, reference, splits)
    if threads:
        threads = ("\n\n## Threads\n\nThe largest batch on several threads (numba's "
                   "`prange` over rows), against one thread: the vector env's whole step "
                   "(the sampler and restarts, which run on one thread, included), each "
                   "relative to the reference timed beside it; and the env's own time (the "
                   "observation, mask and step of the split below, as the issues' targets "
                   "count it), the thread counts timed in alternating slices, the median of "
                   "the ratios of the slices of each round.\n\n" + threads)
    (out / "throughput.md").write_text(header + to_markdown(results, reference) + threads
                                       + split + "\n")
    with open(out / "throughput.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["system", "env", "players", "mode", "batch", "threads", "steps_per_s",
                         "us_per_row_step", "ratio_to_connect_four", "row_cost_of_batch_1",
                         "games_per_s", "page_faults_per_step"])
        fractions = row_cost_fractions(results, reference)
        for k, r in enumerate(results):
            writer.writerow([r.system, r.env, r.players, r.mode, r.batch, r.threads,
                             f"{r.steps_per_s:.1f}",
                             f"{r.us_per_row_step:.3f}",
                             f"{r.steps_per_s / (r.reference or reference):.3f}"
                             if r.reference or reference else "",
                             f"{fractions[k]:.4f}" if k in fractions else "",
                             "" if r.games_per_s is None else f"{r.games_per_s:.2f}",
                             "" if r.faults_per_step is None else f"{r.faults_per_step:.2f}"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.throughput",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default=",".join(envs.list_envs()),
                        help="comma-separated env ids (default: every registered env)")
    parser.add_argument("--players", default="",
                        help="comma-separated player counts (default: every supported count)")
    parser.add_argument("--batch-sizes", default="1,64,1024",
                        help="batch sizes through make_game (default: 1,64,1024)")
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated thread counts; each above 1 measures the "
                             "largest batch again on that many threads (default: 1,2)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time spent on each measurement (default: 2)")
    parser.add_argument("--min-batch-steps", type=int, default=600,
                        help="batched steps each make_game measurement makes at least, so it "
                             "covers whole games (default: 600; a cairo game is ~450)")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for throughput.md and throughput.csv (default: print only)")
    cli.add_progress(parser)
    args = parser.parse_args(argv)
    env_ids = cli.env_ids(parser, args.env)
    batch_sizes = cli.positive_ints(parser, "--batch-sizes", args.batch_sizes)
    threads = tuple(cli.positive_ints(parser, "--threads", args.threads))
    try:
        for count in threads:
            check_threads(count)
    except ValueError as error:
        parser.error(f"--threads: {error}")
    if args.players:
        wanted = set(cli.positive_ints(parser, "--players", args.players))
        cases = [(e, p) for e in env_ids for p in envs.game_class(e).PLAYER_COUNTS
                 if p in wanted]
        if not cases:
            parser.error(f"no env of {', '.join(env_ids)} supports {args.players} players")
    else:
        cases = [(e, p) for e in env_ids for p in envs.game_class(e).PLAYER_COUNTS]
    retain_freed_memory()  # batched play: see envs.core.memory

    results = baselines(args.seconds)
    reference = next((r.steps_per_s for r in results
                      if f"{r.system} {r.env}" == REFERENCE), None)
    # The reference again beside every measurement.
    beside = _connect_four() if reference is not None else None
    splits = []
    split_threads = (1, *(count for count in threads if count > 1))
    with tqdm(total=len(cases) * (1 + len(batch_sizes) + len(threads) + len(split_threads)),
              desc="throughput",
              disable=not args.progress) as progress:
        for env_id, players in cases:
            results += measure_game(env_id, players, batch_sizes, args.seconds, progress,
                                    args.min_batch_steps, beside, threads)
            progress.set_postfix_str(f"{env_id} {players}p split at B={max(batch_sizes)}")
            splits += measure_splits(env_id, players, max(batch_sizes), args.seconds,
                                     args.min_batch_steps, split_threads,
                                     own_time=reference is not None)
            progress.update()
    print(to_markdown(results, reference))
    print()
    if thread_speedups(results, reference):
        print(threads_markdown(results, reference, splits))
        print()
    print(split_markdown(splits))
    if own_time_markdown(splits):
        print()
        print(own_time_markdown(splits))
    if args.out is not None:
        write(results, reference, splits, args.out)
        print(f"wrote {args.out / 'throughput.md'} and {args.out / 'throughput.csv'}")


if __name__ == "__main__":
    main()
