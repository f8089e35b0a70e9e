"""The compiled core: its disk cache keyed on the rules' sources, plain Python with the JIT
off, threads, and the toy game (``tests/toy_game.py``) on it."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import envs
from envs.core.jit import source_digest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


def _run(code: str, cwd: Path, **env: str) -> str:
    """Run ``code`` in a fresh Python in ``cwd`` (whose ``envs`` is imported), its last
    line of output returned."""
    full_env = {**os.environ, **env}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd,
                            env=full_env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def _skip_without_two_threads() -> None:
    """Skip the test where numba's pool has a single thread (no parallel kernels)."""
    from envs.core.jit import check_threads

    try:
        check_threads(2)
    except ValueError:
        pytest.skip("numba has a single thread here")


def test_the_source_digest_follows_every_rules_file_and_not_the_location(tmp_path):
    first, second = tmp_path / "a" / "envs", tmp_path / "b" / "envs"
    for copy in (first, second):
        shutil.copytree(ROOT / "envs", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_digest(first) == source_digest(second) == source_digest()
    table = second / "cairo" / "data.py"
    table.write_text(table.read_text().replace("HAND_LIMIT = 4", "HAND_LIMIT = 5"))
    assert source_digest(second) != source_digest(first)


_PROBE = """
    from envs.core.jit import njit
    from envs.core import probe_table

    @njit
    def probe():
        return probe_table.VALUE
"""
_CALL = """
    from envs.core.probe_kernel import probe
    print(probe(), sum(probe.stats.cache_hits.values()))
"""


def test_a_copy_elsewhere_reuses_the_cache_and_a_changed_table_is_never_stale(tmp_path):
    """A kernel reading a table of another file: an unchanged copy of the sources at
    another path loads it from the cache; a changed table compiles anew."""
    cache = tmp_path / "cache"
    copies = [tmp_path / "first", tmp_path / "second"]
    for copy in copies:
        shutil.copytree(ROOT / "envs", copy / "envs",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (copy / "envs" / "core" / "probe_table.py").write_text("VALUE = 3\n")
        (copy / "envs" / "core" / "probe_kernel.py").write_text(textwrap.dedent(_PROBE))
    assert _run(_CALL, copies[0], TRADEWINDS_CACHE_DIR=str(cache)) == "3 0"  # compiled
    assert _run(_CALL, copies[1], TRADEWINDS_CACHE_DIR=str(cache)) == "3 1"  # from the cache
    (copies[1] / "envs" / "core" / "probe_table.py").write_text("VALUE = 5\n")
    assert _run(_CALL, copies[1], TRADEWINDS_CACHE_DIR=str(cache)) == "5 0"  # compiled anew


def _toy_trajectory(batch: int, threads: int = 1) -> dict:
    """Random toy games at ``batch`` rows: every step's mask, observation and step record
    (rewards, revealed seats, automatic decisions)."""
    from toy_game import ToyGame

    game = ToyGame(3).with_threads(threads)
    generator = np.random.default_rng(5)
    state = game.init(batch, seed=11)
    seen = []
    while not state.done.all():
        mask = game.legal_action_mask(state)
        seen.append((mask.tolist(), game.observe(state, np.maximum(state.current_player, 0))
                     .tolist(), state.rewards.tolist(), state.current_player.tolist(),
                     state.revealed.tolist(), state.num_auto.tolist()))
        actions = np.argmax(generator.random(mask.shape) * mask, axis=1)
        game.step(state, actions)
    seen.append((state.rewards.tolist(), game.scores(state).tolist()))
    return {"steps": seen}


def test_the_kernels_are_plain_python_with_the_jit_off():
    """Under NUMBA_DISABLE_JIT=1 the same functions run as Python: the same games."""
    code = f"""
        import json, sys
        sys.path.insert(0, {str(TESTS)!r})
        from test_compiled_core import _toy_trajectory
        print(json.dumps(_toy_trajectory(6)))
    """
    plain = json.loads(_run(code, ROOT, NUMBA_DISABLE_JIT="1"))
    assert plain == json.loads(json.dumps(_toy_trajectory(6)))


def test_cairo_worked_examples_pass_as_plain_python():
    """A few of cairo's worked examples (payouts, the 2:1 payment, the reachability rule,
    medals, the joker fee) pass with the JIT off: the same functions, as Python."""
    examples = ("lure_to_other_stall_pays_owner or two_for_one_substitution or "
                "entrance_may_not_be_sealed or medal_sequence or joker_fee")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(TESTS / "cairo" / "test_cairo_examples.py"), "-k", examples],
        cwd=ROOT, env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, capture_output=True,
        text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "5 passed" in result.stdout


def test_one_thread_and_two_give_the_same_games():
    pytest.importorskip("numba")
    _skip_without_two_threads()
    assert _toy_trajectory(96, threads=1) == _toy_trajectory(96, threads=2)


def test_the_parallel_loops_call_the_row_functions_with_the_serial_types(tmp_path):
    """A ``prange`` index is unsigned and ``range``'s is not: unless the loops pass both on
    as one type (uint64), every row function of a game would compile twice, for an int64
    row and a uint64 one. (A fresh cache, so that the row functions compile in the process
    that reads their signatures.)"""
    _skip_without_two_threads()
    code = f"""
        import json, sys
        sys.path.insert(0, {str(TESTS)!r})
        from test_compiled_core import _toy_trajectory
        from toy_game import ToyGame
        from envs.core.driver import _row_helpers
        _toy_trajectory(96, threads=2)
        done = _row_helpers("toy_game_ToyGame", ToyGame.ROWS)["_done"]
        print(json.dumps({{name: sorted({{str(signature[1]) for signature in f.signatures}})
                          for name, f in (*ToyGame.ROWS._asdict().items(), ("_done", done))}}))
    """
    rows = json.loads(_run(code, ROOT, TRADEWINDS_CACHE_DIR=str(tmp_path)))
    assert rows == {name: ["uint64"] for name in rows} and len(rows) == 9


@pytest.mark.slow  # compiles the game's parallel kernels (minutes on a cold cache)
@pytest.mark.parametrize(("env_id", "players"), [("cairo", 3), ("batavia", 4)])
def test_a_game_on_one_thread_and_two_plays_the_same_games(env_id, players):
    _skip_without_two_threads()
    seen = []
    for threads in (1, 2):
        game = envs.make_game(env_id, players).with_threads(threads)
        generator = np.random.default_rng(3)
        state = game.init(64, seed=5)
        trace = []
        for _ in range(300):
            mask = game.legal_action_mask(state)
            trace.append((mask.copy(), game.observe(state, np.maximum(state.current_player, 0))))
            game.step(state, np.argmax(generator.random(mask.shape) * mask, axis=1))
        seen.append((trace, state))
    for (mask, obs), (mask2, obs2) in zip(seen[0][0], seen[1][0], strict=True):
        np.testing.assert_array_equal(mask, mask2)
        np.testing.assert_array_equal(obs, obs2)
    assert seen[0][1].equals(seen[1][1])


def test_numba_is_asked_for_threads_only_when_the_count_changes(monkeypatch):
    """``numba.set_num_threads`` costs 4-10 µs between batched steps: the kernels call it
    once per Python thread (numba keeps a count per thread) and count, not every call."""
    import threading

    import numba
    from toy_game import ToyGame

    from envs.core import compiled
    _skip_without_two_threads()
    calls = []
    monkeypatch.setattr(compiled, "_threads_set", threading.local())
    monkeypatch.setattr(numba, "set_num_threads", lambda count: calls.append(count))

    def play(game):
        state = game.init(64, seed=1)  # 32 rows a thread: the parallel kernels
        for _ in range(3):
            game.observe(state, np.maximum(state.current_player, 0))
            game.step(state, np.argmax(game.legal_action_mask(state), axis=1))

    play(ToyGame(3).with_threads(2))
    play(ToyGame(3).with_threads(1))  # serial kernels: numba's count left alone
    assert calls == [2]
    other = threading.Thread(target=play, args=(ToyGame(3).with_threads(2),))
    other.start()
    other.join()
    assert calls == [2, 2]


def test_threads_is_checked():
    from toy_game import ToyGame

    with pytest.raises(ValueError, match="threads must be a positive int"):
        ToyGame(2).with_threads(0)


def test_a_game_past_the_drivers_block_of_ranking_keys_is_refused():
    """The driver ranks a finished row from a fixed block on the stack: a game class with
    more seats or keys than it holds fails when it is defined, not at its first end."""
    from toy_game import ToyGame

    for attributes in ({"NUM_RANKING_KEYS": 5}, {"PLAYER_COUNTS": (2, 9)}):
        with pytest.raises(TypeError, match="ranks at most 8 seats by at most 4 keys"):
            type("Oversized", (ToyGame,), attributes)


def test_settle_ends_a_game_that_its_forced_decisions_end():
    """A hand-built position whose automatic decision ends the game (here at the turn cap):
    ``settle`` ends it as ``step`` does, no seat to act and the rank rewards paid."""
    from toy_game import ToyGame

    game = ToyGame(2)
    state = game.init(1, seed=0)
    state.hands[:] = 0
    state.hands[0, 0, 1] = 1
    state.played[:] = 0
    state.played[0, 0, 3] = 1  # seat 0 has scored 3, seat 1 nothing
    state.deck_pos[:] = 12  # the deck is empty: seat 1's draw of the market card is forced
    state.market[:] = 2
    state.phase[:] = 1
    state.current_player[:] = 1
    state.turns[:] = 100  # the cap (max_turns=100): the turn that ends now is the last
    game.settle(state)
    assert state.truncated[0] and state.current_player[0] == -1
    assert state.rewards[0].tolist() == [1.0, -1.0]
    assert game.step_record(state).automatic_of(0) == [(1, 1, 5)]
    assert not game.legal_action_mask(state).any()


def test_forced_rows_is_the_forced_decision_loops_test():
    """``forced_rows`` asks the loop's question of each row without applying anything: a
    draw with the deck empty (one legal action, public) is forced, the same draw with cards
    in the deck (two) is not, a play whose single legal card is hidden is not (the toy's
    ``forced``), a finished row is not; the state's masks stay as they were."""
    from toy_game import ToyGame

    game = ToyGame(2)
    state = game.init(4, seed=3)
    state.current_player[:3] = 0
    state.phase[:2] = 1  # rows 0 and 1 ask seat 0 to draw
    state.deck_pos[0] = 12  # row 0: only the market is left
    state.market[:] = 2
    state.hands[2] = 0
    state.hands[2, :, 1] = 1  # row 2: each seat holds one card, a single legal play
    state.terminated[3] = True
    masks = game.legal_action_mask(state).copy()
    assert game.forced_rows(state, np.array([0, 1, 2, 3, 0])).tolist() == [
        True, False, False, False, True]
    np.testing.assert_array_equal(game.legal_action_mask(state), masks)
    game.settle(state)  # row 0's draw is applied; nothing left asked is forced
    assert game.step_record(state).automatic_of(0) == [(0, 1, 5)]
    assert not game.forced_rows(state, np.arange(4)).any()
    for bad in ([4], [-1], [[0]], [0.5]):
        with pytest.raises(ValueError, match=r"not one of the 4 rows|rows must be"):
            game.forced_rows(state, np.array(bad))


def test_observe_checks_the_seat():
    from toy_game import ToyGame

    game = ToyGame(3)
    state = game.init(2, seed=0)
    for bad in (3, -1, np.array([0, 5]), np.array([0, 1, 2]), 1.0):
        with pytest.raises(ValueError, match=r"player|valid"):
            game.observe(state, bad)
    state.terminated[1] = True
    zeros = game.observe(state, np.array([0, -1]))[1]
    assert not zeros.any()


def test_observe_rows_and_scores_rows_read_the_rows_in_place_and_check_them():
    """``observe_rows`` and ``scores_rows`` give ``observe`` and ``scores`` of the rows
    taken out of the state (a row once per seat asked); a row or seat that is none raises,
    naming it."""
    from toy_game import ToyGame

    game = ToyGame(3)
    state = game.init(5, seed=2)
    state.played[1, 2, 3] = 1  # a score that differs between the rows
    state.terminated[4] = True
    rows, seats = np.array([3, 3, 3, 0, 4]), np.array([0, 1, 2, 2, -1])
    np.testing.assert_array_equal(game.observe_rows(state, rows, seats),
                                  game.observe(state.take(rows), seats))
    for bad_rows, bad_seats in (([5], [0]), ([-1], [0]), ([0], [3]), ([0], [-1]),
                                ([0, 1], [0]), ([0.0], [0])):
        with pytest.raises(ValueError, match=r"rows and players|entry 0"):
            game.observe_rows(state, np.array(bad_rows), np.array(bad_seats))
    rows = np.array([1, 4, 1, 0])
    np.testing.assert_array_equal(game.scores_rows(state, rows), game.scores(state)[rows])
    assert game.scores_rows(state, rows)[0, 2] == 3
    for bad in ([5], [-1], [[0]], [0.5]):
        with pytest.raises(ValueError, match=r"not one of the 5 rows|rows must be"):
            game.scores_rows(state, np.array(bad))


def test_make_game_lists_the_compiled_toy():
    assert "toy" in envs.list_envs()


def test_local_zeros_is_a_zeroed_array_at_every_call_and_needs_constant_shapes():
    """A rules function's scratch (``envs.core.jit.local_zeros``) lives on its stack: zeroed
    again at each call whatever the last one left there; ``np.zeros`` from Python."""
    import numba

    from envs.core.jit import local_zeros, njit

    @njit(cache=False)
    def sums_before_and_after_a_fill(value):
        scratch = local_zeros((3, 4), np.int64)
        before = scratch.sum()
        for i in range(3):
            for j in range(4):
                scratch[i, j] = value * (i + j)
        return before, scratch.sum()

    assert sums_before_and_after_a_fill(1) == (0, 30)
    assert sums_before_and_after_a_fill(2) == (0, 60)
    assert np.array_equal(local_zeros((2, 3), np.int8), np.zeros((2, 3), np.int8))

    @njit(cache=False)
    def sized_at_run_time(n):
        return local_zeros(n, np.int8).sum()

    with pytest.raises(numba.core.errors.TypingError, match="local_zeros"):
        sized_at_run_time(4)


def test_argsort_into_is_the_stable_argsort():
    from envs.core.rng import argsort_into

    keys = np.random.default_rng(0).integers(0, 6, size=40)  # ties: stability shows
    out = np.zeros(40, np.int64)
    argsort_into(keys, out)
    assert np.array_equal(out, np.argsort(keys, kind="stable"))
    argsort_into.py_func(keys[::-1].copy(), out)
    assert np.array_equal(out, np.argsort(keys[::-1], kind="stable"))


def test_count_true_counts_the_true_entries():
    from envs.core.driver import count_true

    masks = np.random.default_rng(0).random((50, 134)) < np.linspace(0, 1, 50)[:, None]
    for mask in (*masks, np.zeros(0, dtype=bool), masks[3, ::7]):
        assert count_true(mask) == count_true.py_func(mask) == int(mask.sum())


def test_the_row_functions_count_no_references(tmp_path):
    """The rules compile without numba's runtime: a rules function that took the state's
    arrays counted references to each on every call (64% of a batavia step); only the batch
    loops, which take the arrays from Python, may count them."""
    code = f"""
        import json, re, sys
        sys.path.insert(0, {str(TESTS)!r})
        from test_compiled_core import _toy_trajectory
        from toy_game import ToyGame
        _toy_trajectory(8, threads=1)
        step = ToyGame(3)._run(ToyGame(3).init(1)).step
        counting, name = set(), None
        for line in step.inspect_llvm(step.signatures[0]).splitlines():
            if line.startswith("define"):
                name = re.search(r"@\\"?([^\\"(]+)", line).group(1)
            elif "@NRT_incref" in line and "step_batch" not in name:
                counting.add(name)
        print(json.dumps(sorted(counting)))
    """
    assert json.loads(_run(code, ROOT, TRADEWINDS_CACHE_DIR=str(tmp_path))) == []


def test_the_rules_take_the_state_as_one_pointer(tmp_path):
    """The batch loops hand the rules one pointer to the view (``envs.core.stateref``), not
    its arrays one by one (junk's ``_step_row`` took 641 arguments, most of its step)."""
    code = f"""
        import json, re, sys
        sys.path.insert(0, {str(TESTS)!r})
        from test_compiled_core import _toy_trajectory
        from toy_game import ToyGame
        _toy_trajectory(8, threads=1)
        step = ToyGame(3)._run(ToyGame(3).init(1)).step
        ir = step.inspect_llvm(step.signatures[0])
        calls = [line for line in ir.splitlines() if re.search(r"call .*_step_row", line)]
        print(json.dumps([line.count("%") for line in calls]))
    """
    counts = json.loads(_run(code, ROOT, TRADEWINDS_CACHE_DIR=str(tmp_path)))
    # The result, the exception slot, the pointer, the row, the action and the keys array
    # (11 words): 17 values; the toy's view's 17 arrays one by one were 141 words.
    assert counts and max(counts) <= 20


def test_a_state_read_through_its_pointer_keeps_its_arrays_references():
    """``state_ref``: fields read through the pointer in a loop that counts references (a
    batch loop) take and give back one each; written through, the arrays change."""
    import collections

    from envs.core.jit import njit
    from envs.core.stateref import state_ref

    pair = collections.namedtuple("pair", "counts total")

    @njit(cache=False)
    def add_row(s, r):
        s.total[0] += s.counts[r]

    @njit(cache=False, _nrt=True)
    def add_all(arrays):
        s = state_ref(pair(*arrays))
        for r in range(s.counts.shape[0]):
            add_row(s, r)
        return s.counts.shape[0]

    counts, total = np.arange(5), np.zeros(1, np.int64)
    before = sys.getrefcount(counts), sys.getrefcount(total)
    for _ in range(100):
        assert add_all((counts, total)) == 5
    assert total[0] == 100 * 10
    assert (sys.getrefcount(counts), sys.getrefcount(total)) == before
    assert state_ref(pair(counts, total)) == pair(counts, total)  # plain Python: the view


def test_the_profiles_map_names_the_compiled_rules_at_their_addresses(tmp_path):
    """``benchmarks.profile``'s map of compiled code (what perf reads to name it): the toy's
    row functions and the driver's loops, by dotted name, in disjoint address ranges. (A
    fresh cache: only a library compiled in the process keeps its object code.)"""
    if shutil.which("nm") is None:
        pytest.skip("needs nm (binutils)")
    code = f"""
        import json, sys
        sys.path.insert(0, {str(TESTS)!r})
        import numpy as np
        from toy_game import ToyGame
        from benchmarks.profile import code_map
        game = ToyGame(3)
        state = game.init(4, seed=1)
        game.observe(state, np.maximum(state.current_player, 0))
        game.step(state, np.argmax(game.legal_action_mask(state), axis=1))
        print(json.dumps(code_map(game._run(state))))
    """
    entries = json.loads(_run(code, ROOT, TRADEWINDS_CACHE_DIR=str(tmp_path)))
    names = {name for _, _, name in entries}
    assert {"toy_game.apply_play", "toy_game.legal", "toy_game.end_turn"} <= names
    assert any(name.startswith("core.driver.step_batch_toy_game") for name in names)
    assert all(address + size <= following
               for (address, size, _), (following, _, _) in itertools.pairwise(entries))
