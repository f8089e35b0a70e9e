"""Bradley–Terry Elo by maximum likelihood and OpenSkill ratings (benchmarks.elo)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.elo import (
    elo_ratings,
    fit_elo,
    openskill_available,
    openskill_ratings,
    pairwise_wins,
    win_probability,
)


# ----------------------------------------------------------------------- hand-worked fits
def test_two_agents_differ_by_400_log10_wins_over_losses():
    # 30 wins, 10 losses: the ML win probability is 3/4, so the gap is 400 log10(3).
    ratings = fit_elo(np.array([[0, 30], [10, 0]]), smoothing=0)
    assert ratings[0] == 1000
    assert ratings[0] - ratings[1] == pytest.approx(400 * np.log10(3), abs=1e-9)


def test_a_draw_counts_half_a_win_to_each_side():
    # 20 wins, 10 losses and 10 draws are 25 : 15 in half-wins.
    wins = np.array([[0, 20 + 5], [10 + 5, 0]])
    ratings = fit_elo(wins, smoothing=0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * np.log10(25 / 15), abs=1e-9)


def test_smoothing_adds_virtual_wins_both_ways():
    ratings = fit_elo(np.array([[0, 30], [10, 0]]), smoothing=0.5)
    assert ratings[0] - ratings[1] == pytest.approx(400 * np.log10(30.5 / 10.5), abs=1e-9)


def test_an_undefeated_agent_gets_a_finite_rating_only_with_smoothing():
    wins = np.array([[0, 50], [0, 0]])
    ratings = fit_elo(wins)  # default smoothing 0.1
    assert ratings[0] - ratings[1] == pytest.approx(400 * np.log10(50.1 / 0.1), abs=1e-9)
    with pytest.raises(ValueError, match="infinite without smoothing"):
        fit_elo(wins, smoothing=0)


def test_expected_counts_recover_the_true_ratings():
    # With counts equal to their expectations under ratings R, the ML fit is exactly R.
    true = np.array([1000.0, 1200.0, 1450.0, 900.0])
    wins = 100 * win_probability(true)
    np.fill_diagonal(wins, 0)
    np.testing.assert_allclose(fit_elo(wins, smoothing=0), true, atol=1e-8)
    # ...whatever agent is the anchor.
    shifted = fit_elo(wins, anchor=2, anchor_rating=1450.0, smoothing=0)
    np.testing.assert_allclose(shifted, true, atol=1e-8)


def test_ratings_follow_a_chain_of_results_through_a_middle_agent():
    # a beat b 3:1 and b beat c 3:1, a and c never met: a is 2 x 400 log10(3) above c.
    wins = np.array([[0, 3, 0], [1, 0, 3], [0, 1, 0]], dtype=float)
    ratings = fit_elo(wins, smoothing=0)
    assert ratings[0] - ratings[2] == pytest.approx(800 * np.log10(3), abs=1e-9)


def test_fit_rejects_bad_matrices():
    with pytest.raises(ValueError, match="square"):
        fit_elo(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="non-negative"):
        fit_elo(np.array([[0, -1], [1, 0]]))


# ----------------------------------------------------------------------- pairwise results
def test_pairwise_wins_come_from_the_final_ranking_with_ties_as_draws():
    rewards = np.array([
        [1.0, 0.0, -1.0],  # seat 0 first, seat 1 second, seat 2 last
        [0.5, 0.5, -1.0],  # seats 0 and 1 share first place
    ])
    seats = np.array([[0, 1, 2], [2, 0, 1]])
    wins = pairwise_wins(rewards, seats, 3)[0]
    expected = np.array([
        [0, 1 + 1, 1 + 0.5],  # agent 0: beat 1 and 2 (game 0), beat 1, drew with 2 (game 1)
        [0 + 0, 0, 1 + 0],  # agent 1: beat 2 (game 0), lost to 0 and 2 (game 1)
        [0 + 0.5, 0 + 1, 0],  # agent 2: lost to both (game 0), drew with 0, beat 1 (game 1)
    ])
    np.testing.assert_array_equal(wins, expected)


def test_an_agent_in_two_seats_is_not_compared_with_itself():
    rewards = np.array([[1.0, 0.0, -1.0]])
    wins = pairwise_wins(rewards, np.array([[0, 0, 1]]), 2)[0]
    np.testing.assert_array_equal(wins, [[0, 2], [0, 0]])


def test_pairwise_wins_by_group_sum_to_the_total():
    generator = np.random.default_rng(0)
    rewards = generator.integers(0, 3, (50, 3)).astype(float)
    seats = np.array([generator.permutation(4)[:3] for _ in range(50)])
    groups = generator.integers(0, 7, 50)
    by_group = pairwise_wins(rewards, seats, 4, groups=groups, num_groups=7)
    np.testing.assert_allclose(by_group.sum(axis=0), pairwise_wins(rewards, seats, 4)[0])
    # Every pair of seats of every game hands out exactly one point.
    assert by_group.sum() == pytest.approx(50 * 3)


def test_ratings_do_not_depend_on_the_order_of_the_games():
    generator = np.random.default_rng(1)
    rewards = generator.normal(size=(200, 3)) + np.array([0.5, 0.0, -0.3])
    seats = np.array([generator.permutation(3) for _ in range(200)])
    names = ["a", "random", "b"]
    order = generator.permutation(200)
    first = elo_ratings(pairwise_wins(rewards, seats, 3)[0], names)
    shuffled = elo_ratings(pairwise_wins(rewards[order], seats[order], 3)[0], names)
    np.testing.assert_allclose(first.ratings, shuffled.ratings, atol=1e-9)


# ----------------------------------------------------------------------- anchor, bootstrap
def test_random_is_anchored_at_1000_else_the_first_agent():
    wins = np.array([[0, 6, 4], [2, 0, 5], [4, 3, 0]], dtype=float)
    with_random = elo_ratings(wins, ["a", "b", "random"])
    assert with_random.anchor == "random" and with_random.ratings[2] == 1000
    without = elo_ratings(wins, ["a", "b", "c"])
    assert without.anchor == "a" and without.ratings[0] == 1000
    # Moving the anchor shifts every rating by the same amount.
    np.testing.assert_allclose(without.ratings - with_random.ratings,
                               1000 - with_random.ratings[0])


def test_bootstrap_interval_brackets_the_estimate_and_narrows_with_more_games():
    generator = np.random.default_rng(2)

    def blocks(n):
        # Agent 0 beats agent 1 with probability 0.7, one game per block.
        won = generator.random(n) < 0.7
        out = np.zeros((n, 2, 2))
        out[won, 0, 1] = 1
        out[~won, 1, 0] = 1
        return out

    small = elo_ratings(blocks(100), ["x", "random"], num_samples=300)
    large = elo_ratings(blocks(1600), ["x", "random"], num_samples=300)
    for fit in (small, large):
        assert fit.low[0] < fit.ratings[0] < fit.high[0]
        assert fit.low[1] == fit.high[1] == 1000  # the anchor does not move
    assert (large.high[0] - large.low[0]) < 0.5 * (small.high[0] - small.low[0])
    true_gap = 400 * np.log10(0.7 / 0.3)
    assert large.low[0] - 1000 < true_gap < large.high[0] - 1000


def test_bootstrap_is_seeded():
    generator = np.random.default_rng(3)
    blocks = generator.integers(0, 3, (40, 3, 3)).astype(float)
    a = elo_ratings(blocks, ["p", "q", "r"], num_samples=50, seed=4)
    b = elo_ratings(blocks, ["p", "q", "r"], num_samples=50, seed=4)
    np.testing.assert_array_equal(a.low, b.low)
    np.testing.assert_array_equal(a.high, b.high)


# ----------------------------------------------------------------------- OpenSkill
needs_openskill = pytest.mark.skipif(not openskill_available(), reason="openskill missing")


@needs_openskill
def test_openskill_rewards_the_ranking_order():
    rewards = np.tile([[1.0, 0.0, -1.0]], (20, 1))
    ratings = openskill_ratings(rewards, np.tile([[2, 0, 1]], (20, 1)), ["a", "b", "c"])
    assert ratings.mu[2] > ratings.mu[0] > ratings.mu[1]
    assert (ratings.sigma < 25 / 3).all()
    np.testing.assert_allclose(ratings.ordinal, ratings.mu - 3 * ratings.sigma)


@needs_openskill
def test_openskill_treats_equal_rewards_as_a_shared_rank():
    ratings = openskill_ratings(np.array([[0.0, 0.0]]), np.array([[0, 1]]), ["a", "b"])
    assert ratings.mu[0] == pytest.approx(ratings.mu[1])
    assert ratings.mu[0] == pytest.approx(25.0)


@needs_openskill
def test_openskill_handles_an_agent_in_two_seats():
    ratings = openskill_ratings(np.array([[1.0, 0.0, -1.0]]), np.array([[0, 1, 0]]), ["a", "b"])
    assert np.isfinite(ratings.mu).all() and np.isfinite(ratings.sigma).all()


def test_the_difference_of_two_ratings_has_its_own_bootstrap_interval():
    """A beats B in 60 of 100 blocks and both always beat C: the difference A - B is the
    Elo of a 60% score (+70), and its interval, from the refits' differences, is clear of 0."""
    from benchmarks.elo import elo_ratings

    blocks = np.zeros((100, 3, 3))
    blocks[:60, 0, 1] = 1
    blocks[60:, 1, 0] = 1
    blocks[:, 0, 2] = blocks[:, 1, 2] = 1
    fit = elo_ratings(blocks, ["a", "b", "c"], anchor="c", num_samples=300, seed=1)
    diff, low, high = fit.difference("a", "b")
    assert diff == pytest.approx(fit.ratings[0] - fit.ratings[1])
    assert diff == pytest.approx(400 * np.log10(60 / 40), abs=5)
    assert 0 < low < diff < high
