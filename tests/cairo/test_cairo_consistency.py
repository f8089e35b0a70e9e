"""Batch rows against single games, moves against the board with the stall lifted by hand, and
D4's shortcut for moves against the full search on the lifted boards."""

from __future__ import annotations

import numpy as np
import pytest

from envs.cairo import CairoGame
from envs.cairo.board import Board, customer_cells
from envs.cairo.data import COLOUR_AREA, SECTION
from envs.cairo.rules import cards, queries
from envs.cairo.state import ACTIONS, Phase, Verb


@pytest.mark.parametrize("players", [2, 4])
def test_single_games_match_batch_rows_at_every_step(players):
    """Row i of a batch and the game of the same seed alone agree on the state, the mask and
    the acting seat's observation after every step, not only at the end."""
    game = CairoGame(players)
    rows = 4
    batch = game.init(rows, seed=70)
    singles = [game.init(1, seed=70 + i) for i in range(rows)]
    rng = np.random.default_rng(1)
    for _ in range(game.max_decisions):
        if batch.done.all():
            break
        mask = game.legal_action_mask(batch)
        seats = np.maximum(batch.current_player, 0)
        obs = game.observe(batch, seats)
        for i, single in enumerate(singles):
            if single.done[0]:
                continue  # the batch zeroes a finished row's rewards on later steps
            assert single.equals(batch.take(i))
            assert np.array_equal(game.legal_action_mask(single)[0], mask[i])
            assert np.array_equal(game.observe(single, int(seats[i]))[0], obs[i])
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        game.step(batch, actions)
        for i, single in enumerate(singles):
            if not single.done[0]:
                game.step(single, actions[i : i + 1])
                assert single.equals(batch.take(i))
    assert batch.done.all()


def _positions(game: CairoGame, seed: int, phase: int):
    """Copies of the one-row states of a random game that ask decision ``phase``."""
    rng = np.random.default_rng(seed)
    state = game.init(1, seed=seed)
    while not state.done[0]:
        mask = game.legal_action_mask(state)
        if state.phase[0] == phase:
            yield state.copy()
        legal = np.flatnonzero(mask[0])
        game.step(state, legal[int(rng.random() * legal.size)].reshape(1))


def _sections(bits: int) -> np.ndarray:
    """(9,) bool of a 9-bit section set."""
    return (int(bits) >> np.arange(9) & 1).astype(bool)


def _stall_directions(board: Board, candidates: np.ndarray) -> np.ndarray:
    """(R, 182, 4) bool, by hand: a stall tile on the candidate cell with its entrance in the
    direction (§5.3 preconditions 3, 4 and 7): the cell free with no tile orthogonally
    adjacent (R11), the entrance's cell a free market cell, and every customer and entrance
    (the new one too) in one walkable component."""
    cells = candidates & board.free & ~board.tile_near
    safe, connected = board.placements(cells)
    return (cells & safe)[..., None] & connected & board.entrance_free


def test_move_destinations_are_the_board_with_the_stall_lifted():
    """The legal (cell, direction) of a moved stall (D2 and D3 with the verb MOVE,
    ``legal.stall_options``) equal the stall's legal placements on the board with the stall
    and its entrance taken off by hand, in the colour's area, in the covered sections holding
    no other main stall of the colour, off the stall's own cell (§5.6), for every
    single-tile group of the acting seat along random games."""
    game = CairoGame(3)
    checked = moving = 0
    for seed in range(31, 35):
        for one in _positions(game, seed, Phase.TURN):
            seat = int(one.current_player[0])
            colours = np.flatnonzero(one.group_size[0, seat] == 1)
            cover = _sections(cards.stall_cover(one.hand[0, seat], one.money[0, seat]))
            for colour in colours.tolist():
                moved = one.copy()
                moved.phase[0], moved.verb[0], moved.colour[0] = (Phase.STALL_CELL, Verb.MOVE,
                                                                   colour)
                got = queries.stall_options(game, moved, np.zeros(1, dtype=np.int64))[0]
                old = int(one.stall_cell[0, seat, colour])
                tile, entrance = one.tile[:1].copy(), one.entrance[:1].copy()
                tile[0, old] = -1
                entrance[0, one.entrance_cell[0, seat, colour]] = -1
                board = Board(tile, entrance, customer_cells(one, np.zeros(1, dtype=np.intp)))
                stall_cell = one.stall_cell[0].copy()
                stall_cell[seat, colour] = -1
                taken = np.zeros(9, dtype=bool)  # a main stall of the colour, any owner
                taken[SECTION[stall_cell[:, colour][stall_cell[:, colour] >= 0]]] = True
                open_sections = cover & ~taken
                candidates = COLOUR_AREA[colour] & open_sections[SECTION]
                candidates[old] = False
                expected = _stall_directions(board, candidates[None])[0]
                assert np.array_equal(got, expected)
                moving += bool(expected.any())
                checked += 1
    assert checked > 100 and 0 < moving < checked


@pytest.mark.parametrize("requires_blocked", [True, False])
def test_turn_moves_are_those_of_the_lifted_boards(requires_blocked):
    """D4's MOVE_c is legal exactly where the stall may move (unexpanded, blocked unless the
    option waives it) and its board with it lifted has a destination in a section the cards
    pay for (``placement.move_sections``). The mask skips the lifted board where the board as
    it is offers the colour a new stall's cell (lifting only frees cells and a target): the
    two agree on every turn of random games, both ways of finding a move among them."""
    game = CairoGame(3, move_requires_blocked=requires_blocked)
    row = np.zeros(1, dtype=np.int64)
    movable_turns = by_board = by_lifting = 0
    # A blocked stall is rare: more games for it (every unexpanded stall moves otherwise).
    for seed in range(40, 52) if requires_blocked else (40,):
        for one in _positions(game, seed, Phase.TURN):
            seat = int(one.current_player[0])
            movable = one.group_size[0, seat] == 1
            new_sections, expand_sections = queries.board_sections(game, one, row)
            if requires_blocked:
                movable &= expand_sections[0] == 0
            colours = np.flatnonzero(movable)
            cover = cards.stall_cover(one.hand[0, seat], one.money[0, seat])
            expected = np.zeros(len(movable), dtype=bool)
            if colours.size and cover:
                sections = queries.move_sections(game, one, np.zeros(colours.size),
                                                 np.full(colours.size, seat), colours)
                expected[colours] = (sections & cover) != 0
            got = game.legal_action_mask(one)[0, ACTIONS.MOVE.start:ACTIONS.MOVE.stop]
            assert np.array_equal(got, expected)
            if colours.size:
                movable_turns += 1
                on_board = expected & ((new_sections[0] & cover) != 0)
                by_board += on_board.any()
                by_lifting += (expected & ~on_board).any()
    assert movable_turns > 30 and by_board > 0 and by_lifting > 0
