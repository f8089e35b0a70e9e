"""The one-row paths of the rules (scalar indexing at B = 1) against the batched ones."""

from __future__ import annotations

import numpy as np
import pytest

from envs.cairo import CairoGame, legality
from envs.cairo.data import NUM_CELLS, cell
from envs.cairo.state import ACTIONS, Phase
from envs.core.game import Game


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
    """Copies of the one-row states of a random game that ask decision ``phase``, each with a
    two-row batch of the same position."""
    rng = np.random.default_rng(seed)
    state = game.init(1, seed=seed)
    while not state.done[0]:
        mask = game.legal_action_mask(state)
        if state.phase[0] == phase:
            yield state.copy(), state.take(np.array([0, 0]))
        legal = np.flatnonzero(mask[0])
        game.step(state, legal[int(rng.random() * legal.size)].reshape(1))


@pytest.mark.parametrize("move_requires_blocked", [True, False])
def test_one_row_turn_mask_matches_the_batched_one(move_requires_blocked):
    """D4 of one row (Python-int bitboards) equals the batched analysis of the same position,
    and so do the cell masks of the build it leads to, which read what each analysis kept."""
    game = CairoGame(3, move_requires_blocked=move_requires_blocked)
    checked = builds = 0
    for one, two in _positions(game, 5, Phase.TURN):
        one_mask = game.legal_action_mask(one)
        two_mask = game.legal_action_mask(two)
        assert np.array_equal(one_mask[0], two_mask[0])
        assert np.array_equal(two_mask[0], two_mask[1])
        for action in np.flatnonzero(one_mask[0, : ACTIONS.LURE.start])[:2].tolist():
            one_build, two_build = one.copy(), two.copy()
            game.step(one_build, np.array([action]))
            game.step(two_build, np.array([action, action]))
            build_mask = game.legal_action_mask(two_build)
            assert np.array_equal(game.legal_action_mask(one_build)[0], build_mask[0])
            assert np.array_equal(build_mask[0], build_mask[1])
            builds += 1
        checked += 1
    assert checked > 100 and builds > 50


def test_one_row_lure_options_match_the_batched_ones():
    """The D10 options of one row (plain-bytes cache, Python-int distances) equal the batched
    ones, on the mask's call and on the step's cached one."""
    checked = 0
    for one, two in _positions(CairoGame(4), 9, Phase.LURE_TARGET):
        batched = legality.lure_options(two, np.arange(2))
        for _ in range(2):
            for mine, theirs in zip(legality.lure_options(one, np.zeros(1, dtype=np.intp)),
                                    batched, strict=True):
                assert np.array_equal(mine[0], theirs[0])
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("players", [2, 4])
def test_one_row_draw_step_matches_the_batched_one(players):
    """Every legal D11 choice of one row (scalar draws, display refill and reshuffles) leaves
    the state a batch row leaves with the same choice."""
    game = CairoGame(players)
    checked = 0
    for one, two in _positions(game, 11, Phase.DRAW_SOURCE):
        for action in np.flatnonzero(game.legal_action_mask(one)[0]):
            single, batch = one.copy(), two.copy()
            game.step(single, np.array([action]))
            game.step(batch, np.array([action, action]))
            assert single.equals(batch.take(0))
            checked += 1
    assert checked > 100


def test_cached_analyses_match_fresh_ones_across_row_resets():
    """The per-row analyses kept across turns (reachability verdicts, turn and lure options)
    and across ``put`` + ``forget_rows`` give every step the mask and observation that a state
    with no cache gives."""
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
    assert len(Game.state_cache(state)) > 0, "the row-checked caches survive forget_rows"


def test_steps_with_what_their_masks_handed_on_match_steps_of_fresh_states():
    """A step applies what its mask left in ``Game.scratch`` (lure and stall options, checked
    summaries), also when rows were replaced between the mask and the step: each step equals
    the same step of a copy with no cache and no scratch."""
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


def test_moves_on_int_bitboards_match_the_board_with_the_stall_lifted():
    """``move_destinations`` (per stall on Python-int bitboards) equals ``Board.stall_directions``
    on the board with the stall and its entrance taken off, and ``can_move`` says whether it
    holds anything, for every single-tile group of the acting seat along random games."""
    game = CairoGame(3)
    checked = moving = 0
    for seed in range(31, 35):
        for one, _ in _positions(game, seed, Phase.TURN):
            seat = int(one.current_player[0])
            colours = np.flatnonzero(one.group_size[0, seat] == 1)
            if not colours.size:
                continue
            idx = np.zeros(colours.size, dtype=np.intp)
            seats = np.full(colours.size, seat, dtype=np.intp)
            cover = legality.coverage(one.hand[idx, seat], one.money[idx, seat].sum(axis=1) >= 1)
            got = legality.move_destinations(one, idx, seats, colours, cover)
            for k, colour in enumerate(colours.tolist()):
                old = int(one.stall_cell[0, seat, colour])
                tile, entrance = one.tile[:1].copy(), one.entrance[:1].copy()
                tile[0, old] = -1
                entrance[0, one.entrance_cell[0, seat, colour]] = -1
                board = legality.Board(tile, entrance, legality.customer_cells(one, idx[:1]))
                stalls = one.stall_cell[:1].copy()
                stalls[0, seat, colour] = -1
                open_sections = cover[k] & ~legality.main_stall_sections(stalls)[0, :, colour]
                candidates = legality._AREA[colour] & open_sections[legality.SECTION]
                candidates[old] = False
                expected = board.stall_directions(candidates[None])[0]
                assert np.array_equal(got[k], expected)
                moving += bool(expected.any())
                checked += 1
            assert legality.can_move(one, idx, seats, colours, cover) == [
                bool(g.any()) for g in got]
    assert checked > 100 and 0 < moving < checked


def test_start_board_shortcut_holds_only_on_the_start_board():
    """The stall analysis made once for the board every game starts on equals a fresh one
    there, and a board without tiles whose customers stand elsewhere (a hand-built position)
    gets a fresh analysis of its own, at B = 1 and in a batch."""
    game = CairoGame(3)
    for moved in (False, True):
        state = game.init(2, seed=5)
        if moved:  # the customer on the centre start cell (6, 5) stands on (6, 7) instead
            state.customer[state.customer == cell(6, 5)] = cell(6, 7)
        idx = np.arange(2)
        everywhere = np.ones((2, NUM_CELLS), dtype=bool)
        fresh = legality.board_of(state, idx).stall_directions(everywhere)
        assert np.array_equal(legality._stall_directions(state.copy(), idx, everywhere), fresh)
        one = state.take(np.array([0]))
        assert np.array_equal(legality.place_colour_mask(one, np.zeros(1, dtype=np.intp)),
                              legality.place_colour_mask(state.copy(), idx)[:1])
