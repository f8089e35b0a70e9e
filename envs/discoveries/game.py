"""Age of Discoveries: ships bought, sent on shared expeditions or on private trade voyages.

The rules of the game specified in ``/work/shared/rules/discoveries.md`` (its amendments
included) for 2, 3 and 4 players, as per-row functions compiled with numba (``rules/``).
Players buy ships of six colours from a sliding two-row market and send them either to one
of twelve expeditions (VP at the First and the Final Scoring) or on trade contracts that
need an exact transport value in their colour and pay coins after 1-3 of the owner's turns.
Each turn holds at most two different main actions (coins, a contract, buying, dispatching);
Joker and Reservation cards are free extras; a secret special task pays at the end. All
chance is drawn in ``init`` (§3), so a step never consults the generator: the piles and the
contract deck are read from the drawn orders. Decisions that public information alone forces
are applied inside ``step`` (§4.5).

The modules by role: ``data.py`` (the tables), ``state.py`` (the state, its view, the enums
and the action layout), this module (sizes and glue; no rules), ``rules/`` (per-row legality
``legal.py``, effects and setup ``effects.py``, ``feasibility.py`` (§5.5 FEASIBLE),
``scoring.py``; ``queries.py`` loops them over rows for the scripted agents and the tests),
``observation.py`` (the encoder and its layout), and the Python ``render.py``,
``picture.py``, ``resample.py`` and ``invariants.py``.

Implementation choices where the spec leaves room:

1. (§2.3) The piles and the market hold ship *types* (copies of a type are identical); the
   setup still draws a permutation of the 42 card ids, so the draw order is the spec's.
2. (§5.3, §5.7) A reservation record sits on the card's slot and slides with the card from
   the refill into the offer row; the new refill card and a refilled display slot come
   unreserved. Buying or taking a card removes its record (only its owner can).
3. (§5.2) A hand is four slots; a card taken goes to the first empty slot. Slots are not
   observed (the observation shows cards by id), so their order is no information.
4. (§5.4, §5.5) SEND_TO_EXPEDITION and PLAY_CONTRACT open DISPATCH (``used``) when they are
   chosen; the pick that follows counts as the placement (``placed``).
5. (§9.2) A flagship attached to the contract being built shows as "on a voyage" in the
   flagship state; the build's own piece shows it attached.
6. (§6, ``revealed``) A step marks as shown: to every seat, a new display or refill card, a
   revealed scoring card, a played hidden contract and a flagship's first use (to the seats
   other than its owner) and the Final Scoring (the tasks); to the drawer, a blind draw.
7. (§4.5; design.md, forced decisions) A decision is forced when the same legal function,
   run on the public bound of the acting seat's holdings (``legal.public_holdings``: the
   cards it took from the display and, if a hand card is hidden, every contract of the
   public unseen set, the deck and every seat's hidden hand cards; its flagship once
   revealed, else every flagship not yet revealed), leaves a single action.
8. (§7.2) The ranking's second key, ships not on expeditions, counts ships on voyages too; at
   the end of a game none are left (they return at Final Scoring).
9. (§5.7, §9.2) A reservation expires at its owner's TURN_END when it was placed in the
   owner's previous own turn; the observation's "placed during the current turn" flag is
   set for the acting seat's reservations placed in this turn only (the others of the
   acting seat expire at this turn's end).
10. (§4.4) The cap's Final Scoring is the full §7.2 one: active voyages are boxed there too.
11. (§6) Once the game is over the tasks are known (the Final Scoring shows them), so
    ``resample_hidden`` keeps them in finished rows; unused flagships stay face down.
12. (§5.9) A voyage records the owner's own-turn count at whose start it returns
    (``con_due``); its timer is that count minus the owner's turns so far, so a turn start
    touches the voyages only when the seat has some (the grouped totals by timer shift).
13. (§9.2, §6) ``decision_name`` names the public context: the target expedition, or the
    contract being built with its duration and the TV attached.

======================  =============================================================
players                 2, 3, 4 (default 3)
actions                 134 for every player count (§9.1, ``state.ACTIONS``)
observation             1,072 float32 in [0, 1] for every player count (§9.2)
rewards                 rank-based at the end (VP, then ships not on expeditions)
longest game            890 decisions, asked and automatic (§4.4); 300 global turns
automatic decisions     at most 7 per step (§4.5)
VERSION                 1
======================  =============================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.compiled import CompiledGame
from envs.core.driver import RowRules
from envs.discoveries import invariants, observation, picture, render, resample
from envs.discoveries.data import (
    COLOUR_NAMES,
    CONTRACT_NAMES,
    CONTRACT_TV,
    EXPEDITION_NAMES,
    MAX_CHAIN,
    MAX_DECISIONS,
)
from envs.discoveries.rules import effects, legal, scoring
from envs.discoveries.state import (
    ACTIONS,
    PHASE,
    DiscoveriesState,
    Phase,
    View,
    action_name,
    allocate,
)

VERSION = 1

ROWS = RowRules(legal=legal.legal, forced=legal.forced, apply=effects.apply,
                phase=effects.phase, ranking=scoring.ranking, init_row=effects.init_row,
                observe_row=observation.observe_row, score_row=scoring.score_row)


class DiscoveriesGame(CompiledGame):
    """The rules of Age of Discoveries for one player count (see the module docstring)."""

    ENV_ID = "discoveries"
    VERSION = VERSION
    PLAYER_COUNTS = (2, 3, 4)
    DEFAULT_PLAYERS = 3
    HAS_HIDDEN_INFO = True  # hands, blind draws, face-down flagships, tasks, pile orders
    OPTIONS = {}  # §8 item 9: no rule options
    ROWS, VIEW, Phase = ROWS, View, Phase
    NUM_RANKING_KEYS = 2  # VP, then ships not on expeditions (§7.2)
    DECISIONS = (Phase.MAIN, Phase.PICK_EXP_SHIP, Phase.BUILD_CONTRACT)
    AUTOMATIC = frozenset(DECISIONS)

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        self.num_actions = ACTIONS.size
        self.observation_shape = (observation.OBS.size,)
        self.observation_low, self.observation_high = observation.OBS.bounds()
        self.action_layout = ACTIONS
        self.observation_layout = observation.OBS
        self.max_decisions = MAX_DECISIONS
        self.max_chain = MAX_CHAIN
        self.params = np.zeros(0, dtype=np.int64)

    def _allocate(self, batch_size: int) -> DiscoveriesState:
        return allocate(batch_size, self.num_players)

    def render(self, state: DiscoveriesState, index: int = 0, seat: int | None = None) -> str:
        return render.render(self, state, index, seat)

    def draw(self, state: DiscoveriesState, index: int = 0, seat: int | None = None
             ) -> np.ndarray:
        return picture.draw(self, state, index, seat)

    def action_name(self, action: int) -> str:
        return action_name(action)

    def decision_name(self, state: DiscoveriesState, row: int) -> str:
        phase = int(state.phase[row])
        if phase == PHASE.PICK_EXP_SHIP:
            return f"PICK_EXP_SHIP {EXPEDITION_NAMES[int(state.target[row])]}"
        if phase == PHASE.BUILD_CONTRACT:
            card = int(state.build_card[row])
            return (f"BUILD_CONTRACT {CONTRACT_NAMES[card]} d{int(state.build_duration[row])} "
                    f"({int(state.build_tv[row])}/{int(CONTRACT_TV[card])} TV)")
        return Phase(phase).name

    def resample_hidden(self, state: DiscoveriesState, player: int,
                        seed: int) -> DiscoveriesState:
        return resample.resample_hidden(self, state, player, seed)

    def check_invariants(self, state: DiscoveriesState) -> list[str]:
        return invariants.check_invariants(self, state)


__all__ = ["COLOUR_NAMES", "VERSION", "DiscoveriesGame"]
