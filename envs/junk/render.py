"""Text board of one game: the full (debugging) view, or what one seat may know.

``seat=None`` shows everything: hands by type, face-down cards, pile contents, pending bids
and the market deck. ``seat=p`` shows seat p's own hand, cards, pending bid and pile memory,
and of the others only what the table sees (hand sizes, face-down counts, "committed"); it
follows the options (other seats' money as announced under ``hide_money``, only "empty" or
"stocked" stacks under ``hide_stacks``), so it does not change when ``resample_hidden``
redraws what p cannot see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.names import seat_name
from envs.junk.data import (
    EVENT_S,
    EVENT_Y,
    EVENTS,
    GOODS_NAMES,
    GOODS_OF_JUNK,
    HELPER_TRACK,
    JUNK_NAMES,
    KIND_NAMES,
    MARKET_CARDS,
    MERCHANT_NAMES,
    NUM_ALWAYS,
    NUM_JUNKS,
    NUM_PILES,
    PILE_NAMES,
    SPECIAL_NAMES,
    SUPPLY_CARDS,
    SUPPLY_PLUS,
)
from envs.junk.state import MAX_BID, PHASE, A, JunkState, Phase

if TYPE_CHECKING:
    from envs.junk.game import JunkGame


LEGEND = ("  legend: Lk:abc = layer k of a hold, its 3 slots from slot 0 (digit n = a strip of "
          "player_n, . = empty; even layers lie in rows, odd ones in columns; the top 3 layers "
          "shown) | vis by seat = visible crates of player_0, player_1, ... | F R S V = FISH "
          "RICE SPICE VEG cards in hand | price S = the good's winner takes a special card | "
          "event S = a special card for each seat, Y = money announced, - = none | LOAD(n) = "
          "load n strips | market card n = card n of the rules' table | strips = strips left to "
          "load, supply = goods taken in Phase 3 | xN = N copies of a card")


def goods_text(counts: np.ndarray) -> str:
    return " ".join(f"{GOODS_NAMES[g][0]}{int(c)}" for g, c in enumerate(counts))


def card_list(counts: np.ndarray) -> str:
    names = [f"{SPECIAL_NAMES[t]}x{int(c)}" if c > 1 else SPECIAL_NAMES[t]
             for t, c in enumerate(counts) if c > 0]
    return ", ".join(names) or "-"


def bid_text(action: int) -> str:
    if action < 0:
        return "-"
    if action == A.PASS_BID:
        return "pass"
    offset = action - A.BID
    return f"{offset % MAX_BID + 1} {GOODS_NAMES[offset // MAX_BID]}"


def _price(value: int) -> str:
    return "S" if value == 0 else str(value)


def status_text(state: JunkState, i: int) -> str:
    """Who acts and the decision asked, or the end of the game (public)."""
    if state.done[i]:
        return "game over" + (" (truncated)" if state.truncated[i] else "")
    status = (f"{seat_name(int(state.current_player[i]))} to act: "
              f"{Phase(int(state.phase[i])).name}")
    if state.bid_round[i]:
        status += f" (bidding round {int(state.bid_round[i])})"
    return status


def seat_texts(game: JunkGame, state: JunkState, i: int, s: int, own: bool
               ) -> dict[str, str]:
    """Seat ``s``'s money, hand, face-down cards and bid as the viewer sees them (``own``:
    the viewer is the seat, or sees everything)."""
    if not own and game.hide_money and not state.done[i]:
        money = f"announced {int(state.announced[i, s])} Yuan"
    else:
        money = f"{int(state.money[i, s])} Yuan"
    hidden, size = int(state.hidden[i, s]), int(state.hand_size[i, s])
    bid = "-"
    if state.committed[i, s]:
        bid = bid_text(int(state.pending[i, s])) if own else "committed"
    return {
        "money": money,
        "hand": goods_text(state.hand[i, s]) if own else f"{size} card{'s' * (size != 1)}",
        "face_up": card_list(np.pad(state.always[i, s], (0, len(SPECIAL_NAMES) - NUM_ALWAYS))),
        "face_down": card_list(state.held[i, s]) if own else f"{hidden} card{'s' * (hidden != 1)}",
        "bid": bid,
    }


def last_reveal_text(state: JunkState, i: int, players: int) -> str:
    """The last reveal of bids (public), or "" before the first."""
    if not state.lr_round[i]:
        return ""
    bids = ", ".join(f"{seat_name(s)} {bid_text(int(state.lr_bid[i, s]))}"
                     f" (+{int(state.lr_payout[i, s])})" for s in range(players))
    award = ""
    if state.lr_taker[i] >= 0:
        took = ("3 Yuan" if state.lr_yuan[i] else PILE_NAMES[state.lr_pile[i]]
                if state.lr_pile[i] >= 0 else "pending")
        award = f"; S award to {seat_name(int(state.lr_taker[i]))}: {took}"
    return (f"last reveal (round {int(state.lr_round[i])}, bidding round "
            f"{int(state.lr_bid_round[i])}): {bids}{award}")


def render(game: JunkGame, state: JunkState, index: int = 0, seat: int | None = None) -> str:
    """The text board of row ``index`` (module doc)."""
    i, n = index, game.num_players
    full = seat is None
    rnd, phase = int(state.round[i]), int(state.phase[i])
    actor = int(state.current_player[i])
    view = "full view" if full else f"view of {seat_name(seat)}"
    lines = []
    start = seat_name(max(rnd - 1, 0) % n)
    lines.append(f"junk, {n} players, {view}: round {rnd}, start player {start}, "
                 f"{status_text(state, i)}")
    # market and figures
    if rnd >= 1:
        card = int(state.market_order[i, rnd - 1])
        prices = " ".join(f"{GOODS_NAMES[g]} {_price(int(MARKET_CARDS[card, g]))}"
                          + (" (sold)" if state.sold[i, g] else "") for g in range(4))
        lines.append(f"  market card {card + 1}: {prices}")
        event = {EVENT_S: "S", EVENT_Y: "Y"}.get(int(EVENTS[rnd - 1]), "-")
        helpers = []
        for h in range(n - 2):
            kind, size = HELPER_TRACK[h, rnd - 1]
            used = " (used)" if state.fig_used[i, 3 + h] else ""
            helpers.append(f"{('lower', 'upper')[h]} {KIND_NAMES[kind]}"
                           + (f"({size})" if size else "") + used)
        lines.append(f"  event {event}; helpers: {', '.join(helpers)}")
    if full and rnd < 10:
        order = ", ".join(str(int(c) + 1) for c in state.market_order[i, rnd:])
        lines.append(f"  market deck (hidden): {order}")
    if state.merchants_hidden[i] and not full:
        where = ", ".join(sorted(JUNK_NAMES[j] for j in state.merchant_junk[i]))
        lines.append(f"  merchants face down on {where}")
    else:
        figures = ", ".join(f"{MERCHANT_NAMES[k]} on {JUNK_NAMES[state.merchant_junk[i, k]]}"
                            + (" (used)" if state.fig_used[i, k] else "")
                            + (" (face down)" if state.merchants_hidden[i] else "")
                            for k in range(3))
        lines.append(f"  merchants: {figures}")
    # junks
    for j in range(NUM_JUNKS):
        h = int(state.height[i, j])
        layers = []
        for k in range(max(h - 2, 0), h + 1):
            slots = "".join("." if o < 0 else str(int(o)) for o in state.cargo[i, j, k])
            layers.append(f"L{k}:{slots}")
        vis = " ".join(str(int(v)) for v in state.vis[i, j])
        if j == 0:
            stack = "any good"
        else:
            g = int(GOODS_OF_JUNK[j])
            count = int(state.stack[i, g])
            shown = str(count) if full or not game.hide_stacks else (
                "empty" if count == 0 else "stocked")
            stack = f"{GOODS_NAMES[g]} stack {shown}"
        lines.append(f"  {JUNK_NAMES[j]:6s} {stack:16s} vis by seat [{vis}]  "
                     + (" ".join(layers) if h >= 0 else "empty hold"))
    # piles
    sizes = state.pile_cards[i].sum(axis=1)
    lines.append("  piles: " + ", ".join(f"{PILE_NAMES[q]} {int(sizes[q])}"
                                         for q in range(NUM_PILES)))
    if full:
        for q in range(NUM_PILES):
            lines.append(f"    {PILE_NAMES[q]}: {card_list(state.pile_cards[i, q])}")
    elif seat is not None:
        for q in range(NUM_PILES):
            if state.searched[i, seat, q]:
                lines.append(f"    {PILE_NAMES[q]} as {seat_name(seat)} last left it: "
                             f"{card_list(state.seen[i, seat, q])}")
    if (phase == PHASE.SPECIAL_PICK and not state.done[i]
            and (full or actor == seat)):
        q = int(state.pick_pile[i])
        lines.append(f"  searching {PILE_NAMES[q]}: {card_list(state.pile_cards[i, q])}")
    # seats
    score = game.scores(state.take(i))[0]
    for s in range(n):
        text = seat_texts(game, state, i, s, full or s == seat)
        supply = SUPPLY_CARDS + int(state.always[i, s, SUPPLY_PLUS])
        extra = "; EXTRA used" if state.extra_used[i, s] else ""
        bid = "" if not state.committed[i, s] else f"; bid {text['bid']}"
        score_text = f"; score {int(score[s])}" if full or state.done[i] else ""
        lines.append(f"  {seat_name(s)}: {text['money']}; hand {text['hand']}; strips "
                     f"{int(state.strips[i, s])}; supply {supply}; face up {text['face_up']}; "
                     f"face down {text['face_down']}{extra}{bid}{score_text}")
    reveal = last_reveal_text(state, i, n)
    if reveal:
        lines.append(f"  {reveal}")
    lines.append(LEGEND)
    assert NUM_ALWAYS == 3
    return "\n".join(lines)


# What each decision asks and what each action block means there, for a human at the table
# (``python -m agents.play``'s ``?``); after the rules spec's §9.1 tables.
DECISION_HELP = {
    "SETUP_JUNK": "variable setup: choose the junk that gets the next strip",
    "EXCH_RETURN": "exchange: return a good from your hand (at most 2), or DONE",
    "EXCH_TAKE": "exchange: take a good for each one returned",
    "EVENT_PILE": "the round's event: choose the pile of special cards to search",
    "SPECIAL_PICK": "choose the special card you take from the searched pile",
    "P2_MAIN": "your main action: a merchant or a helper on a junk, or an extra card first",
    "P2_AFTER": "play an extra card after your main action, or DONE",
    "GREY_TYPE": "a goods action on the grey junk: choose the type of good",
    "SUPPLY_PICK": "take the good of one supply card",
    "BID": "the secret bid: goods of one type and how many, or pass (revealed together)",
    "AWARD_PILE": "your award: choose the pile to search (round 10: or 3 Yuan)",
}
ACTION_HELP = {
    "MAIN_MERCHANT": "MAIN_MERCHANT_<LOAD|MONEY|GOODS>: take that merchant's action",
    "MAIN_HELPER": "MAIN_HELPER_<lower|upper>_<junk>: put that helper on the junk",
    "LOAD_ONE": "LOAD_ONE_<junk>: extra card, load one strip on the junk",
    "GOODS_ANY": "GOODS_ANY_<junk>: extra card, take any good at the junk",
    "MONEY_AT": "MONEY_AT_<junk>: extra card, money at the junk",
    "MOVE_STRIP": "MOVE_STRIP_<from>_<to>: extra card, move a strip between junks",
    "GOODS": "GOODS_<good>: take a good of that type",
    "RETURN": "RETURN_<good>: return a good of that type",
    "PILE": "PILE_<shape>: the pile of special cards with that shape",
    "SPECIAL": "SPECIAL_<card>: take that special card",
    "PASS_BID": "PASS_BID: bid nothing",
    "BID": "BID_<good>_<n>: bid n goods of that type",
    "DONE": "DONE: decline, pass or end the turn",
    "TAKE_3_YUAN": "TAKE_3_YUAN: take 3 Yuan instead of a card (round 10)",
    "SETUP_JUNK": "SETUP_JUNK_<junk>: that junk",
}
