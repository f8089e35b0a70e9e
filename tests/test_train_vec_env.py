"""The self-play VecEnv on the toy game: SB3 contract, seat rotation, reward frame, batching."""

from __future__ import annotations

import numpy as np
import pytest
from toy_agents import HighestCardFirst
from toy_game import ToyGame

import envs
from envs.core.game import rank_rewards
from envs.core.jit import njit
from envs.core.sampling import sample_actions

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecEnv

from train.pool import OpponentPool
from train.vec_env import SelfPlayVecEnv

# One torch thread: tiny networks gain nothing from more, and on a loaded 2-core machine
# spinning threads make every forward pass hundreds of times slower.
torch.set_num_threads(1)


def make_pool(seed: int = 0, weights: dict | None = None) -> OpponentPool:
    pool = OpponentPool(weights or {"random": 1.0, "scripted": 1.0}, seed=seed)
    pool.add_baselines("toy", 3)
    pool.add("scripted", "highest_first", HighestCardFirst())
    return pool


def drive(env: SelfPlayVecEnv, steps: int, seed: int = 0):
    """Step with uniformly random legal learner actions; yields each step's results."""
    generator = np.random.default_rng(seed)
    for _ in range(steps):
        actions = sample_actions(env.action_masks(), generator)
        yield env.step(actions)


def test_vec_env_meets_the_sb3_and_masking_contract():
    game = envs.make_game("toy", 3)
    env = SelfPlayVecEnv(game, 16, make_pool(), seed=0)
    assert isinstance(env, VecEnv)
    assert is_masking_supported(env)
    obs = env.reset()
    assert obs.shape == (16, *game.observation_shape) and obs.dtype == np.float32
    finished = 0
    for obs, rewards, dones, infos in drive(env, 120):
        assert obs.shape == (16, *game.observation_shape) and obs.dtype == np.float32
        assert all(env.observation_space.contains(o) for o in obs)
        masks = get_action_masks(env)
        assert masks.shape == (16, game.num_actions) and masks.dtype == bool
        assert masks.any(axis=1).all(), "the learner always has a legal action"
        np.testing.assert_array_equal(masks, env.action_masks())
        # Between steps every row waits for the learner, and observations are its own.
        np.testing.assert_array_equal(env.state.current_player, env.learner_seat)
        np.testing.assert_array_equal(obs, game.observe(env.state, env.learner_seat))
        assert rewards.shape == (16,) and rewards.dtype == np.float32 and dones.dtype == bool
        assert len(infos) == 16
        for row in np.flatnonzero(dones):
            info = infos[row]
            terminal = info["terminal_observation"]
            assert terminal.shape == game.observation_shape
            assert env.observation_space.contains(terminal)
            assert {"episode", "learner_seat", "learner_first", "opponent"} <= set(info)
            finished += 1
        assert not rewards[~dones].any(), "the toy game pays only at the end"
    assert finished > 50


def test_learner_seat_rotates_every_episode():
    env = SelfPlayVecEnv(envs.make_game("toy", 3), 5, make_pool(), seed=3)
    env.reset()
    seats: list[list[int]] = [[int(s)] for s in env.learner_seat]
    for _, _, dones, infos in drive(env, 150):
        for row in np.flatnonzero(dones):
            assert infos[row]["learner_seat"] == seats[row][-1]
            seats[row].append(int(env.learner_seat[row]))
    for row, history in enumerate(seats):
        assert len(history) > 4
        assert history == [(row + k) % 3 for k in range(len(history))]


@njit
def _seat_order_ranking(s, r, keys):
    for seat in range(keys.shape[0]):
        keys[seat, 0] = -seat


class SeatZeroWins(ToyGame):
    """The toy game, rigged: seat 0 always ranks first, then seat 1, then seat 2."""

    ROWS = ToyGame.ROWS._replace(ranking=_seat_order_ranking)


def test_reward_is_the_learners_own_when_the_winner_is_known():
    """PettingZoo issue 1147: training on another seat's reward. Here seat 0 always wins,
    so the learner must get +1 exactly when it sits in seat 0, and -1 in seat 2."""
    env = SelfPlayVecEnv(SeatZeroWins(3), 12, make_pool(), seed=0)
    env.reset()
    expected = {0: 1.0, 1: 0.0, 2: -1.0}
    seen = set()
    for _, rewards, dones, infos in drive(env, 200):
        for row in np.flatnonzero(dones):
            seat = infos[row]["learner_seat"]
            assert rewards[row] == expected[seat]
            assert infos[row]["episode"]["r"] == expected[seat]
            assert infos[row]["learner_first"] == (seat == 0)
            seen.add(seat)
    assert seen == {0, 1, 2}


def test_reward_matches_the_rank_of_the_learners_final_score():
    env = SelfPlayVecEnv(envs.make_game("toy", 3), 16, make_pool(), seed=5)
    env.reset()
    checked = 0
    for _, rewards, dones, infos in drive(env, 150):
        for row in np.flatnonzero(dones):
            info = infos[row]
            ranks = rank_rewards(info["scores"][None])[0]
            assert rewards[row] == pytest.approx(ranks[info["learner_seat"]])
            assert info["learner_first"] == (ranks[info["learner_seat"]] == ranks.max())
            checked += 1
    assert checked > 100


class CountingGame(ToyGame):
    """The toy game counting its step calls."""

    steps = 0

    def step(self, state, actions):
        CountingGame.steps += 1
        return super().step(state, actions)


class CountingAgent:
    """A random agent that records the size of every batch it is asked to act on."""

    def __init__(self, name, seed):
        self.name = name
        self.generator = np.random.default_rng(seed)
        self.batches: list[int] = []

    def act(self, game, state, player):
        assert np.shape(player) == (state.batch_size,)
        assert (state.current_player == player).all(), "asked only where its seat acts"
        self.batches.append(state.batch_size)
        return sample_actions(game.legal_action_mask(state), self.generator)


def test_each_opponent_acts_once_per_inner_step_on_its_rows():
    pool = OpponentPool({"random": 1.0}, seed=0)
    agents = [CountingAgent(f"counting{i}", i) for i in range(3)]
    for agent in agents:
        pool.add("random", agent.name, agent)
    env = SelfPlayVecEnv(CountingGame(3), 32, pool, seed=0)
    env.reset()
    for i in range(20):
        before_steps = CountingGame.steps
        before_calls = [len(a.batches) for a in agents]
        next(drive(env, 1, seed=i))
        inner_steps = CountingGame.steps - before_steps - 1  # the first is the learner's
        for agent, calls in zip(agents, before_calls, strict=True):
            assert len(agent.batches) - calls <= inner_steps
    assert max(max(a.batches) for a in agents) > 1, "opponents act on batches of rows"
    # All three opponents were drawn.
    assert all(a.batches for a in agents)


def test_opponent_draw_follows_the_weights():
    pool = OpponentPool({"random": 3.0, "scripted": 1.0, "snapshot": 5.0}, seed=0)
    pool.add_baselines("toy", 3)
    pool.add("scripted", "highest_first", HighestCardFirst())
    probs = pool.kind_probabilities()
    assert probs["snapshot"] == 0 and probs["random"] == pytest.approx(0.75)
    u = np.random.default_rng(0).random((2, 20000))
    kinds = np.array([pool.members[i].kind for i in pool.draw(u[0], u[1])])
    assert (kinds == "random").mean() == pytest.approx(0.75, abs=0.02)
    with pytest.raises(ValueError, match="empty opponent pool"):
        OpponentPool({"snapshot": 1.0}).kind_probabilities()
    with pytest.raises(ValueError, match="unknown opponent kinds"):
        OpponentPool({"bogus": 1.0})


def rollout_trace(seed: int, steps: int = 60):
    game = envs.make_game("toy", 3)
    pool = make_pool(seed, {"random": 1.0, "scripted": 1.0, "self": 1.0, "snapshot": 1.0})
    env = SelfPlayVecEnv(game, 8, pool, seed=seed)
    torch.manual_seed(0)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    pool.set_learner(model.policy)
    pool.add_snapshot(model.policy, 0)
    trace = [env.reset()]
    for obs, rewards, dones, infos in drive(env, steps, seed=seed):
        trace += [obs, rewards, dones, [i.get("opponent") for i in infos]]
    return trace


def test_rollouts_are_deterministic_for_a_seed():
    first, second, other = rollout_trace(1), rollout_trace(1), rollout_trace(2)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert any(not np.array_equal(np.asarray(a), np.asarray(b))
               for a, b in zip(first, other, strict=True))


def snapshot_run(monkeypatch, forget: bool, steps: int = 90):
    """A toy run that takes a new, different snapshot every 6 steps into a pool that draws
    from the newest 2; yields its trace and, per step, the members held and the ids played."""
    if not forget:
        monkeypatch.setattr(OpponentPool, "forget_retired", lambda self, playing: None)
    game = envs.make_game("toy", 3)
    pool = OpponentPool({"snapshot": 3.0, "random": 1.0}, max_snapshots=2, seed=4)
    pool.add_baselines("toy", 3)
    env = SelfPlayVecEnv(game, 8, pool, seed=4)
    torch.manual_seed(0)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    pool.add_snapshot(model.policy, 0)
    trace, held = [env.reset()], []
    for step, (obs, rewards, dones, infos) in enumerate(drive(env, steps, seed=4)):
        trace += [obs, rewards, dones, [i.get("opponent") for i in infos]]
        held.append((set(pool.members), set(env.opponent_id.tolist())))
        if step % 6 == 5:
            with torch.no_grad():  # each snapshot plays differently
                for param in model.policy.parameters():
                    param.add_(torch.randn(param.shape, generator=torch.Generator()
                                           .manual_seed(step)))
            pool.add_snapshot(model.policy, step)
    return trace, held, pool


def test_retired_snapshots_leave_memory_once_no_game_plays_them(monkeypatch):
    trace, held, pool = snapshot_run(monkeypatch, forget=True)
    with monkeypatch.context() as patch:
        kept_trace, kept_held, _ = snapshot_run(patch, forget=False)
    for a, b in zip(trace, kept_trace, strict=True):  # the same games either way
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert len(kept_held[-1][0]) == 1 + 15  # random and every snapshot taken
    # Each step holds what is in the draw (random, 2 snapshots) and what is played.
    for members, playing in held:
        assert playing <= members and len(members - playing) <= 3
    assert any(len(members) > 3 for members, _ in held), "a retired snapshot was kept playing"
    assert set(pool.members) == set().union(*pool._drawable.values()) | held[-1][1]


def test_a_resumed_pool_reads_only_the_snapshots_in_its_draw(tmp_path):
    game = envs.make_game("toy", 3)
    taken = OpponentPool({"snapshot": 1.0}, max_snapshots=2)
    taken.add_baselines("toy", 3)
    model = MaskablePPO("MlpPolicy", SelfPlayVecEnv(game, 2, taken), n_steps=8, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [16]})
    for timesteps in range(0, 500, 100):
        with torch.no_grad():
            next(model.policy.parameters()).add_(1.0)
        taken.add_snapshot(model.policy, timesteps, tmp_path)
    resumed = OpponentPool({"snapshot": 1.0}, max_snapshots=2)
    resumed.add_baselines("toy", 3)
    assert resumed.load_snapshots(tmp_path) == 5
    assert resumed.describe() == taken.describe()  # snapshot@300 and snapshot@400
    assert len(resumed.members) == 1 + 2  # random, and the two in the draw
    for member_id in resumed._drawable["snapshot"]:  # the same ids, and weights, as taken
        loaded, saved = (pool.members[member_id].agent.policy for pool in (resumed, taken))
        for a, b in zip(loaded.parameters(), saved.parameters(), strict=True):
            torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_resumed_episode_counters_give_new_games():
    game = envs.make_game("toy", 3)
    env = SelfPlayVecEnv(game, 4, make_pool(), seed=0)
    first = env.reset()
    env.seed(0)  # as SB3 does at setup
    env.restore_episodes(np.array([5, 5, 5, 5]))
    resumed = env.reset()
    assert (env.episodes == 5).all()
    np.testing.assert_array_equal(env.learner_seat, (np.arange(4) + 5) % 3)
    assert not np.array_equal(first, resumed)


def test_mixed_seat_play_matches_the_fixed_seat_arena():
    from toy_agents import LowestCardFirst

    from agents.arena import play_match, play_mixed

    game = envs.make_game("toy", 3)
    lineup = [HighestCardFirst(), LowestCardFirst(), HighestCardFirst()]
    fixed = play_match(game, lineup, 40, seed=7)
    # The same lineup as agent indices, with a second arrangement interleaved.
    seat_agents = np.array([[0, 1, 0], [1, 0, 0]] * 40)
    mixed = play_mixed(game, [HighestCardFirst(), LowestCardFirst()], seat_agents,
                       np.repeat(np.arange(40) + 7, 2))
    np.testing.assert_array_equal(mixed.rewards[::2], fixed.rewards)
    np.testing.assert_array_equal(mixed.scores[::2], fixed.scores)


def test_shaping_telescopes_to_the_score_margin_at_the_start():
    """With gamma = 1 the shaping of a whole game sums to -c * phi(first decision).

    phi is 0 at the end, so a game's shaped return is its rank reward minus c times the
    learner's score margin (over score_scale) at its first decision: the shaping changes no
    game's total beyond a constant of its start, it only moves credit to the moves.
    """
    game = envs.make_game("toy", 3)
    plain = SelfPlayVecEnv(game, 8, make_pool(), seed=3)
    shaped = SelfPlayVecEnv(game, 8, make_pool(), seed=3, shaping=0.5, gamma=1.0,
                            score_scale=4.0)

    def margin(env):
        scores = game.scores(env.state)
        rows = np.arange(env.num_envs)
        own = scores[rows, env.learner_seat]
        scores[rows, env.learner_seat] = -np.inf
        return (own - scores.max(axis=1)) / 4.0

    plain.reset()
    shaped.reset()
    start = margin(shaped)
    totals = np.zeros((2, 8))
    generator = np.random.default_rng(0)
    games = 0
    for _ in range(80):
        actions = sample_actions(plain.action_masks(), generator)
        _, plain_rewards, plain_dones, _ = plain.step(actions)
        _, shaped_rewards, dones, _ = shaped.step(actions)
        np.testing.assert_array_equal(plain_dones, dones)
        totals += [plain_rewards, shaped_rewards]
        for row in np.flatnonzero(dones):
            assert totals[1, row] == pytest.approx(totals[0, row] - 0.5 * start[row],
                                                   abs=1e-5)
            games += 1
        totals[:, dones] = 0.0
        start = np.where(dones, margin(shaped), start)
    assert games >= 8
    assert not np.allclose(totals[0], totals[1]), "mid-game the shaping pays something"


def test_shaping_rejects_bad_weights():
    game = envs.make_game("toy", 3)
    with pytest.raises(ValueError, match="shaping >= 0"):
        SelfPlayVecEnv(game, 2, make_pool(), shaping=-1.0)
