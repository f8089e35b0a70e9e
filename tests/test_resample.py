"""``resample_hidden`` of every registered game, and the dynamic information-leak test.

design.md: a resampled state is one the seat could be in given all it has observed: the
same observation and per-seat render for that seat, the same seat to act and the same
decision asked (both public), a legal action for the seat to act, and, for the acting seat's
own resample, the same mask; and its draw depends only on what the seat knows (the same
seed draws the same state from any state the seat cannot tell from the true one: search
agents and the agents' hidden-information check rely on it). The dynamic test (style.md)
then applies the same action, legal in both, to the true and the resampled state: unless
the step's record says it revealed something to the seat, who acts next, the decision
asked and the seat's observation must still agree.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ENV_CASES, ENV_IDS
from harness import random_play

import envs
from envs.core.sampling import sample_actions

pytestmark = pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)

BATCH = 6
EVERY = 3  # resample at every third decision of the random games


def _decisions(game, state) -> list[str]:
    return [game.decision_name(state, r) if not state.done[r] else "-"
            for r in range(state.batch_size)]


def _resampled_points(game, seed):
    """(state, seat, resampled) at every ``EVERY``-th step of random games, every seat."""
    for step, (_, _, after) in enumerate(random_play(game, BATCH, seed=seed)):
        if step % EVERY or after.done.all():
            continue
        for seat in range(game.num_players):
            yield after, seat, game.resample_hidden(after, seat, seed=1000 * step + seat)


def test_resampled_states_are_consistent_with_the_seats_view(env_id, num_players):
    game = envs.make_game(env_id, num_players)
    checked = 0
    for state, seat, other in _resampled_points(game, seed=41):
        np.testing.assert_array_equal(game.observe(other, seat), game.observe(state, seat))
        np.testing.assert_array_equal(other.current_player, state.current_player)
        np.testing.assert_array_equal(other.done, state.done)
        assert _decisions(game, other) == _decisions(game, state)
        mask, true_mask = game.legal_action_mask(other), game.legal_action_mask(state)
        live = ~state.done
        assert mask[live].any(axis=1).all(), "a resampled state leaves no legal action"
        mine = live & (state.current_player == seat)
        np.testing.assert_array_equal(mask[mine], true_mask[mine])
        problems = game.check_invariants(other)
        assert not problems, problems[:3]
        for row in range(BATCH):  # the seat's render shows only what it may know
            assert game.render(other, row, seat=seat) == game.render(state, row, seat=seat)
        # The draw depends only on what the seat knows: from a state it cannot tell apart
        # from the true one, the same seed draws the same state.
        again = game.resample_hidden(other, seat, seed=77)
        assert again.equals(game.resample_hidden(state, seat, seed=77)), (
            "resample_hidden draws differently from two states the seat cannot tell apart")
        checked += int(live.sum())
    assert checked > 0


def test_dynamic_leak(env_id, num_players):
    """The same action from the true and a resampled state tells the seat nothing new."""
    game = envs.make_game(env_id, num_players)
    generator = np.random.default_rng(5)
    compared = 0
    for state, seat, other in _resampled_points(game, seed=43):
        true_mask, other_mask = game.legal_action_mask(state), game.legal_action_mask(other)
        actions = sample_actions(true_mask, generator)
        rows = np.arange(BATCH)
        both = ~state.done & other_mask[rows, actions]
        # Rows where the action is illegal in the resampled state play one of its own.
        other_actions = np.where(both, actions, sample_actions(other_mask, generator))
        after = game.step(state.copy(), actions)
        other_after = game.step(other.copy(), other_actions)
        told = game.step_record(after).revealed[:, seat] | game.step_record(
            other_after).revealed[:, seat]
        same = np.flatnonzero(both & ~told)
        np.testing.assert_array_equal(after.current_player[same],
                                      other_after.current_player[same])
        names, other_names = _decisions(game, after), _decisions(game, other_after)
        assert [names[r] for r in same] == [other_names[r] for r in same]
        np.testing.assert_array_equal(game.observe(after, seat)[same],
                                      game.observe(other_after, seat)[same])
        live = ~other_after.done
        assert game.legal_action_mask(other_after)[live].any(axis=1).all()
        compared += same.size
    assert compared > 0
