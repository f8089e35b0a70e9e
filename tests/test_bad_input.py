"""Bad input gets a precise error and leaves the state unchanged."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ENV_CASES, ENV_IDS

import envs


def test_unknown_env_id_names_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown env id 'chess'.*valid: .*toy"):
        envs.make_game("chess")
    with pytest.raises(ValueError, match="unknown env id"):
        envs.make_env("chess")
    with pytest.raises(ValueError, match="unknown env id"):
        envs.make_vec("chess", num_envs=2)


def test_bad_player_count_names_the_valid_ones():
    with pytest.raises(ValueError, match=r"unsupported num_players=7; valid: 2, 3"):
        envs.make_game("toy", num_players=7)
    with pytest.raises(ValueError, match="must be an int"):
        envs.make_game("toy", num_players="3")


def test_unknown_or_mistyped_option_is_rejected():
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['speed'\].*max_turns=100"):
        envs.make_game("toy", 2, speed=3)
    with pytest.raises(ValueError, match="option max_turns must be int"):
        envs.make_game("toy", 2, max_turns="many")
    assert envs.make_game("toy", 2, max_turns=5).options == {"max_turns": 5}


def test_bad_batch_size_and_seed():
    game = envs.make_game("toy", 2)
    for bad in (0, -3, 2.5):
        with pytest.raises(ValueError, match="batch_size"):
            game.init(bad)
    with pytest.raises(ValueError, match="seed"):
        game.init(2, seed="x")
    with pytest.raises(ValueError, match="num_envs"):
        envs.make_vec("toy", num_envs=0)


def test_bad_reset_rows_raise_with_nothing_changed():
    game = envs.make_game("toy", 2)
    state = game.init(4, seed=0)
    snapshot = state.copy()
    cases = {
        "out of range": (np.array([1, 4]), np.array([0, 1]), "rows out of range"),
        "negative": (np.array([-1]), np.array([0]), "rows out of range"),
        "repeated": (np.array([2, 2]), np.array([0, 1]), "distinct"),
        "repeated out of order": (np.array([3, 1, 3]), np.array([0, 1, 2]), "distinct"),
        "not integer": (np.array([1.0]), np.array([0]), "rows must be"),
        "seeds per row": (np.array([1, 2]), np.array([0]), "seeds must be one int per row"),
        "seeds not integer": (np.array([1]), np.array([0.5]), "seeds must be"),
    }
    for name, (rows, seeds, pattern) in cases.items():
        with pytest.raises(ValueError, match=pattern):
            game.reset_rows(state, rows, seeds)
        assert state.equals(snapshot), f"{name}: the state changed"
    with pytest.raises(ValueError, match="not this game's"):
        envs.make_game("toy", 3).reset_rows(state, np.array([0]), np.array([0]))
    assert state.equals(snapshot)


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_bad_actions_raise_with_nothing_changed(env_id, num_players):
    game = envs.make_game(env_id, num_players)
    state = game.init(3, seed=0)
    mask = game.legal_action_mask(state)
    legal = mask.argmax(axis=1)
    illegal_in_row_1 = legal.copy()
    illegal_in_row_1[1] = np.flatnonzero(~mask[1])[0]
    snapshot = state.copy()
    cases = {
        "illegal": (illegal_in_row_1, envs.IllegalActionError, "row 1: action .* is illegal"),
        "negative": (np.where(np.arange(3) == 2, -1, legal), envs.IllegalActionError,
                     r"row 2: .*out of range"),
        "too large": (np.full(3, game.num_actions), envs.IllegalActionError, "out of range"),
        "wrong shape": (legal[:2], ValueError, r"shape \(3,\)"),
        "not integer": (legal + 0.5, ValueError, "integers"),
        "whole floats": (legal.astype(np.float32), ValueError, "integers"),
    }
    for name, (actions, error, pattern) in cases.items():
        with pytest.raises(error, match=pattern):
            game.step(state, actions)
        assert state.equals(snapshot), f"{name}: the state changed"
    game.step(state, legal)  # the legal batch still goes through afterwards
    assert not state.equals(snapshot)


def test_illegal_action_message_names_game_decision_and_choices():
    game = envs.make_game("toy", 2)
    state = game.init(1, seed=0)
    bad = int(np.flatnonzero(~game.legal_action_mask(state)[0])[0])
    with pytest.raises(envs.IllegalActionError) as err:
        game.step(state, np.array([bad]))
    text = str(err.value)
    assert text.startswith("toy: row 0:") and "decision 'PLAY'" in text and "legal: [" in text
    assert isinstance(err.value, ValueError)


def test_the_aec_env_explains_calls_out_of_order():
    env = envs.make_env("toy", 2)
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
        with pytest.raises(RuntimeError, match=r"toy_v1: call reset\(\) before using the env"):
            call()
    env.reset(seed=0)
    generator = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else
                 int(generator.choice(np.flatnonzero(obs["action_mask"]))))
    for call in (lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match=r"the game is over .* call reset\(\)"):
            call()
    env.reset(seed=1)  # and it starts again
    assert env.agents == env.possible_agents


@pytest.mark.parametrize("env_id", sorted({env_id for env_id, _ in ENV_CASES}))
def test_the_aec_env_names_the_valid_agents_and_takes_integer_actions_only(env_id):
    env = envs.make_env(env_id)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"unknown agent 'player_7'; valid: player_0, "):
        env.observe("player_7")
    before = env.state.copy()
    legal = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    for bad in (float(legal), legal + 0.5):
        with pytest.raises(ValueError, match="actions must be integers"):
            env.step(bad)
    assert env.state.equals(before)
    env.step(legal)


def test_render_without_a_mode_warns_and_bad_render_arguments_fail(caplog):
    import warnings

    env = envs.make_env("toy", 2)
    env.reset(seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert env.render() is None
    assert any("render() without a render_mode" in str(w.message) for w in caught)
    with pytest.raises(ValueError, match="unknown render_mode 'svg'"):
        envs.make_env("toy", 2, render_mode="svg")
    with pytest.raises(ValueError, match=r"render_seat must be None .* 0\.\.1"):
        envs.make_env("toy", 2, render_mode="ansi", render_seat=2)


def test_human_render_prints_the_chosen_seats_view(capsys):
    env = envs.make_env("toy", 2, render_mode="human", render_seat=1)
    env.reset(seed=3)
    env.render()
    assert capsys.readouterr().out.strip() == env.game.render(env.state, 0, seat=1)
