"""The rules spec's invariants (§10) that can be checked on a state, for every row at once.

Checked: cards (every location, 22 per company, the hidden split of each hand), coins,
tiles (one place each, the block structure, the route word), crates, merchants, the reveal
structure, seals, pirates, card play, gold, turns and seats, the auction, masks (a legal
action in every live row) and forced decisions (no asked decision meets its automatic
test). The history invariants (positions never decrease, gold never decreases, one reveal a
move, every automatic action the only legal one) are checked by the rules tests and by
core's forced-decision loop, which refuses a forced decision with more than one legal action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.batavia.data import (
    BLOCK,
    CARDS_PER_COMPANY,
    CRATES,
    GOAL_SPACE,
    MAX_ROUNDS,
    NUM_BLOCKS,
    NUM_CARDS,
    NUM_COMPANIES,
    NUM_SPACES,
    NUM_TILES,
    OPEN_AT_START,
    START_COINS,
    TILE_COMPANY,
)
from envs.batavia.observation import MAX_GOLD
from envs.batavia.rules import queries
from envs.batavia.state import BataviaState, Phase
from envs.core.invariants import InvariantReport

if TYPE_CHECKING:
    from envs.batavia.game import BataviaGame

_SPACES = np.arange(1, NUM_SPACES + 1)


def check_invariants(game: BataviaGame, state: BataviaState) -> list[str]:
    """Violations as ``"row r: what"`` messages (at most a few rows each); empty if none."""
    checks: list[tuple[str, np.ndarray]] = []
    checks += _cards(state)
    checks += _tiles(state)
    checks += _board(game, state)
    checks += _flow(game, state)
    report = InvariantReport(state.batch_size)
    for what, bad in checks:
        report.fail(what, bad)
    return report.messages()


def _cards(state: BataviaState) -> list[tuple[str, np.ndarray]]:
    players = state.hand.shape[1]
    size = state.deck_size.astype(np.intp)
    in_pile = np.arange(NUM_CARDS)[None, :] < size[:, None]
    pile = ((state.deck[:, :, None] == np.arange(NUM_COMPANIES)) & in_pile[:, :, None]).sum(1)
    total = (state.hand.sum(axis=1, dtype=np.int64) + state.display.sum(axis=1)
             + pile + state.discard + state.lot)
    split = state.known.astype(np.int64) + state.unknown.sum(axis=2)
    return [
        ("cards per company != 22", (total != CARDS_PER_COMPANY).any(axis=1)),
        ("draw pile holds a non-card or a card beyond its size",
         (in_pile & ((state.deck < 0) | (state.deck >= NUM_COMPANIES))).any(axis=1)
         | (~in_pile & (state.deck != -1)).any(axis=1)),
        ("a negative hand, display, lot or discard count",
         (state.hand < 0).any(axis=(1, 2)) | (state.display < 0).any(axis=(1, 2))
         | (state.lot < 0).any(axis=1) | (state.discard < 0).any(axis=1)),
        ("known cards and the hidden split do not add up to the hand",
         (split != state.hand).any(axis=(1, 2)) | (state.unknown < 0).any(axis=(1, 2, 3))),
        ("coins do not sum to 15 N or are negative",
         (state.coins.sum(axis=1) != START_COINS * players) | (state.coins < 0).any(axis=1)),
        ("exchange gold outside 0..105",
         (state.gold < 0).any(axis=1) | (state.gold > MAX_GOLD).any(axis=1)),
        ("the pile's generation slot does not hold the current generation",
         np.take_along_axis(state.gen_id, state.pile_slot[:, None].astype(np.intp), 1)[:, 0]
         != state.generation),
    ]


def _tiles(state: BataviaState) -> list[tuple[str, np.ndarray]]:
    players = state.hand.shape[1]
    space = state.tile_space.astype(np.intp)
    on_route = np.take_along_axis(state.route, np.clip(space - 1, 0, NUM_SPACES - 1),
                                  axis=1) == np.arange(NUM_TILES)
    taken = state.taken_by >= 0
    held = taken & ~state.exchanged
    seats = np.arange(players)
    mine = (state.taken_by[:, None, :] == seats[:, None]) & ~state.exchanged[:, None, :]
    posts = (mine[:, :, :, None] & (TILE_COMPANY[:, None] == np.arange(NUM_COMPANIES))).sum(2)
    block = (space - 1) // BLOCK
    per_block = ((block[:, :, None] == np.arange(NUM_BLOCKS)) & (space[:, :, None] >= 1)).reshape(
        -1, NUM_COMPANIES, 7, NUM_BLOCKS).sum(axis=2)  # (B, company, block)
    word = queries.route_words(state.route)
    return [
        ("a tile is in no place or in two (route, held, exchanged)",
         (on_route == taken).any(axis=1) | (state.exchanged & ~taken).any(axis=1)),
        ("a route space holds a tile not laid there",
         ((state.route >= 0) & (np.take_along_axis(state.tile_space,
                                                   np.maximum(state.route, 0).astype(np.intp),
                                                   axis=1) != _SPACES)).any(axis=1)),
        ("a block does not hold one tile of each company", (per_block != 1).any(axis=(1, 2))),
        ("posts held per company disagree with the tiles", (posts != state.posts).any((1, 2))),
        ("the route word of a company disagrees with the route", (word != state.remaining).any(1)),
        ("posts held + exchanged + on route != 35",
         held.sum(axis=1) + state.exchanged.sum(axis=1) + on_route.sum(axis=1) != NUM_TILES),
    ]


def _board(game: BataviaGame, state: BataviaState) -> list[tuple[str, np.ndarray]]:
    players = game.num_players
    seats = np.arange(players)
    placed = (state.warehouse[:, None] == seats[:, None, None]).sum(axis=(2, 3))
    took = (state.taken_by[:, None, :] == seats[:, None]).sum(axis=2)
    owner = state.warehouse.transpose(0, 2, 1).reshape(-1, NUM_TILES)  # by tile id 7c + g
    pos = state.pos.astype(np.int64)
    same = (pos[:, :, None] == pos[:, None, :]) & ~np.eye(players, dtype=bool)
    shared = (same & (pos[:, :, None] > 0)).any(axis=(1, 2))
    on_route = (pos >= 1) & (pos <= NUM_SPACES)
    laid = state.tile_space[:, None, :] == pos[:, :, None]  # (B, P, 35) the tile of the space
    taker = np.where(laid, state.taken_by[:, None, :], -9).max(axis=2)
    opened = state.open.astype(np.int64)
    standard = game.options["variant"] == "standard"
    steps_ok = (opened >= OPEN_AT_START) & (opened <= NUM_SPACES) & (opened % BLOCK == 0)
    closed = opened < NUM_SPACES
    in_last = ((pos >= (opened - BLOCK + 1)[:, None]) & (pos <= opened[:, None])).any(axis=1)
    last_block = ((opened - BLOCK + 1)[:, None] <= _SPACES) & (opened[:, None] >= _SPACES)
    beyond = opened[:, None] < _SPACES
    whole = ((state.route >= 0) | ~last_block).all(axis=1) & (
        (state.route >= 0) | ~beyond).all(axis=1)
    display = state.display
    top = display.max(axis=1)
    sole = ((display == top[:, None, :]).sum(axis=1) == 1) & (top > 0)
    seal = np.where(sole, np.argmax(display, axis=1), -1)
    goal_here = (pos == GOAL_SPACE).sum(axis=1)
    return [
        ("placed crates + supply != 12 or more crates than posts taken",
         (placed + state.crates != CRATES).any(axis=1) | (placed > took).any(axis=1)),
        ("a crate on a square whose tile its owner did not take",
         ((owner >= 0) & (owner != state.taken_by)).any(axis=1)),
        ("two merchants share a space other than the start", shared),
        ("a merchant stands on a space whose tile it did not take or beyond the open ones",
         (on_route & ((taker != seats) | (pos > opened[:, None]))).any(axis=1)),
        ("the goal holder and the merchant on the goal disagree",
         (goal_here != (state.goal_holder >= 0)) | ((state.goal_holder >= 0) & (
             np.take_along_axis(pos, np.maximum(state.goal_holder, 0)[:, None].astype(
                 np.intp), axis=1)[:, 0] != GOAL_SPACE)) | (state.final != (
                     state.goal_holder >= 0))),
        ("the reveal structure is broken (open spaces, last open block, face-down spaces)",
         ~steps_ok | (closed & (in_last | ~whole)) | ((opened != NUM_SPACES) & (not standard))),
        ("seals, top counts, cubes or the cannon disagree with the displays",
         (seal != state.seal).any(axis=1) | (top != state.top).any(axis=1)
         | (display.sum(axis=1) != state.cubes).any(axis=1)
         | (display.sum(axis=(1, 2)) != state.cannon)),
    ]


def _flow(game: BataviaGame, state: BataviaState) -> list[tuple[str, np.ndarray]]:
    players = game.num_players
    phase = state.phase
    live = ~state.done
    asking = (phase == Phase.TURN_START) | (phase == Phase.AUCTION_BID)
    turn_seat = (state.ship.astype(np.int64) + state.turn) % players
    in_turn = live & (phase != Phase.AUCTION_BID)
    auction = live & (phase == Phase.AUCTION_BID)
    bidder = np.maximum(state.current_player, 0).astype(np.intp)
    high = np.maximum(state.high_bidder, 0).astype(np.intp)
    rows = np.arange(state.batch_size)
    mask = game.legal_action_mask(state)
    forced = np.zeros(state.batch_size, dtype=bool)
    live_rows = np.flatnonzero(live)
    forced[live_rows] = game.forced_rows(state, live_rows)
    return [
        ("the pirate threshold is reached at a bid or a turn start",
         live & asking & (state.cannon >= game.threshold)),
        ("cards counted as played outside a play, or a play without a card",
         (live & (phase == Phase.PLAYING) & (state.played.sum(axis=1) < 1))
         | (asking & state.played.any(axis=1))),
        ("the phase and the end of the game disagree",
         (phase == Phase.GAME_OVER) != state.done),
        ("the seat to act is not the turn's seat",
         in_turn & ((state.current_player != turn_seat) | (state.turn >= players))),
        ("the auction asks a seat that passed, or a bid outside the bidder's coins",
         auction & (state.passed[rows, bidder] | (state.turn != 0) | ~state.lot.any(axis=1)
                    | ((state.high_bidder >= 0) & ((state.high_bid < 1) | (
                        state.high_bid > state.coins[rows, high]))))),
        ("the round is outside 1..100", (state.round < 1) | (state.round > MAX_ROUNDS)),
        ("a live row has no legal action", live & ~mask.any(axis=1)),
        ("an asked decision meets its automatic test (§9.3)", forced),
    ]
