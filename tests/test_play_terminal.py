"""A human at the terminal: agents.play's help, answers, listing, redraw, Ctrl-C and end
screen; envs.replay's stepping and cut-off records."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

import envs
from agents import play
from envs import records, replay

CAIRO = ["--env", "cairo", "--players", "3", "--seed", "3", "--opponents", "random"]


def _play(argv, answers) -> str:
    out = io.StringIO()
    source = io.StringIO(answers) if isinstance(answers, str) else answers
    assert play.main(argv, stdin=source, stdout=out) == 0
    return out.getvalue()


def test_question_mark_explains_the_decision_asked_and_the_keys(tmp_path):
    text = _play([*CAIRO, "--out", str(tmp_path)], "?\nquit\n")
    decisions, actions = play.help_tables(envs.make_game("cairo", 3))
    help_text = text[text.index("Decision: PLACE_COLOUR"):]
    assert decisions["PLACE_COLOUR"] in help_text  # what this decision asks
    assert actions["NEW"] in help_text and "6 legal: NEW_red ... NEW_purple" in help_text
    assert actions["CELL"] not in help_text  # only the blocks legal here
    assert play.KEYS in help_text


def test_unknown_illegal_and_out_of_range_answers_each_get_their_own_message(tmp_path):
    # In cairo's first decision only NEW_<colour> (0-5) is legal.
    text = _play([*CAIRO, "--out", str(tmp_path)], "nwe_red\n12\nmove_red\n240\n-1\nborad\n"
                 "quit\n")
    assert "'nwe_red' is neither an action nor a key; did you mean NEW_red or" in text
    assert ("12 MOVE_red is not legal in this decision (PLACE_COLOUR (PLACE)); legal and "
            "close: NEW_red") in text
    assert text.count("12 MOVE_red is not legal") == 2  # by number and by name alike
    assert "240 is out of range: the actions are numbered 0 to 239" in text
    assert "-1 is out of range" in text
    assert "'borad' is neither an action nor a key; did you mean 'board'?" in text


class _CtrlCAfter(io.StringIO):
    """Standard input whose reader presses Ctrl-C once the given lines are read."""

    def readline(self, *args) -> str:
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_saves_the_record_and_says_where(tmp_path):
    text = _play([*CAIRO, "--out", str(tmp_path)], _CtrlCAfter("new_red\n"))
    (path,) = tmp_path.glob("*.jsonl")
    assert "Interrupted (Ctrl-C)." in text
    assert f"Stopped by Ctrl-C. The game's record: {path}" in text
    record = records.load(path)
    human = [m for m in record.asked() if m.seat == 0]
    assert [m.name for m in human] == ["NEW_red"] and record.end is not None
    record.state_at(record.num_steps)  # it replays


def test_the_legal_list_wraps_between_whole_names_and_groups_cells_by_row():
    game = envs.make_game("cairo", 3)
    state = game.init(1, seed=3)
    while game.decision_name(state, 0).split()[0] != "STALL_CELL":
        state = game.step(state, np.array([np.flatnonzero(game.legal_action_mask(state)[0])[0]]))
    listing = play.legal_listing(game, state, width=60)
    lines = listing.text.splitlines()
    assert all(len(line) <= 60 for line in lines)
    items = " ".join(lines).split()
    for action in listing.legal:  # every action whole, its number right before its name
        name = game.action_name(action)
        assert items[items.index(name) - 1] == str(action)
    rows = [line for line in lines if line.startswith("  CELL row ")]
    assert len(rows) >= 10 and all(
        {name.rsplit("_", 1)[1] for name in line.split() if name.startswith("CELL_")}
        == {line.split()[2].rstrip(":")} for line in rows)


def test_the_board_is_redrawn_compactly_unless_asked_in_full(tmp_path):
    moves = "new_red\n?\n"  # a decision, then the stall cell asked: two redraws
    game = envs.make_game("cairo", 3)
    legend = game.render(game.init(1, seed=3), 0).splitlines()[-1]
    compact = _play([*CAIRO, "--out", str(tmp_path)], moves + "quit\n")
    full = _play([*CAIRO, "--out", str(tmp_path), "--redraw", "full"], moves + "quit\n")
    assert compact.count(legend) == 1 and full.count(legend) >= 2
    assert "lines changed; 'board' shows the whole board)" in compact
    assert len(compact.splitlines()) < len(full.splitlines())


def test_the_screen_shows_only_the_lines_that_changed():
    out = io.StringIO()
    screen = play.Screen(out, full=False)
    screen.board("head 1\nsame\nold\nsame")
    screen.board("head 2\nsame\nnew\nsame")
    assert out.getvalue().splitlines()[4:] == [
        "head 2", "new", "  (1 of 4 lines changed; 'board' shows the whole board)"]


@pytest.mark.parametrize("env_id", ["cairo", "batavia", "discoveries", "junk"])
def test_every_decision_and_action_block_is_explained(env_id):
    game = envs.make_game(env_id)
    decisions, actions = play.help_tables(game)
    assert {name for _, name, _ in game.decision_table()} <= set(decisions)
    assert set(game.action_layout.ranges) == set(actions)


def test_cairo_s_legend_explains_the_final_vp():
    game = envs.make_game("cairo", 3)
    text = game.render(game.init(1, seed=0), 0)
    assert "VP 0 (final 2)" in text and "VP 14 (final 27) = victory points now" in text


# ------------------------------------------------------------------------------- replay
def _recorded_game(tmp_path, seed=9):
    game = envs.make_game("toy", 3)
    state = game.init(1, seed=seed)
    recorder = records.Recorder(game, seed, ["random"] * 3)
    recorder.start(state)
    generator = np.random.default_rng(0)
    while not state.done[0]:
        action = int(generator.choice(np.flatnonzero(game.legal_action_mask(state)[0])))
        recorder.before(state)
        state = game.step(state, np.array([action]))
        recorder.after(state, action)
    return recorder.write(tmp_path / "game.jsonl"), recorder


def test_replay_steps_in_a_terminal_and_prints_all_when_piped(tmp_path):
    path, recorder = _recorded_game(tmp_path)
    asked = sum(not m.automatic for m in recorder.moves)
    out = io.StringIO()
    assert replay.main([str(path)], stdin=io.StringIO("\n\nq\n"), stdout=out,
                       interactive=True) == 0
    assert out.getvalue().count("--- position") == 3
    assert out.getvalue().count("[Enter: next position, q: quit]") == 3
    out = io.StringIO()
    assert replay.main([str(path)], stdin=io.StringIO(""), stdout=out, interactive=False) == 0
    assert out.getvalue().count("--- position") == asked + 1
    assert "[Enter" not in out.getvalue()
    out = io.StringIO()  # --all in a terminal: no stepping either
    assert replay.main([str(path), "--all"], stdin=io.StringIO(""), stdout=out,
                       interactive=True) == 0
    assert out.getvalue().count("--- position") == asked + 1


def test_a_record_cut_off_mid_write_replays_to_its_last_whole_line(tmp_path, capsys):
    path, _ = _recorded_game(tmp_path)
    lines = path.read_text().splitlines()
    whole = lines[:12]  # the header and 11 decision lines
    path.write_text("\n".join(whole) + "\n" + lines[12][:20])  # line 13 stops mid-way
    record = records.load(path)
    assert record.broken.startswith(f"{path}, line 13, column ")
    assert "replaying it up to line 12" in record.broken
    moves = [json.loads(line) for line in whole[1:]]
    assert record.num_steps == sum(not m.get("automatic") for m in moves)
    assert replay.main([str(path)], interactive=False) == 0
    captured = capsys.readouterr()
    assert f"warning: {path}, line 13" in captured.err
    assert captured.out.count("--- position") == record.num_steps + 1
    assert "without an outcome" in captured.out


def test_a_broken_line_before_the_last_is_an_error_naming_it(tmp_path):
    path, _ = _recorded_game(tmp_path)
    lines = path.read_text().splitlines()
    lines[3] = lines[3][:10]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=rf"{path}, line 4, column \d+: not a JSON line"):
        records.load(path)
