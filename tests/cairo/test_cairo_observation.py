"""The observation reads as its layout documents it (docs/cairo.md is generated from it)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from envs.cairo import CairoGame
from envs.cairo.data import COLOUR_NAMES, NEUTRAL, NUM_COLOURS, WIDTH
from envs.cairo.observation import RECIPROCAL_SCALES, observation_layout, observe_row
from envs.cairo.state import View


def test_the_observation_guide_runs():
    """The decoding snippet of the generated page runs as printed and finds seat 0's money."""
    code = re.search(r"```python\n(.*?)```", observation_layout(3).guide, re.DOTALL).group(1)
    names: dict = {}
    exec(code, names)  # the documentation's own example, as printed
    state, a = names["state"], names["a"]
    np.testing.assert_allclose(names["money_of_a"], state.money[0, a], rtol=1e-6)


def cell_features(game: CairoGame, obs: np.ndarray, x: int, y: int) -> set[str]:
    """The names of the features set on cell (x, y) of one observation."""
    layout = game.observation_layout
    board = obs[layout.offsets["board"]].reshape(layout.pieces["board"].shape)
    labels = layout.pieces["board"].labels
    return {labels[f] for f in np.flatnonzero(board[WIDTH * y + x])}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cells_read_as_documented(players):
    """A main stall, an expansion and an entrance of seat a (and with 2 players a neutral
    stall) read as their colour, their owner relative to the observer and their flag."""
    game = CairoGame(players)
    state = game.init(1, seed=0)
    owner, colour = players - 1, 2
    group = owner * NUM_COLOURS + colour
    state.tile[0, WIDTH * 3 + 4] = state.tile[0, WIDTH * 3 + 5] = group
    state.stall_cell[0, owner, colour] = WIDTH * 3 + 4
    state.entrance[0, WIDTH * 2 + 4] = group
    if players == 2:
        state.tile[0, WIDTH * 8 + 8] = NEUTRAL * NUM_COLOURS + 0
        state.stall_cell[0, NEUTRAL, 0] = WIDTH * 8 + 8
    for seat in range(players):
        obs = game.observe(state, seat)[0]
        slot = "owner self" if owner == seat else f"owner self+{(owner - seat) % players}"
        name = COLOUR_NAMES[colour]
        assert cell_features(game, obs, 4, 3) == {name, slot, "main stall"}
        assert cell_features(game, obs, 5, 3) == {name, slot}
        assert cell_features(game, obs, 4, 2) == {name, slot, "entrance"}
        assert cell_features(game, obs, 0, 12) == set()
        if players == 2:
            assert cell_features(game, obs, 8, 8) == {"red", "owner neutral", "main stall"}


def test_observe_row_fills_one_row_as_the_batch_does():
    """``observe_row(s, r, seat, out)``, the compiled driver's entry, writes row r's
    observation into a zeroed vector, the same as ``game.observe``."""
    game = CairoGame(3, reveal_money=False)
    state = game.init(4, seed=5)
    view = View(*[getattr(state, name) for name in View._fields[:-1]], game.params)
    for r in range(4):
        out = np.zeros(game.observation_shape, dtype=np.float32)
        observe_row(view, r, 2, out)
        assert np.array_equal(out, game.observe(state, 2)[r])


def test_reciprocal_scales_round_to_the_float32_quotients():
    """The encoder multiplies counts by their scales' reciprocals in float64: rounded to
    float32, each product equals the float32 quotient that VERSION 4 computed, for every
    integer a count can hold (and far past it)."""
    counts = np.arange(-1_000, 100_000, dtype=np.float64)
    for scale in RECIPROCAL_SCALES:
        product = (counts * (1.0 / scale)).astype(np.float32)
        assert np.array_equal(product, counts.astype(np.float32) / np.float32(scale)), scale
