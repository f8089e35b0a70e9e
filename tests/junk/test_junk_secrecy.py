"""Secret bids and the other hidden information (§5.5, §6): what a seat may know, and
nothing more, under every option of the spec."""

from __future__ import annotations

import numpy as np
import pytest
from junk_helpers import Position

import envs
from envs.core.sampling import sample_actions
from envs.junk import JunkGame
from envs.junk.observation import Observer
from envs.junk.state import PHASE

# The default options go through the shared suite (tests/test_conformance.py and friends).
OPTION_SETS = [
    {"hide_money": True},
    {"hide_stacks": True},
    {"setup": "variable"},
    {"setup": "variable", "hide_money": True, "hide_stacks": True},
]
OPTION_IDS = ["hide_money", "hide_stacks", "variable", "all"]


def _random_states(game: JunkGame, batch: int, seed: int, every: int = 1):
    """(state, step) after every ``every``-th step of a batch of random games."""
    state = game.init(batch, seed=seed)
    generator = np.random.default_rng(seed)
    step = 0
    while not state.done.all():
        state = game.step(state, sample_actions(game.legal_action_mask(state), generator))
        step += 1
        if step % every == 0:
            yield state, step


def _dynamic_leak(game: JunkGame, state, seat: int, seed: int, generator) -> int:
    """The shared dynamic leak test at one state and seat; returns the rows compared."""
    other = game.resample_hidden(state, seat, seed)
    np.testing.assert_array_equal(game.observe(other, seat), game.observe(state, seat))
    np.testing.assert_array_equal(other.current_player, state.current_player)
    np.testing.assert_array_equal(other.phase, state.phase)
    for row in range(state.batch_size):
        assert game.render(other, row, seat=seat) == game.render(state, row, seat=seat)
    assert not game.check_invariants(other)
    true_mask, other_mask = game.legal_action_mask(state), game.legal_action_mask(other)
    live = ~state.done
    assert other_mask[live].any(axis=1).all()
    mine = live & (state.current_player == seat)
    np.testing.assert_array_equal(true_mask[mine], other_mask[mine])
    actions = sample_actions(true_mask, generator)
    rows = np.arange(state.batch_size)
    both = live & other_mask[rows, actions]
    other_actions = np.where(both, actions, sample_actions(other_mask, generator))
    after = game.step(state.copy(), actions)
    other_after = game.step(other.copy(), other_actions)
    told = after.revealed[:, seat] | other_after.revealed[:, seat]
    same = np.flatnonzero(both & ~told)
    np.testing.assert_array_equal(after.current_player[same], other_after.current_player[same])
    np.testing.assert_array_equal(after.phase[same], other_after.phase[same])
    np.testing.assert_array_equal(game.observe(after, seat)[same],
                                  game.observe(other_after, seat)[same])
    return same.size


@pytest.mark.parametrize("options", OPTION_SETS, ids=OPTION_IDS)
@pytest.mark.parametrize("players", [3, 4])
def test_options_keep_the_contract_and_leak_nothing(players, options):
    """Every option: invariants, bounds and a legal action after every step of random play;
    resampling keeps each seat's observation and render; the dynamic leak test holds."""
    game = JunkGame(players, **options)
    low, high = game.observation_low, game.observation_high
    generator = np.random.default_rng(1)
    compared = 0
    for state, step in _random_states(game, 4, seed=players * 10 + len(options)):
        assert not game.check_invariants(state)
        mask = game.legal_action_mask(state)
        assert mask[~state.done].any(axis=1).all()
        obs = game.observe(state, step % players)
        assert ((obs >= low) & (obs <= high)).all()
        if step % 13 == 0 and not state.done.all():
            for seat in range(players):
                compared += _dynamic_leak(game, state, seat, 100 * step + seat, generator)
    assert state.terminated.all() and compared > 0


@pytest.mark.parametrize("players", [3, 4])
def test_commits_show_only_the_committed_flag(players):
    """Before the reveal, a commit changes no other seat's observation but for the
    committing seat's "committed" flag, no other seat's render but for "committed", and
    the committer sees its own pending bid; nothing about bids is in the mask or infos."""
    game = JunkGame(players)
    observer: Observer = game.observer
    generator = np.random.default_rng(3)
    checked = 0
    state = game.init(6, seed=21)
    while not state.done.all():
        mask = game.legal_action_mask(state)
        actions = sample_actions(mask, generator)
        bidding = (state.phase == PHASE.BID) & ~state.done
        last = state.pos == players - 1
        if not (bidding & ~last).any():
            state = game.step(state, actions)
            continue
        before = {seat: game.observe(state, seat) for seat in range(players)}
        committer = state.current_player.copy()
        after = game.step(state.copy(), actions)
        # Rows whose step commits a bid without reaching the reveal.
        quiet = np.flatnonzero(bidding & ~last & (after.phase == PHASE.BID)
                               & (after.bid_round == state.bid_round))
        renders = {seat: {r: game.render(state, r, seat=seat) for r in quiet}
                   for seat in range(players)}
        for seat in range(players):
            obs = game.observe(after, seat)
            for row in quiet:
                if committer[row] == seat:
                    continue
                # The seats that committed in this step (the asked one, and any empty hand
                # passed automatically after it): only their flags, the seat to act, and
                # the observer's own pending bid if it was one of them, may change.
                new = np.flatnonzero(after.committed[row] & ~state.committed[row])
                allowed = {observer.seat_column(int(r), name) for r in range(players)
                           for name in ("acting",)}
                allowed |= {observer.seat_column(int((k - seat) % players), "committed")
                            for k in new}
                if seat in new:
                    allowed |= set(range(observer.layout.offsets["own_bid"].start,
                                         observer.layout.offsets["own_bid"].stop))
                changed = np.flatnonzero(obs[row] != before[seat][row])
                assert set(changed.tolist()) <= allowed, (row, seat, changed)
                text = game.render(after, row, seat=seat)
                assert text.count("committed") == renders[seat][row].count("committed") + len(
                    set(new.tolist()) - {seat})
                checked += 1
        for row in quiet:
            seat = committer[row]
            bid = game.observe(after, seat)[row, observer.layout.offsets["own_bid"]]
            assert bid.any() or after.pending[row, seat] < 0
        state = after
    assert checked > 50


def test_resampled_bids_are_legal_and_own_bid_kept():
    """A resample redraws the other seats' pending bids legally for their new hands and
    keeps the seat's own."""
    game = JunkGame(4)
    hits = 0
    for state, step in _random_states(game, 8, seed=8):
        rows = np.flatnonzero((state.phase == PHASE.BID) & (state.pos >= 2) & ~state.done)
        if not rows.size:
            continue
        for seat in range(4):
            other = game.resample_hidden(state, seat, step)
            np.testing.assert_array_equal(other.pending[:, seat], state.pending[:, seat])
            np.testing.assert_array_equal(other.committed, state.committed)
            assert not game.check_invariants(other)  # includes "a bid the hand can make"
            hits += int((other.pending[rows] != state.pending[rows]).any())
    assert hits > 0


def test_hide_money_shows_the_last_announcement():
    """hide_money: other seats' money is 0 before the first Y event, then the amount
    announced at the last Y event (round 5 or 9); the own money is exact; at the end all."""
    game = JunkGame(4, hide_money=True)
    observer = game.observer
    money = observer.seat_column(0, "money")
    stride = observer.seat_size
    seen_announcement = False
    for state, _ in _random_states(game, 4, seed=2):
        obs = game.observe(state, 0)
        values = obs[:, money:money + 4 * stride:stride] * 212
        np.testing.assert_allclose(values[:, 0], state.money[:, 0], atol=1e-3)
        expected = np.where(state.done[:, None], state.money, state.announced)[:, 1:]
        np.testing.assert_allclose(values[:, 1:], expected, atol=1e-3)
        assert (state.announced[state.announce_round == 0] == 0).all()
        seen_announcement |= bool((state.announce_round == 9).any())
    assert seen_announcement


def test_hide_stacks_keeps_only_emptiness():
    game = JunkGame(4, hide_stacks=True)
    layout = game.observer.layout
    p = Position(4, hide_stacks=True).stacks(0, fish=0)
    obs = game.observe(p.state, 1)
    observer = game.observer
    assert not obs[0, layout.offsets["others_goods"]].any()
    for seat in range(4):
        for name in ("flow", "known_min"):
            column = observer.seat_column(seat, name)
            assert not obs[0, column:column + 4].any(), name
    stack = observer.table_column("stack")
    assert not obs[0, stack:stack + 4].any()
    empty = observer.table_column("stack_empty")
    assert obs[0, empty:empty + 4].tolist() == [1, 0, 0, 0]
    assert obs[0, layout.offsets["own_hand"]].any()


def test_render_modes():
    env = envs.make_env("junk", 4, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "market card" in text and "player_3:" in text and "legend:" in text
    game = env.game
    own = game.render(env.state, 0, seat=1)
    assert "hand F" in own and own.count("cards") >= 3


def test_dynamic_leak_before_and_after_every_commit():
    """The dynamic leak test from every seat at every step where a bidding round is under
    way (before the first commit, between commits, and at the reveal)."""
    game = JunkGame(4)
    generator = np.random.default_rng(9)
    compared = steps = 0
    for state, step in _random_states(game, 2, seed=31):
        if not ((state.phase == PHASE.BID) & ~state.done).any() or state.done.all():
            continue
        for seat in range(4):
            compared += _dynamic_leak(game, state, seat, 10 * step + seat, generator)
        steps += 1
    assert steps > 50 and compared > 100, (steps, compared)
