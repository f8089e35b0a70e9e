"""The core pieces: per-row RNG, rank rewards, layouts, state helpers."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core import ActionLayout, ObservationLayout, Piece, rank_rewards
from envs.core import rng as rnglib
from envs.core.sampling import sample_actions


def test_rng_rows_are_independent_of_the_batch():
    batch = rnglib.make_rng(np.array([5, 6, 7]))
    singles = [rnglib.make_rng(np.array([s])) for s in (5, 6, 7)]
    perms = rnglib.permutation(batch, None, 10)
    for i, single in enumerate(singles):
        np.testing.assert_array_equal(perms[i], rnglib.permutation(single, None, 10)[0])
    # Drawing for one row only moves that row's counter.
    before = batch.copy()
    rnglib.integers(batch, np.array([False, True, False]), 6)
    assert (batch[[0, 2]] == before[[0, 2]]).all() and batch[1, 1] == before[1, 1] + 1


def test_rng_draws_are_in_range_and_roughly_uniform():
    rng = rnglib.make_rng(np.arange(20000))
    values = rnglib.integers(rng, None, 6)
    assert values.min() == 0 and values.max() == 5
    counts = np.bincount(values, minlength=6)
    assert np.abs(counts / 20000 - 1 / 6).max() < 0.015
    perm = rnglib.permutation(rng, None, 5)
    assert (np.sort(perm, axis=1) == np.arange(5)).all()
    # Each item lands first about a fifth of the time.
    assert np.abs(np.bincount(perm[:, 0], minlength=5) / 20000 - 0.2).max() < 0.015


def test_rng_choice_respects_the_mask():
    rng = rnglib.make_rng(np.arange(3000))
    mask = np.zeros((3000, 5), dtype=bool)
    mask[:, [1, 3]] = True
    mask[0] = False
    picks = rnglib.choice(rng, None, mask)
    assert picks[0] == -1
    assert set(np.unique(picks[1:])) == {1, 3}


def test_rank_rewards_hand_worked():
    # Scores 3, 1, 2: seat 0 beats both (+1), seat 1 loses to both (-1), seat 2 is in between.
    np.testing.assert_allclose(rank_rewards(np.array([[3, 1, 2]])), [[1, -1, 0]])
    # A shared first place: 2 players tie on top, each beats one seat of two.
    np.testing.assert_allclose(rank_rewards(np.array([[2, 2, 1]])), [[0.5, 0.5, -1]])
    np.testing.assert_allclose(rank_rewards(np.array([[4, 4]])), [[0, 0]])
    # Lexicographic keys: the tie on the first key is broken by the second.
    keys = np.array([[[5, 1], [5, 2], [3, 9], [0, 0]]])
    np.testing.assert_allclose(rank_rewards(keys), [[1 / 3, 1, -1 / 3, -1]])


def test_action_layout_offsets_and_names():
    layout = ActionLayout([("PLAY", 3, lambda i: f"PLAY_{'abc'[i]}"), ("PASS", 1, None),
                           ("CELL", 2, None)])
    assert layout.size == 6
    assert (layout.PASS.start, layout.CELL.start, layout.CELL.stop) == (3, 4, 6)
    assert layout.names == ("PLAY_a", "PLAY_b", "PLAY_c", "PASS", "CELL_0", "CELL_1")
    assert 5 in layout.CELL and 3 not in layout.CELL
    with pytest.raises(AttributeError):
        _ = layout.MISSING


def test_observation_layout_views_write_through():
    layout = ObservationLayout([Piece("a", (2, 3), True, 1.0), Piece("b", (4,), False, 5.0,
                                                                         signed=True)])
    buf = layout.new_buffer(2)
    layout.view(buf, "b")[1] = [1, 2, 3, 4]
    layout.view(buf, "a")[0, 1, 2] = 1
    assert buf[1, 6:].tolist() == [1, 2, 3, 4] and buf[0, 5] == 1
    low, high = layout.bounds()
    assert low.tolist() == [0] * 6 + [-5] * 4 and high.tolist() == [1] * 6 + [5] * 4


def test_sample_actions_picks_the_drawn_legal_entry_of_each_row():
    """Row r takes its floor(u_r * count_r)-th legal action for the generator's r-th uniform
    draw u_r (the same actions as counting along each row), 0 where no action is legal."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        rows, actions = int(rng.integers(0, 40)), int(rng.integers(1, 300))
        mask = rng.random((rows, actions)) < rng.random() ** 2
        seed = int(rng.integers(1 << 30))
        draws = np.random.default_rng(seed).random(rows)
        expected = [np.flatnonzero(row)[int(u * row.sum())] if row.any() else 0
                    for row, u in zip(mask, draws, strict=True)]
        assert sample_actions(mask, np.random.default_rng(seed)).tolist() == expected


def _toy_before_a_forced_draw():
    """A 2-player toy game at seat 0's PLAY with the deck empty: its draw is forced."""
    import envs

    game = envs.make_game("toy", 2)
    state = game.init(2, seed=0)
    state.deck_pos[:] = 12  # every card dealt or drawn: only the market is left to draw
    state.hands[:] = 0
    state.hands[:, 0, 3] = 1
    state.hands[:, 1, 2] = 1
    state.market[:] = 1
    state.current_player[:] = 0
    game.refresh(state)
    return game, state


def test_a_decision_forced_by_public_information_is_applied_and_recorded():
    game, state = _toy_before_a_forced_draw()
    state.market[1] = -1  # row 1: nothing at all to draw, the turn ends after the play
    game.refresh(state)
    game.step(state, np.array([3, 3]))  # PLAY_3
    # Row 0 drew the market card without being asked; seat 1 is asked next in both rows.
    assert state.hands[0, 0, 1] == 1 and state.market[0] == -1
    assert state.current_player.tolist() == [1, 1] and state.phase.tolist() == [0, 0]
    (auto,) = game.step_record(state).automatic
    assert auto.rows.tolist() == [0] and auto.seats.tolist() == [0]
    assert game.action_name(int(auto.actions[0])) == "DRAW_MARKET"
    assert game.step_record(state).automatic_of(0) == [(0, 1, int(auto.actions[0]))]
    # The next step starts a new record.
    game.step(state, np.array([2, 2]))
    assert game.step_record(state).automatic == ()


def test_an_automatic_chain_longer_than_max_chain_is_a_game_bug():
    game, state = _toy_before_a_forced_draw()
    game.max_chain = 0
    state.auto = state.auto[:, :0]  # the step record holds no automatic decision
    with pytest.raises(RuntimeError, match="more than max_chain=0 automatic decisions"):
        game.step(state, np.array([3, 3]))


def test_step_clears_and_handlers_set_revealed():
    import envs

    game = envs.make_game("toy", 3)
    state = game.init(1, seed=1)
    game.step(state, np.array([int(np.flatnonzero(game.legal_action_mask(state)[0])[0])]))
    seat = int(state.current_player[0])
    game.step(state, np.array([4]))  # DRAW_DECK: the drawer sees its card, no one else
    assert state.revealed[0].tolist() == [s == seat for s in range(3)]
    game.step(state, np.array([int(np.flatnonzero(game.legal_action_mask(state)[0])[0])]))
    assert not state.revealed.any()  # a card played: nothing hidden shown (the deck is full)


def test_default_player_count_and_option_choices():
    from toy_game import ToyGame

    import envs

    assert envs.make_game("toy").num_players == ToyGame.DEFAULT_PLAYERS == 3
    assert envs.make_game("cairo").num_players == 3

    class Choosy(ToyGame):
        OPTIONS = {**ToyGame.OPTIONS, "variant": "standard"}
        OPTION_CHOICES = {"variant": ("standard", "quick")}

    assert Choosy(2, variant="quick").options["variant"] == "quick"
    with pytest.raises(ValueError, match="option variant='fast' is not one of 'standard', "
                                         "'quick'"):
        Choosy(2, variant="fast")


def test_refresh_gives_a_position_edited_by_hand_its_masks():
    """The masks are a field of the state; after editing a position by hand, ``refresh``
    recomputes them (applying nothing) and ``settle`` also applies the forced decisions."""
    import envs

    game, state = _toy_before_a_forced_draw()
    state.hands[1, 0] = [1, 1, 0, 0]  # row 1: seat 0 may now play 0 or 1
    game.refresh(state)
    assert game.action_name(int(np.flatnonzero(state.legal_mask[0])[0])) == "PLAY_3"
    assert [game.action_name(a) for a in np.flatnonzero(state.legal_mask[1])] == [
        "PLAY_0", "PLAY_1"]
    game = envs.make_game("toy", 2)
    state = game.init(1, seed=4)
    state.terminated[:] = True
    np.testing.assert_array_equal(game.refresh(state).legal_mask, False)


def test_put_and_take_carry_the_rows_masks_along():
    """``Game.put(state, rows, part)`` and ``take`` carry the rows' masks (a field like any
    other): every row's mask equals a fresh computation, and a mask handed out before is
    left as it was."""
    import envs

    game = envs.make_game("toy", 2)
    state = game.init(4, seed=3)
    for _ in range(3):  # on from the first decisions, so that the new games' masks differ
        game.step(state, sample_actions(game.legal_action_mask(state), np.random.default_rng(0)))
    before = game.legal_action_mask(state).copy()
    handed_out = game.legal_action_mask(state)
    games = game.init_rows(np.array([50, 51]))
    rows = np.array([3, 0])
    assert not np.array_equal(before[rows], game.legal_action_mask(games))
    game.put(state, rows, games)
    mask = game.legal_action_mask(state)
    np.testing.assert_array_equal(mask, game.refresh(state.copy()).legal_mask)
    np.testing.assert_array_equal(mask[rows], game.legal_action_mask(games))
    np.testing.assert_array_equal(handed_out, before)
    assert not mask.flags.writeable
    part = game.take(state, np.array([2, 1]))
    np.testing.assert_array_equal(game.legal_action_mask(part), mask[[2, 1]])
