"""The §10 invariants after every step of random play, uniform and biased towards contracts.

The default run keeps a few games of each; the ``slow`` runs play 200 games per player count
with each policy, and the biased run must meet every contract rule it is there for (§10,
"Policies for the soak and the invariant runs"): completed contracts, voyages of each
duration, Jokers spent on contracts, flagships on voyages, unfinished contracts discarded at
the Final Scoring, full hands of 4 and reserved contracts. It prints how many forced
decisions of each class of §4.5 it met.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from agents.discoveries import SOAK_POLICIES
from envs.core.sampling import sample_actions
from envs.discoveries import DiscoveriesGame
from envs.discoveries.invariants import check_transition
from envs.discoveries.state import ACTIONS, FLAG, PHASE


def _play(players: int, games: int, seed: int, biased: bool) -> Counter:
    """Play ``games`` games, checking every invariant after every step; count the events."""
    game = DiscoveriesGame(players)
    state = game.init(games, seed=seed)
    policy = SOAK_POLICIES["contract_biased"](players, seed) if biased else None
    generator = np.random.default_rng(seed)
    events = Counter()
    for _ in range(game.max_decisions + 1):
        if state.done.all():
            break
        live = ~state.done
        mask = game.legal_action_mask(state)
        actions = (policy.act(game, state, state.current_player) if biased
                   else sample_actions(mask, generator))
        single = live & (mask.sum(axis=1) == 1)
        events["asked with one action (private)"] += int(single.sum())
        plays = live & (actions >= ACTIONS.PLAY.start) & (actions < ACTIONS.PLAY.stop)
        for d in range(3):
            events[f"voyages of {d + 1}"] += int((plays & ((actions - 24) % 3 == d)).sum())
        events["reserved contracts"] += int((live & (actions >= ACTIONS.RESERVE_CONTRACT.start)
                                             ).sum())
        before = state.copy()
        state = game.step(state, actions)
        problems = game.check_invariants(state) + check_transition(before, state)
        assert not problems, problems[:5]
        events["completed contracts"] += int(state.completed.sum() - before.completed.sum())
        events["Jokers on contracts"] += int(state.jokers_used_con.sum()
                                             - before.jokers_used_con.sum())
        events["flagships on voyages"] += int(((state.flag_where == FLAG.VOYAGE)
                                               & (before.flag_where != FLAG.VOYAGE)).sum())
        events["discarded at Final Scoring"] += int(state.contracts_discarded.sum()
                                                    - before.contracts_discarded.sum())
        events["full hands"] += int(((state.hand >= 0).sum(axis=2) == 4).any(axis=1).sum())
        for auto in game.step_record(state).automatic:
            seat_hidden = ~before.flag_revealed[auto.rows, auto.seats]
            for phase, name in ((PHASE.MAIN, "END_TURN"), (PHASE.PICK_EXP_SHIP, "exp pick"),
                                (PHASE.BUILD_CONTRACT, "build pick")):
                of = auto.phases == phase
                if phase == PHASE.MAIN:
                    events[f"automatic {name}"] += int(of.sum())
                else:
                    events[f"automatic {name}, flagship shown"] += int((of & ~seat_hidden).sum())
                    events[f"automatic {name}, flagship face down"] += int(
                        (of & seat_hidden).sum())
    assert state.done.all()
    events["truncated"] += int(state.truncated.sum())
    return events


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("biased", [False, True], ids=["uniform", "contract_biased"])
def test_invariants_after_every_step(players, biased):
    events = _play(players, 3, seed=100 + players, biased=biased)
    assert events["truncated"] == 0


CONTRACT_EVENTS = ("completed contracts", "voyages of 1", "voyages of 2", "voyages of 3",
                   "Jokers on contracts", "flagships on voyages", "discarded at Final Scoring",
                   "full hands", "reserved contracts")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_of_200_uniform_games(players):
    events = _play(players, 200, seed=7000 + players, biased=False)
    print(f"\n{players}p uniform: {dict(events)}")
    assert events["truncated"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_of_200_contract_biased_games(players):
    events = _play(players, 200, seed=9000 + players, biased=True)
    print(f"\n{players}p contract_biased: {dict(events)}")
    missing = [name for name in CONTRACT_EVENTS if not events[name]]
    assert not missing, f"never met: {missing}"
    assert events["truncated"] == 0


def test_soak_plays_the_contract_biased_policy(capsys):
    """``benchmarks.soak --policy contract_biased``: the policy from agents.discoveries'
    SOAK_POLICIES plays every seat; a name that is neither is a usage error."""
    from benchmarks import soak

    assert soak.main(["--env", "discoveries", "--players", "3", "--games", "4", "--batch", "4",
                      "--policy", "contract_biased", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "discoveries 3p (contract_biased): 4 games clean, 0 truncated" in out
    assert "automatic MAIN" in out
    with pytest.raises(SystemExit):
        soak.main(["--env", "discoveries", "--games", "1", "--policy", "nobody"])
    assert "valid: uniform, contract_biased, random" in capsys.readouterr().err
