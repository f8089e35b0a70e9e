"""Forced decisions (design.md; VERSION 4): a decision is applied without being asked exactly
where public information leaves it one legal action, never for a seat's private reason."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cairo_helpers import CARD, Position

from envs.cairo import CairoGame, cards
from envs.cairo.state import Phase
from envs.core.decisions import rows_by_phase
from envs.core.sampling import sample_actions


def _random_states(game: CairoGame, batch: int, steps: int, seed: int):
    """The states of ``batch`` random games after each of ``steps`` steps."""
    generator = np.random.default_rng(seed)
    state = game.init(batch, seed=seed)
    for _ in range(steps):
        yield state
        state = game.step(state, sample_actions(game.legal_action_mask(state), generator))
        if state.done.all():
            return


@pytest.mark.parametrize("reveal_money", [True, False])
def test_public_masks_contain_the_real_ones(reveal_money):
    """Every mask computed from the public bound of the seat's holdings holds its real mask,
    so a single public action is the single real one (D6 is forced only with the hand and
    money known, where the bound is exact); the masks taken as public (D3's) are equal."""
    game = CairoGame(3, reveal_money=reveal_money)
    seen = set()
    for state in _random_states(game, 24, 160, seed=5):
        live = np.flatnonzero(~state.done)
        for phase, sel in rows_by_phase(state.phase, live):
            rows = live[sel]
            legal = game.decisions[phase].legal  # each takes the holdings it reads
            real = legal(state, rows)
            public = legal(state, rows, cards.public_holdings(state, rows, reveal_money))
            exact = cards.hand_known(state, rows) & reveal_money
            if phase == Phase.CARD_MODE:
                real, public = real[exact], public[exact]
            assert not (real & ~public).any(), Phase(phase).name
            if game.decisions[phase].public_mask:  # D3: the chosen cell's section is paid for
                assert np.array_equal(real, public), Phase(phase).name
            assert (real.sum(axis=1) >= 1).all()
            seen.add(Phase(phase).name)
    assert {"TURN", "STALL_DIR", "LURE_TARGET", "EXPAND_CELL", "CARD_MODE", "DRAW_SOURCE"} <= seen


def test_forced_predicates_read_only_what_every_seat_sees():
    """Resampling what a seat cannot see (hands, the pile's order) never changes which rows
    are forced: who is asked what is public."""
    game = CairoGame(3, reveal_money=False)
    checked = 0
    for k, state in enumerate(_random_states(game, 12, 120, seed=9)):
        if k % 3:
            continue
        live = np.flatnonzero(~state.done)
        for seat in range(game.num_players):
            other = game.resample_hidden(state, seat, seed=k)
            for phase, sel in rows_by_phase(state.phase, live):
                rows = live[sel]
                decision = game.decisions[phase]
                public = decision.legal if decision.public_mask else decision.forced
                np.testing.assert_array_equal(public(state, rows), public(other, rows))
                checked += rows.size
    assert checked > 1000


def test_a_card_only_the_hand_decides_is_still_asked():
    """D6 with one standard card of the section is asked while the hand is unknown (skipping
    it would show the hand), and applied once every seat knows the card (taken face up)."""
    def expansion(known: bool) -> Position:
        p = Position(3).stall(0, "red", (3, 2), (3, 3)).money(0, red=2).hand(0, "S0")
        p.state.known[0, 0, CARD["S0"]] = int(known)
        p.game.invalidate(p.state)
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
