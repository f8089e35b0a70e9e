"""The seat-balanced duplicate tournament (benchmarks.tournament) on the toy game."""

from __future__ import annotations

import collections
import csv
import io
import itertools
import math
import subprocess
import sys
import time
import types

import numpy as np
import pytest
from toy_agents import TOY_BASELINES, HighestCardFirst

import agents
from benchmarks import tournament
from benchmarks.tournament import run_tournament, seat_arrangements

THREE = ["random", "highest_first", "lowest_first"]


@pytest.fixture(scope="module", autouse=True)
def toy_baselines():
    agents.register_baselines("toy", {
        **TOY_BASELINES,
        # A second copy of one deterministic strategy: under duplicate deals the two tie.
        "highest_first_twin": lambda num_players, seed: HighestCardFirst(),
    })
    yield
    agents.unregister_baselines("toy")


@pytest.fixture(scope="module")
def three_player_result():
    return run_tournament("toy", 3, THREE, 300, seed=11, progress=False, bootstrap_samples=200)


# ----------------------------------------------------------------------- the schedule
@pytest.mark.parametrize(("num_agents", "num_players"),
                         [(2, 2), (3, 3), (4, 3), (5, 2), (6, 4), (2, 3), (3, 4)])
def test_every_agent_sits_in_every_seat_equally_often(num_agents, num_players):
    schedule = seat_arrangements(num_agents, num_players)
    seats = np.array([s for s, _ in schedule])
    counts = np.zeros((num_agents, num_players), dtype=int)
    for p in range(num_players):
        np.add.at(counts[:, p], seats[:, p], 1)
    assert (counts == counts[0, 0]).all() and counts[0, 0] > 0


@pytest.mark.parametrize(("num_agents", "num_players"), [(3, 3), (4, 3), (5, 2), (6, 4)])
def test_every_pair_of_agents_meets_equally_often(num_agents, num_players):
    meetings = collections.Counter()
    for seats, _ in seat_arrangements(num_agents, num_players):
        meetings.update(itertools.combinations(sorted(seats), 2))
    assert len(meetings) == num_agents * (num_agents - 1) // 2
    assert len(set(meetings.values())) == 1


def test_a_lineup_is_played_in_all_its_rotations():
    schedule = seat_arrangements(3, 3)
    assert schedule == [((0, 1, 2), 0), ((1, 2, 0), 0), ((2, 0, 1), 0)]
    # Fewer agents than seats: every multiset with two different agents, rotated.
    lineups = {j: sorted(s) for s, j in seat_arrangements(2, 3)}
    assert sorted(lineups.values()) == [[0, 0, 1], [0, 1, 1]]


@pytest.mark.parametrize(("num_field", "num_players"), [(3, 3), (4, 3), (2, 4), (4, 4)])
def test_a_guest_meets_every_part_of_the_field_in_every_seat(num_field, num_players):
    plan = tournament.schedule(num_field, 2, num_players, field_games=60, guest_games=30)
    field = [a for a in plan if max(a.seats) < num_field]
    assert [(a.seats, a.lineup) for a in field] == seat_arrangements(num_field, num_players)
    for guest in (num_field, num_field + 1):
        mine = [a for a in plan if guest in a.seats]
        assert all(a.seats.count(guest) == 1 and max(a.seats) == guest for a in mine)
        assert sum(a.games for a in mine) >= 30
        seats = collections.Counter(a.seats.index(guest) for a in mine)
        assert len(seats) == num_players and len(set(seats.values())) == 1
        # Its lineups: every (P - 1)-subset of the field (multiset, if the field is small).
        others = {tuple(sorted(a.seats))[:-1] for a in mine}
        k = num_players - 1
        subsets = (math.comb(num_field, k) if num_field >= k
                   else math.comb(num_field + k - 1, k))
        assert len(others) == subsets == len({a.lineup for a in mine})
        if num_field >= k:
            assert all(len(set(o)) == k for o in others)
    # Every deal block belongs to one lineup: the seeds of two lineups never overlap.
    spans = {}
    for a in plan:
        spans.setdefault(a.lineup, set()).update(range(a.first_block, a.first_block + a.games))
    blocks = [b for span in spans.values() for b in span]
    assert len(blocks) == len(set(blocks))


# ----------------------------------------------------------------------- the games
def test_guests_play_their_games_and_leave_the_field_as_it_was(three_player_result):
    result = run_tournament("toy", 3, THREE, 300, seed=11, progress=False,
                            bootstrap_samples=200, guests="highest_first_twin",
                            guest_games=30)
    assert result.agents == [*THREE, "highest_first_twin"]
    assert result.guests == ["highest_first_twin"]
    field = 300
    np.testing.assert_array_equal(result.rewards[:field], three_player_result.rewards)
    np.testing.assert_array_equal(result.seat_agents[:field], three_player_result.seat_agents)
    # 3 lineups (the twin with each pair of the field) x 3 rotations x 4 deals >= 30 games.
    assert result.guest_games_per_arrangement == 4 and result.num_games == field + 36
    assert result.seats_played[3] == 36 and (result.seat_agents[field:] == 3).any(axis=1).all()
    # The twin plays like highest_first, so it rates alike (both well above random).
    elo = dict(zip(result.agents, result.elo.ratings, strict=True))
    assert elo["highest_first_twin"] > 1000 and elo["highest_first"] > 1000
    assert dict(result.header_lines())["guests"].startswith("highest_first_twin (each")
    with pytest.raises(ValueError, match="both in the field and guests"):
        run_tournament("toy", 3, THREE, 30, progress=False, guests="random")


def test_games_are_seat_balanced_and_dealt_in_duplicate(three_player_result):
    result = three_player_result
    assert result.num_games == 300 and result.games_per_arrangement == 100
    assert (result.seats_played == 300).all()
    for agent in range(3):
        per_seat = (result.seat_agents == agent).sum(axis=0)
        assert (per_seat == 100).all()
    # Each block is one deal played once in each of the three rotations.
    for block in np.unique(result.blocks):
        games = np.flatnonzero(result.blocks == block)
        assert len(games) == 3 and len(set(result.deal_seeds[games])) == 1
        for seat in range(3):
            assert sorted(result.seat_agents[games, seat]) == [0, 1, 2]
    assert result.deal_seeds.min() == 11 and result.deal_seeds.max() == 11 + 99


def test_identical_strategies_tie_exactly_under_duplicate_deals():
    # The same deterministic strategy in both seats: each deal is played twice with the
    # seats swapped, so whatever one copy wins on a deal the other wins on its replay.
    result = run_tournament("toy", 2, ["highest_first", "highest_first_twin"], 200,
                            progress=False, bootstrap_samples=50)
    assert result.wins[0, 1] == result.wins[1, 0]
    assert result.elo.ratings[1] == pytest.approx(1000.0, abs=1e-6)
    np.testing.assert_allclose(result.first_place_rate[0], result.first_place_rate[1])


def test_the_same_seed_replays_the_same_tournament(three_player_result):
    again = run_tournament("toy", 3, THREE, 300, seed=11, progress=False, bootstrap_samples=200)
    np.testing.assert_array_equal(again.rewards, three_player_result.rewards)
    np.testing.assert_array_equal(again.elo.ratings, three_player_result.elo.ratings)
    np.testing.assert_array_equal(again.elo.low, three_player_result.elo.low)
    other = run_tournament("toy", 3, THREE, 300, seed=12, progress=False, bootstrap_samples=0)
    assert not np.array_equal(other.rewards, three_player_result.rewards)


def test_scripted_baselines_rate_above_random(three_player_result):
    result = three_player_result
    elo = dict(zip(result.agents, result.elo.ratings, strict=True))
    assert elo["random"] == 1000
    assert elo["highest_first"] > 1000 and elo["lowest_first"] > 1000
    low = dict(zip(result.agents, result.elo.low, strict=True))
    assert low["highest_first"] > 1000  # clearly better, not by luck
    assert result.first_place_rate[result.agents.index("random")] < 1 / 3
    # Every pair of seats of every game gives one point: 3 pairs per game.
    assert result.wins.sum() == pytest.approx(3 * result.num_games)
    if result.openskill is not None:
        assert result.openskill.mu[0] < result.openskill.mu[1]


def test_games_are_rounded_up_to_whole_deals_per_arrangement():
    result = run_tournament("toy", 2, THREE, 100, progress=False, bootstrap_samples=0)
    assert len(result.arrangements) == 6
    assert result.games_per_arrangement == 17 and result.num_games == 102


def test_fewer_agents_than_seats_fill_seats_with_copies():
    result = run_tournament("toy", 3, ["random", "highest_first"], 60, progress=False,
                            bootstrap_samples=0)
    assert (result.seats_played == result.seats_played[0]).all()
    assert result.elo.ratings[1] > 1000


def test_large_arrangements_are_played_in_chunks_with_the_same_deals(monkeypatch):
    names = ["highest_first", "lowest_first"]  # deterministic: chunking cannot change play
    whole = run_tournament("toy", 2, names, 40, progress=False, bootstrap_samples=0)
    monkeypatch.setattr(tournament, "MAX_BATCH", 7)
    chunked = run_tournament("toy", 2, names, 40, progress=False, bootstrap_samples=0)
    np.testing.assert_array_equal(chunked.scores, whole.scores)
    assert chunked.decisions == whole.decisions


# ----------------------------------------------------------------------- reports
def test_tables_record_version_revision_seeds_and_first_place(three_player_result, tmp_path):
    md_path, csv_path = three_player_result.write(tmp_path / "out")
    assert md_path.name == "toy_elo.md" and csv_path.name == "toy_elo.csv"
    text = md_path.read_text()
    for needle in ("toy (VERSION 1)", "| players | 3 |", "deal seeds 11..110",
                   f"| git revision | {three_player_result.git_revision} |", "first place",
                   "random = 1000", "95% CI", "Pairwise"):
        assert needle in text
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    assert [r["agent"] for r in rows] == [three_player_result.agents[i]
                                          for i in three_player_result.order()]
    for row in rows:
        assert row["env_id"] == "toy" and row["version"] == "1" and row["seed"] == "11"
        assert row["num_players"] == "3" and row["num_games"] == "300"
        assert float(row["elo_low"]) <= float(row["elo"]) <= float(row["elo_high"])
        assert 0 <= float(row["first_place_rate"]) <= 1


def test_tables_say_so_when_openskill_is_missing(monkeypatch):
    monkeypatch.setattr(tournament.elo_lib, "openskill_available", lambda: False)
    result = run_tournament("toy", 2, ["random", "highest_first"], 20, progress=False,
                            bootstrap_samples=0)
    assert result.openskill is None
    assert "not computed" in result.to_markdown()
    assert all(row["openskill_mu"] == "" for row in result.rows())
    assert "openskill_mu" in result.to_csv().splitlines()[0]


def test_git_revision_is_unknown_outside_a_repository(monkeypatch):
    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(tournament.subprocess, "run", no_git)
    assert tournament.git_revision() == "unknown"


def test_the_command_prints_and_writes_the_tables(tmp_path, capsys):
    result = tournament.main(["--env", "toy", "--players", "2", "--agents",
                              "random,highest_first", "--games", "40", "--seed", "3",
                              "--out", str(tmp_path), "--bootstrap", "20"])
    printed = capsys.readouterr().out
    assert "| rank | agent | Elo" in printed and "toy_elo.md" in printed
    assert (tmp_path / "toy_elo.csv").exists() and result.num_games == 40


def test_the_command_has_help():
    out = subprocess.run([sys.executable, "-m", "benchmarks.tournament", "--help"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    for flag in ("--env", "--players", "--agents", "--games", "--seed", "--out", "--ray",
                 "--ray-address"):
        assert flag in out


# ----------------------------------------------------------------------- bad input
@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is played."""
    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the input was checked")

    monkeypatch.setattr(tournament, "play_arrangement", refuse)
    monkeypatch.setattr(tournament, "play_match", refuse)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"agent_names": ["random", "greedy"]}, "unknown agent 'greedy'"),
    ({"agent_names": ["random"]}, "at least 2 agents"),
    ({"agent_names": "random,random"}, "repeated"),
    ({"agent_names": ["random", "highest_first"], "num_players": 4}, "unsupported num_players"),
    ({"agent_names": ["random", "runs/none.zip"]}, "no checkpoint file"),
    ({"agent_names": ["random", "highest_first"], "num_games": 0}, "num_games"),
    ({"env_id": "nope", "agent_names": ["random", "highest_first"]}, "unknown env id"),
])
def test_bad_input_fails_before_any_game(no_games, kwargs, message):
    args = {"env_id": "toy", "num_players": 2, "num_games": 10, "progress": False, **kwargs}
    with pytest.raises(ValueError, match=message):
        run_tournament(**args)


def test_a_checkpoint_for_another_game_fails_before_any_game(no_games, tmp_path, monkeypatch):
    checkpoint = tmp_path / "best.zip"
    checkpoint.write_bytes(b"")
    module = types.ModuleType("agents.policy")

    def load_policy_agent(path, env_id, num_players, seed=0):
        raise ValueError(f"{path!r} was trained on env 'cairo', not {env_id!r}")

    module.load_policy_agent = load_policy_agent
    monkeypatch.setitem(sys.modules, "agents.policy", module)
    with pytest.raises(ValueError, match="trained on env 'cairo', not 'toy'"):
        run_tournament("toy", 2, ["random", str(checkpoint)], 10, progress=False)


# ----------------------------------------------------------------------- Ray
def test_ray_runs_give_the_same_results_as_local_runs(local_ray):
    # The toy game and its baselines exist only in this test session: the Ray tasks get the
    # game object and the agents themselves, so no registry is needed on the workers.
    kwargs = {"seed": 5, "progress": False, "bootstrap_samples": 100}
    names = ["random", "highest_first", "lowest_first"]
    on_ray = run_tournament("toy", 2, names, 60, use_ray=True, **kwargs)
    local = run_tournament("toy", 2, names, 60, **kwargs)
    assert on_ray.used_ray and not local.used_ray
    np.testing.assert_array_equal(on_ray.seat_agents, local.seat_agents)
    np.testing.assert_array_equal(on_ray.rewards, local.rewards)
    np.testing.assert_array_equal(on_ray.scores, local.scores)
    np.testing.assert_array_equal(on_ray.elo.ratings, local.elo.ratings)
    np.testing.assert_array_equal(on_ray.elo.high, local.elo.high)
    assert on_ray.decisions == local.decisions


# ----------------------------------------------------------------------- speed
@pytest.mark.slow
def test_a_600_game_three_player_tournament_is_fast():
    start = time.perf_counter()
    result = run_tournament("toy", 3, THREE, 600, progress=False)
    elapsed = time.perf_counter() - start
    print(f"600-game 3-player toy tournament: {elapsed:.2f} s "
          f"({result.num_games / result.elapsed_s:.0f} games/s of play)")
    assert elapsed < 300


def test_saved_games_labels_and_the_rounding_note(tmp_path, capsys, toy_baselines):
    """``--save-games`` writes replayable records, ``label=name`` names an agent in the
    tables, and a game count that is not whole deals says what was played instead."""
    from envs import records

    result = tournament.main(["--env", "toy", "--players", "2", "--agents",
                              "random,high=highest_first", "--games", "7", "--save-games",
                              "3", "--out", str(tmp_path), "--no-progress"])
    out = capsys.readouterr().out
    assert result.agents == ["random", "high"] and "| high |" in out
    assert "note: 7 games asked, 8 played" in out
    paths = sorted((tmp_path / "toy_games").glob("*.jsonl"))
    assert len(paths) == 3
    record = records.load(paths[0])
    assert record.header["players"] == ["player_0: random", "player_1: high"]
    assert record.state_at(record.num_steps).done[0]
    assert record.header["seed"] == result.deal_seeds[0]


def test_the_default_output_is_a_new_folder_per_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    tournament.main(["--env", "toy", "--agents", "random,random2=random", "--games", "6",
                     "--no-progress"])
    (folder,) = (tmp_path / "runs" / "tournaments").iterdir()
    assert folder.name.startswith("toy_3p_") and (folder / "toy_elo.md").exists()
    assert f"wrote {folder.relative_to(tmp_path) / 'toy_elo.md'}" in capsys.readouterr().out
    # The help names the folder as it is written: <env>_<P>p_<time>.
    help_text = " ".join(tournament.build_parser().format_help().split())
    assert "runs/tournaments/<env>_<P>p_<time>" in help_text


def test_rounded_guest_games_are_announced(tmp_path, capsys):
    """Two players, a field of two: each guest meets 2 lineups in 2 seats, 4 arrangements,
    so 6 guest games become 2 deals per arrangement, 8 games."""
    tournament.main(["--env", "toy", "--players", "2", "--agents", "random,highest_first",
                     "--guests", "lowest_first", "--guest-games", "6", "--games", "8",
                     "--out", str(tmp_path), "--no-progress", "--bootstrap", "20"])
    out = capsys.readouterr().out
    assert "note: 6 guest games asked, 8 played by each guest" in out
    assert "4 seat arrangements" in out


def test_the_search_budget_table_rates_each_budget_against_the_best_baseline(tmp_path):
    from benchmarks import search_budget

    table = search_budget.main(["--env", "toy", "--players", "2", "--simulations", "2,16",
                                "--games", "8", "--field-games", "12", "--no-progress",
                                "--out", str(tmp_path)])
    assert (tmp_path / "toy_search_budget.md").read_text() == table
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| 2 |")
            or line.startswith("| 16 |")]
    assert len(rows) == 2
    # Each budget: its seconds per decision, and at least the 8 games asked.
    assert all(float(r[1]) > 0 and int(r[6]) >= 8 for r in rows)
    best = table.split("Best scripted baseline: ")[1].split(" ")[0]
    assert best in ("highest_first", "highest_first_twin")  # the two play alike


def test_an_agent_s_options_are_not_taken_for_a_label():
    names, specs = tournament._parse_names(
        "random,ismcts:simulations=2,deep=ismcts:simulations=9,trained=runs/x.zip")
    assert names == ["random", "ismcts:simulations=2", "deep", "trained"]
    assert specs == ["random", "ismcts:simulations=2", "ismcts:simulations=9", "runs/x.zip"]
