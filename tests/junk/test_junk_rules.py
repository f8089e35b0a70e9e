"""Rules beyond the worked examples: bid resolution, the Phase-2 sub-flow, shortfalls, the
timing of lasting cards, the S event's piles, exchanges, and the 3- and 4-player setup."""

from __future__ import annotations

import numpy as np
import pytest
from junk_helpers import CARD, G, Position, begin_round, sorted_piles

from envs.junk import JunkGame
from envs.junk.data import PILE_SIZES, STRIPS_PER_PLAYER


# ---------------------------------------------------------------- Phase 4 (§5.5)
def test_losers_bid_cards_go_back_to_the_stacks_too():
    """Only the highest bid is paid, but every bid card returns to its junk's stack."""
    p = Position(4).at_round(1, card=1)  # FISH 2
    p.hand(0, fish=3).hand(1, fish=2).hand(2, rice=1).hand(3, fish=1)
    fish = int(p.state.stack[0, G["fish"]])
    p.bidding().play("BID_FISH_3", "BID_FISH_2", "PASS_BID", "BID_FISH_1")
    s = p.state
    assert s.money[0].tolist() == [2, 0, 0, 0]
    assert s.hand[0, :, G["fish"]].tolist() == [0, 0, 0, 0]
    assert s.stack[0, G["fish"]] == fish + 6
    assert s.flow_min[0, 1, G["fish"]] <= s.flow[0, 1, G["fish"]]
    p.check()


def test_all_goods_resolve_at_once_and_sold_goods_close():
    """One reveal resolves every good; the next bidding round offers only unsold goods."""
    p = Position(4).at_round(1, card=3)  # FISH 2, RICE 4, SPICE S, VEG 1
    p.hand(0, fish=2, veg=2).hand(1, rice=2, veg=1).hand(2, fish=1, veg=1).hand(3, veg=3)
    p.bidding().play("BID_FISH_2", "BID_RICE_1", "PASS_BID", "PASS_BID")
    s = p.state
    assert s.money[0].tolist() == [2, 4, 0, 0]
    assert s.sold[0].tolist() == [True, True, False, False]
    assert s.bid_round[0] == 2 and p.decision() == (0, "BID")
    assert {a.split("_")[1] for a in p.legal() if a != "PASS_BID"} == {"VEG"}
    p.check()


def test_win_ties_won_in_a_reveal_applies_from_the_next_bidding_round():
    """§5.2, §8 #12: seat 1 wins the S good alone and takes WIN_TIES; in the next bidding
    round it wins a tie alone."""
    p = sorted_piles(Position(4).at_round(1, card=1))  # VEG is S; square holds WIN_TIES
    p.hand(0, fish=2).hand(1, veg=1, fish=2).hand(2, rice=1).hand(3, rice=1)
    p.bidding().play("PASS_BID", "BID_VEG_1", "BID_RICE_1", "BID_RICE_1")
    assert p.state.money[0].tolist() == [0, 0, 0, 0]  # rice 1 split two ways: 0 each
    assert p.decision() == (1, "AWARD_PILE")
    p.play("PILE_square", "SPECIAL_WIN_TIES")
    assert p.state.always[0, 1, CARD["WIN_TIES"]] == 1
    assert p.decision() == (0, "BID") and p.state.bid_round[0] == 2
    p.play("BID_FISH_2", "BID_FISH_2")  # seats 2 and 3 pass automatically
    assert p.automatic()[:2] == [(2, "BID", "PASS_BID"), (3, "BID", "PASS_BID")]
    assert p.state.money[0].tolist() == [0, 2, 0, 0]
    p.check()


def test_an_award_with_every_pile_empty_gives_nothing_before_round_ten():
    """§5.2: the S winner gets nothing when all piles are empty (rounds 1-9)."""
    p = Position(4).at_round(2, card=1).empty_piles(3)  # VEG is S
    p.hand(1, veg=1).hand(2, fish=1).hand(3, fish=1).hand(0, fish=1)
    p.bidding().play("BID_VEG_1", "PASS_BID", "PASS_BID", "PASS_BID")
    assert p.state.lr_taker[0] == 1 and p.state.lr_pile[0] == -1
    assert p.decision() == (2, "BID")  # no AWARD_PILE: the next bidding round (seat 1
    # has no cards left and passes automatically)
    p.check()


# ---------------------------------------------------------------- Phase 2 (§5.3)
def test_extra_card_after_the_main_action_ends_the_turn():
    """P2_AFTER: the EXTRA card (MONEY_AT_GREY, its junk fixed by the card) is played after
    the main action and the turn ends."""
    p = Position(4).at_round(1).give(0, "MONEY_AT_GREY").hold("GREY", "000")
    p.play("MAIN_MERCHANT_GOODS")  # BROWN, fish
    assert p.decision() == (0, "P2_AFTER")
    assert p.legal() == ["MONEY_AT_GREY", "DONE"]
    p.play("MONEY_AT_GREY")
    assert p.state.money[0, 0] == 9 and p.decision() == (1, "P2_MAIN")
    assert p.state.discarded[0, CARD["MONEY_AT_GREY"]] == 1
    p.check()


def test_one_extra_card_per_round():
    """After an EXTRA card before the main action, the EXTRA actions are masked, and the
    turn ends after the main action (no P2_AFTER)."""
    p = Position(4).at_round(1).give(0, "MONEY_AT_GREY", "GOODS_ANY")
    p.play("MONEY_AT_GREY")
    assert p.decision() == (0, "P2_MAIN")
    assert not [a for a in p.legal() if a.startswith(("GOODS_ANY", "MONEY_AT"))]
    p.play("MAIN_MERCHANT_MONEY")
    assert p.decision() == (1, "P2_MAIN")
    p.check()


def test_grey_goods_from_a_helper():
    """Round 2: the lower helper's GOODS on the merchant-free GREY junk leads to GREY_TYPE,
    then the P2_AFTER gate (no face-down card: the turn ends)."""
    p = Position(4).at_round(2)
    seat = p.decision()[0]
    p.hold("GREY", f"{seat}..").hand(seat)
    p.play("MAIN_HELPER_lower_GREY")
    assert p.decision() == (seat, "GREY_TYPE") and p.state.goods_left[0] == 3
    p.play("GOODS_RICE")
    assert p.state.hand[0, seat].tolist() == [0, 3, 0, 0]
    assert p.decision() == ((seat + 1) % 4, "P2_MAIN")
    p.check()


def test_grey_goods_from_a_card_before_and_after_the_main_action():
    """GOODS_ANY_GREY before the main action returns to P2_MAIN after GREY_TYPE; played
    from P2_AFTER it ends the turn."""
    p = Position(4).at_round(1).give(0, "GOODS_ANY").hand(0)
    p.play("GOODS_ANY_GREY")
    assert p.decision() == (0, "GREY_TYPE") and p.state.grey_from_extra[0]
    p.play("GOODS_VEG")
    assert p.decision() == (0, "P2_MAIN") and p.state.hand[0, 0, G["veg"]] == 3
    p.play("MAIN_MERCHANT_MONEY")
    assert p.decision() == (1, "P2_MAIN")
    p = Position(4).at_round(1).give(0, "GOODS_ANY").hand(0)
    p.play("MAIN_MERCHANT_MONEY", "GOODS_ANY_GREY", "GOODS_FISH")
    assert p.decision() == (1, "P2_MAIN") and p.state.hand[0, 0, G["fish"]] == 3
    p.check()


def test_used_merchants_still_block_helpers():
    """§8 #30: a used merchant stays on its junk, which stays closed to the helpers."""
    p = Position(4).at_round(1)
    p.play("MAIN_MERCHANT_MONEY")  # on GREY
    helpers = {a for a in p.legal() if a.startswith("MAIN_HELPER")}
    assert helpers == {"MAIN_HELPER_lower_ORANGE", "MAIN_HELPER_lower_WHITE",
                       "MAIN_HELPER_upper_ORANGE", "MAIN_HELPER_upper_WHITE"}
    assert "MAIN_MERCHANT_MONEY" not in p.legal()


def test_pass_only_without_a_legal_figure_and_it_is_automatic():
    """DONE is legal in P2_MAIN only when no figure is; with no face-down card it is then
    applied automatically (3 players, last seat, only LOAD figures left, no strips)."""
    p = Position(3).at_round(1).hold("GREY", "222", "222", "222", "222", "222", "22.")
    assert p.state.strips[0, 2] == 0
    p.play("MAIN_MERCHANT_MONEY", "MAIN_MERCHANT_GOODS")
    # Seat 2 is left with the LOAD merchant and the lower helper's LOAD(1): no strips.
    assert p.automatic()[0] == (2, "P2_MAIN", "DONE")
    assert p.decision() == (0, "SUPPLY_PICK")
    p.check()


# ---------------------------------------------------------------- shortfalls (§5.3, §8)
def test_coloured_junk_short_stack_gives_what_is_there():
    p = Position(4).at_round(1).hand(0).stacks(1, fish=1)
    p.play("MAIN_MERCHANT_GOODS")  # BROWN: fish
    assert p.state.hand[0, 0, G["fish"]] == 1 and p.state.stack[0, G["fish"]] == 0
    p = Position(4).at_round(1).hand(0).stacks(1, fish=0)
    assert "MAIN_MERCHANT_GOODS" in p.legal()  # legal on an empty stack, yields nothing
    p.play("MAIN_MERCHANT_GOODS")
    assert p.state.hand[0, 0].sum() == 0
    p.check()


def test_load_with_one_strip_left_places_one():
    p = Position(4).at_round(1).hold("GREY", "000", "000", "000", "000", "000", "00.")
    assert p.state.strips[0, 0] == 1
    p.play("MAIN_MERCHANT_LOAD")
    assert p.state.strips[0, 0] == 0
    p.phase2_turn(0)
    p.state.fig_used[0] = False
    assert "MAIN_MERCHANT_LOAD" not in p.legal()
    assert not [a for a in p.legal() if a.startswith("MAIN_HELPER_lower")]  # LOAD(1)
    assert "MAIN_HELPER_upper_ORANGE" in p.legal()  # GOODS
    p.check()


def test_supply_picks_in_turn_order_and_skipped_when_dry():
    """Phase 3: sup(p) = 2 picks per seat in turn order; a pick with one stack left is
    automatic; with every stack empty the remaining picks are skipped."""
    p = Position(4).at_round(1).hand(0).stacks(1, fish=1, rice=0, spice=0, veg=2)
    p.play(*["MAIN_MERCHANT_MONEY", "MAIN_MERCHANT_LOAD", "MAIN_HELPER_lower_ORANGE",
             "MAIN_HELPER_upper_ORANGE"])
    assert p.decision() == (0, "SUPPLY_PICK") and p.legal() == ["GOODS_FISH", "GOODS_VEG"]
    p.play("GOODS_FISH")
    assert p.automatic() == [(0, "SUPPLY_PICK", "GOODS_VEG"), (1, "SUPPLY_PICK", "GOODS_VEG")]
    assert (p.state.stack[0] == 0).all() and p.decision()[1] == "BID"
    p.check()


# ---------------------------------------------------------------- lasting cards (§5.2)
def test_supply_plus_from_the_s_event_counts_this_round():
    """§5.2: an ALWAYS card acts at once: a SUPPLY_PLUS taken in the round-3 S event gives
    its owner 3 supply picks in Phase 3 of round 3."""
    p = sorted_piles(Position(4))
    begin_round(p, 3)
    p.play("PILE_square", "SPECIAL_SUPPLY_PLUS", "PILE_circle", "SPECIAL_LOAD_ONE",
           "PILE_triangle", "SPECIAL_MONEY_AT_ORANGE", "SPECIAL_BONUS8_BROWN")
    assert p.state.always[0, 2, CARD["SUPPLY_PLUS"]] == 1
    p.play("MAIN_MERCHANT_MONEY", "MAIN_MERCHANT_LOAD", "DONE", "MAIN_HELPER_lower_ORANGE",
           "DONE", "MAIN_HELPER_upper_BROWN", "DONE")
    assert p.decision() == (2, "SUPPLY_PICK") and p.state.picks_left[0] == 3
    p.play("GOODS_FISH", "GOODS_FISH", "GOODS_FISH")
    assert p.decision() == (3, "SUPPLY_PICK") and p.state.picks_left[0] == 2
    p.check()


def test_exchange_from_this_rounds_event_waits_for_the_next_round():
    """FAQ Q1: the exchange window comes before the event, so an EXCHANGE card taken in the
    S event is first used next round; then the owner returns up to 2 goods and takes as
    many (one is allowed), and a seat with two cards exchanges twice."""
    p = sorted_piles(Position(4))
    begin_round(p, 3)
    p.play("PILE_circle", "SPECIAL_EXCHANGE")
    assert p.state.always[0, 2, CARD["EXCHANGE"]] == 1
    assert p.decision()[1] == "EVENT_PILE"  # no exchange this round
    p = sorted_piles(Position(4)).give(2, "EXCHANGE", "EXCHANGE")
    p.hand(2, fish=3).hand(0, rice=1)
    begin_round(p, 4)
    assert p.decision() == (2, "EXCH_RETURN") and not p.state.second_exchange[0]
    assert p.legal() == ["RETURN_FISH", "DONE"]
    p.play("RETURN_FISH", "DONE")
    assert p.decision() == (2, "EXCH_TAKE")
    p.play("GOODS_VEG")
    assert p.decision() == (2, "EXCH_RETURN") and p.state.second_exchange[0]
    p.play("RETURN_FISH", "RETURN_FISH")  # two returns end the return step
    assert p.decision() == (2, "EXCH_TAKE") and p.state.takes_left[0] == 2
    p.play("GOODS_RICE", "GOODS_RICE")
    assert p.state.hand[0, 2].tolist() == [0, 2, 0, 1]
    assert p.decision()[1] == "P2_MAIN"  # round 4 has no event
    p.check()


def test_exchange_with_an_empty_hand_is_declined_automatically():
    p = Position(4).give(1, "EXCHANGE").hand(1)
    begin_round(p, 2)
    assert (1, "EXCH_RETURN", "DONE") in p.automatic()
    assert p.decision() == (1, "P2_MAIN")


# ---------------------------------------------------------------- the S event (§5.2)
def test_s_event_piles_differ_while_an_unchosen_pile_is_left():
    """Every seat a different pile while an unchosen non-empty one exists; then any
    non-empty pile; a one-card pile's pick is automatic."""
    p = sorted_piles(Position(4))
    s = p.state
    # Triangle and star go to seat 3; circle keeps one card (the others to seat 3 too).
    for card in np.flatnonzero((s.card_loc[0] >= 1) & (s.card_loc[0] < 4))[1:]:
        p._hand_over(int(card), 3)
    p.check()
    assert p.state.pile_cards[0].sum(axis=1).tolist() == [8, 1, 0, 0]
    begin_round(p, 3)
    assert p.decision() == (2, "EVENT_PILE") and p.legal() == ["PILE_square", "PILE_circle"]
    p.play("PILE_square", "SPECIAL_SUPPLY_PLUS")
    # Seat 3: circle is the only unchosen non-empty pile (automatic), and a one-card pick.
    assert p.automatic()[:2] == [(3, "EVENT_PILE", "PILE_circle"),
                                 (3, "SPECIAL_PICK", "SPECIAL_EXCHANGE")]
    # Seat 0: circle is empty now; square was chosen: any non-empty pile, i.e. square.
    assert (0, "EVENT_PILE", "PILE_square") in p.automatic()
    assert p.decision() == (0, "SPECIAL_PICK")
    p.check()


def test_s_event_skipped_when_every_pile_is_empty():
    p = Position(4).empty_piles(1)
    begin_round(p, 3)
    p.play("DONE", "DONE")  # seat 1's two exchanges, declined
    assert p.decision() == (2, "P2_MAIN")
    p.check()


# ---------------------------------------------------------------- setup (§3)
@pytest.mark.parametrize("players", [3, 4])
def test_setup_for_three_and_four_players(players):
    game = JunkGame(players)
    state = game.init(16, seed=5)
    dealt = 2 * players  # D per type in the hands
    assert (state.hand.sum(axis=2) == 8).all()
    assert (state.hand.sum(axis=1) == dealt).all()
    assert (state.stack == 18 - dealt).all()  # 10 (4p) or 12 (3p)
    assert (state.money == 0).all() and (state.round == 1).all()
    assert (state.strips == STRIPS_PER_PLAYER - 3).all()
    assert ((state.vis == 3).sum(axis=1) == 3).all() and (state.vis % 3 == 0).all()
    assert (state.pile_cards.sum(axis=2) == PILE_SIZES).all()
    assert (state.current_player == 0).all() and (state.phase == 5).all()
    assert game.observation_shape == (291 + 58 * players,)
    mask = game.legal_action_mask(state)
    upper = mask[:, 8:13].any(axis=1)
    assert upper.all() == (players == 4) and upper.any() == (players == 4)
    assert mask[:, :13].sum(axis=1).min() == 3 + 2 * (players - 2)  # 4 or 5 figures
    assert not game.check_invariants(state)


def test_variable_setup():
    """§3, §5.6: 3N SETUP_JUNK decisions in turn order, each placing a strip of the placer's
    right neighbour on a junk with fewer than 3; the merchants lie face down on 3 random
    junks until the last placement."""
    game = JunkGame(4, setup="variable")
    state = game.init(1, seed=9)
    assert state.phase[0] == 0 and state.merchants_hidden[0]
    assert (state.cargo == -1).all() and state.round[0] == 0
    hidden = game.observe(state, 0)
    rng = np.random.default_rng(0)
    for k in range(12):
        assert state.current_player[0] == k % 4
        mask = game.legal_action_mask(state)[0]
        full = (state.cargo[0, :, 0] >= 0).sum(axis=1) == 3
        assert (mask[156:161] == ~full).all()
        junk = int(rng.choice(np.flatnonzero(mask[156:161])))
        state = game.step(state, np.array([156 + junk]))
        if k < 11:
            assert (state.cargo[0, junk, 0] == (k % 4 - 1) % 4).sum() >= 1
    assert not state.merchants_hidden[0] and state.round[0] == 1
    assert state.revealed[0].all()
    assert ((state.cargo[0] >= 0).sum() == 12) and (state.strips[0] == 17).all()
    assert (state.layers[0, :, 0].sum(axis=1) <= 3).all()
    assert len(set(state.merchant_junk[0].tolist())) == 3
    assert hidden.shape == game.observe(state, 0).shape
    assert not game.check_invariants(state)
