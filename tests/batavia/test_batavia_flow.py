"""Rigged tests of the rules random play seldom reaches: the auction's corners, moves, the
final round, pirates, reveals, seal ties and the end of the game (spec §4-§8)."""

from __future__ import annotations

import numpy as np
from batavia_helpers import C, Position, counts, space_of, tile

from envs.batavia.data import MAX_ROUNDS
from envs.batavia.observation import OBS
from envs.batavia.rules.queries import score_parts
from envs.batavia.state import Phase

# ---------------------------------------------------------------- the auction (§5.1, §5.2)


def test_auctioneer_may_still_bid_when_everyone_else_passed():
    """§5.1: when all other seats pass before any bid, the auctioneer still bids and wins at
    once; a lone bid of 1 among 2 others: share 0, the remainder to the winner's left."""
    p = Position(3).auction(0, "FR2")
    p.play("PASS", "PASS")
    assert p.s.current_player[0] == 0 and p.s.phase[0] == Phase.AUCTION_BID
    p.play("BID_1")
    assert p.s.coins[0].tolist() == [14, 16, 15]
    assert p.s.ship[0] == 0 and p.s.hand[0, 0].tolist() == counts("FR2").tolist()


def test_bids_must_rise_and_stay_within_the_coins():
    """§5.1: BID b is legal iff high_bid < b <= coins; PASS always."""
    p = Position(4).auction(0, "EN1").coins(15, 9, 24, 12)
    p.play("BID_7")
    assert p.legal() == ["PASS"] + [f"BID_{b}" for b in range(8, 25)]
    p.play("BID_20")  # nobody else can cover 21: they pass by themselves (§9.3)
    assert p.automatic() == [(3, "PASS"), (0, "PASS"), (1, "PASS")]
    assert p.s.ship[0] == 2 and p.s.phase[0] == Phase.TURN_START
    assert p.s.coins[0].tolist() == [21, 17, 4, 18]  # 6 each, the remainder 2 to seat 1
    p.check()


def test_a_seat_without_coins_passes_automatically():
    """§9.3: coins <= high_bid (0 coins, no bid yet) applies PASS without asking."""
    p = Position(4).auction(3, "SE1").coins(20, 0, 20, 20)
    p.play("PASS")
    assert p.automatic() == [(1, "PASS")]
    assert p.s.current_player[0] == 2 and p.s.passed[0].tolist() == [True, True, False, False]


def test_the_lone_winner_pays_the_remainder_one_coin_each_from_his_left():
    """§5.2, §8 #6: with no second bidder, a bid of 5 among 3 others gives 1 each, and the
    remainder 2 goes one coin each to the first 2 seats left of the winner."""
    p = Position(4).auction(3, "NL1")
    p.play("PASS", "BID_5", "PASS", "PASS")
    assert p.s.coins[0].tolist() == [16, 10, 17, 17]


def test_the_remainder_goes_to_the_bid_just_below_the_winners():
    """§5.2: the second-highest bidder is the bid before the winning one, even when an
    earlier bidder bid again: 9 by seat 1 over 7 by seat 3 (which had bid 4 before)."""
    p = Position(4).auction(0, "DK3")
    p.play("BID_4", "BID_5", "PASS", "BID_7", "BID_8", "PASS", "BID_10", "PASS")
    # seat 1 bid 4, seat 2 bid 5, seat 3 passed, seat 0 bid 7, seat 1 bid 8, seat 2 passed,
    # seat 0 bid 10, seat 1 passed: seat 0 wins for 10 over seat 1's 8.
    assert p.s.ship[0] == 0
    assert p.s.coins[0].tolist() == [5, 19, 18, 18]  # 3 each, the remainder 1 to seat 1
    p = Position(3).auction(0, "DK3")
    p.play("BID_4", "BID_6", "BID_7", "BID_9", "PASS", "PASS")
    # seat 1 4, seat 2 6, seat 0 7, seat 1 9, seat 2 pass, seat 0 pass: 4 each, the
    # remainder 1 to seat 0, whose 7 was the bid just below 9 (seat 2's 6 was earlier).
    assert p.s.coins[0].tolist() == [20, 6, 19]


def test_an_empty_lot_skips_the_auction():
    """§5.1, §8 #15: both piles empty at the round start: nothing is flipped, no auction, and
    the start player stays."""
    p = Position(3).cards(0, hand="EN1").pile_only("", holder=1)
    p.s.ship[:] = 2
    p.turn(start=2, seat=1)  # the round's last seat
    p.rig_dice(5)
    p.play("DRAW")  # nothing to draw
    assert p.s.round[0] == 2 and not p.s.lot[0].any() and p.s.die[0] == 5
    assert p.s.hand[0, 1].sum() == 109  # the draw found no card
    assert p.automatic() == [(2, "DRAW")]  # the start player, with an empty hand
    assert p.s.phase[0] == Phase.TURN_START and p.s.ship[0] == 2
    assert p.s.current_player[0] == 0
    p.check()


# ---------------------------------------------------------------- moves (§5.5)


def test_the_move_targets_the_nearest_post_ahead_of_the_own_merchant():
    """§5.5, §8 #31: seat 1 stands on 5; seat 0, at the start, still takes the Dutch post on
    2 that seat 1 passed; seat 1 with the Dutch seal goes to 9, skipping empty spaces and
    other companies' posts."""
    p = Position(4).take(1, 5).cards(0, hand="NL2")
    p.play("PLAY_CARD_NL", "END_MOVE_NL", "KEEP")
    assert p.s.pos[0].tolist()[:2] == [2, 5]
    p = Position(4).take(1, 5).take(2, 6).take(3, 7).cards(1, hand="NL2").turn(0, 1)
    p.play("PLAY_CARD_NL", "END_MOVE_NL")
    assert p.s.pos[0, 1] == space_of("NL", "Silk") == 9
    assert p.s.route[0, 1] == tile("NL", "Porcelain")  # still there for the others


def test_no_play_ends_without_a_move_and_the_goal_waits_for_every_space_open():
    """§5.5, §8 #17: every ending moves; while spaces are face down the last open block holds
    a post of every company ahead of every merchant, so END_GOAL is never legal."""
    p = Position(4).open_spaces(15).take(0, 9).cards(0, hand="FR2")
    p.play("PLAY_CARD_FR")
    assert [n for n in p.legal() if n.startswith("END_")] == ["END_MOVE_FR"]
    assert p.s.open[0] == 15


def test_a_move_into_the_last_open_block_reveals_the_next_block_before_the_exchange():
    """§5.5: landing on one of the last 5 face-up spaces turns up the next 5, once a move,
    before the exchange decision; landing before that block turns nothing."""
    p = Position(4).cards(0, hand="NL2")
    p.play("PLAY_CARD_NL", "END_MOVE_NL")  # space 2: block 1, no reveal
    assert p.s.open[0] == 10 and not p.game.step_record(p.s).revealed[0].any()
    p = Position(4).take(0, 3).cards(0, hand="NL2")
    p.play("PLAY_CARD_NL", "END_MOVE_NL")  # space 9: the last open block
    assert p.s.open[0] == 15 and p.game.step_record(p.s).revealed[0].all()
    assert p.s.phase[0] == Phase.EXCHANGE_CHOICE  # asked with the new tiles in view
    route = p.game.observe(p.s, 0)[0, OBS.offsets["route"]].reshape(35, -1)
    assert route[10:15, 1].all() and not route[15:, 1].any()  # face up: spaces 11-15
    p.play("KEEP")
    assert p.s.open[0] == 15


def test_the_open_variant_never_reveals():
    """§9.5: every tile face up from setup, ``open`` 35 throughout."""
    p = Position(4, variant="open").open_spaces(35).take(0, 3).cards(0, hand="NL2")
    p.play("PLAY_CARD_NL", "END_MOVE_NL")
    assert p.s.open[0] == 35 and not p.game.step_record(p.s).revealed[0].any()


def test_a_third_player_reaching_a_tied_count_does_not_take_the_seal():
    """§5.4: the seal on the board after a tie at 2 stays there when a third seat reaches 2,
    and goes to a seat that exceeds 2."""
    p = Position(4).cards(1, display="SE2").cards(2, display="SE2").cards(0, hand="SE3 EN1")
    p.cards(3, display="EN2")
    assert p.s.seal[0, C["SE"]] == -1
    p.play("PLAY_CARD_SE", "PLAY_CARD_SE")
    assert p.s.seal[0, C["SE"]] == -1 and "END_MOVE_SE" not in p.legal()
    p.play("PLAY_CARD_SE")
    assert p.s.seal[0, C["SE"]] == 0 and "END_MOVE_SE" in p.legal()


def test_a_player_without_crates_takes_the_post_and_may_exchange():
    """§8 #11: with no crate left the tile is still taken (and may be exchanged), no crate
    is placed."""
    p = Position(4).cards(0, hand="DK2")
    p.s.crates[0, 0] = 0
    p.play("PLAY_CARD_DK", "END_MOVE_DK")
    assert p.s.posts[0, 0, C["DK"]] == 1 and (p.s.warehouse[0] < 0).all()
    p.play("EXCHANGE")
    assert p.s.gold[0, 0] == 1


# ---------------------------------------------------------------- the final round (§5.7)


def test_after_the_goal_only_the_later_seats_act_and_only_towards_a_post():
    """§5.7, §8 #18: seat 1 takes the goal (start player 0); seats 2 and 3 still act, seat 0
    does not act again. Seat 2's only potential company has no post ahead: it may only draw
    (asked, its hand is private); seat 3 can reach a post and plays; then the game ends."""
    p = Position(4).open_spaces(35).take(1, 33).take(2, 34).take(3, 30)
    p.cards(1, hand="DK1 FR1", display="DK2").cards(2, hand="NL1 EN1", display="NL3")
    p.cards(3, hand="EN3").cards(0, display="EN1")
    p.turn(start=0, seat=1)
    p.play("PLAY_CARD_DK", "END_GOAL")
    assert p.s.final[0] and p.s.current_player[0] == 2
    assert p.legal() == ["DRAW"]  # seat 2 holds NL, but no NL post is left ahead of 34
    p.play("DRAW")
    assert p.s.current_player[0] == 3 and "PLAY_CARD_EN" in p.legal()
    p.play("PLAY_CARD_EN", "PLAY_CARD_EN")
    assert [n for n in p.legal() if n.startswith("END_")] == ["END_MOVE_EN"]  # no goal
    p.play("END_MOVE_EN")
    assert p.s.pos[0, 3] == 35 and p.s.phase[0] == Phase.EXCHANGE_CHOICE
    p.play("KEEP")
    assert p.s.terminated[0] and p.s.phase[0] == Phase.GAME_OVER
    assert score_parts(p.game, p.s)["goal"][0].tolist() == [0, 4, 0, 0]
    p.check()


def test_final_round_draw_is_automatic_when_publicly_nothing_is_ahead():
    """§9.3: in the final round a seat with no post ahead at all can only draw, and the
    record shows it (eligible companies are those with a post ahead)."""
    p = Position(3).open_spaces(35).take(0, 35).take(1, 34).take(2, 33)
    p.cards(0, display="EN1", hand="EN2").cards(1, hand="DK2")
    p.cards(2, hand="DK1 FR1", display="DK2").turn(start=2, seat=2)
    p.play("PLAY_CARD_DK", "END_GOAL")  # nothing is left ahead of seats 0 and 1
    assert p.automatic() == [(0, "DRAW"), (1, "DRAW")]
    assert p.s.terminated[0]


def test_a_truncated_game_is_scored_without_the_goal_bonus():
    """§7: round 100 ends without the goal taken: final scoring as written, truncated."""
    p = Position(3).cards(0, hand="EN1", display="DK1").cards(1, display="FR2")
    p.crate(2, "SE", "Nutmeg")
    p.s.round[:] = MAX_ROUNDS
    p.turn(start=1, seat=0)  # the last seat of round 100
    p.play("DRAW")
    assert p.s.truncated[0] and not p.s.terminated[0] and p.s.phase[0] == Phase.GAME_OVER
    parts = score_parts(p.game, p.s)
    assert not parts["goal"].any()
    assert p.game.scores(p.s)[0].tolist() == [2 + 2 + 2, 2 + 2, 15 + 2]  # EN DK / FR
    assert np.allclose(p.s.rewards[0], [0, -1, 1])


# ---------------------------------------------------------------- pirates (§5.8)


def _pirates(players: int, displays: list[str], hand: str = "EN2") -> Position:
    p = Position(players)
    for seat, text in enumerate(displays):
        p.cards(seat, display=text)
    return p.cards(0, hand=hand, display=displays[0])


def test_the_pirate_threshold_depends_on_the_player_count():
    """§2.7: 21 displayed cards trigger the pirates at N = 3; at N = 4 and 5 it takes 25."""
    for players, threshold in ((3, 21), (4, 25), (5, 25)):
        for total in (threshold - 1, threshold):
            rest = total - 7  # seat 0 displays EN6 + the card it plays
            p = _pirates(players, ["EN6", f"DK{min(rest, 10)}", f"FR{max(rest - 10, 0)}"])
            p.play("PLAY_CARD_EN", "END_MOVE_EN", "KEEP")
            hit = counts("DK10") if total >= threshold else counts("")
            assert p.s.discard[0].tolist() == hit.tolist(), (players, total)


def test_the_attack_repeats_until_below_the_threshold():
    """§8 #13: 8, 7, 7, 7, 6 (35 at N = 4): the 8 goes (27 left), then the three 7s (6)."""
    p = _pirates(4, ["EN7", "DK7", "FR7", "NL7 SE6"], hand="EN1")
    p.play("PLAY_CARD_EN")  # EN 8, an empty hand: the move is applied by itself
    assert p.s.phase[0] == Phase.EXCHANGE_CHOICE
    p.play("KEEP")
    assert p.s.discard[0].tolist() == counts("EN8 DK7 FR7 NL7").tolist()
    assert p.s.cannon[0] == 6 and p.s.cubes[0].tolist() == counts("SE6").tolist()
    assert p.s.seal[0].tolist() == [-1, -1, -1, -1, 3]


def test_the_pirate_check_also_runs_after_a_draw():
    """§8 #14: the check follows every action. A draw never raises the cannon, so this rigs
    a total at the threshold (which play never leaves at a turn start) and draws."""
    p = _pirates(4, ["EN1", "DK12", "FR12"], hand="EN1")
    p.play("DRAW")
    assert p.s.discard[0].tolist() == counts("DK12 FR12").tolist()
    assert p.s.cannon[0] == 1
