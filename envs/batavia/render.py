"""Text rendering of one Batavia game and the names of its decisions.

Route legend: ``12 DK-Sil`` a face-up post (company, good), ``12 ------`` an empty space,
``12 ??????`` a face-down tile (the full view shows it as ``12 (DK-Sil)``); merchants are
listed after the block they stand in. Warehouse squares show the seat whose crate stands
there or ``.``. Seats are named ``player_0``, ``player_1``, ... as the AEC env's agents; the
same legend ends every render (``LEGEND``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.batavia.data import (
    BLOCK,
    COMPANY_NAMES,
    GOAL_SPACE,
    GOOD_NAMES,
    NUM_BLOCKS,
    NUM_GOODS,
    TILE_COMPANY,
    TILE_GOOD,
)
from envs.batavia.state import BataviaState, Phase
from envs.core.names import seat_name

if TYPE_CHECKING:
    from envs.batavia.game import BataviaGame


LEGEND = (
    "  legend: companies EN DK FR NL SE = England Denmark France Netherlands Sweden; EN2 = 2 "
    "English cards (or posts) | route: 12 DK-Sil = a face-up Danish post of silk on space 12, "
    "------ = taken, ?????? = face down, (DK-Sil) = face down, shown in the full view; "
    "player_1@9 = player_1's merchant on space 9 | warehouses: the player whose crate stands "
    "on the square (good by company), . = empty | known = the hand's cards the others have "
    "seen | score = final scoring on the public state (hands count only at the end) | "
    "cannon = cards displayed in all "
    "against the pirate threshold; cubes = displayed cards per company")


def _counts(counts: np.ndarray) -> str:
    return " ".join(f"{COMPANY_NAMES[c]}{int(n)}" for c, n in enumerate(counts) if n) or "-"


def _companies(flags: np.ndarray) -> str:
    return " ".join(COMPANY_NAMES[c] for c in np.flatnonzero(flags)) or "-"


def _tile(tile: int) -> str:
    return f"{COMPANY_NAMES[TILE_COMPANY[tile]]}-{GOOD_NAMES[TILE_GOOD[tile]][:3]}"


def decision_name(state: BataviaState, row: int) -> str:
    """The decision asked in one row with its public context, e.g. ``PLAYING (2 played)``
    (part of the golden trace: its text, ``seat N`` included, is kept under VERSION 1)."""
    phase = Phase(int(state.phase[row]))
    if phase == Phase.AUCTION_BID:
        bidder = int(state.high_bidder[row])
        context = (f"high bid {int(state.high_bid[row])} by seat {bidder}" if bidder >= 0
                   else "no bid")
        return f"AUCTION_BID ({context})"
    if phase == Phase.PLAYING:
        return f"PLAYING ({int(state.played[row].sum())} played)"
    if phase == Phase.TURN_START and state.final[row]:
        return "TURN_START (final round)"
    return phase.name


def status_text(state: BataviaState, row: int) -> str:
    """Who acts and the decision asked, or how the game ended."""
    if state.terminated[row]:
        return "game over"
    if state.truncated[row]:
        return "game over (truncated at the round cap)"
    return f"{seat_name(int(state.current_player[row]))} to act: {decision_name(state, row)}"


def _route_lines(state: BataviaState, row: int, full: bool) -> list[str]:
    opened = int(state.open[row])
    pos = state.pos[row].tolist()
    lines = []
    for block in range(NUM_BLOCKS):
        cells = []
        for space in range(block * BLOCK + 1, (block + 1) * BLOCK + 1):
            tile = int(state.route[row, space - 1])
            if tile < 0:
                text = "------"
            elif space <= opened:
                text = _tile(tile)
            else:
                text = f"({_tile(tile)})" if full else "??????"
            cells.append(f"{space:2d} {text:<8}")
        here = [f"{seat_name(p)}@{s}" for p, s in enumerate(pos) if (s - 1) // BLOCK == block
                and 1 <= s <= NUM_BLOCKS * BLOCK]
        lines.append(f"  block {block + 1}: " + " ".join(cells)
                     + (f"  <- {', '.join(here)}" if here else ""))
    return lines


def render(game: BataviaGame, state: BataviaState, index: int = 0,
           seat: int | None = None) -> str:
    """A readable view of game ``index``: the route, the auction, the seats, the warehouses.
    ``seat=p`` shows only what seat p may know (its own hand, the other hands' sizes and
    known cards, no face-down tile, no draw pile content); ``seat=None`` shows everything."""
    row = index
    players = game.num_players
    status = status_text(state, row)
    final = ", final round" if state.final[row] else ""
    lines = [f"Batavia {players}p, {game.options['variant']} variant, round "
             f"{int(state.round[row])}{final}, {status}"
             + (f" | view of {seat_name(seat)}" if seat is not None else "")]
    lines.append(
        f"ship: {seat_name(int(state.ship[row]))} | open spaces 1-{int(state.open[row])} | cannon "
        f"{int(state.cannon[row])}/{game.threshold} | cubes {_counts(state.cubes[row])} | "
        f"draw pile {int(state.deck_size[row])} | discard {_counts(state.discard[row])} | "
        f"die {int(state.die[row]) or '-'}")
    if seat is None:
        pile = state.deck[row, :int(state.deck_size[row])][::-1]
        lines.append("draw pile, top first: "
                     + (" ".join(COMPANY_NAMES[c] for c in pile) or "-"))
    lot = _counts(state.lot[row]) + (" (carried over)" if state.carried[row] else "")
    auction = ""
    if state.phase[row] == Phase.AUCTION_BID:
        bidder = int(state.high_bidder[row])
        second = int(state.second_bidder[row])
        auction = (f" | high bid {int(state.high_bid[row])}"
                   + (f" by {seat_name(bidder)}" if bidder >= 0 else "")
                   + (f", second {seat_name(second)}" if second >= 0 else "")
                   + f" | passed {np.flatnonzero(state.passed[row]).tolist()}")
    lines.append(f"lot: {lot}{auction}")
    lines.append("route (start 0, goal 36):")
    lines += _route_lines(state, row, seat is None)
    goal = int(state.goal_holder[row])
    lines.append("goal tile: "
                 + (f"taken by {seat_name(goal)}" if goal >= 0 else "on the goal space"))
    total = game.scores(state.take(row))[0]
    for s in range(players):
        sees = seat is None or seat == s
        hand = state.hand[row, s]
        hand_text = (_counts(hand) if sees else
                     f"{int(hand.sum())} cards (known {_counts(state.known[row, s])})")
        where = int(state.pos[row, s])
        where_text = "goal" if where == GOAL_SPACE else ("start" if where == 0 else str(where))
        lines.append(
            f"{seat_name(s)}: coins {int(state.coins[row, s])} | gold {int(state.gold[row, s])} "
            f"(score {int(total[s])}) | merchant {where_text} | crates "
            f"{int(state.crates[row, s])} | hand {hand_text} | display "
            f"{_counts(state.display[row, s])} | seals "
            f"{_companies(state.seal[row] == s)} | posts {_counts(state.posts[row, s])}")
    lines.append("warehouses (" + " ".join(COMPANY_NAMES) + "):")
    for g in range(NUM_GOODS):
        owners = " ".join("." if o < 0 else str(o) for o in state.warehouse[row, g].tolist())
        lines.append(f"  {GOOD_NAMES[g]:<9} {owners}")
    lines.append(LEGEND)
    return "\n".join(lines)


# What each decision asks and what each action block means there, for a human at the table
# (``python -m agents.play``'s ``?``); after the rules spec's §4 and §9.1 tables.
DECISION_HELP = {
    "AUCTION_BID": "the auction of the lot of ship cards: bid more coins than the high bid, "
                   "or pass (out of this auction)",
    "TURN_START": "start your turn: DRAW cards, or PLAY_CARD a first card to the display",
    "PLAYING": "display more cards (PLAY_CARD), or end the play by moving your merchant: "
               "END_MOVE to the next post of a company whose seal you hold, or END_GOAL",
    "EXCHANGE_CHOICE": "you took a post of a new company: EXCHANGE one post of each company "
                       "you hold for gold, or KEEP them",
}
ACTION_HELP = {
    "PASS": "PASS: drop out of this auction",
    "BID": "BID_<b>: bid b coins for the lot",
    "DRAW": "DRAW: draw cards instead of playing",
    "PLAY_CARD": "PLAY_CARD_<company>: display one card of that company from your hand",
    "END_MOVE": "END_MOVE_<company>: move your merchant to the next post of that company and "
                "take it",
    "END_GOAL": "END_GOAL: move your merchant to the goal space and take the goal tile",
    "EXCHANGE": "EXCHANGE: hand in one post of each company you hold for gold",
    "KEEP": "KEEP: keep your posts",
}
