"""The observation of §9.2: sizes, egocentric seats, and the values of its features."""

from __future__ import annotations

import numpy as np
import pytest
from junk_helpers import G, J, Position

from envs.junk import JunkGame
from envs.junk.data import MAX_MONEY
from envs.junk.state import PHASE


@pytest.mark.parametrize(("players", "size"), [(3, 465), (4, 523)])
def test_observation_size_and_bounds(players, size):
    game = JunkGame(players)
    assert game.observation_shape == (size,)
    low, high = game.observation_low, game.observation_high
    assert (high == 1).all() and set(np.unique(low)) == {-1.0, 0.0}
    assert (low == -1).sum() == 4 * players  # the net flows


def _seat(obs: np.ndarray, game: JunkGame, relative: int, name: str, size: int = 1):
    column = game.observer.seat_column(relative, name)
    return obs[column:column + size]


def test_seats_are_relative_to_the_observer():
    """Seat p's own block comes first, then the seats after it clockwise."""
    p = Position(4).at_round(2).money(3, 50).hold("GREY", "3..")
    game, s = p.game, p.state
    obs = game.observe(s, 2)[0]
    assert _seat(obs, game, 1, "money")[0] == pytest.approx(50 / MAX_MONEY)  # seat 3
    assert _seat(obs, game, 1, "vis", 5).tolist()[J["GREY"]] == pytest.approx(3 / 9)
    # Round 2: seat 1 starts and acts; seen from seat 2 it is 3 places on.
    assert _seat(obs, game, 3, "acting")[0] == 1 and _seat(obs, game, 3, "start")[0] == 1
    assert sum(_seat(obs, game, r, "acting")[0] for r in range(4)) == 1
    batch = game.observe(s, np.array([2]))
    np.testing.assert_array_equal(batch[0], obs)


def test_own_features_and_the_other_seats_goods():
    p = Position(4).hand(1, fish=3, veg=1).hand(0, fish=2)
    game, s = p.game, p.state
    layout = game.observer.layout
    obs = game.observe(s, 1)[0]
    assert (obs[layout.offsets["own_hand"]] * 18).round().tolist() == [3, 0, 0, 1]
    others = (obs[layout.offsets["others_goods"]] * 18).round()
    expected = 18 - s.stack[0] - s.hand[0, 1]
    assert others.tolist() == expected.tolist()
    assert others[G["fish"]] == s.hand[0, [0, 2, 3], G["fish"]].sum()


def test_last_reveal_block_shows_every_bid():
    p = Position(4).at_round(1, card=1)
    for seat, good in enumerate(("fish", "rice", "spice", "veg")):
        p.hand(seat, **{good: 3})
    p.bidding().play("BID_FISH_2", "PASS_BID", "BID_SPICE_3", "BID_VEG_1")
    game, s = p.game, p.state
    obs = game.observe(s, 1)[0]
    # Relative to seat 1: seat 2 (spice 3), seat 3 (veg 1), seat 0 (fish 2), then itself.
    assert _seat(obs, game, 0, "lr_bid", 6).tolist() == [1, 0, 0, 0, 0, 0]
    bid = _seat(obs, game, 1, "lr_bid", 6)
    assert bid[:5].tolist() == [0, 0, 0, 1, 0] and bid[5] == pytest.approx(3 / 18)
    assert _seat(obs, game, 3, "lr_payout")[0] == pytest.approx(2 / 4)
    assert _seat(obs, game, 2, "lr_taker")[0] == 1  # seat 3 won the S good alone
    assert s.phase[0] == PHASE.AWARD_PILE
    layout = game.observer.layout
    assert obs[layout.offsets["lr_bid_round"]].tolist() == [1, 0, 0, 0]


def test_market_and_decision_features():
    p = Position(4).at_round(1, card=2)  # FISH S, RICE 4, SPICE 1, VEG 2
    game = p.game
    layout = game.observer.layout
    obs = game.observe(p.state, 0)[0]
    market = obs[layout.offsets["market"]].reshape(4, 5)
    assert market.argmax(axis=1).tolist() == [4, 3, 0, 1] and market.sum() == 4
    decision = obs[layout.offsets["decision"]]
    assert decision[PHASE.P2_MAIN] == 1 and decision[12 + 2] == 1  # Phase 2
    unrevealed = game.observer.table_column("unrevealed")
    assert obs[unrevealed:unrevealed + 10].sum() == 9 and obs[unrevealed + 1] == 0
    merchants = obs[layout.offsets["merchant_junk"]].reshape(3, 5)
    assert merchants.argmax(axis=1).tolist() == [J["PURPLE"], J["GREY"], J["BROWN"]]


def test_searching_seat_sees_the_pile_others_only_its_size():
    p = Position(4).at_round(3)
    s = p.state
    s.phase[:] = PHASE.EVENT_PILE
    s.pos[:] = 0
    p.settle()
    seat = p.decision()[0]
    p.play("PILE_circle")
    game = p.game
    layout = game.observer.layout
    mine = game.observe(p.state, seat)[0][layout.offsets["own_search"]]
    other = game.observe(p.state, (seat + 1) % 4)[0][layout.offsets["own_search"]]
    assert (mine * 6).round().sum() == p.state.pile_cards[0, 1].sum() and not other.any()
