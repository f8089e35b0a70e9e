"""The rules' answers for many rows at once, for the scripted agents and the tests: each a
compiled loop over rows calling the per-row rule (no second implementation)."""

from __future__ import annotations

import numpy as np

from envs.cairo.board import CELLS_BOARD, cells_of, load
from envs.cairo.data import NUM_CELLS, NUM_COLOURS, NUM_OWNERS, NUM_SECTIONS
from envs.cairo.rules import cards, placement
from envs.cairo.rules.legal import stall_options as _stall_options
from envs.cairo.rules.lure import lure_options as _lure_options
from envs.cairo.state import CairoState
from envs.core.compiled import CompiledGame
from envs.core.jit import local_zeros, njit
from envs.core.stateref import state_ref


@njit
def _stall_options_rows(view, rows, out):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        r = rows[i]
        seat = s.current_player[r]
        _stall_options(s, r, s.hand[r, seat], s.money[r, seat], out[i])


@njit
def _lure_options_rows(view, rows, cells, legal, cost):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        _lure_options(s, rows[i], cells[i], legal[i], cost[i])


@njit
def _growth_codes_rows(view, rows, seats, out):
    s = state_ref(view)
    reach = placement.new_reach()
    cells = local_zeros(NUM_CELLS, np.int64)
    for i in range(rows.shape[0]):
        placement.load_board(s, rows[i], reach)
        for c in range(NUM_COLOURS):
            grow = placement.growth_cells(reach, seats[i], c)
            for j in range(cells_of(grow, cells)):
                out[i, cells[j]] |= 1 << c


@njit
def _board_sections_rows(view, rows, new, expand):
    s = state_ref(view)
    reach = placement.new_reach()
    growth = local_zeros((NUM_COLOURS, 4), np.uint64)
    for i in range(rows.shape[0]):
        r = rows[i]
        placement.load_board(s, r, reach)
        placement.growth_boards(reach, s.current_player[r], growth)
        placement.analyse(reach, load(CELLS_BOARD))
        placement.new_sections(s, r, reach, new[i])
        placement.expand_sections(reach, growth, expand[i])


@njit
def _move_sections_rows(view, rows, seats, colours, out):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        out[i] = placement.move_sections(s, rows[i], seats[i], colours[i],
                                         placement.ALL_SECTIONS)


@njit
def _joker_sections_rows(hands, out):
    for i in range(hands.shape[0]):
        sections = cards.joker_sections(hands[i])
        for section in range(NUM_SECTIONS):
            out[i, section] = sections >> section & 1 == 1


def stall_options(game: CompiledGame, state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 182, 4) bool: D2 and D3 of ``rows``, the legal (cell, direction) of the pending
    stall for the acting seat (``legal.stall_options``)."""
    rows = np.asarray(rows, dtype=np.int64)
    out = np.zeros((rows.size, NUM_CELLS, 4), dtype=bool)
    _stall_options_rows(game.view(state), rows, out)
    return out


def lure_options(game: CompiledGame, state: CairoState, rows: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``lure.lure_options`` of ``rows``: the candidate entrance of each owner slot (R, 5)
    (-1 none), whether it is a legal target (R, 5) bool, and its barker cost (R, 5)."""
    rows = np.asarray(rows, dtype=np.int64)
    cells = np.zeros((rows.size, NUM_OWNERS), dtype=np.int64)
    legal = np.zeros((rows.size, NUM_OWNERS), dtype=bool)
    cost = np.zeros((rows.size, NUM_OWNERS), dtype=np.int64)
    _lure_options_rows(game.view(state), rows, cells, legal, cost)
    return cells, legal, cost


def growth_codes(game: CompiledGame, state: CairoState, rows: np.ndarray,
                 seats: np.ndarray) -> np.ndarray:
    """(R, 182) uint8 colour sets: the colours whose group of the seat may grow onto each
    cell by §5.4 preconditions 2–4 (``placement.growth_colours``; reachability aside)."""
    rows = np.asarray(rows, dtype=np.int64)
    out = np.zeros((rows.size, NUM_CELLS), dtype=np.uint8)
    _growth_codes_rows(game.view(state), rows, np.asarray(seats, dtype=np.int64), out)
    return out


def board_sections(game: CompiledGame, state: CairoState, rows: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The board's part of D4 in ``rows``, cards aside, as 9-bit section sets per colour:
    (R, 6) where a new stall of the colour may stand (``placement.new_sections``) and (R, 6)
    where the acting seat's group of the colour may grow (``placement.expand_sections``)."""
    rows = np.asarray(rows, dtype=np.int64)
    new = np.zeros((rows.size, NUM_COLOURS), dtype=np.int64)
    expand = np.zeros((rows.size, NUM_COLOURS), dtype=np.int64)
    _board_sections_rows(game.view(state), rows, new, expand)
    return new, expand


def move_sections(game: CompiledGame, state: CairoState, rows: np.ndarray, seats: np.ndarray,
                  colours: np.ndarray) -> np.ndarray:
    """(R,) int64 9-bit sets: the sections holding a legal destination of each seat's stall
    of the colour, whatever the cards (``placement.move_sections``)."""
    rows = np.asarray(rows, dtype=np.int64)
    out = np.zeros(rows.size, dtype=np.int64)
    _move_sections_rows(game.view(state), rows, np.asarray(seats, dtype=np.int64),
                        np.asarray(colours, dtype=np.int64), out)
    return out


def joker_sections(hands: np.ndarray) -> np.ndarray:
    """(R, 9) bool: the sections some joker in each hand (R, 15) covers."""
    out = np.zeros((hands.shape[0], NUM_SECTIONS), dtype=bool)
    _joker_sections_rows(np.ascontiguousarray(hands), out)
    return out
