"""Cargo stacking and visibility (§2.3): the closed form against the cell model."""

from __future__ import annotations

import numpy as np
from junk_helpers import J, Position

from envs.junk import JunkGame
from envs.junk.data import MAX_LAYERS, NUM_JUNKS
from envs.junk.invariants import cell_model_vis
from envs.junk.rules import hold, queries


def test_closed_form_matches_the_cell_model_on_random_holds():
    """Random placements and top-layer removals on a batch of holds: after every change the
    kept ``vis`` (closed form) equals the crate-by-crate count of the cell model, and the
    kept layer counts equal the cargo's."""
    game = JunkGame(4)
    state = game.init(64, seed=3)
    rng = np.random.default_rng(0)
    rows = np.arange(64)
    checked = 0
    for _ in range(120):
        junks = rng.integers(0, NUM_JUNKS, 64)
        seats = rng.integers(0, 4, 64).astype(np.int32)
        owns_top = queries.top_layer_owner(state, rows, seats)[rows, junks]
        remove = owns_top & (rng.random(64) < 0.35)
        full = state.height[rows, junks] >= MAX_LAYERS - 2
        place = ~remove & ~full
        if remove.any():
            queries.remove_top(game, state, rows[remove], junks[remove], seats[remove])
        if place.any():
            queries.place(game, state, rows[place], junks[place], seats[place])
        np.testing.assert_array_equal(cell_model_vis(state.cargo, 4), state.vis)
        height, layers, _, _ = hold.derived_from_cargo(state.cargo, 4)
        np.testing.assert_array_equal(height, state.height)
        np.testing.assert_array_equal(layers, state.layers)
        checked += 64
    assert checked and (state.height >= 3).any()
    for r in range(3):  # the one-hold reference model agrees too
        for j in range(NUM_JUNKS):
            assert hold.cell_visible(state.cargo[r, j], int(state.height[r, j]), 4).tolist() == (
                state.vis[r, j].tolist())


def test_second_strip_of_a_load_starts_a_new_rotated_layer():
    """A LOAD of 2 onto a layer with one empty slot: the first strip completes it, the
    second lies across it in the next layer (column 0), covering one crate of each."""
    p = Position(4).at_round(1).hold("PURPLE", "12.")  # LOAD merchant on PURPLE
    p.play("MAIN_MERCHANT_LOAD")
    s = p.state
    assert s.cargo[0, J["PURPLE"], 0].tolist() == [1, 2, 0]
    assert s.cargo[0, J["PURPLE"], 1].tolist() == [0, -1, -1]
    assert p.vis("PURPLE") == [3 + 2, 2, 2, 0]
    assert hold.cell_visible(s.cargo[0, J["PURPLE"]], 1, 4).tolist() == [5, 2, 2, 0]


def test_removed_strip_uncovers_a_layer_and_the_gap_fills_first():
    """A strip moved off a one-strip top layer uncovers the full layer below; a later
    strip goes into the gap a removal leaves in a top layer."""
    p = Position(4).empty_holds().hold("GREY", "012", "3..").give(3, "MOVE_STRIP")
    assert p.vis("GREY") == [2, 2, 2, 3]
    p.phase2_turn(3).play("MOVE_STRIP_GREY_WHITE")
    assert p.vis("GREY") == [3, 3, 3, 0] and p.state.height[0, J["GREY"]] == 0
    p = Position(4).empty_holds().hold("GREY", "012", "33.").give(3, "MOVE_STRIP")
    p.phase2_turn(3).play("MOVE_STRIP_GREY_WHITE")
    s = p.state
    assert s.cargo[0, J["GREY"], 1].tolist() == [3, -1, -1]  # the highest slot went
    rows = np.zeros(1, dtype=np.intp)
    queries.place(p.game, s, rows, np.array([J["GREY"]]), np.array([1]))
    s.strips[0, 1] -= 1
    assert s.cargo[0, J["GREY"], 1].tolist() == [3, 1, -1]
    p.check()


def test_only_top_layer_strips_may_move():
    """FAQ Q5: only a fully visible strip (in the top layer) may be moved: the mask offers
    MOVE_STRIP from a junk only where the seat owns a strip in its top layer."""
    p = Position(4).empty_holds().hold("GREY", "000", "1..").hold("ORANGE", "01.")
    p.give(0, "MOVE_STRIP")
    sources = {a.split("_")[2] for a in p.legal() if a.startswith("MOVE_STRIP")}
    assert sources == {"ORANGE"}  # GREY's three seat-0 strips are covered by seat 1's
    targets = {a.split("_")[3] for a in p.legal() if a.startswith("MOVE_STRIP_ORANGE")}
    assert targets == {"GREY", "PURPLE", "BROWN", "WHITE"}
