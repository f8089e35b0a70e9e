"""Phase 2 (§5.3): one turn per seat, with an EXTRA card before or after the main action.

P2_MAIN offers the main actions (a merchant, or a helper on one of the two merchant-free
junks) and the EXTRA actions of the cards the seat holds; DONE only when no main action is
legal. P2_AFTER is entered through the public gate (no EXTRA card played this round and a
face-down card held) and offers the EXTRA actions and DONE. A goods action on the grey junk
goes on to GREY_TYPE, which returns to where it came from (``grey_from_extra`` and
``main_done``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.junk import cards, hold
from envs.junk.data import (
    GOODS_ANY,
    GOODS_OF_JUNK,
    GREY,
    HELPER_TRACK,
    K_GOODS,
    K_LOAD,
    K_MONEY,
    LOAD_ONE,
    M_GOODS,
    M_LOAD,
    M_MONEY,
    MAX_HELPERS,
    MERCHANT_LOAD_SIZE,
    MINIMUM_TAKE,
    MONEY_AT,
    MOVE_STRIP,
    NUM_GOODS,
    NUM_JUNKS,
)
from envs.junk.state import ACTIONS, MOVE_DST, MOVE_SRC, PHASE, A, JunkState

if TYPE_CHECKING:
    from envs.junk.game import JunkGame

NUM_MAIN = A.LOAD_ONE  # MAIN_MERCHANT (3) and MAIN_HELPER (10) actions: 0..12
NUM_TURN = A.GOODS  # every action of a Phase-2 turn but DONE: 0..47
# Kind and junk of each EXTRA action (13..47): the card type it plays.
_EXTRA_TYPE = np.concatenate([np.full(5, LOAD_ONE), np.full(5, GOODS_ANY),
                              MONEY_AT + np.arange(NUM_JUNKS), np.full(20, MOVE_STRIP)])


def merchant_free(state: JunkState, rows: np.ndarray) -> np.ndarray:
    """(R, 5) bool: the junks no merchant stands on (used or not, §8 #30)."""
    free = np.ones((rows.size, NUM_JUNKS), dtype=bool)
    free[np.arange(rows.size)[:, None], state.merchant_junk[rows]] = False
    return free


def _needs_strips() -> np.ndarray:
    """(11, 5) bool per round (0 = setup): the figures whose action loads strips (the LOAD
    merchant, and a helper on a LOAD space)."""
    table = np.zeros((11, 3 + MAX_HELPERS), dtype=bool)
    table[:, M_LOAD] = True
    table[1:, 3:] = (HELPER_TRACK[:, :, 0] == K_LOAD).T
    return table


_NEEDS_STRIPS = _needs_strips()
_JUNK_CHOICES = np.array([1, 1, 1, NUM_JUNKS - 3, NUM_JUNKS - 3])  # helpers: 2 free junks


def open_figures(state: JunkState, rows: np.ndarray) -> np.ndarray:
    """(R, 5) bool: the figures the seat to act may take this turn (public data only)."""
    players = state.vis.shape[2]
    loads = state.strips[rows, state.current_player[rows]] > 0
    open_ = ~state.fig_used[rows] & (loads[:, None] | ~_NEEDS_STRIPS[state.round[rows]])
    open_[:, players + 1:] = False  # the upper helper plays with 4 seats only
    return open_


def main_mask(state: JunkState, rows: np.ndarray) -> np.ndarray:
    """(R, 13) bool: the legal MAIN_MERCHANT and MAIN_HELPER actions (public data only)."""
    figures = open_figures(state, rows)
    mask = np.empty((rows.size, NUM_MAIN), dtype=bool)
    mask[:, :3] = figures[:, :3]
    helpers = figures[:, 3:, None] & merchant_free(state, rows)[:, None, :]
    mask[:, 3:] = helpers.reshape(rows.size, -1)
    return mask


def _extra_mask(state: JunkState, rows: np.ndarray, mask: np.ndarray) -> None:
    """Write the legal EXTRA actions (13..47) of the seat to act into ``mask`` (R, 161)."""
    seats = state.current_player[rows]
    can = ~state.extra_used[rows, seats] & (state.hidden[rows, seats] > 0)
    if not can.any():  # no EXTRA card can be played (often: no face-down card at all)
        return
    held = state.held[rows, seats] > 0  # (R, 21)
    mask[:, A.LOAD_ONE:A.GOODS_ANY] = (can & held[:, LOAD_ONE]
                                       & (state.strips[rows, seats] > 0))[:, None]
    mask[:, A.GOODS_ANY:A.MONEY_AT] = (can & held[:, GOODS_ANY])[:, None]
    mask[:, A.MONEY_AT:A.MOVE_STRIP] = can[:, None] & held[:, MONEY_AT:MONEY_AT + NUM_JUNKS]
    movable = hold.top_layer_owner(state, rows, seats)  # (R, 5)
    mask[:, A.MOVE_STRIP:A.GOODS] = (can & held[:, MOVE_STRIP])[:, None] & movable[:, MOVE_SRC]


def legal_main(state: JunkState, rows: np.ndarray) -> np.ndarray:
    mask = np.zeros((rows.size, ACTIONS.size), dtype=bool)
    main = main_mask(state, rows)
    mask[:, :NUM_MAIN] = main
    _extra_mask(state, rows, mask)
    mask[:, A.DONE] = ~main.any(axis=1)
    return mask


def legal_after(state: JunkState, rows: np.ndarray) -> np.ndarray:
    mask = np.zeros((rows.size, ACTIONS.size), dtype=bool)
    _extra_mask(state, rows, mask)
    mask[:, A.DONE] = True
    return mask


def forced_main(state: JunkState, rows: np.ndarray) -> np.ndarray:
    """§5.0: no EXTRA card can be played on public data (one played already, or no
    face-down card) and at most one main action is legal."""
    seats = state.current_player[rows]
    no_extra = state.extra_used[rows, seats] | (state.hidden[rows, seats] == 0)
    return no_extra & (open_figures(state, rows) @ _JUNK_CHOICES <= 1)


# ---------------------------------------------------------------- effects
def _load(state: JunkState, rows: np.ndarray, seats: np.ndarray, junks: np.ndarray,
          size: np.ndarray) -> None:
    """Place ``min(size, strips)`` own strips on the junks, one after the other."""
    size = np.minimum(size, state.strips[rows, seats])
    for k in range(MERCHANT_LOAD_SIZE):
        sel = (size > k).nonzero()[0]
        if sel.size:
            hold.place(state, rows[sel], junks[sel], seats[sel])
            state.strips[rows[sel], seats[sel]] -= 1


def _count(state: JunkState, rows: np.ndarray, seats: np.ndarray,
           junks: np.ndarray) -> np.ndarray:
    """Own visible crates on the junks, at least 3 (§5.3)."""
    return np.maximum(state.vis[rows, junks, seats], MINIMUM_TAKE)


def _money(state: JunkState, rows: np.ndarray, seats: np.ndarray, junks: np.ndarray) -> None:
    state.money[rows, seats] += _count(state, rows, seats, junks)


def _goods(game: JunkGame, state: JunkState, rows: np.ndarray, seats: np.ndarray,
           junks: np.ndarray) -> np.ndarray:
    """A goods action; returns the selector of the rows that go on to GREY_TYPE."""
    owed = _count(state, rows, seats, junks)
    grey = junks == GREY
    coloured = (~grey).nonzero()[0]
    if coloured.size:  # a short stack gives what it has (§8 #8)
        r = rows[coloured]
        goods = GOODS_OF_JUNK[junks[coloured]].astype(np.intp)
        game.gain(state, r, seats[coloured], goods,
                  np.minimum(owed[coloured], state.stack[r, goods]))
    to_grey = grey & (state.stack[rows] > 0).any(axis=1)
    state.goods_left[rows[to_grey]] = owed[to_grey]
    return to_grey


def _act(game: JunkGame, state: JunkState, rows: np.ndarray, seats: np.ndarray,
         kinds: np.ndarray, junks: np.ndarray, size: np.ndarray) -> np.ndarray:
    """The LOAD, MONEY or GOODS action ``kinds`` on ``junks``; returns the GREY_TYPE rows'
    selector."""
    grey = np.zeros(rows.size, dtype=bool)
    for kind in sorted(set(kinds.tolist()) - {-1}):  # LOAD, MONEY, GOODS as present
        sel = (kinds == kind).nonzero()[0]
        if kind == K_LOAD:
            _load(state, rows[sel], seats[sel], junks[sel], size[sel])
        elif kind == K_MONEY:
            _money(state, rows[sel], seats[sel], junks[sel])
        else:
            grey[sel] = _goods(game, state, rows[sel], seats[sel], junks[sel])
    return grey


_MERCHANT_KIND = np.array([K_LOAD, K_MONEY, K_GOODS], dtype=np.int8)


def _main(game: JunkGame, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
    """A MAIN_MERCHANT or MAIN_HELPER action, then GREY_TYPE or the P2_AFTER gate."""
    seats = state.current_player[rows]
    merchant = actions < A.MAIN_HELPER
    helper = np.where(merchant, 0, (actions - A.MAIN_HELPER) // NUM_JUNKS)
    figure = np.where(merchant, actions, 3 + helper)
    space = HELPER_TRACK[helper, state.round[rows] - 1]  # (R, 2) kind, size
    which = np.minimum(actions, 2)
    kinds = np.where(merchant, _MERCHANT_KIND[which], space[:, 0])
    junks = np.where(merchant, state.merchant_junk[rows, which],
                     (actions - A.MAIN_HELPER) % NUM_JUNKS).astype(np.intp)
    size = np.where(merchant, MERCHANT_LOAD_SIZE, space[:, 1])
    state.fig_used[rows, figure] = True
    state.main_done[rows] = True
    grey = _act(game, state, rows, seats, kinds, junks, size)
    state.phase[rows[grey]] = PHASE.GREY_TYPE
    game.after_main(state, rows[~grey])


def _extra(game: JunkGame, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
    """An EXTRA card and its target; then back to P2_MAIN, or the end of the turn after the
    main action, or GREY_TYPE."""
    seats = state.current_player[rows]
    offset = actions - A.LOAD_ONE
    kinds = np.full(rows.size, K_MONEY, dtype=np.int8)
    kinds[offset < 5] = K_LOAD
    kinds[(offset >= 5) & (offset < 10)] = K_GOODS
    junks = (offset % NUM_JUNKS).astype(np.intp)
    move = (actions >= A.MOVE_STRIP).nonzero()[0]
    if move.size:
        pair = actions[move] - A.MOVE_STRIP
        hold.remove_top(state, rows[move], MOVE_SRC[pair], seats[move])
        hold.place(state, rows[move], MOVE_DST[pair], seats[move])
        kinds[move] = -1
    cards.play_extra(state, rows, seats, _EXTRA_TYPE[offset])
    grey = _act(game, state, rows, seats, kinds, junks, np.ones(rows.size, dtype=np.int8))
    state.grey_from_extra[rows[grey]] = True
    state.phase[rows[grey]] = PHASE.GREY_TYPE
    back = rows[~grey]
    done = state.main_done[back]
    state.phase[back[~done]] = PHASE.P2_MAIN
    game.end_turn(state, back[done])


def apply_turn(game: JunkGame, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
    """P2_MAIN and P2_AFTER: a main action, an EXTRA action, or DONE (ends the turn)."""
    main = actions < NUM_MAIN
    extra = (actions >= NUM_MAIN) & (actions < NUM_TURN)
    if main.any():
        _main(game, state, rows[main], actions[main])
    if extra.any():
        _extra(game, state, rows[extra], actions[extra])
    game.end_turn(state, rows[actions == A.DONE])


def apply_grey(game: JunkGame, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
    """GREY_TYPE: take what is owed of the chosen type, up to its stack (§5.3, §8 #9); go on
    while goods are owed and a stack is left, then return where the chain came from."""
    goods = actions - A.GOODS
    take = np.minimum(state.goods_left[rows], state.stack[rows, goods])
    game.gain(state, rows, state.current_player[rows], goods, take)
    state.goods_left[rows] -= take
    done = (state.goods_left[rows] == 0) | ~(state.stack[rows] > 0).any(axis=1)
    rows = rows[done]
    state.goods_left[rows] = 0
    from_extra, main_done = state.grey_from_extra[rows], state.main_done[rows]
    state.grey_from_extra[rows] = False
    state.phase[rows[from_extra & ~main_done]] = PHASE.P2_MAIN
    game.after_main(state, rows[~from_extra])
    game.end_turn(state, rows[from_extra & main_done])


assert NUM_GOODS == 4 and MAX_HELPERS == 2 and M_MONEY == 1 and M_GOODS == 2
