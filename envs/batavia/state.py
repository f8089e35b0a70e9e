"""The Batavia state, its phases and its action layout (shared by the helper modules).

Route and warehouse index layouts::

    space    0      1  2  3  4  5 | 6 .. 10 | 11 .. 15 | ... | 31 .. 35     36
             start  block 1       | block 2 | block 3  |     | block 7      goal
    route[:, s - 1] is the tile id on space s (-1 once taken); bit s - 1 of
    remaining[:, c] is set while space s holds a tile of company c.

    warehouse[:, g, c]: the seat whose crate stands on square (good g, company c), -1 empty;
    the square of tile 7c + g (§2.5).
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum

import numpy as np

from envs.batavia.data import COMPANY_NAMES, NUM_COMPANIES
from envs.core.compiled import CompiledState, kernel_view
from envs.core.layout import ActionLayout

MAX_BID = 75  # 15 coins x 5 players: no bid can exceed the coins in play (§5.1)
GENERATION_SLOTS = 32  # generation slots of the hidden-card split (§6.1, game docstring)


class Phase(IntEnum):
    """The decision a row is asked, in turn order; the automatic steps of §4 (round start,
    auction resolution, turn end, final scoring) are handlers, not resting phases."""

    AUCTION_BID = 0
    TURN_START = 1
    PLAYING = 2
    EXCHANGE_CHOICE = 3
    GAME_OVER = 4


# What a decision's effect writes as the phase of a row whose turn it ended, for the end of
# the effect (``rules.effects.apply``) to end the turn: past every ``Phase``, and resolved
# before the step returns, so that no mask, observation or render ever meets it.
TURN_OVER = len(Phase)


ACTIONS = ActionLayout(
    [
        ("PASS", 1, None),
        ("BID", MAX_BID, lambda i: f"BID_{i + 1}"),
        ("DRAW", 1, None),
        ("PLAY_CARD", NUM_COMPANIES, lambda c: f"PLAY_CARD_{COMPANY_NAMES[c]}"),
        ("END_MOVE", NUM_COMPANIES, lambda c: f"END_MOVE_{COMPANY_NAMES[c]}"),
        ("END_GOAL", 1, None),
        ("EXCHANGE", 1, None),
        ("KEEP", 1, None),
    ]
)
assert ACTIONS.size == 90 and ACTIONS.END_MOVE.start == 82  # the amended §9.1 indices

PASS = ACTIONS.PASS.start
BID = ACTIONS.BID.start  # BID b is action b (1..75)
DRAW = ACTIONS.DRAW.start
PLAY_CARD = ACTIONS.PLAY_CARD.start
END_MOVE = ACTIONS.END_MOVE.start
END_GOAL = ACTIONS.END_GOAL.start
EXCHANGE = ACTIONS.EXCHANGE.start
KEEP = ACTIONS.KEEP.start


def action_name(action: int) -> str:
    """Readable name of one action, e.g. ``BID_11`` or ``END_MOVE_DK``."""
    return ACTIONS.name(action)


@dataclasses.dataclass
class BataviaState(CompiledState):
    """A batch of Batavia games; P is the player count, G = ``GENERATION_SLOTS``."""

    phase: np.ndarray  # (B,) int8, Phase: the decision asked
    round: np.ndarray  # (B,) int16, 1..100, the round in progress
    ship: np.ndarray  # (B,) int8, seat holding the ship: this round's auctioneer until the
    #                   auction is won, then the start player (next round's auctioneer)
    turn: np.ndarray  # (B,) int8, 0..P, seats that have taken their action this round
    final: np.ndarray  # (B,) bool, the goal tile has been taken: this is the final round
    goal_holder: np.ndarray  # (B,) int8, seat holding the goal tile, -1 while on the board
    # ---- cards (§2.3): per-company counts, the draw pile as an ordered stack
    hand: np.ndarray  # (B, P, 5) int8, 0..110, cards in hand per company; private
    known: np.ndarray  # (B, P, 5) int8, public lower bound of each hand per company (§6)
    unknown: np.ndarray  # (B, P, G, 5) int8, the face-down part of each hand (hand - known)
    #                      split by the generation slot it was drawn from; hidden (§6.1)
    gen_id: np.ndarray  # (B, G) int16, generation held by each slot (0 = the first deal),
    #                     -1 free; the oldest generation has the smallest id
    pile_slot: np.ndarray  # (B,) int8, 0..G-1, the slot of the draw pile's generation
    generation: np.ndarray  # (B,) int16, the draw pile's generation (reshuffles so far)
    deck: np.ndarray  # (B, 110) int8, the draw pile's companies bottom first, top at
    #                   deck[deck_size - 1], -1 beyond; order and content hidden
    deck_size: np.ndarray  # (B,) int8, 0..110, cards in the draw pile; public
    discard: np.ndarray  # (B, 5) int8, 0..22, the pirates' discard pile per company; public
    lot: np.ndarray  # (B, 5) int8, 0..22, face-up lot per company; public
    carried: np.ndarray  # (B,) bool, the lot holds cards left over from an all-pass round
    die: np.ndarray  # (B,) int8, 1..6, the last die roll (0 before the first)
    display: np.ndarray  # (B, P, 5) int8, 0..22, displayed cards D[p][c]; public
    cubes: np.ndarray  # (B, 5) int8, 0..22, displayed cards per company (ship cubes)
    top: np.ndarray  # (B, 5) int8, 0..22, the largest D[.][c]
    seal: np.ndarray  # (B, 5) int8, seat holding company c's seal, -1 on the board
    cannon: np.ndarray  # (B,) int16, 0..110, displayed cards in all (the true count)
    played: np.ndarray  # (B, 5) int8, cards the acting seat displayed in its current turn
    # ---- the auction (§5.1, §5.2)
    high_bid: np.ndarray  # (B,) int8, 0..75, 0 while no bid is standing
    high_bidder: np.ndarray  # (B,) int8, seat of the standing bid, -1 none
    second_bidder: np.ndarray  # (B,) int8, seat of the bid just below it, -1 none
    passed: np.ndarray  # (B, P) bool, seats out of the current auction
    coins: np.ndarray  # (B, P) int8, 0..75, promissory notes; derivable, shown (§8 #30)
    gold: np.ndarray  # (B, P) int16, 0..105, exchange gold (the track before scoring)
    # ---- trading posts, merchants, crates (§2.4, §2.5, §5.5, §5.6)
    route: np.ndarray  # (B, 35) int8, tile id on space s + 1, -1 once taken
    tile_space: np.ndarray  # (B, 35) int8, 1..35, the space each tile id was laid on
    remaining: np.ndarray  # (B, 5) int64, 35-bit word: bit s - 1 set while space s holds
    #                        a tile of company c (a post ahead of p: remaining >> pos != 0)
    open: np.ndarray  # (B,) int8, 10..35, leading spaces face up
    pos: np.ndarray  # (B, P) int8, 0..36, merchant positions (0 start, 36 goal)
    taken_by: np.ndarray  # (B, 35) int8, per tile id: the seat that took it, -1 none
    exchanged: np.ndarray  # (B, 35) bool, per tile id: handed in for gold
    posts: np.ndarray  # (B, P, 5) int8, 0..7, tiles held (not exchanged) per company
    crates: np.ndarray  # (B, P) int8, 0..12, crates left in each supply
    warehouse: np.ndarray  # (B, 7, 5) int8, seat owning square (good, company), -1 empty


View = kernel_view(BataviaState)  # the compiled kernels' view of a state (``s``)

# Where each option sits in ``BataviaGame.params`` (``s.params`` in the kernels): the open
# variant (§9.5), the dealt open layout (§2.8), the random first auctioneer (§3 step 6), and
# the pirate threshold of the player count (§5.8).
P_OPEN_VARIANT, P_RANDOM_LAYOUT, P_RANDOM_AUCTIONEER, P_THRESHOLD = range(4)
