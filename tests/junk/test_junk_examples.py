"""The worked examples of the rules spec, §5.7 (one test per example, numbers as printed).

Every action goes through ``embedding.Embedded`` (``Position.play``): alone at B = 1 and as
two rows of a batch of other games.
"""

from __future__ import annotations

import numpy as np
from junk_helpers import CARD, G, J, Position, begin_round, sorted_piles

from envs.junk.rules import hold, queries
from envs.junk.state import PHASE


def _bids(p: Position, *actions: str) -> Position:
    """Every seat's BID in turn order (the start player's first)."""
    return p.play(*actions)


def test_market_card_prices_and_s_good():
    """Example 1: card 1 reads FISH 2, RICE 1, SPICE 4, VEG S; the fish winner gets 2 Yuan,
    rice 1, spice 4, and the vegetable winner a special card."""
    p = Position(4).at_round(1, card=1)
    for seat, good in enumerate(("fish", "rice", "spice", "veg")):
        p.hand(seat, **{good: 2})
    p.bidding()
    _bids(p, "BID_FISH_1", "BID_RICE_1", "BID_SPICE_1", "BID_VEG_1")
    s = p.state
    assert s.money[0].tolist() == [2, 1, 4, 0]
    assert s.lr_payout[0].tolist() == [2, 1, 4, 0]
    assert s.sold[0].all()
    assert p.decision() == (3, "AWARD_PILE")
    assert s.lr_taker[0] == 3
    p.check()


def test_money_action_pays_visible_crates():
    """Example 2: Green (seat 0) has 7 visible crates on the MONEY merchant's junk (GREY in
    round 1: layer 0 = Green, Red, Blue; layer 1 = Green, Green, empty) and gets 7 Yuan."""
    p = Position(4).at_round(1).hold("GREY", "012", "00.")
    assert p.vis("GREY") == [7, 1, 1, 0]
    p.play("MAIN_MERCHANT_MONEY")
    assert p.state.money[0, 0] == 7
    p.check()


def test_money_and_goods_minimum_of_three():
    """Example 3: no strip on the MONEY merchant's junk still pays 3 Yuan; no visible crate
    on the GOODS merchant's junk still gives 3 goods; 1 or 2 crates also give 3."""
    p = Position(4).at_round(1).hold("GREY", "123")
    p.play("MAIN_MERCHANT_MONEY")
    assert p.state.money[0, 0] == 3
    p = Position(4).at_round(1).hold("BROWN", "123").hand(0)
    fish = int(p.state.stack[0, G["fish"]])
    p.play("MAIN_MERCHANT_GOODS")
    assert p.state.hand[0, 0, G["fish"]] == 3
    assert p.state.stack[0, G["fish"]] == fish - 3
    for layers, crates in ((("012", "11."), 1), (("002", "11."), 2)):
        p = Position(4).at_round(1).hold("GREY", *layers)
        assert p.vis("GREY")[0] == crates
        p.play("MAIN_MERCHANT_MONEY")
        assert p.state.money[0, 0] == 3
        p.check()


def test_helper_works_only_on_merchant_free_junks():
    """Example 4: round 4, the lower helper stands under LOAD(2); the merchants stand on
    BROWN (MONEY), GREY (LOAD) and ORANGE (GOODS), so only PURPLE and WHITE are open to it;
    taking it places 2 own strips there."""
    p = Position(4).at_round(4)
    s = p.state
    assert s.merchant_junk[0].tolist() == [J["GREY"], J["BROWN"], J["ORANGE"]]
    legal = p.legal()
    assert [a for a in legal if a.startswith("MAIN_HELPER_lower")] == [
        "MAIN_HELPER_lower_PURPLE", "MAIN_HELPER_lower_WHITE"]
    assert [a for a in legal if a.startswith("MAIN_HELPER_upper")] == [
        "MAIN_HELPER_upper_PURPLE", "MAIN_HELPER_upper_WHITE"]
    seat = p.decision()[0]
    strips = int(s.strips[0, seat])
    before = p.vis("PURPLE")[seat]
    p.play("MAIN_HELPER_lower_PURPLE")
    s = p.state
    assert s.strips[0, seat] == strips - 2
    assert (s.cargo[0, J["PURPLE"]] == seat).sum() == 2 + before // 3
    assert s.fig_used[0, 3]
    p.check()


def _example5() -> Position:
    """Example 5 played: Red (seat 0) loads 2 onto the empty PURPLE junk with the LOAD
    merchant in round 1; Blue (seat 1) loads 2 there with the lower helper's LOAD(2) in
    round 4, when PURPLE is merchant-free."""
    p = Position(4).at_round(1).hold("PURPLE")
    p.play("MAIN_MERCHANT_LOAD")
    assert p.vis("PURPLE") == [6, 0, 0, 0]
    p.at_round(4).phase2_turn(2)  # round 4 starts with seat 3; seat 1 is third
    assert p.decision() == (1, "P2_MAIN")
    p.play("MAIN_HELPER_lower_PURPLE")
    return p


def test_stacking_second_strip_starts_a_rotated_layer():
    """Example 5: Blue's first strip fills layer 0 (row 2); the second goes to layer 1,
    slot 0 (column 0): Red 4 and Blue 5 visible, 3·0 + 2·2 and 3·1 + 2·1 by the closed form;
    only Blue's layer-1 strip is fully visible."""
    p = _example5()
    s = p.state
    purple = J["PURPLE"]
    assert s.cargo[0, purple, 0].tolist() == [0, 0, 1]
    assert s.cargo[0, purple, 1].tolist() == [1, -1, -1]
    assert s.height[0, purple] == 1
    assert p.vis("PURPLE") == [4, 5, 0, 0]
    assert hold.cell_visible(s.cargo[0, purple], 1, 4).tolist() == [4, 5, 0, 0]
    # The counts are the same had the layer-1 strip gone into column 1 or 2.
    for slot in (1, 2):
        cargo = s.cargo[0, purple].copy()
        cargo[1] = -1
        cargo[1, slot] = 1
        assert hold.cell_visible(cargo, 1, 4).tolist() == [4, 5, 0, 0]
    rows = np.zeros(4, dtype=np.intp)
    movable = queries.top_layer_owner(s, rows, np.arange(4))[:, purple]
    assert movable.tolist() == [False, True, False, False]
    p.check()


def test_move_strip_uncovers_the_layer_below():
    """Example 6: Blue moves its layer-1 strip to an empty junk: PURPLE shows layer 0 again
    (Red 6, Blue 3) and Blue has 3 on the target; before that Red could move neither of its
    layer-0 strips."""
    p = _example5()
    p.hold("ORANGE").give(0, "MOVE_STRIP").give(1, "MOVE_STRIP")
    p.phase2_turn(1)  # round 4 starts with seat 3: seat 0 is second
    assert p.decision() == (0, "P2_MAIN") and "MOVE_STRIP_GREY_ORANGE" in p.legal()
    assert not [a for a in p.legal() if a.startswith("MOVE_STRIP_PURPLE")]
    p.phase2_turn(2)
    assert "MOVE_STRIP_PURPLE_ORANGE" in p.legal()
    p.play("MOVE_STRIP_PURPLE_ORANGE")
    s = p.state
    assert s.height[0, J["PURPLE"]] == 0
    assert p.vis("PURPLE") == [6, 3, 0, 0]
    assert p.vis("ORANGE") == [0, 3, 0, 0]
    assert s.extra_used[0, 1] and s.discarded[0, CARD["MOVE_STRIP"]] == 1
    assert p.decision() == (1, "P2_MAIN")  # the main action is still to come
    p.phase2_turn(1)
    assert "MOVE_STRIP_PURPLE_ORANGE" in p.legal()  # Red's strips are on top now
    p.check()


def test_auction_example():
    """Example 7: card 2 (FISH S, RICE 4, SPICE 1, VEG 2); A bids 1 rice, B 3 spice, C 3
    spice, D 4 fish: A +4, B and C floor(1/2) = 0, D wins fish and takes a special card;
    fish, rice and spice are sold, 1 rice, 6 spice and 4 fish go back; the last bidding
    round can only be on vegetables, for 2 Yuan."""
    p = Position(4).at_round(1, card=2)
    p.hand(0, rice=2, veg=1).hand(1, spice=3, veg=1).hand(2, spice=4).hand(3, fish=5, veg=2)
    stacks = p.state.stack[0].copy()
    p.bidding()
    _bids(p, "BID_RICE_1", "BID_SPICE_3", "BID_SPICE_3", "BID_FISH_4")
    s = p.state
    assert s.money[0].tolist() == [4, 0, 0, 0]
    assert s.sold[0].tolist() == [True, True, True, False]
    assert (s.stack[0] - stacks).tolist() == [4, 1, 6, 0]
    assert s.hand[0, :, G["spice"]].tolist() == [0, 0, 1, 0]
    assert p.decision() == (3, "AWARD_PILE")
    p.play("PILE_square")
    pick = next(a for a in p.legal())
    p.play(pick)
    assert p.state.bid_round[0] == 2
    for seat in range(4):
        legal = p.legal()
        assert all(a == "PASS_BID" or a.startswith("BID_VEG") for a in legal)
        assert p.decision()[0] == seat
        p.play("BID_VEG_1" if seat == 3 else "PASS_BID")
    assert p.state.money[0, 3] == 2  # vegetables for 2
    assert p.state.lr_sold[0].tolist() == [False, False, False, True]
    assert p.state.round[0] == 2  # every good sold: Phase 4 is over
    p.check()


def test_tie_splits_rounded_down():
    """Example 8: a 3-Yuan good tied by two: 1 each; price 4, 2-way: 2 each; price 4,
    3-way: 1 each; price 2, 3-way: 0 each (cards 5, 1, 1 and 4)."""
    cases = (  # card, good, tied seats, share
        (5, "veg", (0, 1), 1),
        (1, "spice", (0, 1), 2),
        (1, "spice", (0, 1, 2), 1),
        (4, "spice", (1, 2, 3), 0),
    )
    for card, good, tied, share in cases:
        p = Position(4).at_round(1, card=card)
        for seat in range(4):
            p.hand(seat, **{good: 2})
        p.bidding()
        bid = f"BID_{good.upper()}_2"
        _bids(p, *[bid if seat in tied else "PASS_BID" for seat in range(4)])
        expected = [share if seat in tied else 0 for seat in range(4)]
        assert p.state.money[0].tolist() == expected, (card, good, tied)
        assert p.state.sold[0, G[good]]
        p.check()


def test_s_good_tie_gives_nothing():
    """Example 9: two players tie on the S good: nobody gets a card, the good is sold and
    both lose their bid cards to the stack."""
    p = Position(4).at_round(1, card=1)  # VEG is S
    p.hand(0, veg=3).hand(1, veg=3).hand(2, fish=1).hand(3, fish=1)
    veg = int(p.state.stack[0, G["veg"]])
    p.bidding()
    _bids(p, "BID_VEG_2", "BID_VEG_2", "PASS_BID", "PASS_BID")
    s = p.state
    assert s.sold[0, G["veg"]] and s.lr_taker[0] == -1
    assert s.hand[0, :2, G["veg"]].tolist() == [1, 1]
    assert s.stack[0, G["veg"]] == veg + 4
    assert p.decision() == (0, "BID")  # no award: the next bidding round
    p.check()


def test_win_ties_wins_the_tie_alone():
    """Example 10: as Example 9, but one tied player owns WIN_TIES: that player takes the
    special card alone; with a price of 4 instead it gets all 4 Yuan and the other 0."""
    p = Position(4).at_round(1, card=1).give(1, "WIN_TIES")
    p.hand(0, veg=3).hand(1, veg=3).hand(2, fish=1).hand(3, fish=1)
    p.bidding()
    _bids(p, "BID_VEG_2", "BID_VEG_2", "PASS_BID", "PASS_BID")
    assert p.decision() == (1, "AWARD_PILE") and p.state.lr_taker[0] == 1
    p = Position(4).at_round(1, card=1).give(1, "WIN_TIES")
    p.hand(0, spice=3).hand(1, spice=3).hand(2, fish=1).hand(3, fish=1)
    p.bidding()
    _bids(p, "BID_SPICE_2", "BID_SPICE_2", "PASS_BID", "PASS_BID")
    assert p.state.money[0].tolist() == [0, 4, 0, 0]
    p.check()


def test_grey_goods_shortage():
    """Example 11: 6 visible crates on GREY and the GOODS merchant there (round 3); stacks
    FISH 2, RICE 0, SPICE 1, VEG 0: FISH gives 2 (4 still owed), then SPICE 1 (the only
    stack left: applied automatically); all stacks are empty and 3 are lost."""
    p = Position(4).at_round(3)
    seat = p.decision()[0]
    p.hold("GREY", f"{seat}{seat}.").hand(seat)
    p.stacks((seat + 1) % 4, fish=2, rice=0, spice=1, veg=0)
    assert p.vis("GREY")[seat] == 6
    p.play("MAIN_MERCHANT_GOODS")
    assert p.decision() == (seat, "GREY_TYPE")
    assert p.legal() == ["GOODS_FISH", "GOODS_SPICE"]
    p.play("GOODS_FISH")
    assert p.automatic() == [(seat, "GREY_TYPE", "GOODS_SPICE")]
    s = p.state
    assert s.hand[0, seat].tolist() == [2, 0, 1, 0]
    assert (s.stack[0] == 0).all() and s.goods_left[0] == 0
    assert p.decision()[1] == "P2_MAIN" and p.decision()[0] != seat
    p.check()


def test_round_ten_award_offers_three_yuan():
    """Example 12: in round 10 the S-good winner is offered TAKE_3_YUAN or a pile; taking
    3 Yuan ends the award (and here the game, every good being sold)."""
    p = Position(4).at_round(10, card=4)  # RICE is S
    for seat, good in enumerate(("fish", "rice", "spice", "veg")):
        p.hand(seat, **{good: 1})
    p.bidding()
    start = p.decision()[0]
    bids = {0: "BID_FISH_1", 1: "BID_RICE_1", 2: "BID_SPICE_1", 3: "BID_VEG_1"}
    _bids(p, *[bids[(start + k) % 4] for k in range(4)])
    assert p.decision() == (1, "AWARD_PILE")
    assert "TAKE_3_YUAN" in p.legal() and "PILE_square" in p.legal()
    p.play("TAKE_3_YUAN")
    s = p.state
    assert s.money[0, 1] == 3 and s.lr_yuan[0] and s.lr_payout[0, 1] == 3
    assert s.terminated[0]
    p.check()


def _presence(p: Position) -> list[int]:
    """Every seat's presence bonus (§7) in the position's row."""
    return queries.bonuses(np.zeros((4, 21)), p.state.vis[0].T)[0].tolist()


def test_presence_bonus():
    """Example 13: present on 4 junks scores 4 × 4 = 16, on all 5 scores 25 (not 20)."""
    p = Position(4).empty_holds()
    for junk in ("GREY", "ORANGE", "PURPLE", "BROWN"):
        p.hold(junk, "0..")
    assert _presence(p) == [16, 0, 0, 0]
    p.hold("WHITE", "0..")
    assert _presence(p) == [25, 0, 0, 0]
    assert p.game.scores(p.state)[0, 0] == 25
    p.check()


def test_forced_and_asked_decisions():
    """Example 14: round 3's S event: seats 2, 3 and 0 choose circle, square and star; seat
    1's pile (triangle) is applied automatically and seat 1 is asked its pick (triangle holds
    several cards). In Phase 2 seat 1, with one face-down BONUS8 and no EXTRA card, is asked
    P2_AFTER with only DONE legal; seat 2, with no face-down card, is not. In Phase 4 an
    empty hand passes automatically; a seat holding only fish after fish was sold is asked
    and can only pass."""
    p = sorted_piles(Position(4))
    begin_round(p, 3)
    assert p.decision() == (2, "EVENT_PILE")
    p.play("PILE_circle")
    assert p.decision() == (2, "SPECIAL_PICK")
    p.play("SPECIAL_EXCHANGE")  # face up
    p.play("PILE_square", "SPECIAL_SUPPLY_PLUS", "PILE_star")
    p.play("SPECIAL_BONUS12_0")
    assert p.automatic() == [(1, "EVENT_PILE", "PILE_triangle")]
    assert p.decision() == (1, "SPECIAL_PICK")
    assert len(p.legal()) > 1
    p.play("SPECIAL_BONUS8_GREY")
    s = p.state
    assert s.held[0, 1].sum() == 1 and s.held[0, 2].sum() == 0
    assert p.decision() == (2, "P2_MAIN")
    p.play("MAIN_MERCHANT_MONEY")
    assert p.decision() == (3, "P2_MAIN")  # seat 2 holds no face-down card: no P2_AFTER
    p.play("MAIN_MERCHANT_LOAD", "MAIN_HELPER_lower_ORANGE")
    assert p.decision() == (0, "P2_AFTER")  # seat 0 holds BONUS12_0 face down
    assert p.legal() == ["DONE"]
    p.play("DONE", "MAIN_HELPER_upper_BROWN")
    assert p.decision() == (1, "P2_AFTER")
    assert p.legal() == ["DONE"]
    # Phase 4: seat 3 with an empty hand, seat 0 holding only fish, fish sold.
    p = Position(4).at_round(3).hand(3).hand(0, fish=2).hand(1, rice=1).hand(2, rice=1)
    p.bidding(sold=("fish",))
    assert p.decision() == (2, "BID")
    p.play("PASS_BID")
    assert p.automatic() == [(3, "BID", "PASS_BID")]
    assert p.state.committed[0].tolist() == [False, False, True, True]
    assert p.decision() == (0, "BID") and p.legal() == ["PASS_BID"]
    p.check()


def test_phase_four_ends_with_an_all_pass_round():
    """Example 15: bidding round 1 sells fish, rice and spice and nobody holds vegetables;
    round 2 is still played (cards in hand: asked, only PASS_BID; empty hands: passed
    automatically), its reveal shows no valid bid, and Phase 4 ends with VEG unsold."""
    p = Position(4).at_round(1, card=1)
    p.hand(0, fish=1).hand(1, rice=1).hand(2, spice=2).hand(3, spice=1, fish=1)
    p.bidding()
    _bids(p, "BID_FISH_1", "BID_RICE_1", "BID_SPICE_1", "BID_FISH_1")
    s = p.state
    assert s.sold[0].tolist() == [True, True, True, False]
    assert s.bid_round[0] == 2
    # Seats 0 and 1 have empty hands (passed automatically); seat 2 is asked.
    assert p.automatic() == [(0, "BID", "PASS_BID"), (1, "BID", "PASS_BID")]
    assert p.decision() == (2, "BID") and p.legal() == ["PASS_BID"]
    p.play("PASS_BID")
    assert p.decision() == (3, "BID") and p.legal() == ["PASS_BID"]
    p.play("PASS_BID")
    s = p.state
    assert s.lr_bid_round[0] == 2 and not s.had_bid[0]
    assert (s.lr_bid[0] == 81).all()  # every seat passed
    assert not s.sold[0, G["veg"]]
    assert s.round[0] == 2 and s.phase[0] != PHASE.BID  # on to round 2
    p.check()
