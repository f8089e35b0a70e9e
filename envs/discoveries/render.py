"""The text board of one game: the full view, or only what one seat may know (§6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.discoveries.data import (
    COLOUR_NAMES,
    CONTRACT_NAMES,
    EXP_COLOUR,
    EXP_LIMIT,
    EXPEDITION_NAMES,
    FINAL_CARD,
    FIRST_CARD,
    FLAG_COLOURS,
    NUM_CONTRACTS,
    PILE_END,
    PILE_START,
    TASK_NAMES,
    TYPE_NAMES,
    TYPE_PRICE,
)
from envs.discoveries.rules.queries import voyage_timers
from envs.discoveries.state import FLAG, PHASE, PLAYED, DiscoveriesState, colour_name

if TYPE_CHECKING:
    from envs.discoveries.game import DiscoveriesGame

FLAG_WHERE = {FLAG.IDLE: "idle", FLAG.BUILD: "in the build", FLAG.VOYAGE: "on a voyage",
               FLAG.EXPEDITION: "on an expedition"}


LEGEND = (
    "  legend: P0 = seat 0 (player_0) | ships red3 = a red ship of trade value (TV) 3, x2 = "
    "two of them, (4) = its price, [R1] = reserved by P1, FIRST/FINAL = the scoring cards | "
    "contracts black4 = a contract (its colour and number), * = shown to every seat | "
    "expeditions: ships sent/limit, the colour the first ship set, P1:green3 = P1's green "
    "TV-3 ship, F = a flagship, J = sent with a Joker | VP (first, final) = VP of the first "
    "and the final scoring | F3 green/white = flagship 3, either colour | voyages: d2 = on "
    "the 2-turn field, timer = turns left, pays = its revenue | this turn: used = actions "
    "taken, open = the action still going on")


def _card(card: int) -> str:
    if card == FIRST_CARD:
        return "FIRST"
    if card == FINAL_CARD:
        return "FINAL"
    return TYPE_NAMES[card] if card >= 0 else "--"


def ships_text(counts: np.ndarray) -> str:
    """'red1 x2 blue3' from per-type counts (18,)."""
    parts = [TYPE_NAMES[t] + (f" x{n}" if n > 1 else "") for t, n in enumerate(counts.tolist())
             if n]
    return " ".join(parts) or "-"


def _flagship(flag: int) -> str:
    a, b = FLAG_COLOURS[flag].tolist()
    return f"F{flag} {COLOUR_NAMES[a]}/{COLOUR_NAMES[b]}"


def _schedule(players: int, name: str, reveal: int, pile: int) -> str:
    if reveal < 0:
        return f"{name}: in pile {pile}"
    due = reveal + players
    return f"{name}: revealed in turn {reveal}, scored after turn {due}"


def render(game: DiscoveriesGame, state: DiscoveriesState, index: int = 0,
           seat: int | None = None) -> str:
    """The board of row ``index``: everything (``seat=None``) or seat ``seat``'s view."""
    r, players = int(index), game.num_players
    over = bool(state.done[r])
    lines = []
    actor = int(state.current_player[r])
    head = f"Age of Discoveries, turn {int(state.turn[r])}"
    if over:
        head += " - game over" + (" (truncated at the cap)" if state.truncated[r] else "")
    else:
        head += f", seat {actor} to act: {game.decision_name(state, r)}"
    if seat is not None:
        head += f"  [view of seat {seat}]"
    lines.append(head)
    first_done = " (done)" if state.first_done[r] else ""
    lines.append("  " + _schedule(players, "First Scoring",
                                  int(state.first_reveal[r]), 3) + first_done + "; "
                 + _schedule(players, "Final Scoring", int(state.final_reveal[r]), 5))
    if not over:
        used = [n for bit, n in ((1, "coins"), (2, "contract"), (4, "buy"), (8, "dispatch"))
                if int(state.used[r]) & bit]
        open_name = ("none", "buy", "dispatch")[int(state.open_type[r])]
        lines.append(f"  this turn: used {', '.join(used) or 'nothing'}; open {open_name}")
    # The market with its reservation markers.
    owner = state.res_owner[r].tolist()

    def marked(slot: int, text: str) -> str:
        return text + (f"[R{owner[slot]}]" if owner[slot] >= 0 else "")

    offer = [marked(i, _card(int(c)) + (f"({int(TYPE_PRICE[c])})" if c >= 0 else ""))
             for i, c in enumerate(state.offer[r].tolist())]
    refill = [marked(5 + i, _card(int(c))) for i, c in enumerate(state.refill[r].tolist())]
    lines.append("  refill: " + "  ".join(refill))
    lines.append("  offer:  " + "  ".join(offer))
    pos = int(state.pile_pos[r])
    sizes = [max(0, int(e) - max(pos, int(s))) for s, e in zip(PILE_START, PILE_END,
                                                              strict=True)]
    piles = f"  piles: {' '.join(map(str, sizes))}"
    if seat is None:
        piles += "  (" + " | ".join(
            " ".join(_card(int(c)) for c in state.piles[r, max(pos, int(s)):int(e)])
            for s, e in zip(PILE_START, PILE_END, strict=True)) + ")"
    lines.append(piles)
    display = [marked(10 + j, CONTRACT_NAMES[c] if c >= 0 else "--")
               for j, c in enumerate(state.display[r].tolist())]
    deck = NUM_CONTRACTS - int(state.deck_pos[r])
    contracts = f"  contracts: display {'  '.join(display)}; deck {deck}"
    if seat is None:
        contracts += " (" + " ".join(CONTRACT_NAMES[c] for c in
                                     state.contracts[r, int(state.deck_pos[r]):]) + ")"
    lines.append(contracts)
    lines.append("  expeditions:")
    for e in range(len(EXPEDITION_NAMES)):
        size = int(state.exp_size[r, e])
        ships = " ".join(
            f"P{int(state.exp_owner[r, e, k])}:{COLOUR_NAMES[state.exp_colour[r, e, k]]}"
            f"{int(state.exp_tv[r, e, k])}" + ("F" if state.exp_flag[r, e, k] else "")
            + ("J" if state.exp_joker[r, e, k] else "") for k in range(size))
        lines.append(f"    {e:2d} {EXPEDITION_NAMES[e]:<21} {COLOUR_NAMES[EXP_COLOUR[e]]:<6} "
                     f"{int(state.exp_used[r, e])}/{int(EXP_LIMIT[e])} "
                     f"{colour_name(int(state.exp_colour_set[r, e])):<6} {ships}")
    for s in range(players):
        lines += _seat_lines(state, r, s, seat, over)
    if state.phase[r] == PHASE.BUILD_CONTRACT:
        flag = int(state.build_flag_tv[r])
        lines.append(f"  build: {CONTRACT_NAMES[int(state.build_card[r])]} "
                     f"d{int(state.build_duration[r])}, {int(state.build_tv[r])} TV: "
                     f"{ships_text(state.build_ships[r])}"
                     + (f" + flagship {colour_name(int(state.build_flag_colour[r]))}{flag}"
                        if flag else "") + f", Jokers {int(state.build_jokers[r])}")
    lines.append(LEGEND)
    return "\n".join(line.rstrip() for line in lines)


def _seat_lines(state: DiscoveriesState, r: int, s: int, seat: int | None,
                over: bool) -> list[str]:
    sees = seat is None or seat == s
    vp = int(state.vp_first[r, s]) + int(state.vp_final[r, s])
    lines = [f"  P{s}: {int(state.coins[r, s])} coins, {vp} VP "
             f"(first {int(state.vp_first[r, s])}, final {int(state.vp_final[r, s])}), "
             f"{int(state.completed[r, s])} completed, Jokers {int(state.jokers[r, s])}, "
             f"Reservations {int(state.reserves[r, s])}"]
    cards = list(zip(state.hand[r, s].tolist(), state.hand_public[r, s].tolist(), strict=True))
    shown = sorted((c, pub) for c, pub in cards if c >= 0 and (pub or sees))
    text = " ".join(CONTRACT_NAMES[c] + ("*" if pub else "") for c, pub in shown) or "-"
    hidden = sum(1 for c, pub in cards if c >= 0 and not pub)
    if not sees and hidden:
        text += f" + {hidden} hidden"
    lines.append(f"      hand: {text}")
    lines.append(f"      idle: {ships_text(state.idle[r, s])}")
    flag = int(state.flag_id[r, s])
    where = FLAG_WHERE[int(state.flag_where[r, s])]
    if state.flag_revealed[r, s]:
        lines.append(f"      flagship: {_flagship(flag)}, {where}")
    elif sees:
        lines.append(f"      flagship: {_flagship(flag)} (face down), {where}")
    else:
        lines.append("      flagship: face down, idle")
    voyages = []
    timers = voyage_timers(state)[r]
    for c in np.flatnonzero((state.con_owner[r] == s) & (state.con_state[r] == PLAYED.ACTIVE)):
        flag_tv = int(state.con_flag_tv[r, c])
        voyages.append(f"{CONTRACT_NAMES[c]} d{int(state.con_duration[r, c])} timer "
                       f"{int(timers[c])} pays {int(state.con_revenue[r, c])}: "
                       f"{ships_text(state.con_ships[r, c])}"
                       + (f" + flagship {colour_name(int(state.con_flag_colour[r, c]))}"
                          f"{flag_tv}" if flag_tv else ""))
    if voyages:
        lines.append("      voyages: " + "; ".join(voyages))
    if sees or over:
        lines.append(f"      task: {TASK_NAMES[int(state.task[r, s])]}")
    return lines


# What each decision asks and what each action block means there, for a human at the table
# (``python -m agents.play``'s ``?``); after the rules spec's §4.2 and §9.1 tables.
DECISION_HELP = {
    "MAIN": "your turn: take coins or a contract, buy a ship, send a ship to an expedition, "
            "play a contract, use a reservation, or end the turn",
    "PICK_EXP_SHIP": "choose the idle ship (or your flagship) you send to the expedition",
    "BUILD_CONTRACT": "choose the next idle ship (or your flagship) for the contract you "
                      "play, until its requirement is met",
}
ACTION_HELP = {
    "END_TURN": "END_TURN: end your turn",
    "TAKE_COINS": "TAKE_COINS: take 2 coins",
    "TAKE_DISPLAY": "TAKE_DISPLAY_<j>: take face-up contract j",
    "TAKE_BLIND": "TAKE_BLIND: take the top contract of the deck",
    "BUY": "BUY_<i>: buy the ship in offer slot i",
    "SEND": "SEND_<e>: send a ship to expedition e (the ship is asked next)",
    "PLAY": "PLAY_<contract>_d<n>: play that contract from your hand on the n-turn field",
    "PICK_SHIP": "PICK_SHIP_<colour><tv>: an idle ship of that colour and trade value",
    "PICK_FLAGSHIP": "PICK_FLAGSHIP_slot<s>_tv<v>: your flagship as colour s of its pair, "
                     "with trade value v",
    "RESERVE_OFFER": "RESERVE_OFFER_<i>: use a reservation on offer slot i",
    "RESERVE_REFILL": "RESERVE_REFILL_<i>: use a reservation on refill slot i",
    "RESERVE_CONTRACT": "RESERVE_CONTRACT_<j>: use a reservation on display contract j",
}
