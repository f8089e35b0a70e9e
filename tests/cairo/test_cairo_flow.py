"""Turn flow: setup, payments (D9), reshuffles (R27), the final phase, the cap and options."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from cairo_helpers import C, Position

from envs.cairo import CairoGame
from envs.cairo.data import COLOUR_AREA, NEUTRAL, NUM_CARDS, SECTION, cell
from envs.cairo.rules import queries
from envs.cairo.state import ACTIONS, Phase, Stage


def test_initial_deal():
    """§3.1: 4 display cards, 3 cards and 1 money of each colour per player."""
    for players in (2, 3, 4):
        s = CairoGame(players).init(3, seed=5)
        assert (s.display >= 0).all() and (s.hand.sum(axis=2) == 3).all()
        assert (s.deck_size == NUM_CARDS - 4 - 3 * players).all()
        assert (s.money == 1).all() and (s.customer < 0).sum(axis=1).tolist() == [1, 1, 1]


def _play_setup(game: CairoGame, seed: int) -> tuple:
    state = game.init(1, seed=seed)
    rng = np.random.default_rng(seed)
    seats = []
    while state.stage[0] in (Stage.SETUP, Stage.NEUTRAL):
        neutral_step = state.stage[0] == Stage.NEUTRAL and state.phase[0] == Phase.STALL_CELL
        if state.phase[0] == Phase.PLACE_COLOUR or neutral_step:
            seats.append((int(state.stage[0]), int(state.current_player[0])))
        legal = np.flatnonzero(game.legal_action_mask(state)[0])
        state = game.step(state, np.array([rng.choice(legal)]))
    return state, seats


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_rounds_and_neutral_stalls(players):
    """§4.1, §5.9: three clockwise rounds, then (2p) six alternating neutral placements."""
    game = CairoGame(players)
    state, seats = _play_setup(game, seed=11)
    start = int(state.start_player[0])
    own = [(Stage.SETUP, (start + k) % players) for k in range(3 * players)]
    neutral = [(Stage.NEUTRAL, (start + k) % 2) for k in range(6)] if players == 2 else []
    assert seats == own + neutral
    assert state.stage[0] == Stage.MAIN and state.current_player[0] == start
    assert ((state.stall_cell[0, :players] >= 0).sum(axis=1) == 3).all()
    assert (state.stall_cell[0, NEUTRAL] >= 0).sum() == (6 if players == 2 else 0)
    assert not game.check_invariants(state)


def _cramped_setup(rows: int):
    """A 3-player game at its first placement on a board tiled all over but a 3 x 4 block
    (x 1..3, y 1..4) holding the five customers: only (2, 2) and (2, 3) take a stall, and a
    stall on one leaves the other next to a tile."""
    game = CairoGame(3)
    state = game.init(rows, seed=4)
    block = [cell(x, y) for y in range(1, 5) for x in range(1, 4)]
    state.tile[:] = NEUTRAL * 6  # a neutral red tile on every cell but the block's
    state.tile[:, block] = -1
    spots = [cell(1, 1), cell(3, 1), cell(1, 4), cell(2, 4), cell(3, 4)]
    for row in range(rows):
        colours = np.flatnonzero(state.customer[row] >= 0)
        state.customer[row, colours] = spots
    game.refresh(state)
    return game, state


def test_first_placement_is_always_possible():
    """A game's first placement is not checked (``effects.init_row``): on the start board
    every colour has a legal cell in every section of its area, so each seat can place
    anything."""
    game = CairoGame(3)
    start = game.init(1, seed=0)
    new_sections, _ = queries.board_sections(game, start, np.zeros(1, dtype=np.int64))
    for colour in range(6):
        sections = set(SECTION[COLOUR_AREA[colour]].tolist())
        assert sections == {k for k in range(9) if new_sections[0, colour] >> k & 1}, colour
    for players in (2, 3, 4):
        state = CairoGame(players).init(4, seed=8)
        assert (state.phase == Phase.PLACE_COLOUR).all()
        mask = CairoGame(players).legal_action_mask(state)
        assert mask[:, ACTIONS.NEW.start:ACTIONS.NEW.stop].all()


def test_impossible_setup_placements_are_skipped():
    """Rules choice 2: a setup placement with no legal option is skipped. After the only
    possible stall, every later placement is impossible and the first turn begins; a batch
    (placements checked at the end of the step) and single games agree."""
    game, batch = _cramped_setup(2)
    singles = [batch.take(np.array([row])) for row in range(2)]
    red, stall_cell = ACTIONS.NEW.start, ACTIONS.CELL.start + cell(2, 2)
    for phase in (Phase.PLACE_COLOUR, Phase.STALL_CELL, Phase.STALL_DIR):
        assert (batch.phase == phase).all()
        mask = game.legal_action_mask(batch)
        if phase == Phase.STALL_CELL:
            assert set((np.flatnonzero(mask[0]) - ACTIONS.CELL.start).tolist()) == {
                cell(2, 2), cell(2, 3)}
        actions = {Phase.PLACE_COLOUR: np.full(2, red), Phase.STALL_CELL: np.full(2, stall_cell),
                   Phase.STALL_DIR: np.argmax(mask, axis=1)}[phase]
        game.step(batch, actions)
        for row, single in enumerate(singles):
            game.step(single, actions[row : row + 1])
    assert (batch.stage == Stage.MAIN).all() and (batch.phase == Phase.TURN).all()
    assert (batch.placements == 9).all()
    assert (batch.current_player == batch.start_player).all()
    assert ((batch.stall_cell[:, :3] >= 0).sum(axis=(1, 2)) == 1).all()
    for row, single in enumerate(singles):
        assert single.equals(batch.take(np.array([row])))


def _payments(players: int, size: int, money: dict[str, int]) -> tuple[bool, set]:
    """Every final money vector the D9 masks can reach for a red expansion to ``size``."""
    expansions = [(x, 2) for x in range(4, 4 + size - 2)]
    p = Position(players).stall(0, "red", (3, 2), (3, 3), expansions=tuple(expansions))
    if size > 2:
        p.state.medal[0, C["red"]] = 0
    p.money(0, **money).hand(0, "S0")
    if "EXPAND_red" not in p.legal():
        return False, set()
    p.play("EXPAND_red", "CELL_2_2", "CARD_S0")
    outcomes, seen = set(), set()
    stack = [p.state]
    while stack:
        state = stack.pop()
        key = (tuple(state.money[0, 0]), int(state.pay_units[0]), bool(state.pay_half[0]))
        if key in seen:
            continue
        seen.add(key)
        if state.phase[0] != Phase.PAYMENT:
            outcomes.add(tuple(state.money[0, 0].tolist()))
            continue
        legal = np.flatnonzero(p.game.legal_action_mask(state)[0])
        assert legal.size, "a payment decision with no legal coin"
        for action in legal:
            stack.append(p.game.step(state.copy(), np.array([action])))
    return True, outcomes


def test_payment_masks_exhaustive():
    """D9 (§5.4, §9.2): the masks reach exactly the legal payments and never dead-end."""
    for size, red, yellow, blue in itertools.product((2, 3, 4), range(0, 5), range(4),
                                                     range(4)):
        money = {"red": red, "yellow": yellow, "blue": blue}
        legal, outcomes = _payments(3, size, money)
        expected = set()
        for k in range(1, min(red, size) + 1):
            rest = 2 * (size - k) if red < size else 0
            if red >= size and k != size:
                continue
            for paid_yellow in range(min(yellow, rest) + 1):
                if rest - paid_yellow <= blue:
                    expected.add((red - k, yellow - paid_yellow, 0,
                                  blue - rest + paid_yellow, 0, 0))
        assert legal == bool(expected), money
        assert outcomes == expected, (size, money)


def _deck_position(deck: list[str], discard: dict[str, int]) -> Position:
    p = Position(3).hand(0, "S0", "S1", "S2", "S3")
    s = p.state
    s.display[0] = [4, 5, 6, 7]
    for name, count in discard.items():
        s.discard[0, int(name[1:]) + (9 if name[0] == "J" else 0)] = count
    order = [int(n[1:]) + (9 if n[0] == "J" else 0) for n in deck]
    s.deck[0] = -1
    s.deck[0, : len(order)] = order
    s.deck_size[0] = len(order)
    return p


def test_reshuffle_when_last_card_is_taken():
    """R27: taking the last card reshuffles the discard pile at once; later discards stay."""
    # Account for all 33 cards: hand S0-S3, display S4-S7, deck S8, discard the rest.
    rest = {"S0": 2, "S1": 2, "S2": 2, "S3": 2, "S4": 2, "S5": 2, "S6": 2, "S7": 2, "S8": 2,
            "J0": 1, "J1": 1, "J2": 1, "J3": 1, "J4": 1, "J5": 1}
    p = _deck_position(["S8"], rest)
    p.game.refresh(p.state)
    assert not p.game.check_invariants(p.state)
    p.play("DRAW", "DECK")
    s = p.state
    assert s.deck_size[0] == 24 and s.discard[0].sum() == 0  # reshuffled at once
    p.play("BARKER", "CARD_S0")  # the hand-limit discard starts a new discard pile
    assert s.discard[0].tolist() == [1] + [0] * 14 and s.deck_size[0] == 24
    assert not p.game.check_invariants(s)


def test_reshuffle_waits_for_an_empty_discard_pile():
    """R27 fallback: the pile stays empty until a card is needed and discards exist.

    (With all 33 cards accounted for this cannot arise in play, so the piles are rigged.)
    """
    p = _deck_position(["S8"], {})
    p.play("DRAW", "DECK")  # the last card is taken with an empty discard pile: no reshuffle
    s = p.state
    assert s.deck_size[0] == 0 and s.discard[0].sum() == 0
    p.play("BARKER", "CARD_S0")  # the hand-limit discard: a discard pile of one card
    assert s.discard[0].sum() == 1 and s.current_player[0] == 1
    assert p.automatic == ["DRAW"]  # B, with no card and no lure, can only draw
    p.play("DECK")  # a card is needed: the one discarded card is shuffled and drawn
    assert s.hand[0, 1, 0] == 1 and s.discard[0].sum() == 0 and s.deck_size[0] == 0
    assert "DECK" not in p.legal()


def test_display_refills_after_the_turn():
    """§5.8.3, R28: a taken display slot stays empty until the end of the turn."""
    p = Position(3).hand(0, "S0")
    p.state.display[0] = [4, 5, 6, 7]
    p._rebuild_deck()
    p.play("DRAW", "DISPLAY_2")
    assert p.state.display[0, 2] == -1 and "DISPLAY_2" not in p.legal()
    top = int(p.state.deck[0, p.state.deck_size[0] - 1])
    p.play("DISPLAY_0")
    assert p.state.display[0].tolist() == [top, 5, int(p.state.display[0, 2]), 7]
    assert (p.state.display[0] >= 0).all() and p.state.known[0, 0, 4] == 1


def _final_position() -> Position:
    p = Position(3).stall(0, "red", (3, 2), (3, 3)).stall(2, "blue", (10, 6), (10, 7))
    p.state.stage[0] = Stage.FINAL
    p.money(2, blue=9).hand(2, "S5", "S5")
    return p


def test_final_phase_drop_outs():
    """§4.1, R30: PASS drops out for good; the last player may build several turns in a row."""
    p = _final_position()
    assert p.legal() == ["PASS"]  # seat 0 has no legal Build (no cards)
    p.play("PASS")  # seat 1 has no cards either: its PASS is automatic (VERSION 4)
    assert p.automatic == ["PASS"] and p.state.dropped[0].tolist() == [True, True, False]
    assert p.state.current_player[0] == 2
    p.play("EXPAND_blue", "CELL_11_6", "CARD_S5")
    assert p.state.current_player[0] == 2 and p.state.dropped[0].tolist() == [True, True, False]
    p.play("EXPAND_blue", "CELL_12_6", "CARD_S5")
    assert p.automatic == ["PASS"]  # no card left: no Build, so the last seat passes too
    assert p.state.terminated[0] and not p.state.truncated[0]
    assert p.state.phase[0] == Phase.GAME_OVER and p.state.current_player[0] == -1
    assert p.state.rewards[0].tolist() == [-0.5, -0.5, 1.0]  # seats 0 and 1 tie


def test_max_turns_truncates():
    """§7.4: the cap ends the game as truncated and pays the rank rewards of the scores."""
    p = Position(2, max_turns=3)
    p.state.vp[0] = [0, 5]
    p.play(*["DRAW", "BARKER", "BARKER"] * 3)  # every DRAW but the first is automatic
    assert p.state.truncated[0] and not p.state.terminated[0]
    assert p.state.rewards[0].tolist() == [-1.0, 1.0]


def test_auto_pay_settles_fee_and_substitutes():
    """§9.2 auto_pay: min(N, h) of the colour, then coins from the richest other colour."""
    p = Position(3, auto_pay=True).stall(0, "red", (3, 2), (3, 3), expansions=((2, 2), (4, 2)))
    p.state.medal[0, C["red"]] = 0
    p.money(0, red=2, yellow=3, blue=4).hand(0, "S0")
    p.play("EXPAND_red", "CELL_3_1", "CARD_S0")
    assert p.state.money[0, 0, :4].tolist() == [0, 1, 0, 2] and p.state.phase[0] == Phase.TURN
    p = Position(3, auto_pay=True).money(0, white=2, blue=1).hand(0, "J0")
    p.play("NEW_red", "CELL_2_2", "DIR_S", "CARD_J0")
    assert p.state.money[0, 0].tolist() == [0, 0, 0, 1, 1, 0]


def test_options_are_validated():
    with pytest.raises(ValueError):
        CairoGame(3, reveal_cards=True)
    with pytest.raises(ValueError):
        CairoGame(3, reveal_money=1)
    with pytest.raises(ValueError):
        CairoGame(3, max_turns=0)
    with pytest.raises(ValueError):
        CairoGame(5)


def test_illegal_action_changes_nothing():
    p = Position(3)
    before = p.state.copy()
    with pytest.raises(ValueError):
        p.game.step(p.state, np.array([ACTIONS.PASS.start]))
    assert p.state.equals(before)


def test_lure_only_with_a_candidate_and_in_main():
    """§5.7: a lure needs a free entrance of the customer's colour; none in FINAL."""
    p = Position(3).stall(1, "green", (3, 6), (4, 6))
    assert "LURE_green" in p.legal() and "LURE_red" not in p.legal()
    p.customers({"red": (1, 0), "yellow": (4, 6), "green": (6, 5), "blue": (1, 11),
                 "white": (12, 11)})
    assert "LURE_green" not in p.legal()
    p = Position(3).stall(1, "green", (3, 6), (4, 6))
    p.state.stage[0] = Stage.FINAL
    p.game.refresh(p.state)
    assert p.legal() == ["PASS"]
    assert p.state.customer[0, C["green"]] == cell(6, 5)
