"""Batch rows against single games, kept analyses against fresh ones, moves against the board
with the stall lifted by hand."""

from __future__ import annotations

import numpy as np
import pytest

from envs.cairo import CairoGame, cards, stalls
from envs.cairo.board import Board, customer_cells
from envs.cairo.data import COLOUR_AREA, SECTION
from envs.cairo.state import ACTIONS, Phase, Stage


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


def test_memoised_analyses_match_fresh_ones_across_row_resets():
    """The per-row analyses the memo keeps across turns (the board analysis, the moves, the
    lure options) and across ``put`` + ``forget_rows`` give every step the mask and
    observation that a state with no memo gives."""
    game = CairoGame(3)
    state = game.init(16, seed=40)
    rng = np.random.default_rng(2)
    resets = 0
    for step in range(400):
        mask = game.legal_action_mask(state)
        seats = np.maximum(state.current_player, 0)
        fresh = state.copy()  # a copy carries no cache
        assert np.array_equal(mask, game.legal_action_mask(fresh))
        assert np.array_equal(game.observe(state, seats), game.observe(fresh, seats))
        game.step(state, np.argmax(rng.random(mask.shape) * mask, axis=1))
        if step % 30 == 29:  # new games in a few rows, as the vector envs start them
            rows = np.array([step % 16, (step + 5) % 16])
            state.put(rows, game.init_rows(1000 + rows + step))
            game.forget_rows(state, rows)
            resets += 1
    assert resets == 13
    assert "_row_memo" in state.__dict__, "the row-checked entries survive forget_rows"


def test_steps_reading_the_memo_match_steps_of_fresh_states():
    """A step reads what its mask left in the memo (the lure options, the board analysis),
    also when rows were replaced between the mask and the step: each step equals the same
    step of a copy with no memo."""
    game = CairoGame(3)
    state, other = game.init(8, seed=41), game.init(8, seed=77)
    rng = np.random.default_rng(3)
    for step in range(300):
        mask = game.legal_action_mask(state)
        if step % 5 == 3:  # a row of another game, mid-play, put in after the mask was made
            rows = np.array([step % 8])
            state.put(rows, other.take(rows))
            game.forget_rows(state, rows)
            mask = game.legal_action_mask(state)
        fresh = state.copy()
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        game.step(state, actions)
        game.step(fresh, actions)
        assert state.equals(fresh), step
        other_mask = game.legal_action_mask(other)
        game.step(other, np.argmax(rng.random(other_mask.shape) * other_mask, axis=1))


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


def test_move_destinations_are_the_board_with_the_stall_lifted():
    """``stalls.move_destinations`` equals ``stalls.stall_directions`` on the board with the
    stall and its entrance taken off by hand, in the colour's area, in the covered sections
    holding no other main stall of the colour, off the stall's own cell (§5.6), for every
    single-tile group of the acting seat along random games."""
    game = CairoGame(3)
    checked = moving = 0
    for seed in range(31, 35):
        for one in _positions(game, seed, Phase.TURN):
            seat = int(one.current_player[0])
            colours = np.flatnonzero(one.group_size[0, seat] == 1)
            if not colours.size:
                continue
            idx = np.zeros(colours.size, dtype=np.intp)
            seats = np.full(colours.size, seat, dtype=np.intp)
            cover = cards.sections_of(cards.stall_cover(one.hand[idx, seat],
                                                        one.money[idx, seat]))
            got = stalls.move_destinations(one, idx, seats, colours, cover)
            for k, colour in enumerate(colours.tolist()):
                old = int(one.stall_cell[0, seat, colour])
                tile, entrance = one.tile[:1].copy(), one.entrance[:1].copy()
                tile[0, old] = -1
                entrance[0, one.entrance_cell[0, seat, colour]] = -1
                board = Board(tile, entrance, customer_cells(one, idx[:1]))
                stall_cell = one.stall_cell[:1].copy()
                stall_cell[0, seat, colour] = -1
                open_sections = cover[k] & ~stalls.main_stall_sections(stall_cell)[0, :, colour]
                candidates = COLOUR_AREA[colour] & open_sections[SECTION]
                candidates[old] = False
                expected = stalls.stall_directions(board, candidates[None])[0]
                assert np.array_equal(got[k], expected)
                moving += bool(expected.any())
                checked += 1
    assert checked > 100 and 0 < moving < checked


@pytest.mark.parametrize("requires_blocked", [True, False])
def test_turn_moves_are_those_of_the_lifted_boards(requires_blocked):
    """D4's MOVE_c is legal exactly where the stall may move (unexpanded, blocked unless the
    option waives it) and its board with it lifted has a destination in a section the cards
    pay for (``stalls.move_sections``). The mask skips the lifted board where the board as
    it is offers the colour a new stall's cell (lifting only frees cells and a target): the
    two agree on every turn of random games, both ways of finding a move among them."""
    from envs.cairo import legality

    game = CairoGame(3, move_requires_blocked=requires_blocked)
    movable_turns = by_board = by_lifting = 0
    # A blocked stall is rare: more games for it (every unexpanded stall moves otherwise).
    for seed in range(40, 52) if requires_blocked else (40,):
        for one in _positions(game, seed, Phase.TURN):
            seat = int(one.current_player[0])
            movable = one.group_size[0, seat] == 1
            if requires_blocked:
                (expand_sections,) = legality.board_analysis(one, np.zeros(1, dtype=np.intp),
                                                             "expand_sections")
                movable &= expand_sections[0, seat] == 0
            colours = np.flatnonzero(movable)
            cover = cards.stall_cover(one.hand[:1, seat], one.money[:1, seat])[0]
            expected = np.zeros(len(movable), dtype=bool)
            if colours.size and cover:
                idx = np.zeros(colours.size, dtype=np.intp)
                sections = stalls.move_sections(one, idx, np.full(colours.size, seat), colours)
                expected[colours] = (sections & cover) != 0
            got = game.legal_action_mask(one)[0, ACTIONS.MOVE.start:ACTIONS.MOVE.stop]
            assert np.array_equal(got, expected)
            if colours.size:
                movable_turns += 1
                (new_sections,) = legality.board_analysis(one, np.zeros(1, dtype=np.intp),
                                                          "new_sections")
                on_board = expected & ((new_sections[0] & cover) != 0)
                by_board += on_board.any()
                by_lifting += (expected & ~on_board).any()
    assert movable_turns > 30 and by_board > 0 and by_lifting > 0


def test_ending_each_phases_rows_apart_equals_the_steps_one_pass():
    """A step applies every phase's effect and then one end of the step for all rows; the
    effect and the end of the step of each phase's rows apart, phase by phase, give the same
    state (the end of a step is row by row)."""
    from envs.core.decisions import rows_by_phase

    game = CairoGame(2)
    state = game.init(12, seed=5)
    rng = np.random.default_rng(6)
    for _ in range(400):
        mask = game.legal_action_mask(state)
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        live = np.flatnonzero(~state.done)
        by_decision = state.copy()
        for phase, sel in rows_by_phase(state.phase, live):
            game.decisions[phase].apply(by_decision, live[sel], actions[live[sel]])
            game._end_step(by_decision, live[sel])
        game._apply(state, live, actions[live])
        assert by_decision.equals(state)
        game.invalidate(state)


def test_kept_move_analysis_tells_apart_customers_on_different_entrances():
    """A customer lured onto a stall's entrance leaves the set of target cells (customers
    and entrances) as it was, but not the board of a move: lift that stall and its entrance
    is still a target only while the customer stands there. The kept move analysis must
    miss when a customer moves between entrances (it once keyed on the target set alone and
    offered a stale MOVE). Checked on positions of random games: the customer standing on
    one entrance, then on another, each analysis equal to a fresh one."""
    from envs.cairo import legality

    game = CairoGame(3, move_requires_blocked=False)
    checked = 0
    for one in _positions(game, 36, Phase.TURN):
        entrances = np.flatnonzero(one.entrance[0] >= 0)
        on_board = np.flatnonzero(one.customer[0] >= 0)
        if entrances.size < 2 or not on_board.size or one.stage[0] != Stage.MAIN:
            continue
        colour = int(on_board[0])
        before, after = one.copy(), one.copy()
        before.customer[0, colour], after.customer[0, colour] = entrances[:2]
        rows = np.zeros(1, dtype=np.intp)
        legality.move_analysis(before, rows, False)  # kept on ``before``
        key = before.__dict__["_row_memo"]["cairo_moves"].key[0].tobytes()
        before.customer[:] = after.customer  # the customer moves on, as a lure moves it
        kept = legality.move_analysis(before, rows, False)
        fresh = legality.move_analysis(after, rows, False)
        assert before.__dict__["_row_memo"]["cairo_moves"].key[0].tobytes() != key
        assert all(np.array_equal(k, f) for k, f in zip(kept, fresh, strict=True))
        checked += 1
        if checked == 20:
            break
    assert checked == 20
