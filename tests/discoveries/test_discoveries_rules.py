"""The rules of §4-§8 one by one, on rigged positions (issue 17's list)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from discoveries_helpers import CONTRACT, TYPE, Position

from envs.core.game import rank_rewards
from envs.discoveries import DiscoveriesGame
from envs.discoveries.data import (
    FLAG_COLOURS,
    MAX_TURNS,
    NUM_COLOURS,
    NUM_TVS,
    TYPE_COLOUR,
    TYPE_TV,
)
from envs.discoveries.rules.feasibility import FLAG_OFF, FLAG_ON, NO_FLAG, feasible
from envs.discoveries.rules.queries import qualifying, seat_values
from envs.discoveries.state import FLAG, MAIN, OPEN, PLAYED

# ---------------------------------------------------------------- the two-action rule (§4.3)


def test_two_different_main_actions_then_only_free_ones():
    p = Position(3).coins(0, 6).display("red3", "red4", "red5", "red6")
    p.play("TAKE_COINS")
    assert not p.is_legal("TAKE_COINS")
    p.play("TAKE_DISPLAY_0")
    assert p.state.used[0] == MAIN.COINS | MAIN.CONTRACT
    legal = set(p.legal())
    assert legal == {"END_TURN"} | {n for n in legal if n.startswith("RESERVE_")}


def test_buy_then_send_then_buy_is_illegal():
    p = Position(3).coins(0, 20).market(("red1",) * 5, ("red1",) * 5).ships(0, "blue1")
    p.play("BUY_0", "BUY_1")
    assert p.state.open_type[0] == OPEN.BUY and p.state.bought[0] == 2
    p.play("SEND_0", "PICK_SHIP_blue1")
    assert p.state.open_type[0] == OPEN.DISPATCH
    assert not any(p.is_legal(f"BUY_{i}") for i in range(5))
    assert p.is_legal("SEND_1")  # DISPATCH stays open


def test_send_then_reserve_then_send_is_legal():
    p = Position(3).coins(0, 5).ships(0, "blue1", "blue2")
    p.play("SEND_0", "PICK_SHIP_blue1", "RESERVE_OFFER_3")
    assert p.state.open_type[0] == OPEN.DISPATCH and p.state.res_owner[0, 3] == 0
    p.play("SEND_4", "PICK_SHIP_blue2")
    assert p.state.placed[0] == 2 and p.state.exp_size[0, [0, 4]].tolist() == [1, 1]


def test_coins_close_an_open_buy():
    p = Position(3).coins(0, 20).market(("red1",) * 5)
    p.play("BUY_0", "TAKE_COINS")
    assert p.state.open_type[0] == OPEN.NONE
    assert not p.is_legal("BUY_1") and not p.is_legal("SEND_0")


# ---------------------------------------------------------------- contract feasibility (§5.5)


def _search(idle: list[int], jokers: int, coins: int, flag: tuple[int, int] | None,
            colour: int, remaining: int) -> bool:
    """FEASIBLE by the plain depth-first search of §5.5 over the 24 pick options."""
    if remaining == 0:
        return True
    for t in range(len(idle)):
        tv = int(TYPE_TV[t])
        mismatch = int(TYPE_COLOUR[t]) != colour
        if idle[t] and coins >= 1 and tv <= remaining and (not mismatch or jokers):
            idle[t] -= 1
            ok = _search(idle, jokers - mismatch, coins - 1, flag, colour, remaining - tv)
            idle[t] += 1
            if ok:
                return True
    if flag is not None and coins >= 2:
        for declared, tv in itertools.product(flag, range(1, 4)):
            mismatch = declared != colour
            if tv <= remaining and (not mismatch or jokers) and _search(
                    idle, jokers - mismatch, coins - 2, None, colour, remaining - tv):
                return True
    return False


def test_feasibility_table_matches_a_plain_search_over_random_fleets():
    """The candidate-fleet table against the search of §5.5 on random fleets, Jokers,
    coins, flagships and requirements (the fees of the remaining picks included)."""
    rng = np.random.default_rng(17)
    cases = 3000
    checked = {True: 0, False: 0}
    for _ in range(cases):
        idle = [int(rng.integers(0, 3)) if rng.random() < 0.3 else 0 for _ in range(18)]
        jokers = int(rng.integers(0, 4))
        coins = int(rng.integers(0, 9)) if rng.random() < 0.8 else int(rng.integers(9, 571))
        colour, remaining = int(rng.integers(0, NUM_COLOURS)), int(rng.integers(0, 7))
        flag = tuple(FLAG_COLOURS[rng.integers(0, 6)].tolist()) if rng.random() < 0.5 else None
        expected = _search(idle, jokers, coins, flag, colour, remaining)
        fleet = np.array(idle).reshape(NUM_COLOURS, NUM_TVS)
        state = NO_FLAG if flag is None else (FLAG_ON if colour in flag else FLAG_OFF)
        other = fleet.sum(axis=0) - fleet[colour]
        got = feasible(*fleet[colour].tolist(), *other.tolist(), jokers, coins, state, remaining)
        assert bool(got) == expected, (idle, jokers, coins, flag, colour, remaining)
        checked[expected] += 1
    assert min(checked.values()) > cases // 10


def test_feasibility_counts_the_fees_of_every_remaining_pick():
    """Blue 6 from two blue TV3 ships needs 2 coins; 1 coin leaves PLAY_CONTRACT masked."""
    p = Position(3).ships(0, "blue3", "blue3").hand(0, "blue6").coins(0, 1)
    p.state.flag_where[0, 0] = FLAG.EXPEDITION  # the flagship is away
    assert not p.is_legal("PLAY_blue6_d1")
    p.coins(0, 2)
    assert p.is_legal("PLAY_blue6_d1") and p.is_legal("PLAY_blue6_d3")


def test_no_ships_no_contract_however_rich():
    """570 coins (the bound) and no idle ship or flagship: nothing to attach."""
    p = Position(3).hand(0, "green6", "green3").coins(0, 570)
    p.state.flag_where[0, 0], p.state.flag_revealed[0, 0] = FLAG.EXPEDITION, True
    assert not any(n.startswith("PLAY") for n in p.legal())


def test_feasibility_with_jokers_and_the_flagship():
    """A red TV3 and an off-colour TV1 make red 4 only with a Joker; the flagship (red/yellow)
    can stand in for the TV1 at any declared TV, but costs 2 coins."""
    p = Position(3).ships(0, "red3", "blue1").hand(0, "red4").coins(0, 5).jokers(0, 0)
    p.state.flag_where[0, 0] = FLAG.EXPEDITION
    assert not p.is_legal("PLAY_red4_d1")
    p.jokers(0, 1)
    assert p.is_legal("PLAY_red4_d1")
    p = Position(3).ships(0, "red3", "blue1").hand(0, "red4").coins(0, 2).jokers(0, 0)
    p.flagship(0, 0)  # F0 red/yellow, idle
    assert not p.is_legal("PLAY_red4_d1")  # red3 (1) + flagship (2) = 3 coins
    p.coins(0, 3)
    p.play("PLAY_red4_d1")
    assert set(p.legal()) == {"PICK_SHIP_red3", "PICK_FLAGSHIP_slot0_tv1"}
    p.play("PICK_FLAGSHIP_slot0_tv1")
    assert p.automatic() == ["PICK_SHIP_red3"]  # blue1 would need a Joker


def test_build_picks_keep_the_contract_completable():
    """Green 5 with green TV3, green TV2 and green TV1 x2: after the TV3 only the TV2 or the
    two TV1 complete it, so a pick that overshoots is masked at every step."""
    p = Position(3).ships(0, "green3", "green2", "green1", "green1").hand(0, "green5")
    p.coins(0, 9).jokers(0, 0).flagship(0, 0, revealed=True)
    p.state.flag_where[0, 0] = FLAG.EXPEDITION
    p.play("PLAY_green5_d2")
    assert set(p.legal()) == {"PICK_SHIP_green3", "PICK_SHIP_green2", "PICK_SHIP_green1"}
    p.play("PICK_SHIP_green3")
    assert set(p.legal()) == {"PICK_SHIP_green2", "PICK_SHIP_green1"}
    p.play("PICK_SHIP_green1")
    assert p.automatic() == ["PICK_SHIP_green1"]  # the last TV1 is the only way (public)
    assert p.state.con_state[0, CONTRACT["green5"]] == PLAYED.ACTIVE


# ---------------------------------------------------------------- scoring windows (§4.4)


def _buyer(players: int = 2, turn: int = 0) -> Position:
    p = Position(players).at_turn(turn).market(("red1",) * 5, ("red2",) * 5)
    return p.coins(turn % players, 60)


def test_scoring_card_last_in_its_pile_is_replaced_from_the_next_pile():
    """The First card as the last card of pile 3: the refill comes from pile 4's top."""
    p = _buyer()
    p.state.pile_pos[:] = 18
    p.piles("FIRST", "white3", at=18)
    p.play("BUY_0")
    assert p.state.first_reveal[0] == 0 and p.state.refill[0, 0] == TYPE["white3"]
    assert p.state.pile_pos[0] == 20


def test_first_scoring_before_final_in_the_same_turn():
    """Both cards out in one turn: both due at g + N; First runs, then Final, then the end.
    A ship placed before sees both scorings."""
    p = _buyer(players=2).expedition(1, (0, "red1"))
    p.state.pile_pos[:] = 17
    p.piles("FIRST", *["blue1"] * 8, at=17)  # the 9 cards from 17 to 25
    p.piles("FINAL", "blue2", at=26)
    for i in range(9):
        p.play(f"BUY_{i % 5}")
    assert p.state.first_reveal[0] == 0 and p.state.final_reveal[0] == 0
    p.end_turns(2)
    assert not p.state.done[0]
    p.play("END_TURN")  # the TURN_END of turn 2: First, then Final
    s = p.state
    assert s.first_done[0] and s.terminated[0]
    assert s.vp_first[0, 0] == 4  # Bartolomeu Dias, red card: first_same 4
    assert s.vp_final[0, 0] == 7 + 1 + s.idle[0, 0].sum()  # final_same 7, flagship, idle


def test_no_tick_after_the_final_scoring():
    """A voyage that would return at its owner's next turn start is boxed at the Final
    Scoring: no revenue, not completed, its ships back for the point each."""
    p = Position(2).ships(1, "blue3").coins(1, 1).hand(1, "blue3")
    p.state.final_reveal[:] = 0
    p.at_turn(1).play("PLAY_blue3_d1")
    assert p.automatic() == ["PICK_SHIP_blue3"]  # 1 coin: no flagship (public)
    p.play("END_TURN")
    s = p.state
    assert s.con_state[0, CONTRACT["blue3"]] == PLAYED.ACTIVE and not s.done[0]
    p.play("END_TURN")  # turn 2 = final_due ends the game
    s = p.state
    assert s.terminated[0] and s.con_state[0, CONTRACT["blue3"]] == PLAYED.DISCARDED
    assert s.coins[0, 1] == 0 and s.completed[0, 1] == 0 and s.contracts_discarded[0] == 1
    assert s.idle[0, 1, TYPE["blue3"]] == 1 and s.vp_final[0, 1] == 2  # blue3 + flagship


def test_one_more_turn_for_everyone_after_the_final_card():
    """The Final card revealed in turn 5 of a 3-player game: turns 6, 7 and 8 are played in
    full (each seat once, the revealer last), and the game ends after turn 8."""
    p = _buyer(players=3, turn=5)
    p.state.pile_pos[:] = 30
    p.piles("FINAL", "blue2", at=30)
    p.play("BUY_0")
    assert p.state.final_reveal[0] == 5
    seats = []
    for _ in range(4):
        p.play("END_TURN")
        if not p.state.done[0]:
            seats.append(int(p.state.current_player[0]))
    assert seats == [0, 1, 2] and p.state.terminated[0] and p.state.turn[0] == 9


def test_truncation_at_the_cap_scores_and_marks_truncated():
    p = Position(3).at_turn(MAX_TURNS - 1).expedition(0, (1, "green1"))
    p.play("END_TURN")
    s = p.state
    assert s.truncated[0] and not s.terminated[0] and s.turn[0] == MAX_TURNS
    assert s.vp_final[0].tolist() == [1, 7 + 1, 1]  # the flagships, P1's green on green


# ---------------------------------------------------------------- contract timers (§5.9)


def test_one_turn_voyage_is_back_on_the_owners_next_turn():
    p = Position(3).ships(0, "white3").coins(0, 1).hand(0, "white3")
    p.play("PLAY_white3_d1")
    assert p.automatic() == ["PICK_SHIP_white3"] and p.state.coins[0, 0] == 0
    p.end_turns(3)
    s = p.state
    assert s.current_player[0] == 0 and s.coins[0, 0] == 4 and s.completed[0, 0] == 1
    assert s.idle[0, 0, TYPE["white3"]] == 1 and p.is_legal("SEND_3")


def test_voyages_tick_and_pay_in_the_extra_turns():
    """The Final card out in turn 0 of a 2-player game: a 1-turn voyage played in turn 0
    completes at the start of turn 2, an extra turn, and pays; the game ends after it."""
    p = Position(2).ships(0, "black3").coins(0, 1).hand(0, "black3")
    p.state.final_reveal[:] = 0
    p.play("PLAY_black3_d1").end_turns(2)
    s = p.state
    assert not s.done[0] and s.turn[0] == 2
    assert s.completed[0, 0] == 1 and s.coins[0, 0] == 4
    p.play("END_TURN")
    assert p.state.terminated[0]


# ---------------------------------------------------------------- the Joker (§5.4, §7)


def test_joker_placement_reads_the_established_colour_scoring_the_card():
    """Columbus (green card) established yellow: a yellow ship needs no Joker, a green one
    does; both score by the card's colour."""
    p = Position(3).expedition(11, (1, "yellow3")).ships(0, "yellow1", "green1").coins(0, 1)
    p.jokers(0, 0)
    p.play("SEND_11")  # 1 coin: no flagship; green needs a Joker: one pick, applied
    assert p.automatic() == ["PICK_SHIP_yellow1"] and p.state.exp_joker[0, 11, 1] == 0
    p = Position(3).expedition(11, (1, "yellow3")).ships(0, "yellow1", "green1").coins(0, 2)
    p.jokers(0, 1).play("SEND_11", "PICK_SHIP_green1")
    assert p.state.jokers[0, 0] == 0 and p.state.jokers_used_exp[0, 0] == 1
    assert p.state.exp_same[0, 11].tolist() == [1, 0, 0]


def test_joker_on_a_contract_for_an_off_colour_ship():
    p = Position(3).ships(0, "red2", "blue1").coins(0, 2).hand(0, "red3").jokers(0, 1)
    p.flagship(0, 0, revealed=True).state.flag_where[0, 0] = FLAG.EXPEDITION
    p.play("PLAY_red3_d2", "PICK_SHIP_red2")
    assert p.automatic() == ["PICK_SHIP_blue1"]
    card = CONTRACT["red3"]
    assert p.state.jokers[0, 0] == 0 and p.state.con_jokers[0, card] == 1
    assert p.state.jokers_used_con[0, 0] == 1


# ---------------------------------------------------------------- reservations (§5.7)


def test_reserved_refill_card_cannot_be_bought_until_it_slides_down():
    p = Position(3).coins(0, 20).market(("red1",) * 5, ("blue1",) * 5)
    p.play("RESERVE_REFILL_1")
    assert p.state.res_owner[0, 6] == 0  # refill slot 1
    assert p.is_legal("BUY_1")  # the offer card below: the refill row is never bought
    p.play("BUY_1")
    assert p.state.offer[0, 1] == TYPE["blue1"] and p.state.res_owner[0, 1] == 0
    p.play("BUY_1")  # the reserver may buy it once in the offer row; the marker goes
    assert p.state.res_owner[0, 1] < 0 and p.state.res_owner[0, 6] < 0


def test_reservation_expires_at_the_end_of_the_owners_next_turn():
    p = Position(3).coins(1, 5).market(("red1",) * 5)
    p.play("RESERVE_OFFER_0", "END_TURN")
    assert p.state.res_owner[0, 0] == 0  # survives the turn it was placed in
    assert not p.is_legal("BUY_0") and not p.is_legal("RESERVE_OFFER_0")
    p.end_turns(2)
    assert p.state.current_player[0] == 0 and p.state.res_owner[0, 0] == 0
    p.play("END_TURN")
    assert p.state.res_owner[0, 0] < 0 and p.is_legal("BUY_0")


def test_reserved_contract_is_taken_only_by_its_owner():
    p = Position(3).coins(0, 3).coins(1, 3).display("red3", "red4", "red5", "red6")
    p.play("RESERVE_CONTRACT_2", "END_TURN")
    assert not p.is_legal("TAKE_DISPLAY_2") and p.is_legal("TAKE_DISPLAY_1")
    p.end_turns(2)
    p.play("TAKE_DISPLAY_2")
    s = p.state
    assert CONTRACT["red5"] in s.hand[0, 0] and s.res_owner[0, 12] < 0
    assert s.display[0, 2] >= 0 and s.display[0, 2] != CONTRACT["red5"]


# ---------------------------------------------------------------- final scoring (§7.2)


def test_unused_flagships_and_returned_voyage_ships_score_a_point():
    p = Position(3).ships(0, "red1", "red2").coins(0, 2).hand(0, "red3")
    p.state.final_reveal[:] = 0
    p.at_turn(3).play("PLAY_red3_d3", "PICK_SHIP_red1")
    assert p.automatic() == ["PICK_SHIP_red2"]
    p.play("END_TURN")
    s = p.state
    assert s.terminated[0]
    assert s.vp_final[0].tolist() == [3, 1, 1]  # flagships never used; P0's two returned
    assert seat_values(p.game, s)[1].tolist() == [[3, 1, 1]]


@pytest.mark.parametrize(("ships", "expected"), [
    ((), [False, False, False, False]),  # an empty expedition never qualifies
    ((0,), [True, True, True, True]),  # sole owner: every kind
    ((0, 1), [True, True, False, False]),  # exactly half
    ((0, 0, 1), [True, True, True, False]),
    ((0, 1, 2), [True, False, False, False]),
    ((1, 1, 0), [True, False, False, False]),
])
def test_special_task_kinds(ships, expected):
    """§2.7 for seat 0: AT_LEAST_ONE, HALF (at least half), MAJORITY (more than all others
    together), ALL (every ship)."""
    count = np.zeros((1, 12, 3), dtype=np.int16)
    count[0, 0] = [sum(1 for s in ships if s == q) for q in range(3)]
    size = np.zeros((1, 12), dtype=np.int16)
    size[0, 0] = len(ships)
    assert qualifying(count, size)[0, 0, 0].tolist() == expected


# ---------------------------------------------------------------- the market (§5.3)


def test_empty_market_slots_once_the_piles_run_out():
    p = Position(3).coins(0, 30).market(("red1",) * 5, ("blue1",) * 5)
    p.state.pile_pos[:] = 33
    p.piles("FINAL", at=33)  # only the Final card is left
    p.play("BUY_0")
    s = p.state
    assert s.refill[0, 0] < 0 and s.offer[0, 0] == TYPE["blue1"] and s.final_reveal[0] == 0
    p.play("BUY_0")
    assert p.state.offer[0, 0] < 0 and not p.is_legal("BUY_0")
    assert not p.is_legal("RESERVE_OFFER_0") and not p.is_legal("RESERVE_REFILL_0")


# ---------------------------------------------------------------- ranking (§7.2)


def test_tie_break_by_ships_not_on_expeditions():
    """Equal VP: more ships not on expeditions ranks higher; equal on both: shared."""
    game = DiscoveriesGame(3)
    state = game.init(1)
    state.vp_final[0] = [10, 10, 10]
    state.idle[0, :, 0] = [2, 1, 2]
    keys = game.ranking_keys(state)
    assert keys[0, :, 1].tolist() == [3, 2, 3]
    assert rank_rewards(keys)[0].tolist() == [0.5, -1.0, 0.5]
