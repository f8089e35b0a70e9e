"""The worked examples of the Batavia rules spec, one test each, numbered as printed.

Every action goes through ``embedding.Embedded`` (alone at B = 1 and as two rows of a batch
of other games), so each example checks the batched path too.
"""

from __future__ import annotations

import numpy as np
from batavia_helpers import C, G, Position, counts, space_of, tile

from envs.batavia.rules.queries import score_parts
from envs.batavia.state import Phase


def test_example_1_bidding_order_and_remainder_to_second_bidder():
    """Example 1: Éva (seat 3) is the auctioneer, so Ádám (seat 0) bids first. Ádám 4, Sári
    pass, Laci 6, Éva 10, Ádám 11, Laci pass, Éva pass: Ádám wins for 11; 3 coins to each
    other seat and the remainder 2 to Éva, the second-highest bidder (10)."""
    p = Position(4).auction(3, "EN2 SE1")
    asked = []
    for name in ("BID_4", "PASS", "BID_6", "BID_10", "BID_11", "PASS", "PASS"):
        asked.append(int(p.s.current_player[0]))
        p.play(name)
    assert asked == [0, 1, 2, 3, 0, 2, 3]  # Sári is skipped once out
    assert p.s.coins[0].tolist() == [4, 18, 18, 20]
    assert p.s.hand[0, 0].tolist() == counts("EN2 SE1").tolist()
    assert p.s.known[0, 0].tolist() == counts("EN2 SE1").tolist()  # the lot was face up
    assert not p.s.lot[0].any() and p.s.ship[0] == 0
    assert p.s.phase[0] == Phase.TURN_START and p.s.current_player[0] == 0  # start player
    p.check()


def test_example_2_die_flips_the_lot():
    """Example 2: the auctioneer rolls a 3 and flips two English cards and one Swedish card;
    they are auctioned as one lot together with the ship."""
    p = Position(4).cards(3, hand="NL1").pile_top("FR FR EN EN SE")
    p.turn(start=0, seat=3).rig_dice(3)
    p.play("DRAW")  # the round's last action: a new round starts
    assert p.s.round[0] == 2 and p.s.die[0] == 3
    assert p.s.lot[0].tolist() == counts("EN2 SE1").tolist()
    assert p.s.phase[0] == Phase.AUCTION_BID and p.s.current_player[0] == 1
    assert p.game.step_record(p.s).revealed[0].all()
    p.play("BID_1")  # seats 2, 3 and 0 pass
    p.play("PASS", "PASS", "PASS")
    assert p.s.ship[0] == 1 and p.s.hand[0, 1].tolist() == counts("EN2 SE1").tolist()
    p.check()


def test_example_3_remainder_without_second_bidder_goes_left_of_winner():
    """Example 3: N = 3, auctioneer seat 0; seat 1 bids 5, seats 2 and 0 pass: shares of 2,
    the remainder 1 to the first seat left of the winner: seat 2 +3, seat 0 +2, seat 1 -5."""
    p = Position(3).auction(0, "DK1")
    p.play("BID_5", "PASS", "PASS")
    assert p.s.coins[0].tolist() == [17, 10, 18]
    p.check()


def test_example_4_all_pass_carries_the_lot_over():
    """Example 4: a roll of 2 flips [NL, FR] and all pass: the start player stays, part B is
    played; next round the same seat rolls 4 and the lot holds 6 cards."""
    p = Position(4).auction(0, "NL1 FR1")
    p.s.die[:] = 2
    p.pile_top("EN EN EN EN EN EN EN EN SE SE DK EN")
    p.rig_dice(4)
    p.play("PASS", "PASS", "PASS")
    p.play("PASS")  # all passed: every empty hand draws by itself, the next round starts
    assert p.automatic() == [(0, "DRAW"), (1, "DRAW"), (2, "DRAW"), (3, "DRAW")]
    assert p.s.ship[0] == 0 and p.s.round[0] == 2 and p.s.die[0] == 4
    assert p.s.lot[0].tolist() == counts("NL1 FR1 SE2 DK1 EN1").tolist()
    assert p.s.carried[0] and p.s.lot[0].sum() == 6
    assert p.s.coins[0].tolist() == [15] * 4  # nobody paid
    assert p.s.phase[0] == Phase.AUCTION_BID and p.s.current_player[0] == 1
    p.check()


def test_example_5_case_1_any_card_with_a_majority_held():
    """Example 5 (case 1): holding the Danish majority, a single card of any company may be
    played, and the Danish seal is enough to move (§8 #10)."""
    p = Position(4).cards(0, hand="EN1 NL1", display="DK2").cards(1, display="EN2 NL2")
    assert "PLAY_CARD_EN" in p.legal()
    p.play("PLAY_CARD_EN")
    assert p.s.seal[0, C["EN"]] == 1  # the English card won no seal
    assert p.legal() == ["PLAY_CARD_NL", "END_MOVE_DK"]


def test_example_6_case_2_the_display_creates_the_majority():
    """Example 6 (case 2): with no majority, one Danish card that makes the Danish majority
    is a legal play."""
    p = Position(4).cards(0, hand="DK1 EN1").cards(1, display="EN1")
    assert p.legal() == ["DRAW", "PLAY_CARD_EN", "PLAY_CARD_DK"]
    p.play("PLAY_CARD_DK")
    assert p.s.seal[0, C["DK"]] == 0
    assert p.legal() == ["PLAY_CARD_EN", "END_MOVE_DK"]


def test_example_7_cubes_and_cannon_count_the_displayed_cards():
    """Example 7: Hanna displays 4 Dutch and 2 French cards: the Dutch cube goes up 4, the
    French cube 2 and the cannon 6."""
    p = Position(4).cards(0, hand="NL4 FR2").cards(1, display="EN1")
    p.play(*["PLAY_CARD_NL"] * 4, "PLAY_CARD_FR", "PLAY_CARD_FR")
    assert p.s.cubes[0, C["NL"]] == 4 and p.s.cubes[0, C["FR"]] == 2
    assert p.s.cannon[0] == 7 and p.s.played[0].tolist() == counts("NL4 FR2").tolist()


def test_example_8_a_tie_sends_the_seal_to_the_board():
    """Example 8: A (seat 1) has 3 NL and the NL seal; B (seat 0) displays 3 NL: the seal
    goes to the board and no ending is legal; a 4th NL takes the seal and END_MOVE NL."""
    p = Position(4).cards(1, display="NL3 EN1").cards(0, hand="NL4 EN1")
    assert p.s.seal[0, C["NL"]] == 1
    p.play("PLAY_CARD_NL", "PLAY_CARD_NL")
    assert p.s.seal[0, C["NL"]] == 1
    p.play("PLAY_CARD_NL")
    assert p.s.seal[0, C["NL"]] == -1
    assert p.legal() == ["PLAY_CARD_EN", "PLAY_CARD_NL"]  # no ending
    p.play("PLAY_CARD_NL")
    assert p.s.seal[0, C["NL"]] == 0
    assert p.legal() == ["PLAY_CARD_EN", "END_MOVE_NL"]


def test_example_9_the_move_goes_to_the_next_post_of_the_company():
    """Example 9: with the Dutch seal the merchant moves to the next Dutch post ahead of it
    (the fixed layout's NL posts lie on spaces 2 and 9 of the open blocks)."""
    p = Position(4).cards(0, hand="NL2")
    p.play("PLAY_CARD_NL", "END_MOVE_NL")
    assert p.s.pos[0, 0] == space_of("NL", "Porcelain") == 2
    p = Position(4).cards(0, hand="NL2").take(0, 3)  # its merchant already stands on 3
    p.play("PLAY_CARD_NL", "END_MOVE_NL")
    assert p.s.pos[0, 0] == space_of("NL", "Silk") == 9
    assert p.s.route[0, 1] == tile("NL", "Porcelain")  # the passed post stays


def test_example_10_the_crate_goes_on_the_tile_square():
    """Example 10: taking a Danish post that shows silk puts a crate on the Danish square of
    the silk warehouse."""
    p = Position(4).cards(0, hand="DK2")
    p.play("PLAY_CARD_DK", "END_MOVE_DK")
    assert space_of("DK", "Silk") == 1 and p.s.pos[0, 0] == 1
    assert p.s.warehouse[0, G["Silk"], C["DK"]] == 0
    assert p.s.crates[0, 0] == 11 and p.s.posts[0, 0, C["DK"]] == 1
    assert p.s.taken_by[0, tile("DK", "Silk")] == 0
    p.check()


def _goal_position(seals: str) -> Position:
    """All 35 spaces open; Hanna (seat 0) on space 31, seat 1 on 33 (the last DK post):
    no Danish post is ahead of Hanna, a Swedish one (32) is."""
    p = Position(4).open_spaces(35).take(0, 31).take(1, 33).cards(1, hand="NL1")
    return p.cards(0, hand="DK1 FR1", display=seals)


def _endings(p: Position) -> list[str]:
    return [name for name in p.legal() if name.startswith("END_")]


def test_example_11_the_goal_only_when_no_held_seal_has_a_post_ahead():
    """Example 11: holding only the Danish seal with no Danish post ahead, END_GOAL is the
    only ending and the goal tile is worth 4 gold; with the Swedish seal too and a Swedish
    post ahead, END_MOVE SE is the only ending."""
    p = _goal_position("DK2")
    p.play("PLAY_CARD_DK")
    assert _endings(p) == ["END_GOAL"]
    p.play("END_GOAL")
    assert p.s.pos[0, 0] == 36 and p.s.goal_holder[0] == 0 and p.s.final[0]
    assert p.s.phase[0] == Phase.TURN_START and p.s.current_player[0] == 1  # no exchange
    assert score_parts(p.game, p.s)["goal"][0].tolist() == [4, 0, 0, 0]
    p = _goal_position("DK2 SE2")
    p.play("PLAY_CARD_DK")
    assert _endings(p) == ["END_MOVE_SE"]


def _exchange_position(*spaces: int) -> Position:
    p = Position(4)
    for space in spaces:
        p.take(0, space)
    return p


def test_example_12_an_exchange_needs_a_new_company():
    """Example 12: Hanna holds posts of every company but England: an English post lets her
    hand in 5 tiles for 15 gold; a post of another company asks no exchange."""
    p = _exchange_position(1, 2, 4, 5).cards(0, hand="EN1 DK1")  # DK NL FR SE
    p.play("PLAY_CARD_EN", "END_MOVE_EN")
    assert p.s.pos[0, 0] == space_of("EN", "Cotton") == 10
    assert p.s.phase[0] == Phase.EXCHANGE_CHOICE and p.legal() == ["EXCHANGE", "KEEP"]
    p.play("EXCHANGE")
    assert p.s.gold[0, 0] == 15 and not p.s.posts[0, 0].any()
    assert p.s.exchanged[0].sum() == 5
    p = _exchange_position(1, 2, 4, 5).cards(0, hand="DK2").cards(1, hand="EN1")
    p.play("PLAY_CARD_DK", "END_MOVE_DK")
    assert p.s.pos[0, 0] == space_of("DK", "Ginger") == 8
    assert p.s.phase[0] == Phase.TURN_START and p.s.current_player[0] == 1  # KEEP, unasked
    assert p.s.posts[0, 0, C["DK"]] == 2 and p.s.gold[0, 0] == 0


def test_example_13_an_exchange_hands_in_one_tile_of_every_company():
    """Example 13: a new Danish post with one French and two Swedish tiles held: the Danish,
    the French and one Swedish tile are handed in, k = 3, 6 gold; one Swedish tile stays."""
    p = _exchange_position(4, 5, 7).cards(0, hand="DK2")  # FR-Pep, SE-Nut, SE-Pep
    p.play("PLAY_CARD_DK", "END_MOVE_DK", "EXCHANGE")
    assert p.s.gold[0, 0] == 6
    assert p.s.posts[0, 0].tolist() == counts("SE1").tolist()
    assert p.s.exchanged[0, [tile("DK", "Ginger"), tile("FR", "Pepper"),
                             tile("SE", "Nutmeg")]].all()
    assert not p.s.exchanged[0, tile("SE", "Pepper")]
    p.check()


def test_example_14_the_pirates_take_the_largest_company():
    """Example 14 (N = 4): the cannon reaches exactly 25 with Denmark at 11: all 11 Danish
    cards go to the discard pile, the Danish cube drops to 0, the seal returns, 14 left."""
    p = Position(4).cards(0, hand="DK2", display="DK6").cards(1, display="DK4 EN4 SE3")
    p.cards(2, display="FR4").cards(3, display="NL3")
    assert p.s.cannon[0] == 24
    p.play("PLAY_CARD_DK", "END_MOVE_DK", "KEEP")
    assert p.s.discard[0].tolist() == counts("DK11").tolist()
    assert p.s.cubes[0, C["DK"]] == 0 and not p.s.display[0, :, C["DK"]].any()
    assert p.s.seal[0, C["DK"]] == -1 and p.s.cannon[0] == 14
    p.check()


def test_example_15_tied_companies_are_all_attacked():
    """Example 15 (N = 3): EN 6, DK 6, FR 4, NL 3, SE 2 = 21: England and Denmark are hit,
    12 cards discarded, the cannon drops to 9, both seals go to the board."""
    p = Position(3).cards(0, hand="DK2", display="EN6").cards(1, display="DK5")
    p.cards(2, display="FR4 NL3 SE2")
    p.play("PLAY_CARD_DK", "END_MOVE_EN", "KEEP")
    assert p.s.discard[0].tolist() == counts("EN6 DK6").tolist()
    assert p.s.cannon[0] == 9
    assert p.s.seal[0].tolist() == [-1, -1, 2, 2, 2]
    p.check()


def _warehouse(silk: dict[int, int]) -> Position:
    """N = 4, seats' crates in the silk warehouse (``{seat: crates}``), played to the end:
    seat 3 took the goal, seat 2 is the last to act and draws."""
    p = Position(4).open_spaces(35)
    companies = iter(("EN", "DK", "FR", "NL", "SE"))
    for seat, number in silk.items():
        for _ in range(number):
            p.crate(seat, next(companies), "Silk")
    p.cards(2, hand="EN1")
    p.s.final[:] = True
    p.s.goal_holder[:] = 3
    p.s.pos[0, 3] = 36
    p.turn(start=3, seat=2).play("DRAW")
    assert p.s.terminated[0]
    return p


def test_example_16_a_sole_majority_scores_the_full_value():
    """Example 16: orange (seat 1) has the most silk alone: 13, nobody else scores silk."""
    p = _warehouse({0: 1, 1: 3})
    assert score_parts(p.game, p.s)["warehouses"][0].tolist() == [0, 13, 0, 0]


def test_example_17_a_three_way_tie_scores_the_tie_value_each():
    """Example 17: red, yellow and blue share the most silk: 6 each."""
    p = _warehouse({0: 1, 1: 1, 2: 1})
    assert score_parts(p.game, p.s)["warehouses"][0].tolist() == [6, 6, 6, 0]


def test_example_18_players_below_the_tie_score_nothing():
    """Example 18: yellow and blue tie for the most silk, red has less: 6, 6 and 0."""
    p = _warehouse({0: 2, 1: 2, 2: 1})
    assert score_parts(p.game, p.s)["warehouses"][0].tolist() == [6, 6, 0, 0]


def test_example_19_full_final_scoring():
    """Example 19 (N = 3): warehouses, coins 20/20/5, the goal with P1, seals EN and NL for
    P0 (the Dutch one only after P0's hand is revealed) and SE for P2, exchange gold 6/3/10:
    30, 23 and 18 gold; P0 wins."""
    p = Position(3).open_spaces(35)  # the goal was taken: every space is open
    for seat, company, good in ((0, "EN", "Tea"), (0, "DK", "Tea"), (0, "EN", "Pepper"),
                                (1, "FR", "Tea"), (1, "DK", "Pepper"), (1, "EN", "Silk"),
                                (1, "DK", "Silk"), (2, "FR", "Silk"), (2, "NL", "Silk")):
        p.crate(seat, company, good)
    p.coins(20, 20, 5)
    p.s.gold[0] = [6, 3, 10]
    p.cards(0, display="EN2", hand="NL3").cards(1, display="NL2").cards(2, display="SE4")
    p.pile_top("SE SE")
    p.s.final[:] = True
    p.s.goal_holder[:] = 1
    p.s.pos[0, 1] = 36
    p.turn(start=1, seat=0)  # P1 took the goal; P0 is the round's last seat
    assert p.s.seal[0, C["NL"]] == 1
    p.play("DRAW")
    assert p.s.terminated[0] and p.s.phase[0] == Phase.GAME_OVER
    assert p.s.seal[0].tolist() == [0, -1, -1, 0, 2]
    assert p.game.scores(p.s)[0].tolist() == [30, 23, 18]
    parts = score_parts(p.game, p.s)
    assert parts["warehouses"][0].tolist() == [18, 14, 6]
    assert parts["coins"][0].tolist() == [2, 2, 0]
    assert np.allclose(p.s.rewards[0], [1, 0, -1])
    assert p.game.step_record(p.s).revealed[0].all()  # every hand shown
    p.check()
