"""Forced decisions (design.md; VERSION 4): a decision is applied without being asked exactly
where public information leaves it one legal action, never for a seat's private reason."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cairo_helpers import CARD, Position

from envs.cairo import CairoGame
from envs.cairo.data import NUM_CARD_TYPES, NUM_COLOURS
from envs.cairo.rules import cards, effects, legal
from envs.cairo.state import ACTIONS, CairoState, Phase
from envs.core.sampling import sample_actions

NUM_ACTIONS = ACTIONS.size


# The decisions whose masks read no private data (D3 reads the cards only as the section of
# the cell D2 offered): their masks are public themselves.
PUBLIC_MASKS = (Phase.PLACE_COLOUR, Phase.STALL_DIR, Phase.LURE_TARGET, Phase.DRAW_SOURCE)
# What a step says about itself besides the position (the replay below keeps no such record).
STEP_OUTPUTS = {*CairoState.STEP_FIELDS, "legal_mask", "auto", "revealed"}


def _random_states(game: CairoGame, batch: int, steps: int, seed: int):
    """The states of ``batch`` random games after each of ``steps`` steps."""
    generator = np.random.default_rng(seed)
    state = game.init(batch, seed=seed)
    for _ in range(steps):
        yield state
        state = game.step(state, sample_actions(game.legal_action_mask(state), generator))
        if state.done.all():
            return


def _masks(s, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Row ``r``'s real legal mask and its mask from the public bound of the acting seat's
    cards and money (``cards.public_holdings``)."""
    real = np.zeros(NUM_ACTIONS, dtype=bool)
    legal.legal(s, r, real)
    hand = np.zeros(NUM_CARD_TYPES, dtype=np.int8)
    money = np.zeros(NUM_COLOURS, dtype=np.int16)
    cards.public_holdings(s, r, hand, money)
    public = np.zeros(NUM_ACTIONS, dtype=bool)
    legal.legal_with(s, r, public, hand, money)
    return real, public


@pytest.mark.parametrize("reveal_money", [True, False])
def test_public_masks_contain_the_real_ones(reveal_money):
    """Every mask computed from the public bound of the seat's holdings holds its real mask,
    so a single public action is the single real one (D6 is forced only with the hand and
    money known, where the bound is exact); the masks taken as public (D1, D3, D10, D11) are
    equal. Where the public mask has one action, ``legal.forced`` says so and the step
    applies it (its record shows it): each step of random games replayed decision by
    decision from the action asked."""
    game = CairoGame(3, reveal_money=reveal_money)
    generator = np.random.default_rng(5)
    state = game.init(24, seed=5)
    seen, applied = set(), set()
    for _ in range(160):
        actions = sample_actions(game.legal_action_mask(state), generator)
        before = state.copy()
        game.step(state, actions)
        record = game.step_record(state)
        s = game.view(before)
        for r in np.flatnonzero(~before.done).tolist():
            effects.apply(s, r, actions[r])
            chain = []
            while not (before.terminated[r] or before.truncated[r]):
                phase = Phase(before.phase[r])
                real, public = _masks(s, r)
                exact = cards.hand_known(s, r) and reveal_money
                assert real.any(), phase.name
                if phase != Phase.CARD_MODE or exact:
                    assert not (real & ~public).any(), phase.name
                if phase in PUBLIC_MASKS:
                    assert np.array_equal(real, public), phase.name
                single = phase in PUBLIC_MASKS or (public.sum() == 1 and (
                    phase != Phase.CARD_MODE or exact))
                assert legal.forced(s, r, real) == single, phase.name
                seen.add(phase.name)
                if real.sum() != 1 or not single:
                    break
                action = int(np.argmax(real))
                chain.append((int(before.current_player[r]), int(phase), action))
                applied.add(phase.name)
                effects.apply(s, r, action)
            assert record.automatic_of(r) == chain
            for name, array in state.arrays().items():
                if name not in STEP_OUTPUTS and not (name == "current_player" and state.done[r]):
                    assert np.array_equal(before.arrays()[name][r], array[r]), name
        if state.done.all():
            break
    assert {"TURN", "STALL_DIR", "LURE_TARGET", "EXPAND_CELL", "CARD_MODE", "DRAW_SOURCE"} <= seen
    assert {"STALL_DIR", "LURE_TARGET", "EXPAND_CELL"} <= applied


def test_forced_predicates_read_only_what_every_seat_sees():
    """Resampling what a seat cannot see (hands, the pile's order) never changes which rows
    are forced, nor the masks they are judged by (the public masks, and the masks of the
    public bound): who is asked what is public."""
    game = CairoGame(3, reveal_money=False)
    checked = 0
    for k, state in enumerate(_random_states(game, 12, 120, seed=9)):
        if k % 3:
            continue
        live = np.flatnonzero(~state.done).tolist()
        s = game.view(state)
        for seat in range(game.num_players):
            other = game.resample_hidden(state, seat, seed=k)
            o = game.view(other)
            for r in live:
                real, public = _masks(s, r)
                other_real, other_public = _masks(o, r)
                np.testing.assert_array_equal(public, other_public)
                if state.phase[r] in PUBLIC_MASKS:
                    np.testing.assert_array_equal(real, other_real)
                assert legal.forced(s, r, real) == legal.forced(o, r, other_real)
                checked += 1
    assert checked > 1000


def test_a_card_only_the_hand_decides_is_still_asked():
    """D6 with one standard card of the section is asked while the hand is unknown (skipping
    it would show the hand), and applied once every seat knows the card (taken face up)."""
    def expansion(known: bool) -> Position:
        p = Position(3).stall(0, "red", (3, 2), (3, 3)).money(0, red=2).hand(0, "S0")
        p.state.known[0, 0, CARD["S0"]] = int(known)
        p.game.refresh(p.state)
        return p.play("EXPAND_red", "CELL_3_1")

    asked = expansion(known=False)
    assert asked.legal() == ["CARD_S0"] and asked.state.phase[0] == Phase.CARD_MODE
    applied = expansion(known=True)
    assert applied.automatic == ["CARD_S0"] and applied.state.group_size[0, 0, 0] == 2
    assert applied.state.current_player[0] == 1


def test_the_golden_game_asks_fewer_decisions():
    """The 3-player golden game (seed 2024, ``tests/golden/cairo_3p.txt``, kept current by
    ``tests/test_golden.py``): of its 525 decisions, the 131 that public
    information forces (98 lure targets among them) are applied automatically, and the 16
    with one legal action for a private reason (the hand's card modes and picks) are asked."""
    lines = (Path(__file__).parents[1] / "golden" / "cairo_3p.txt").read_text().splitlines()
    auto = [line for line in lines if line.lstrip().startswith("auto seat")]
    asked = [line for line in lines if line[:4].strip().isdigit() and " seat " in line]
    single = [line for line in asked if len(line.split("| legal: ")[1].split(" | ")[0].split())
              == 1]
    assert len(auto) == 131 and len(asked) == 394
    assert sum("LURE_TARGET" in line for line in auto) == 98
    assert len(single) == 16
    assert all(any(d in line for d in ("CARD_MODE", "THREE_PICK", "EXPAND_CELL"))
               for line in single)
