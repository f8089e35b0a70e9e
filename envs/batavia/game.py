"""Batavia: ship-card auctions, company majorities, trading posts and pirates, for 3-5 players.

The rules of the game specified in ``docs/rules/batavia.md`` (with its "Amendments after
the implementation review"), as per-row functions compiled with numba (``rules/``). Each
round a face-up lot of 1-6 ship cards and the ship (start player) is auctioned for
promissory notes, the payment going to the other players; then every seat either draws 2
cards or displays cards to hold a company's seal (a strict majority of displayed cards) and
moves its merchant to that company's next trading post on the route, taking the tile,
placing a crate in its good's warehouse, and perhaps exchanging one post of every company
held for gold. When the displayed total reaches the pirate threshold the largest companies
are swept to the discard pile. The game ends at the end of the round in which a merchant
reaches the goal; warehouses, coins, seals and the goal tile then score.

Implementation choices (numbered after the spec's §8 where they refine it):

1. (§5.6, §9.3) When exchanging is not legal (the new post's company was already held, or
   the play ended with ``END_GOAL``) no EXCHANGE_CHOICE decision is entered at all: the
   spec's "no exchange step", so the step record shows no automatic KEEP.
2. (§5.6) An exchange hands in, of each company held, the tile with the lowest good index;
   which one goes has no effect on play.
3. (§5.1) The auction's high bid, bidders and passes are cleared when the auction ends, so
   the observation's auction block shows the current auction only; the lot, the last die
   roll (kept for the round) and the carry-over flag stay.
4. (§5.9) Reshuffles are lazy: the discard pile becomes the draw pile only when a card must
   be drawn or flipped from an empty pile, so between steps a pile of 0 can stand beside a
   non-empty discard pile.
5. (§6.1) The hidden split of the hands by pile generation uses 32 slots. A reshuffle that
   finds every slot holding hand cards merges the two oldest generations into one slot; the
   resampler then mixes those two generations' unknown cards (never an observation or a
   legal action). In 500 games per player count, uniformly random play kept at most 2
   generations alive, play that draws 9 times in 10 whenever it may play at most 15.
6. (§7) Final scoring moves the hands onto the displays (and clears the known/unknown
   split). Before the end, ``scores`` is the same formula on the public state (exchange
   gold, warehouses as they stand, coins, goal, seals on the displays): a public estimate.
7. ``state.revealed`` marks: every seat at setup, at every round start (die and flips, a
   reshuffle among them), at every reveal of 5 tiles and at final scoring (the hands are
   shown); the drawer at a DRAW (a reshuffle during the draw included). A finished row
   keeps the marks of its last step (core's step clears them for live rows only).
8. (§9.6) A chance word is the top 32 bits of the core's SplitMix64 word; setup draws 181,
   a round start 1, a reshuffle 110, nothing else draws. The die is ``1 + ⌊6u / 2^32⌋``
   and the random first auctioneer ``⌊N·u / 2^32⌋``.
9. (§4, §9.3) Every automatic step (round start, auction resolution, turn end with its
   pirate check, final scoring) runs inside the effect whose action leads to it
   (``rules/effects.py``). A decision whose single legal action public information shows
   is applied inside ``step`` and never asked (core's forced-decision loop): its mask is
   computed by the same legal function from what every seat knows of the acting seat's
   hand (``rules.cards.public_hand``: its size, its cards won face up, and as many
   face-down ones of each company as the unseen cards allow), a superset of its real mask;
   the auction and the exchange read nothing private. So a bid of a seat whose coins cannot
   cover the minimum bid (only PASS), a turn start no hand the record allows could play
   from (only DRAW), and a play with an empty hand and one ending, or with no ending and a
   hand publicly of one company, are automatic. One step applies at most ``max_chain``
   of them: the rest of a play (at most every card), then in each round at most P - 1
   passes (the seat holding 15 coins or more is asked once no bid stands) and P draws.
10. (§9.4) The acting seat of the relative one-hots is ``current_player``; in the padded
    seat slots every feature, "present" included, is 0.

====================  =================================================================
players               3, 4, 5 (DEFAULT_PLAYERS 4)
actions               90: PASS 0, BID 1-75, DRAW 76, PLAY_CARD 77-81, END_MOVE 82-86,
                      END_GOAL 87, EXCHANGE 88, KEEP 89 (§9.1)
observation           float32 in [0, 1], 1018 at 3, 4 and 5 players (§9.4, ``OBS``)
rewards               rank-based at the end (design.md; ties share), 0 otherwise
longest game          100 rounds: max_decisions 16 400 (3p), 18 200 (4p), 20 000 (5p)
VERSION               1
====================  =================================================================
"""


from __future__ import annotations

from typing import Any

import numpy as np

from envs.batavia import observation, picture, render, resample
from envs.batavia.data import (
    CRATES,
    MAX_ROUNDS,
    NUM_CARDS,
    NUM_COMPANIES,
    NUM_GOODS,
    NUM_SPACES,
    NUM_TILES,
    PIRATE_THRESHOLD,
    START_COINS,
    max_decisions,
)
from envs.batavia.invariants import check_invariants
from envs.batavia.rules import effects, legal, scoring
from envs.batavia.state import (
    ACTIONS,
    GENERATION_SLOTS,
    BataviaState,
    Phase,
    View,
    action_name,
)
from envs.core.compiled import CompiledGame
from envs.core.driver import RowRules

VERSION = 1

ROWS = RowRules(legal=legal.legal, forced=legal.forced, apply=effects.apply,
                phase=effects.phase, ranking=scoring.ranking, init_row=effects.init_row,
                observe_row=observation.observe_row, score_row=scoring.score_row)


class BataviaGame(CompiledGame):
    """The rules of Batavia for one player count and options (see the module docstring)."""

    ENV_ID = "batavia"
    VERSION = VERSION
    PLAYER_COUNTS = (3, 4, 5)
    DEFAULT_PLAYERS = 4
    HAS_HIDDEN_INFO = True  # hands, the draw pile, face-down tiles (standard variant)
    OPTIONS = {
        "variant": "standard",  # §9.5: "open" lays every tile face up, no reveals
        "open_layout": "fixed",  # §2.8, open variant only: the designed layout or a deal
        "first_auctioneer": "seat0",  # §3 step 6: seat 0, or "random" from the row's chance
    }
    OPTION_CHOICES = {
        "variant": ("standard", "open"),
        "open_layout": ("fixed", "random"),
        "first_auctioneer": ("seat0", "random"),
    }
    ROWS, VIEW, Phase = ROWS, View, Phase
    DECISIONS = (Phase.AUCTION_BID, Phase.TURN_START, Phase.PLAYING, Phase.EXCHANGE_CHOICE)
    # An exchange always has two legal actions: it is always asked.
    AUTOMATIC = frozenset((Phase.AUCTION_BID, Phase.TURN_START, Phase.PLAYING))

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        options = self.options
        if options["variant"] == "standard" and options["open_layout"] != "fixed":
            raise ValueError(
                "batavia: open_layout applies to variant='open' only; with "
                "variant='standard' the deal is random and face down, so open_layout must "
                "stay 'fixed' (valid: variant='open' with open_layout='fixed' or 'random')")
        players = self.num_players
        self.threshold = PIRATE_THRESHOLD[players]
        self.params = np.array([options["variant"] == "open",
                                options["open_layout"] == "random",
                                options["first_auctioneer"] == "random",
                                self.threshold], dtype=np.int64)
        self.num_actions = ACTIONS.size
        self.action_layout = ACTIONS
        self.observation_layout = observation.OBS
        self.observation_shape = (observation.OBS.size,)
        self.observation_low, self.observation_high = observation.OBS.bounds()
        self.max_decisions = max_decisions(players)
        # The rest of a play (every card, its ending), then per round at most P - 1 forced
        # passes and P forced draws (module docstring, choice 9).
        self.max_chain = NUM_CARDS + 2 + MAX_ROUNDS * 2 * players

    def _allocate(self, batch_size: int) -> BataviaState:
        """New games' arrays, before ``effects.init_row`` deals and sets up each."""
        num, players = batch_size, self.num_players

        def full(shape: tuple[int, ...], value: Any, dtype: Any) -> np.ndarray:
            return np.full((num, *shape), value, dtype=dtype)

        seats, companies = (players, NUM_COMPANIES), (NUM_COMPANIES,)
        return BataviaState(
            current_player=full((), 0, np.int32),
            terminated=full((), False, bool),
            truncated=full((), False, bool),
            rewards=full((players,), 0, np.float32),
            rng=full((2,), 0, np.uint64),
            revealed=full((players,), False, bool),
            phase=full((), Phase.TURN_START, np.int8),
            round=full((), 1, np.int16),
            ship=full((), 0, np.int8),
            turn=full((), 0, np.int8),
            final=full((), False, bool),
            goal_holder=full((), -1, np.int8),
            hand=full(seats, 0, np.int8),
            known=full(seats, 0, np.int8),
            unknown=full((players, GENERATION_SLOTS, NUM_COMPANIES), 0, np.int8),
            gen_id=full((GENERATION_SLOTS,), -1, np.int16),
            pile_slot=full((), 0, np.int8),
            generation=full((), 0, np.int16),
            deck=full((NUM_CARDS,), -1, np.int8),
            deck_size=full((), 0, np.int8),
            discard=full(companies, 0, np.int8),
            lot=full(companies, 0, np.int8),
            carried=full((), False, bool),
            die=full((), 0, np.int8),
            display=full(seats, 0, np.int8),
            cubes=full(companies, 0, np.int8),
            top=full(companies, 0, np.int8),
            seal=full(companies, -1, np.int8),
            cannon=full((), 0, np.int16),
            played=full(companies, 0, np.int8),
            high_bid=full((), 0, np.int8),
            high_bidder=full((), -1, np.int8),
            second_bidder=full((), -1, np.int8),
            passed=full((players,), False, bool),
            coins=full((players,), START_COINS, np.int8),
            gold=full((players,), 0, np.int16),
            route=full((NUM_SPACES,), -1, np.int8),
            tile_space=full((NUM_TILES,), 0, np.int8),
            remaining=full(companies, 0, np.int64),
            open=full((), 0, np.int8),
            pos=full((players,), 0, np.int8),
            taken_by=full((NUM_TILES,), -1, np.int8),
            exchanged=full((NUM_TILES,), False, bool),
            posts=full(seats, 0, np.int8),
            crates=full((players,), CRATES, np.int8),
            warehouse=full((NUM_GOODS, NUM_COMPANIES), -1, np.int8),
        )

    # ---------------------------------------------------------------- public pieces
    def resample_hidden(self, state: BataviaState, player: int, seed: int) -> BataviaState:
        return resample.resample_hidden(self, state, player, seed)

    def check_invariants(self, state: BataviaState) -> list[str]:
        return check_invariants(self, state)

    def render(self, state: BataviaState, index: int = 0, seat: int | None = None) -> str:
        return render.render(self, state, index, seat)

    def action_name(self, action: int) -> str:
        return action_name(action)

    def draw(self, state: BataviaState, index: int = 0, seat: int | None = None
             ) -> np.ndarray:
        return picture.draw(self, state, index, seat)

    def decision_name(self, state: BataviaState, row: int) -> str:
        return render.decision_name(state, row)
