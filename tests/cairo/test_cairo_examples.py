"""The worked examples of the rules spec, §5.10 (one test per example, numbers as printed)."""

from __future__ import annotations

import numpy as np
from cairo_helpers import C, Position

from envs.cairo.board import walk_distances
from envs.cairo.data import MARKET, cell
from envs.cairo.rules.scoring import end_triggered
from envs.cairo.state import Phase, Stage


def test_lure_to_own_stall_pays_group_size():
    """Example 1: A lures green to A's green group of 2 tiles and receives 2 green."""
    p = Position(3).stall(0, "green", (3, 6), (4, 6), expansions=((3, 7),))
    p.play("LURE_green", "CELL_4_6")
    s = p.state
    assert s.money[0, 0, C["green"]] == 2
    assert s.customer[0, C["green"]] == -1
    assert s.customer[0, C["purple"]] == cell(4, 6)
    # B's turn: with no card and no customer to lure, B can only draw (asked no more).
    assert s.current_player[0] == 1 and p.automatic == ["DRAW"]
    assert s.phase[0] == Phase.DRAW_SOURCE


def test_lure_to_other_stall_pays_owner_and_one_to_active():
    """Example 2: A lures green to B's green group of 2: B receives 2 green, A receives 1."""
    p = Position(3).stall(1, "green", (3, 6), (4, 6), expansions=((3, 7),))
    p.play("LURE_green", "CELL_4_6")
    assert p.state.money[0, 1, C["green"]] == 2
    assert p.state.money[0, 0, C["green"]] == 1
    assert p.state.customer[0, C["purple"]] == cell(4, 6)


def _expand(p: Position, colour: str, xy: tuple[int, int], card: str) -> None:
    p.play(f"EXPAND_{colour}", f"CELL_{xy[0]}_{xy[1]}", f"CARD_{card}")


def test_expansion_scores_new_group_size():
    """Example 3: an expansion making a group of 4 tiles scores 4 VP (no medal gained)."""
    p = Position(3).stall(0, "red", (3, 2), (3, 3), expansions=((2, 2), (4, 2)))
    p.stall(1, "red", (10, 9), (10, 10))
    p.state.medal[0, C["red"]] = 0  # A already holds gold and silver
    p.money(0, red=4).hand(0, "S0")
    _expand(p, "red", (3, 1), "S0")
    assert p.state.vp[0, 0] == 4
    assert p.state.group_size[0, 0, C["red"]] == 4


def test_expansion_cost_is_new_group_size():
    """Example 4: purple to 3 tiles costs 3 purple; red from 3 to 4 tiles costs 4 red."""
    p = Position(3).stall(0, "purple", (0, 5), (1, 5), expansions=((0, 6),))
    p.state.medal[0, C["purple"]] = 0
    p.money(0, purple=5).hand(0, "S3")
    _expand(p, "purple", (0, 4), "S3")
    assert p.state.money[0, 0, C["purple"]] == 2
    p = Position(3).stall(0, "red", (3, 2), (3, 3), expansions=((2, 2), (4, 2)))
    p.state.medal[0, C["red"]] = 0
    p.money(0, red=6).hand(0, "S0")
    _expand(p, "red", (3, 1), "S0")
    assert p.state.money[0, 0, C["red"]] == 2


def _substitution_position(**money: int) -> Position:
    p = Position(3).stall(0, "red", (3, 2), (3, 3), expansions=((2, 2), (4, 2)))
    p.state.medal[0, C["red"]] = 0
    return p.money(0, **money).hand(0, "S0")


def test_two_for_one_substitution():
    """Example 5: red group of 3, red 2, yellow 3, blue 4: every legal way to pay 4."""
    p = _substitution_position(red=2, yellow=3, blue=4)
    _expand(p, "red", (3, 1), "S0")
    assert p.state.phase[0] == Phase.PAYMENT  # 1 red taken, 3 units left
    assert p.legal() == ["COLOUR_red", "COLOUR_yellow", "COLOUR_blue"]
    p.play("COLOUR_red", "COLOUR_yellow", "COLOUR_yellow", "COLOUR_yellow", "COLOUR_blue")
    assert p.state.phase[0] == Phase.TURN
    assert list(p.state.money[0, 0, :4]) == [0, 0, 0, 3]  # red 2 + yellow 3 + blue 1
    # Red 1 plus 6 from yellow and blue keeps one red for later.
    p = _substitution_position(red=2, yellow=3, blue=4)
    _expand(p, "red", (3, 1), "S0")
    p.play("COLOUR_yellow", "COLOUR_yellow")
    assert "COLOUR_red" in p.legal()
    p.play("COLOUR_blue", "COLOUR_blue", "COLOUR_blue", "COLOUR_yellow")
    assert list(p.state.money[0, 0, :4]) == [1, 0, 0, 1]
    assert p.state.phase[0] == Phase.TURN
    # Red 4 or more: exactly 4 red, no substitution decision.
    p = _substitution_position(red=5, yellow=3)
    _expand(p, "red", (3, 1), "S0")
    assert p.state.phase[0] == Phase.TURN
    assert list(p.state.money[0, 0, :2]) == [1, 3]
    # Red 0: illegal whatever else; red 1 with only 5 others: a shortfall of 3 needs 6.
    assert "EXPAND_red" not in _substitution_position(yellow=9, blue=9).legal()
    assert "EXPAND_red" not in _substitution_position(red=1, yellow=3, blue=2).legal()
    assert "EXPAND_red" in _substitution_position(red=1, yellow=3, blue=3).legal()


def _example6(**customers: tuple[int, int]) -> Position:
    p = Position(3).stall(0, "red", (3, 2), (3, 1)).stall(1, "red", (1, 4), (1, 3))
    p.stall(2, "red", (10, 2), (9, 2))
    if customers:
        p.customers(customers)
    return p


def test_nearest_entrance_ties_and_barkers():
    """Example 6: distances 3, 3 and 10; the tie is free, (9,2) costs 2 barkers."""
    p = _example6()
    walk = MARKET & (p.state.tile < 0)
    goals = np.array([[cell(3, 1), cell(1, 3), cell(9, 2)]])
    dist = walk_distances(walk, np.array([cell(1, 0)]), goals, np.ones((1, 3), bool))
    assert dist.tolist() == [[3, 3, 10]]
    p.play("LURE_red")
    assert p.legal_cells() == {(3, 1), (1, 3)}
    p = _example6()
    p.state.barkers[0, 2] = 2
    p.to_act(2).play("LURE_red")
    assert p.legal_cells() == {(3, 1), (1, 3), (9, 2)}
    p.play("CELL_9_2")
    assert p.state.barkers[0, 2] == 0
    assert p.state.money[0, 2, C["red"]] == 1
    assert p.state.customer[0, C["red"]] == -1
    assert p.state.customer[0, C["purple"]] == cell(9, 2)
    # A customer on (3,1): candidates (1,3) at cost 0 and (9,2) at cost 1.
    standard = {"red": (1, 0), "yellow": (3, 1), "green": (6, 5), "blue": (1, 11),
                "white": (12, 11)}
    p = _example6(**standard)
    p.play("LURE_red")  # one legal target: applied without being asked (VERSION 4)
    assert p.automatic[0] == "CELL_1_3" and p.state.customer[0, C["purple"]] == cell(1, 3)
    p = _example6(**standard)
    p.state.barkers[0, 0] = 1
    p.play("LURE_red")
    assert p.legal_cells() == {(1, 3), (9, 2)}


def test_entrance_may_not_be_sealed():
    """Example 7: A's yellow expansion at (4,11) would seal entrance (5,11)."""
    p = Position(3).stall(0, "yellow", (5, 10), (5, 11), expansions=((4, 10),))
    p.stall(1, "blue", (7, 10), (7, 9), expansions=((7, 11), (6, 11)))
    p.state.medal[0, C["yellow"]] = 0
    p.state.medal[0, C["blue"]] = 1
    p.money(0, yellow=3).hand(0, "S6", "S7")
    p.play("EXPAND_yellow")
    assert p.legal_cells() == {(4, 9), (5, 9), (3, 10), (6, 10)}


def test_empty_pocket_may_be_sealed():
    """Example 8: B's red expansion at (8,0) walls in (6,0) and (7,0); A may then use them."""
    p = Position(3).stall(0, "yellow", (7, 2), (7, 3), expansions=((7, 1), (6, 1), (5, 1),
                                                                    (5, 0)))
    p.stall(1, "red", (9, 1), (10, 1), expansions=((8, 1),))
    p.state.medal[0, C["yellow"]] = 0
    p.state.medal[0, C["red"]] = 1
    p.money(1, red=3).hand(1, "S1").to_act(1)
    p.play("EXPAND_red")
    assert (8, 0) in p.legal_cells()
    p.play("CELL_8_0", "CARD_S1")
    assert p.state.tile[0, cell(8, 0)] == 1 * 6 + C["red"]
    p.money(0, yellow=6).hand(0, "S1").to_act(0)
    p.play("EXPAND_yellow")
    assert {(6, 0), (7, 0)} <= p.legal_cells()


def test_same_colour_contact_and_stall_spacing():
    """Example 9: green at (4,6) would touch B's green stall; a new stall needs space."""
    p = Position(3).stall(0, "green", (3, 6), (3, 7)).stall(1, "green", (5, 6), (6, 6))
    p.money(0, green=2, red=1).hand(0, "S3")
    p.play("EXPAND_green")
    cells = p.legal_cells()
    assert (3, 5) in cells and (4, 6) not in cells
    p = Position(3).stall(0, "green", (3, 6), (3, 7)).stall(1, "green", (5, 6), (6, 6))
    p.money(0, red=1).hand(0, "S3")
    p.play("NEW_red")
    cells = p.legal_cells()
    assert (4, 6) not in cells and cells


def _example10(**options) -> Position:
    p = Position(3, **options).customers({"red": (1, 0), "yellow": (12, 0), "green": (6, 5),
                                          "blue": (1, 11), "purple": (12, 11)})
    p.stall(0, "white", (12, 6), (11, 6))
    p.stall(1, "blue", (10, 4), (9, 4), expansions=((11, 4), (11, 5), (12, 5)))
    p.stall(2, "red", (11, 9), (11, 10), expansions=((12, 9), (12, 8), (12, 7)))
    p.state.medal[0, C["blue"]] = 1
    p.state.medal[0, C["red"]] = 2
    return p.money(0, white=3).hand(0, "S0")


def test_blocked_stall_may_move():
    """Example 10: A's white stall at (12,6) cannot expand, so A may move it."""
    p = _example10()
    assert "MOVE_white" in p.legal() and "EXPAND_white" not in p.legal()
    p.play("MOVE_white")
    assert p.legal_cells() and all(x <= 4 and y <= 3 for x, y in p.legal_cells())
    p.play("CELL_2_2", "DIR_S", "CARD_S0")
    s = p.state
    assert s.tile[0, cell(12, 6)] == -1 and s.entrance[0, cell(11, 6)] == -1
    assert s.stall_cell[0, 0, C["white"]] == cell(2, 2)
    assert s.entrance_cell[0, 0, C["white"]] == cell(2, 3)
    assert s.hand[0, 0].sum() == 0 and s.current_player[0] == 1


def test_unblocked_stall_moves_only_without_the_blocked_rule():
    """Example 10 (R22): an open unexpanded stall moves only if move_requires_blocked=False."""
    p = _example10().stall(0, "green", (3, 6), (3, 7))
    assert "MOVE_green" not in p.legal()
    p = _example10(move_requires_blocked=False).stall(0, "green", (3, 6), (3, 7))
    assert "MOVE_green" in p.legal() and "MOVE_white" in p.legal()


def test_medal_sequence():
    """Example 11: blue medals over six expansions with 3 players; totals A 7, B 16, C 7."""
    p = Position(3).stall(0, "blue", (2, 2), (2, 3)).stall(1, "blue", (6, 9), (6, 10))
    p.stall(2, "blue", (10, 6), (10, 7))
    steps = [  # seat, cell, card, expected medals (gold, silver), VP gained
        (0, (3, 2), "S0", (0, 0), 7),
        (1, (7, 9), "S7", (0, 1), 4),
        (2, (11, 6), "S5", (0, 2), 4),
        (1, (8, 9), "S7", (1, 1), 8),
        (1, (8, 10), "S7", (1, 1), 4),
        (2, (12, 6), "S5", (1, 1), 3),
    ]
    for seat, xy, card, medals, gained in steps:
        before = int(p.state.vp[0, seat])
        p.money(seat, blue=7).hand(seat, card).to_act(seat)
        _expand(p, "blue", xy, card)
        assert tuple(p.state.medal[0, C["blue"]]) == medals
        assert p.state.vp[0, seat] - before == gained
    assert p.state.vp[0].tolist() == [7, 16, 7]
    # The supply is out: the final phase, in which no seat holds a card, so each passes.
    assert p.state.supply[0, C["blue"]] == 0 and p.automatic == ["PASS"] * 3
    assert p.state.stage[0] == Stage.OVER and p.state.dropped[0].all()
    # Variant: after step 2, A expands to 3, takes the silver back and scores 3 + 2.
    p = Position(3).stall(0, "blue", (2, 2), (2, 3)).stall(1, "blue", (6, 9), (6, 10))
    for seat, xy, card in ((0, (3, 2), "S0"), (1, (7, 9), "S7"), (0, (1, 2), "S0")):
        p.money(seat, blue=7).hand(seat, card).to_act(seat)
        _expand(p, "blue", xy, card)
    assert tuple(p.state.medal[0, C["blue"]]) == (0, 0)
    assert p.state.vp[0, 0] == 7 + 5


def test_end_trigger():
    """Example 12: red 0 left, or two colours at exactly 1, starts the final phase."""
    supply = np.array([1, 3, 2, 2, 4, 5], dtype=np.int8)  # a row's ``supply``
    red = supply.copy()
    red[0] = 0
    green = supply.copy()
    green[2] = 1
    white = supply.copy()
    white[4] = 3
    assert end_triggered(red) and end_triggered(green) and not end_triggered(white)
    p = Position(3).stall(0, "red", (3, 2), (3, 3))
    p.state.supply[0] = supply
    p.money(0, red=2).hand(0, "S0").hand(1, "S4")  # B may build, so B is asked
    _expand(p, "red", (3, 1), "S0")
    assert p.state.stage[0] == Stage.FINAL and p.state.current_player[0] == 1
    assert "DRAW" not in p.legal() and "PASS" in p.legal()


def test_final_scoring():
    """Example 13: gold and silver in 3 colours (15 VP) and 8 money (2 VP)."""
    p = Position(3)
    for colour in ("red", "green", "white"):
        p.state.medal[0, C[colour]] = 0
    p.state.vp[0] = [10, 4, 0]
    p.money(0, red=3, blue=5)
    assert p.game.scores(p.state)[0, 0] == 10 + 15 + 2


def _example14(*cards: str, **money: int) -> Position:
    p = Position(3).stall(0, "red", (10, 2), (10, 3), expansions=((11, 2),))
    p.state.medal[0, C["red"]] = 0
    return p.money(0, **money).hand(0, *cards)


def test_joker_fee_and_three_card_fallback():
    """Example 14: an unpayable joker fee makes THREE the legal mode, and vice versa."""
    p = _example14("J0", "S4", "S6", red=3)
    p.play("EXPAND_red", "CELL_10_1")
    assert p.legal() == ["THREE"]
    p.play("THREE", "CARD_J0", "CARD_S4", "CARD_S6")
    assert p.state.money[0, 0, C["red"]] == 0 and p.state.vp[0, 0] == 3
    assert p.state.discard[0].sum() == 3
    p = _example14("J0", "S4", "S6", red=3, yellow=1)
    p.play("EXPAND_red", "CELL_10_1")
    assert p.legal() == ["CARD_J0"]
    p.play("CARD_J0")  # the fee's one colour (public money) is paid without being asked
    assert p.automatic[0] == "COLOUR_yellow" and p.state.money[0, 0, C["yellow"]] == 0
    # A new stall in section 2 must use J0 while A holds any money; with none, THREE.
    p = _example14("J0", "S4", "S6", blue=1)
    p.play("NEW_yellow", "CELL_10_0", "DIR_W")
    assert p.legal() == ["CARD_J0"]
    p = _example14("J0", "S4", "S6")
    p.play("NEW_yellow", "CELL_10_0", "DIR_W")
    assert p.legal() == ["THREE"]


def test_hand_limit():
    """Example 15: 3 cards + display card + deck card = 5, discard 1; a barker doesn't count."""
    p = Position(3).hand(0, "S0", "S1", "S2")
    p.state.barkers[0, 0] = 1
    p.state.display[0] = [3, 4, 5, 6]
    p._rebuild_deck()
    p.play("DRAW", "DISPLAY_0", "DECK")
    assert p.state.phase[0] == Phase.DISCARD and p.state.hand[0, 0].sum() == 5
    p.play("CARD_S0")
    assert p.state.hand[0, 0].sum() == 4 and p.state.current_player[0] == 1
    p = Position(3).hand(0, "S0", "S1", "S2")
    p.state.barkers[0, 0] = 1
    p.play("DRAW", "DECK", "BARKER")
    assert p.state.hand[0, 0].sum() == 4 and p.state.barkers[0, 0] == 2
    assert p.state.current_player[0] == 1


def test_setup_section_limit():
    """Example 16: in setup no third stall in section 4; in MAIN it may hold up to 5."""
    p = Position(4).stall(1, "red", (5, 4), (5, 5)).stall(2, "blue", (8, 4), (8, 5))
    s = p.state
    s.stage[0], s.phase[0], s.verb[0], s.colour[0] = Stage.SETUP, Phase.PLACE_COLOUR, 1, -1
    p.game.refresh(s)
    p.play("NEW_green")
    assert p.legal_cells() and not any(5 <= x <= 8 and 4 <= y <= 7 for x, y in p.legal_cells())
    p = Position(4).stall(1, "red", (5, 4), (5, 5)).stall(2, "blue", (8, 4), (8, 5))
    p.stall(3, "yellow", (5, 7), (5, 6)).stall(1, "white", (8, 7), (8, 6))
    p.money(0, red=1).hand(0, "S4")
    p.play("NEW_green")
    assert (7, 6) in p.legal_cells()
