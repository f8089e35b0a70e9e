"""The benchmark commands run on any registered game (here the toy game)."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

import envs
from benchmarks import soak, throughput
from envs import records


def test_throughput_writes_markdown_and_csv(tmp_path, monkeypatch):
    monkeypatch.setattr(throughput, "baselines", lambda seconds: [])
    throughput.main(["--env", "toy", "--players", "2", "--batch-sizes", "1,8",
                     "--threads", "1,2", "--seconds", "0.05", "--out", str(tmp_path),
                     "--no-progress"])
    table = (tmp_path / "throughput.md").read_text()
    assert "| tradewinds | toy | 2 | AEC | 1 | 1 |" in table
    assert "| tradewinds | toy | 2 | make_game | 8 | 1 |" in table
    assert "| tradewinds | toy | 2 | make_game | 8 | 2 |" in table  # B = 8 again, 2 threads
    assert "## Threads" in table and "| toy | 2 | 8 | 2 |" in table
    assert "| toy | 2 | 8 |" in table  # the split of a B = 8 step
    rows = (tmp_path / "throughput.csv").read_text().splitlines()
    assert len(rows) == 1 + 4 and float(rows[1].split(",")[6]) > 0
    cells = rows[3].split(",")
    assert float(cells[9]) > 0  # B = 8's row cost as a fraction of B = 1's
    # A toy game is 24 decisions at most, so games/s is at least a 24th of steps/s.
    assert float(cells[10]) >= float(cells[6]) / 24 > 0


def test_throughput_ratios_use_the_reference_timed_beside_each_figure(monkeypatch):
    """Each figure is divided by the reference timed in slices alternating with it, not by
    the run's first reference figure."""
    beside = iter([200.0, 2000.0])
    monkeypatch.setattr(throughput, "timed_beside",
                        lambda run, reference, seconds, min_steps=0: (run(), 400.0,
                                                                     next(beside))[1:])
    with throughput.tqdm(total=2, disable=True) as progress:
        results = throughput.measure_game("toy", 2, [8], 0.0, progress,
                                          reference=lambda: 1)
    assert [r.reference for r in results] == [200.0, 2000.0]
    table = throughput.to_markdown(results, reference=50.0)
    assert "| tradewinds | toy | 2 | AEC | 1 | 1 | 400 |" in table
    assert "| 2500.00 | 2.00 |" in table and "| 2500.00 | 0.20 |" in table


def test_row_cost_of_a_batch_is_relative_to_the_reference_beside_each_figure():
    """B = 8 makes 20 times the row-steps of B = 1, but its reference ran twice as fast: the
    machine was, so a row costs a tenth of B = 1's, not a twentieth."""
    results = [throughput.Result("tradewinds", "toy", 2, "make_game", 1, 100.0, 200.0),
               throughput.Result("tradewinds", "toy", 2, "make_game", 8, 2000.0, 400.0),
               throughput.Result("tradewinds", "toy", 2, "AEC", 1, 90.0, 200.0)]
    assert throughput.row_cost_fractions(results, reference=None) == {1: 0.1}
    table = throughput.to_markdown(results, reference=None)
    assert "| make_game | 8 | 1 | 2,000 |  | 500.00 | 5.00 | 1/10.0 |  |" in table
    assert "| make_game | 1 | 1 | 100 |  | 10000.00 | 0.50 |  |  |" in table


def test_thread_speedup_is_relative_to_the_reference_beside_each_figure():
    """Two threads make 3 times the steps of one, but the reference ran 1.5 times as fast
    beside them: the speed-up is 2."""
    results = [throughput.Result("tradewinds", "toy", 2, "make_game", 8, 1000.0, 100.0),
               throughput.Result("tradewinds", "toy", 2, "make_game", 8, 3000.0, 150.0,
                                 threads=2)]
    [(figure, speedup)] = throughput.thread_speedups(results, reference=None)
    assert figure.threads == 2 and speedup == pytest.approx(2.0)
    assert "| toy | 2 | 8 | 2 | 2.00 |  |" in throughput.threads_markdown(results, None)
    # The own time's speed-up: of the observation, mask and step of the splits, the
    # restart, which runs on one thread, left out; the median of the rounds' ratios (6.0
    # over 2.5 µs), not the ratio of the means (a second thread taken away in one round).
    splits = [throughput.Split("toy", 2, 8, 1.0, 0.5, 4.5, 3.0, own_slices=(6.0, 6.0, 6.0)),
              throughput.Split("toy", 2, 8, 0.5, 0.2, 1.8, 2.9, threads=2,
                               own_slices=(2.5, 2.5, 9.0))]
    assert "| toy | 2 | 8 | 2 | 2.00 | 2.40 |" in throughput.threads_markdown(
        results, None, splits)
    assert "| toy | 2 | 8 | 2 | 0.50 (9%) |" in throughput.split_markdown(splits)
    assert throughput.own_time_markdown([throughput.Split(
        "toy", 2, 8, 1, 1, 1, 1, threads=2, own_slices=(3.0,), aec_slices=(20.0,),
        reference_slices=(50.0,))]) == ""


def test_timed_makes_at_least_min_steps():
    from benchmarks._measure import timed

    calls = []

    def run() -> int:
        calls.append(1)
        return 4

    assert timed(run, 0.0, min_steps=10) > 0
    assert len(calls) == 1 + 3  # the warm-up, then 4 + 4 + 4 >= 10 steps timed


def test_timed_beside_alternates_slices_of_both_runners():
    from benchmarks._measure import timed_beside

    calls = []

    def runner(name: str, steps: int):
        def run() -> int:
            calls.append(name)
            return steps
        return run

    rate, reference = timed_beside(runner("game", 4), runner("ref", 1), 0.0, min_steps=10,
                                   slice_seconds=0.0)
    assert rate > 0 and reference > 0
    # The warm-ups, then one call a slice (a zero-length slice still runs once), in turn,
    # until 4 + 4 + 4 >= 10 of the game's steps are timed.
    assert calls == ["game", "ref"] + ["game", "ref"] * 3


def test_throughput_rejects_bad_input_with_a_usage_error(capsys):
    for argv, message in ((["--env", "nope"], "unknown env id 'nope'"),
                          (["--batch-sizes", "0,x"], "--batch-sizes: 0 is not a positive"),
                          (["--batch-sizes", "x"], "'x' is not an integer"),
                          (["--env", "toy", "--players", "7"], "supports 7 players"),
                          (["--threads", "999"], "--threads: threads=999 is more than")):
        with pytest.raises(SystemExit) as exit_info:
            throughput.main([*argv, "--seconds", "0.01"])
        assert exit_info.value.code == 2
        assert message in capsys.readouterr().err


def test_soak_runs_clean(capsys):
    assert soak.main(["--env", "toy", "--games", "40", "--batch", "16"]) == 0
    out = capsys.readouterr().out
    assert "toy 2p: 40 games clean, 0 truncated" in out and "toy 3p: 40 games clean" in out


def test_soak_prints_a_replayable_violation_and_writes_its_record(capsys, monkeypatch,
                                                                   tmp_path):
    import toy_game

    def broken(self, state):  # flags every row of seed 5 once it has played a card
        played = state.played.sum(axis=(1, 2))
        return [f"row {r}: seeded failure" for r in np.flatnonzero(played >= 3)]

    monkeypatch.setattr(toy_game.ToyGame, "check_invariants", broken)
    assert soak.main(["--env", "toy", "--games", "4", "--players", "2", "--seed", "5",
                      "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "game seed 5" in err and "state = game.init(1, seed=5)" in err
    # The printed actions replay the failure on a single game.
    actions = eval(err.split("for a in ")[1].split(":")[0])
    game = toy_game.ToyGame(2)
    state = game.init(1, seed=5)
    for a in actions:
        state = game.step(state, np.array([a]))
    assert broken(game, state)
    # The game's record replays the same actions to the same failing position.
    path = tmp_path / "toy_2p_seed5.jsonl"
    assert f"record: {path}" in err
    record = records.load(path)
    assert record.header["seed"] == 5 and record.header["players"][0] == "player_0: uniform"
    assert [m.action for m in record.asked()] == actions
    assert broken(game, record.state_at(record.num_steps))


def test_soak_checks_final_positions_only_when_asked(capsys, monkeypatch):
    import toy_game

    calls = []
    checked = toy_game.ToyGame.check_invariants

    def counted(self, state):
        calls.append(bool(state.done.all()))
        return checked(self, state)

    monkeypatch.setattr(toy_game.ToyGame, "check_invariants", counted)
    assert soak.main(["--env", "toy", "--games", "8", "--players", "2", "--check", "end"]) == 0
    assert "8 games clean" in capsys.readouterr().out
    assert calls == [True]  # one wave, checked once, when every game has ended
    calls.clear()
    assert soak.main(["--env", "toy", "--games", "8", "--players", "2"]) == 0
    assert len(calls) > 1 and not all(calls)


def test_soak_rejects_a_bad_player_count():
    with pytest.raises(SystemExit):
        soak.main(["--env", "toy", "--players", "9", "--games", "1"])


def test_the_own_time_table_compares_the_envs_own_work():
    """The issues' targets: connect_four_v3's own µs per decision over the env's, at B = 1
    (AEC) and per row of the largest batch (observation, mask and step; the restart left
    out)."""
    split = throughput.Split("toy", 2, 8, observe=1.0, mask=0.5, step=2.5, restart=6.0,
                             own_slices=(4.0, 4.0, 5.0), aec_slices=(20.0, 20.0, 25.0),
                             reference_slices=(50.0, 50.0, 62.5))
    assert split.own == 4.0
    table = throughput.own_time_markdown([split])
    assert "| toy | 2 | 50.00 | 20.00 | 2.50 | 8 | 4.00 | 12.50 |" in table
    # A slow round moves the µs figures' medians at most, not their ratios.
    slow = dataclasses.replace(split, own_slices=(4.0, 9.0, 5.0),
                               reference_slices=(50.0, 112.5, 62.5))
    assert "| toy | 2 | 62.50 | 20.00 | 2.50 | 8 | 5.00 | 12.50 |" in (
        throughput.own_time_markdown([slow]))
    assert throughput.own_time_markdown([throughput.Split("toy", 2, 8, 1, 1, 1, 1)]) == ""


def test_the_aec_own_time_times_last_and_step_only(monkeypatch):
    """On a clock that moves one second a read, each ``last`` and ``step`` takes one second
    and nothing else counts: the sampler and ``reset`` read no clock inside the timed
    spans. One toy episode: its decisions, then each seat's closing ``last`` and ``step``."""
    from benchmarks import _measure

    counts = _measure.Counts()
    _measure.aec_episode_runner(envs.make_env("toy", 2), seed=0, counts=counts)()
    clock = iter(range(10**6))
    monkeypatch.setattr(_measure.time, "perf_counter", lambda: next(clock))
    own = _measure.AecOwnClock(envs.make_env("toy", 2), seed=0)
    own.run(0.0)  # one episode
    assert own.us_per_decision == pytest.approx(1e6 * 2 * (counts.steps + 2) / counts.steps)
    assert own.slice_costs == [pytest.approx(own.us_per_decision)]


def test_median_ratio_pairs_the_slices_of_each_round():
    from benchmarks._measure import median_ratio

    assert median_ratio([10.0, 30.0, 12.0], [5.0, 5.0, 6.0]) == 2.0
    with pytest.raises(ValueError, match="paired one to one, got 2 and 1"):
        median_ratio([1.0, 2.0], [1.0])


def test_the_split_leaves_the_sampler_out_of_the_step(monkeypatch):
    """On a clock that moves one second a read, a sampler that reads it 100 times adds
    nothing to the step's share: each part of the split takes one second a step."""
    clock = iter(range(10**6))
    sample = throughput.sample_actions

    def slow_sampler(mask, generator):
        for _ in range(100):
            next(clock)
        return sample(mask, generator)

    monkeypatch.setattr(throughput, "sample_actions", slow_sampler)
    monkeypatch.setattr(throughput.time, "perf_counter", lambda: next(clock))
    split, = throughput.measure_splits("toy", 2, 4, seconds=0.0, min_batch_steps=3)
    assert (split.observe, split.mask, split.step, split.restart) == pytest.approx(
        (1e6 / 4,) * 4)


def test_the_splits_of_each_thread_count_and_the_own_times_share_one_span(monkeypatch):
    """``measure_splits`` times every thread count's split and both own times in turn, a
    slice each, until each has had its time; the own times go with the one-thread split."""
    from benchmarks import _measure

    order = []
    run = _measure.alternate

    def logged(clocks, seconds, slice_seconds=0.25):
        def wrap(clock):
            inner = clock.run
            clock.run = lambda s: (order.append(type(clock).__name__), inner(s))
            return clock
        run([wrap(c) for c in clocks], seconds, slice_seconds=0.0)  # a step or an episode

    monkeypatch.setattr(throughput, "alternate", logged)
    one, two = throughput.measure_splits("toy", 2, 4, seconds=0.0, min_batch_steps=2,
                                         threads=(1, 2), own_time=True)
    assert (one.threads, two.threads) == (1, 2)
    assert len(one.own_slices) == len(one.reference_slices) == len(one.aec_slices) == 2
    assert len(two.own_slices) == 2 and two.reference_slices == ()
    assert min(one.own_slices + one.reference_slices + one.aec_slices) > 0
    assert one.stores > 0 and two.stores == 0  # the stores' floor goes with one thread
    assert order == ["SplitClock", "SplitClock", "StoreClock", "AecOwnClock",
                     "AecOwnClock"] * 2


def test_the_stores_clock_times_writing_an_observation_batch(monkeypatch):
    """On a clock that moves one second a read, each batch of observations takes one
    second: µs per row is 1e6 over the batch, and the split's table shows it beside the
    one-thread split only."""
    clock = itertools.count()
    monkeypatch.setattr(throughput.time, "perf_counter", lambda: next(clock))
    stores = throughput.StoreClock((5, 3), batch=4)
    stores.run(0.0)
    stores.run(0.0)
    assert stores.slice_costs == [1e6 / 4, 1e6 / 4] and stores.rows == 8
    one = throughput.Split("toy", 2, 8, 1.0, 0.5, 4.5, 3.0, stores=0.25)
    two = dataclasses.replace(one, threads=2, stores=0.0)
    table = throughput.split_markdown([one, two])
    assert table.splitlines()[-2].endswith("| 9.00 | 0.25 |")
    assert table.splitlines()[-1].endswith("| 9.00 |  |")
