"""Batched random play: invariants (§10), termination, batch consistency, hidden information."""

from __future__ import annotations

import numpy as np
import pytest

from envs.cairo import CairoGame
from envs.cairo.state import CairoState


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 where nothing is legal)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def play(game: CairoGame, state: CairoState, rng: np.random.Generator, on_step=None
         ) -> tuple[CairoState, list[np.ndarray]]:
    history = []
    for _ in range(game.max_decisions):
        if state.done.all():
            break
        mask = game.legal_action_mask(state)
        live = ~state.done
        assert mask[live].any(axis=1).all(), "a live row with no legal action"
        assert not mask[~live].any()
        actions = random_actions(mask, rng)
        history.append(actions)
        state = game.step(state, actions)
        if on_step is not None:
            on_step(state)
    return state, history


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_keeps_invariants_and_ends(players):
    """§10 after every step; random games end by the rules, never by the cap (§7.4)."""
    game = CairoGame(players)
    state = game.init(12, seed=100 * players)
    obs_low, obs_high = game.observation_low, game.observation_high

    def check(s: CairoState) -> None:
        assert game.check_invariants(s) == []
        assert np.abs(s.rewards.sum(axis=1)).max() < 1e-5
        obs = game.observe(s, np.maximum(s.current_player, 0))
        assert obs.shape == (s.batch_size, *game.observation_shape)
        assert ((obs >= obs_low) & (obs <= obs_high)).all()

    state, _ = play(game, state, np.random.default_rng(players), check)
    assert state.terminated.all() and not state.truncated.any()
    scores = game.scores(state)
    assert (scores >= 0).all()


@pytest.mark.parametrize("players", [2, 4])
def test_batch_equals_single_games(players):
    """design.md: row i of init(8, seed=s) plays exactly like init(1, seed=s+i)."""
    game = CairoGame(players)
    batch, history = play(game, game.init(8, seed=40), np.random.default_rng(0))
    for i in range(8):
        single = game.init(1, seed=40 + i)
        for actions in history:
            if single.done[0]:
                break
            single = game.step(single, actions[i:i + 1])
        row = batch.take(i)
        for name in CairoState.STEP_FIELDS:  # the batch stepped on past the end of the game
            getattr(row, name)[:] = 0
            getattr(single, name)[:] = 0
        assert single.equals(row)


def test_same_seed_same_game():
    """§10 invariant 19: the same seed and actions give the same trajectory."""
    game = CairoGame(3)
    first, _ = play(game, game.init(2, seed=9), np.random.default_rng(5))
    second, _ = play(game, game.init(2, seed=9), np.random.default_rng(5))
    assert first.equals(second)


@pytest.mark.parametrize("reveal_money", [True, False])
def test_observation_hides_what_a_seat_cannot_see(reveal_money):
    """§6: redrawing everything seat p cannot see leaves observe(state, p) unchanged."""
    game = CairoGame(4, reveal_money=reveal_money)
    state = game.init(4, seed=3)
    rng = np.random.default_rng(1)
    changed = 0
    for step in range(400):
        mask = game.legal_action_mask(state)
        state = game.step(state, random_actions(mask, rng))
        if step % 40 == 0:
            for seat in range(4):
                other = game.resample_hidden(state, seat, seed=step)
                assert np.array_equal(game.observe(state, seat), game.observe(other, seat))
                changed += not np.array_equal(other.deck, state.deck)
                changed += not np.array_equal(other.hand, state.hand)
    assert changed  # the resampling really moves hidden cards


def test_observation_is_egocentric():
    """§9.3: seat p's own features come first, whoever is to act."""
    game = CairoGame(3)
    state = game.init(1, seed=2)
    state.money[0, 1, 0] = 7
    own = game.observation_layout.view(game.observe(state, 1), "money")
    assert own[0, 0, 0] == pytest.approx(7 / 20)
    seat0 = game.observation_layout.view(game.observe(state, 0), "money")
    assert seat0[0, 1, 0] == pytest.approx(7 / 20)
