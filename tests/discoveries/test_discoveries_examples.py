"""The worked examples of the rules spec (one test per example, numbers as printed).

Every action is played through ``embedding.Embedded`` (alone at B = 1 and as rows of a
batch of other games).
"""

from __future__ import annotations

import numpy as np
from discoveries_helpers import CONTRACT, TYPE, Position, action

from envs.discoveries import DiscoveriesGame
from envs.discoveries.data import FINAL_CARD, FIRST_CARD, PILE_END, PILE_START
from envs.discoveries.rules.queries import seat_values, voyage_timers
from envs.discoveries.state import FLAG, MAIN, PHASE


def _timer(p: Position, card: int) -> int:
    return int(voyage_timers(p.state)[0, card])


def test_setup_arithmetic():
    """Example 1: 42 ships - 10 in the rows = 32 in the piles; with the scoring cards the
    piles hold 6, 6, 7, 7, 8; First comes with the 13th-19th draw, Final the 27th-34th."""
    for players in (2, 3, 4):
        state = DiscoveriesGame(players).init(400, seed=players)
        assert (state.offer >= 0).all() and (state.refill >= 0).all()
        ships = (state.piles < FIRST_CARD).sum(axis=1)
        assert (ships == 32).all()
        assert (PILE_END - PILE_START).tolist() == [6, 6, 7, 7, 8]
        first = np.argmax(state.piles == FIRST_CARD, axis=1) + 1  # the draw that shows it
        final = np.argmax(state.piles == FINAL_CARD, axis=1) + 1
        assert first.min() == 13 and first.max() == 19
        assert final.min() == 27 and final.max() == 34


def test_one_action_then_stop():
    """Example 2: after TAKE_COINS, coins + 2, used = {COINS}; END_TURN is legal and
    TAKE_COINS is not."""
    p = Position(3).coins(0, 4)
    p.play("TAKE_COINS")
    assert p.state.coins[0, 0] == 6
    assert p.state.used[0] == MAIN.COINS
    assert p.is_legal("END_TURN") and not p.is_legal("TAKE_COINS")


def test_trigger_timing_first_scoring():
    """Example 3: N = 3, start A; in turn 19 (B) a buy reveals the First Scoring card, so
    first_due = 22; turns 20 (C), 21 (A), 22 (B) are played; First Scoring runs after turn
    22, and turn 23 is C's."""
    p = Position(3).at_turn(19)
    assert p.state.current_player[0] == 1
    p.market(("green1",) * 5, ("green2",) * 5).coins(1, 20)
    p.state.pile_pos[:] = 14
    p.piles("FIRST", "blue1", "red1", "red1", "red1", at=14)  # the rest of pile 3
    p.expedition(0, (0, "green2"))  # A scores 4 at the First Scoring
    p.play("BUY_0")
    assert p.state.first_reveal[0] == 19
    assert p.state.refill[0, 0] == TYPE["blue1"]  # the card after the scoring card
    assert p.is_legal("BUY_1")  # B may buy again in the same BUY action
    p.play("END_TURN")
    for turn, seat in ((20, 2), (21, 0), (22, 1)):
        assert p.state.turn[0] == turn and p.state.current_player[0] == seat
        assert not p.state.first_done[0]
        p.play("END_TURN")
    assert p.state.first_done[0] and p.state.vp_first[0, 0] == 4
    assert p.state.turn[0] == 23 and p.state.current_player[0] == 2


def test_purchase_example():
    """Example 4: 8 coins; offer green3 (5), yellow1 (3), green2 (4); green1 above green3.
    After buying green3 (3 coins left) green1 slides down and pile 1's top fills the refill
    slot; then green1 and yellow1 are buyable, green2 is not."""
    p = Position(3).coins(0, 8)
    p.market(("green3", "yellow1", "green2", "red1", "red1"),
             ("green1", "white1", "white1", "white1", "white1"))
    top = int(p.state.piles[0, 0])
    p.play("BUY_0")
    assert p.state.coins[0, 0] == 3
    assert p.state.idle[0, 0, TYPE["green3"]] == 1
    assert p.state.offer[0, 0] == TYPE["green1"] and p.state.refill[0, 0] == top
    assert p.is_legal("BUY_0") and p.is_legal("BUY_1") and not p.is_legal("BUY_2")


def _abreu(jokers: int) -> Position:
    p = Position(3).expedition(0, (1, "green1")).coins(0, 5).jokers(0, jokers)
    return p.ships(0, "green3", "green2", "green1", "yellow1", "yellow2", "yellow3")


def test_abreu_limit():
    """Example 5: Abreu (limit 3) holds a green TV1: green TV3 is illegal, green TV2 and TV1
    legal; yellow TV1 or TV2 only with a Joker (yellow TV3 never)."""
    p = _abreu(jokers=0)
    p.play("SEND_0")
    legal = set(p.legal())
    assert {"PICK_SHIP_green2", "PICK_SHIP_green1"} <= legal
    assert not legal & {"PICK_SHIP_green3", "PICK_SHIP_yellow1", "PICK_SHIP_yellow2",
                        "PICK_SHIP_yellow3"}
    p = _abreu(jokers=1)
    p.play("SEND_0")
    legal = set(p.legal())
    assert {"PICK_SHIP_yellow1", "PICK_SHIP_yellow2"} <= legal
    assert "PICK_SHIP_yellow3" not in legal and "PICK_SHIP_green3" not in legal
    p.play("PICK_SHIP_yellow2")
    assert p.state.exp_used[0, 0] == 3 and p.state.jokers[0, 0] == 0


def test_joker_onto_foreign_coloured_expedition():
    """Example 6: Columbus (green card, limit 8) established yellow by a yellow TV3; P sends a
    green TV2 with a Joker: used TV 5, still yellow; at the Final Scoring the green ship
    scores the same-colour 4 and the yellow ship the off value 3."""
    p = Position(2).expedition(11, (1, "yellow3")).ships(0, "green2").coins(0, 3).jokers(0, 1)
    p.play("SEND_11", "PICK_SHIP_green2")
    s = p.state
    assert s.exp_used[0, 11] == 5 and s.exp_colour_set[0, 11] == 1  # yellow
    assert s.jokers[0, 0] == 0 and s.exp_joker[0, 11, 1]
    p.state.final_reveal[:] = 0
    p.at_turn(2).play("END_TURN")  # the TURN_END of turn 2 = final_due: Final Scoring
    assert p.state.terminated[0]
    # P0: 4 (green on a green card) + 1 per ship not on an expedition (the flagship).
    assert p.state.vp_final[0, 0] == 4 + 1 + seat_values(p.game, p.state, [0])[0][0, 0]
    assert p.state.vp_final[0, 1] == 3 + 1 + seat_values(p.game, p.state, [0])[0][0, 1]


def test_contract_example():
    """Example 7: Francis plays yellow 5 on the 2-turn field (action 43), attaches yellow
    TV2 + TV3 and pays 2; the tick of his next turn leaves timer 1; the tick after it
    completes the contract: + 10 coins, the ships idle again before his first decision."""
    assert action("PLAY_yellow5_d2") == 43
    p = Position(2).ships(0, "yellow2", "yellow3").coins(0, 4).hand(0, "yellow5")
    p.play("PLAY_yellow5_d2", "PICK_SHIP_yellow2", "PICK_SHIP_yellow3")
    s = p.state
    card = CONTRACT["yellow5"]
    assert s.coins[0, 0] == 2 and s.con_revenue[0, card] == 10 and _timer(p, card) == 2
    assert s.phase[0] == PHASE.MAIN and s.idle[0, 0].sum() == 0
    p.end_turns(2)  # T ends, the other seat's turn ends: T+1 begins
    assert _timer(p, card) == 1 and p.state.idle[0, 0].sum() == 0
    p.end_turns(2)
    s = p.state
    assert s.current_player[0] == 0 and s.phase[0] == PHASE.MAIN
    assert s.coins[0, 0] == 2 + 10 and s.completed[0, 0] == 1
    assert s.idle[0, 0, TYPE["yellow2"]] == 1 and s.idle[0, 0, TYPE["yellow3"]] == 1
    assert p.is_legal("SEND_0")  # the returned ships may sail at once


def _flagship_contract(f1_revealed: bool) -> Position:
    p = Position(3).ships(0, "yellow2").coins(0, 5).jokers(0, 0).hand(0, "yellow5")
    p.flagship(0, 0).flagship(1, 1, revealed=f1_revealed).flagship(2, 3)
    return p


def test_flagship_on_a_contract():
    """Example 8: F0 (red/yellow) face down, a yellow TV2, 5 coins, no Joker: yellow 5 for 3
    turns (action 44), yellow TV2 then PICK_FLAGSHIP(slot 1 = yellow, tv 3): TV 5, coins 2,
    revenue 12, timer 3, F0 revealed; back idle after the voyage."""
    assert action("PLAY_yellow5_d3") == 44
    p = _flagship_contract(f1_revealed=False)
    p.play("PLAY_yellow5_d3", "PICK_SHIP_yellow2")
    assert p.legal() == ["PICK_FLAGSHIP_slot1_tv3"]
    p.play("PICK_FLAGSHIP_slot1_tv3")
    s, card = p.state, CONTRACT["yellow5"]
    assert s.coins[0, 0] == 2 and s.con_revenue[0, card] == 12 and _timer(p, card) == 3
    assert s.flag_revealed[0, 0] and s.flag_where[0, 0] == FLAG.VOYAGE
    assert p.game.step_record(s).revealed[0].tolist() == [False, True, True]
    p.end_turns(9)  # three rounds: the tick of P0's third turn after completes it
    assert p.state.flag_where[0, 0] == FLAG.IDLE and p.state.completed[0, 0] == 1


def test_flagship_pick_forced_only_when_public():
    """Example 8, forced-decision test (§4.5): after the yellow TV2 pick only
    PICK_FLAGSHIP(1, 3) is legal; with F1 (yellow in slot 0) unrevealed the public mask also
    holds PICK_FLAGSHIP(0, 3), so it is asked; with F1 revealed it is applied."""
    p = _flagship_contract(f1_revealed=False)
    p.play("PLAY_yellow5_d3", "PICK_SHIP_yellow2")
    assert p.state.phase[0] == PHASE.BUILD_CONTRACT and p.automatic() == []
    p = _flagship_contract(f1_revealed=True)
    p.play("PLAY_yellow5_d3", "PICK_SHIP_yellow2")
    assert p.automatic() == ["PICK_FLAGSHIP_slot1_tv3"]
    assert p.state.phase[0] == PHASE.MAIN and p.state.flag_where[0, 0] == FLAG.VOYAGE


def test_hand_limit_and_order():
    """Example 9: with 4 contracts TAKE_* is masked; after playing one (DISPATCH) 3 remain
    and TAKE_DISPLAY is legal; after it only a Reservation or END_TURN is left."""
    p = Position(3).coins(0, 3).ships(0, "red3")
    p.hand(0, "red3", "blue4", "green4", "white4").display("black3", "black4", None, None)
    assert not p.is_legal("TAKE_DISPLAY_0") and not p.is_legal("TAKE_BLIND")
    p.play("PLAY_red3_d1", "PICK_SHIP_red3")
    assert p.is_legal("TAKE_DISPLAY_0") and p.is_legal("TAKE_BLIND")
    p.play("TAKE_DISPLAY_1")
    legal = set(p.legal())
    assert legal == {"END_TURN"} | {n for n in legal if n.startswith("RESERVE_")}
    assert "RESERVE_CONTRACT_0" in legal


def test_reservation_example():
    """Example 10: P0 reserves refill[2] (blue TV1); P1 buys offer[2], the blue TV1 slides
    down still reserved, so P2 may not buy it; in P0's next turn BUY(2) is legal at 3; left
    unbought, the marker goes at P0's TURN_END."""
    p = Position(3).coins(1, 10).coins(2, 10).coins(0, 5)
    p.market(("red1",) * 5, ("white2", "white2", "blue1", "white2", "white2"))
    p.play("RESERVE_REFILL_2", "END_TURN")
    p.play("BUY_2", "END_TURN")
    s = p.state
    assert s.offer[0, 2] == TYPE["blue1"] and s.res_owner[0, 2] == 0 and s.res_owner[0, 7] < 0
    assert not p.is_legal("BUY_2") and p.is_legal("BUY_1")
    p.play("END_TURN")
    assert p.state.current_player[0] == 0 and p.is_legal("BUY_2")
    p.play("TAKE_COINS", "END_TURN")
    assert (p.state.res_owner[0] < 0).all()


def test_special_task_example():
    """Example 11: MAJORITY on 4 expeditions with 5 completed contracts pays 4 x 5 = 20."""
    p = Position(3).task(0, "MAJORITY")
    for e in range(4):
        p.expedition(e, (0, "red1"), (0, "blue1"), (1, "red1"))
    p.expedition(4, (0, "red1"), (1, "red1"))  # a tie is no majority
    p.state.completed[0, 0] = 5
    assert seat_values(p.game, p.state, [0])[0][0, 0] == 20


def test_full_final_scoring():
    """Example 12: two players; P0 scores 13 + 4 + 4 = 21, P1 10 + 6 + 3 = 19."""
    p = Position(2).task(0, "MAJORITY").task(1, "HALF")
    p.expedition(0, (0, "green1"), (1, "green2"))
    p.expedition(10, (0, "yellow3"), (0, "yellow2"), (1, "yellow3"))
    s = p.state
    s.idle[0, 0, TYPE["red1"]] = 3
    s.idle[0, 1, TYPE["blue1"]] = 2
    s.completed[0] = [4, 6]
    # P0's flagship alone is on an unfinished TV3 contract.
    card = CONTRACT["black3"]
    s.con_state[0, card], s.con_owner[0, card] = 1, 0
    s.con_duration[0, card] = 2
    s.con_due[0, card] = s.own_turns[0, 0] + 2
    s.con_revenue[0, card] = 6
    s.con_flag_tv[0, card], s.con_flag_colour[0, card] = 3, 4
    s.voyage_revenue[0, 0, 1], s.voyage_ships[0, 0, 1] = 6, 1
    s.flag_where[0, 0], s.flag_revealed[0, 0] = FLAG.VOYAGE, True
    s.final_reveal[:] = 0
    p.at_turn(2)
    p.play("END_TURN")
    s = p.state
    assert s.terminated[0] and s.contracts_discarded[0] == 1
    assert s.vp_final[0].tolist() == [21, 19]
    assert s.flag_where[0, 0] == FLAG.IDLE and s.completed[0, 0] == 4
    assert s.rewards[0].tolist() == [1.0, -1.0]
