"""A state's fields live in one buffer that the compiled kernels take whole
(``envs.core.state``, ``envs.core.packing``)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from toy_game import ToyGame


def _mid_game(batch: int = 4):
    game = ToyGame(3)
    state = game.init(batch, seed=3)
    generator = np.random.default_rng(0)
    for _ in range(3):
        mask = game.legal_action_mask(state)
        game.step(state, np.argmax(generator.random(mask.shape) * mask, axis=1))
    return game, state


def _seats(state) -> np.ndarray:
    return np.maximum(state.current_player, 0)


def test_every_field_is_an_aligned_view_of_the_one_buffer():
    _, state = _mid_game()
    starts = []
    for name, array in state.arrays().items():
        assert np.shares_memory(array, state._buffer), name
        assert array.flags.c_contiguous and array.shape[0] == 4, name
        starts.append(array.__array_interface__["data"][0] - state._buffer.ctypes.data)
    assert starts == sorted(starts) and all(start % 64 == 0 for start in starts)
    assert state._layout[:, 0].tolist() == starts
    assert state._layout[5, 1:3].tolist() == [4, 3]  # ``revealed``: (B, P)


def test_assigning_a_field_writes_into_the_buffer_that_the_kernels_read():
    game, state = _mid_game()
    by_item, by_attribute = state.copy(), state.copy()
    market = (state.market + 1) % 3
    by_item.market[...] = market
    by_attribute.market = market.astype(np.int64)  # cast to the field's dtype, int8
    assert by_attribute.market.dtype == np.int8
    assert np.shares_memory(by_attribute.market, by_attribute._buffer)
    seen = game.observe(by_attribute, _seats(state))
    assert np.array_equal(seen, game.observe(by_item, _seats(state)))
    assert not np.array_equal(seen, game.observe(state, _seats(state)))


def test_a_field_of_another_shape_or_dtype_gets_a_new_buffer_and_its_own_kernels():
    game, state = _mid_game()
    wide = type(state)(**{**state.arrays(), "turns": state.turns.astype(np.int64)})
    assert wide.turns.dtype == np.int64 and wide._spec != state._spec
    actions = np.argmax(game.legal_action_mask(state), axis=1)
    game.step(state, actions)
    game.step(wide, actions)
    assert all(np.array_equal(a, b) for a, b in zip(state.arrays().values(),
                                                     wide.arrays().values(), strict=True))
    old_buffer = state._buffer
    state.auto = state.auto[:, :0]
    assert state._buffer is not old_buffer and state.auto.shape == (4, 0, 3)
    assert np.shares_memory(state.hands, state._buffer)


def test_copy_take_and_pickle_hold_their_own_buffers():
    _, state = _mid_game()
    for other in (state.copy(), state.take(np.arange(4)), pickle.loads(pickle.dumps(state))):
        assert other.equals(state) and other._buffer is not state._buffer
        assert not any(np.shares_memory(a, state._buffer) for a in other.arrays().values())
        assert all(np.shares_memory(a, other._buffer) for a in other.arrays().values())
    rows = state.take(np.array([3, -4]))
    assert rows.batch_size == 2 and np.array_equal(rows.deck, state.deck[[3, 0]])
    chosen = state.take(np.array([False, True, True, False]))
    assert np.array_equal(chosen.hands, state.hands[1:3])
    with pytest.raises(IndexError, match="out of range for 4 rows"):
        state.take(np.array([4]))


def test_a_kernel_call_unboxes_three_arrays_whatever_the_fields():
    game, state = _mid_game()
    step = game._run(state).step
    packed = step.signatures[0][0]
    assert len(packed) == 3 and all(t.ndim >= 1 for t in packed.types)
