"""Playing in the terminal (agents.play), game records (envs.records) and their replay."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

import envs
from agents import play
from envs import records, replay


def _play(argv, answers: str) -> str:
    out = io.StringIO()
    assert play.main(argv, stdin=io.StringIO(answers), stdout=out) == 0
    return out.getvalue()


def test_a_human_plays_a_whole_game_through_standard_input(tmp_path, toy_baselines):
    # The toy game: seat 0 always plays its first legal card and draws from the deck.
    answers = "nonsense\n?\nboard\n" + "0\n1\n2\n3\ndraw_deck\n" * 20
    text = _play(["--env", "toy", "--players", "2", "--seed", "4", "--opponents",
                  "highest_first", "--out", str(tmp_path)], answers)
    assert "'nonsense' is neither an action nor a key" in text
    assert "Decision: PLAY" in text and play.KEYS in text  # what '?' explains
    assert "player_1 (highest_first) PLAY:" in text  # the opponent's moves, as they happen
    (path,) = tmp_path.glob("*.jsonl")
    assert f"The game's record: {path}" in text
    record = records.load(path)
    assert record.header["players"] == ["player_0: human", "player_1: highest_first"]
    final = record.state_at(record.num_steps)
    assert final.done[0] and record.end["scores"] == envs.make_game("toy", 2).scores(
        final)[0].tolist()
    # The end screen names the winner and ranks every seat.
    rewards = record.end["rewards"]
    winner = max(range(2), key=lambda s: rewards[s])
    names = ["human", "highest_first"]
    assert "Game over." in text and "Ranking (place, seat, score, reward):" in text
    if rewards[0] != rewards[1]:
        assert f"Winner: player_{winner} ({names[winner]})" in text
        assert f"  1. player_{winner} ({names[winner]}): score" in text
        assert f"  2. player_{1 - winner} ({names[1 - winner]}): score" in text
    else:
        assert "Winners (tied): player_0 (human) and player_1 (highest_first)" in text


def test_the_human_seat_sees_only_its_own_view(tmp_path):
    game = envs.make_game("toy", 2)
    state = game.init(1, seed=4)
    text = _play(["--env", "toy", "--players", "2", "--seat", "1", "--seed", "4", "--out",
                  str(tmp_path)], "quit\n")
    assert game.render(state, 0, seat=1) in text
    assert game.render(state, 0) not in text  # the other hand stays hidden
    assert "Stopped." in text


def test_bad_arguments_are_usage_errors(capsys):
    for argv, message in ((["--env", "nosuch"], "unknown env id"),
                          (["--env", "toy", "--seat", "5"], "--seat must be in 0..2"),
                          (["--env", "toy", "--opponents", "bogus"], "unknown agent 'bogus'")):
        with pytest.raises(SystemExit):
            play.main(argv, stdin=io.StringIO(""), stdout=io.StringIO())
        assert message in capsys.readouterr().err


def _recorded_game(tmp_path, env_id="toy", players=3, seed=9):
    game = envs.make_game(env_id, players)
    state = game.init(1, seed=seed)
    recorder = records.Recorder(game, seed, ["random"] * players)
    recorder.start(state)
    generator = np.random.default_rng(0)
    states = []
    while not state.done[0]:
        states.append(state.copy())
        action = int(generator.choice(np.flatnonzero(game.legal_action_mask(state)[0])))
        recorder.before(state)
        state = game.step(state, np.array([action]))
        recorder.after(state, action)
    states.append(state)
    return recorder.write(tmp_path / "game.jsonl"), states


def test_a_record_returns_the_state_at_any_step_and_marks_automatic_decisions(tmp_path):
    path, states = _recorded_game(tmp_path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["env_id"] == "toy" and lines[0]["version"] == 1 and lines[-1]["end"]
    assert any(line.get("automatic") for line in lines)  # the toy's forced market draws
    record = records.load(path)
    assert record.num_steps == len(states) - 1
    for step in (0, 5, record.num_steps):
        assert record.state_at(step).equals(states[step])
    with pytest.raises(ValueError, match=r"not in 0\.\."):
        record.state_at(record.num_steps + 1)


def test_a_record_of_another_version_is_refused(tmp_path):
    path, _ = _recorded_game(tmp_path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 99
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(ValueError, match="a record of toy v99, but the installed game is v1"):
        records.load(path)


def test_replay_prints_every_position_or_one(tmp_path, capsys):
    path, states = _recorded_game(tmp_path)
    game = envs.make_game("toy", 3)
    assert replay.main([str(path)]) == 0
    text = capsys.readouterr().out
    assert text.count("--- position") == len(states) and "automatic:" in text
    assert replay.main([str(path), "--step", "3", "--seat", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == game.render(
        states[3], 0, seat=2).splitlines()


def test_replay_stops_where_a_record_parts_from_the_game(tmp_path, capsys):
    path, _ = _recorded_game(tmp_path)
    lines = path.read_text().splitlines()
    move = json.loads(lines[2])
    move["decision"] = "SOMETHING_ELSE"
    lines[2] = json.dumps(move)
    path.write_text("\n".join(lines) + "\n")
    assert replay.main([str(path)]) == 1
    assert "the record says seat" in capsys.readouterr().err
