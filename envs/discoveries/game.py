"""Age of Discoveries: ships bought, sent on shared expeditions or on private trade voyages.

Batched NumPy rules of the game specified in ``/work/shared/rules/discoveries.md`` (its
amendments included) for 2, 3 and 4 players. Players buy ships of six colours from a sliding
two-row market and send them either to one of twelve expeditions (VP at the First and the
Final Scoring) or on trade contracts that need an exact transport value in their colour and
pay coins after 1-3 of the owner's turns. Each turn holds at most two different main actions
(coins, a contract, buying, dispatching); Joker and Reservation cards are free extras; a
secret special task pays at the end. All chance is drawn in ``init`` (§3), so a step never
consults the generator: the piles and the contract deck are read from the drawn orders.
Decisions that public information alone forces are applied inside ``step`` (§4.5).

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
7. (§4.5) The public mask of a pick decision is taken over the flagships the table cannot
   rule out (those not revealed); the public unseen set is the deck and every seat's hidden
   hand cards. A decision with two legal actions is never forced, so the joined masks are
   computed only where the true mask holds one action.
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

import numpy as np

from envs.core.decisions import Decision
from envs.core.game import Game
from envs.core.rng import integers, make_rng, permutation
from envs.discoveries import legality, observation, picture, render, resample, scoring
from envs.discoveries.data import (
    COINS_ACTION,
    COLOUR_NAMES,
    CONTRACT_COLOUR,
    CONTRACT_FEE,
    CONTRACT_NAMES,
    CONTRACT_REVENUE,
    CONTRACT_TV,
    DISPLAY_SLOTS,
    EXP_COLOUR,
    EXPEDITION_NAMES,
    FINAL_CARD,
    FIRST_CARD,
    FLAG_COLOURS,
    FLAGSHIP_FEE,
    JOKERS_PER_PLAYER,
    MARKET_SLOTS,
    MAX_CHAIN,
    MAX_DECISIONS,
    MAX_EXP_SHIPS,
    MAX_TURNS,
    NUM_CONTRACTS,
    NUM_EXPEDITIONS,
    NUM_FLAGSHIPS,
    NUM_SHIPS,
    NUM_TASK_KINDS,
    NUM_TYPES,
    PILE_CARDS,
    PILE_START,
    RESERVATIONS_PER_PLAYER,
    SHIP_CARD_TYPE,
    SHIP_FEE,
    SHIPS_BEFORE_PILES,
    SHIPS_PER_PILE,
    START_COINS,
    START_HAND,
    TYPE_COLOUR,
    TYPE_PRICE,
    TYPE_TV,
)
from envs.discoveries.invariants import check_invariants
from envs.discoveries.state import (
    ACTIONS,
    FLAG,
    MAIN,
    NOT_REVEALED,
    OPEN,
    PHASE,
    PLAYED,
    RES_DISPLAY,
    DiscoveriesState,
    Phase,
    action_name,
)

VERSION = 1
_NONE = -1


def _main_kinds() -> np.ndarray:
    """(134,) int8: the handler of each MAIN action (an index of ``_MAIN_HANDLERS``)."""
    kinds = np.zeros(ACTIONS.size, dtype=np.int8)
    for k, block in enumerate(("END_TURN", "TAKE_COINS", "TAKE_DISPLAY", "BUY", "SEND", "PLAY",
                               "RESERVE_OFFER")):
        kinds[getattr(ACTIONS, block).start:] = k  # TAKE_BLIND shares the take handler
    return kinds


_MAIN_KIND = _main_kinds()


class DiscoveriesGame(Game[DiscoveriesState]):
    """The rules of Age of Discoveries for one player count (see the module docstring)."""

    ENV_ID = "discoveries"
    VERSION = VERSION
    PLAYER_COUNTS = (2, 3, 4)
    DEFAULT_PLAYERS = 3
    HAS_HIDDEN_INFO = True  # hands, blind draws, face-down flagships, tasks, pile orders
    OPTIONS = {}  # §8 item 9: no rule options

    def __init__(self, num_players: int | None = None, **options):
        super().__init__(num_players, **options)
        self.num_actions = ACTIONS.size
        self.observation_shape = (observation.OBS.size,)
        self.observation_low, self.observation_high = observation.OBS.bounds()
        self.action_layout = ACTIONS
        self.observation_layout = observation.OBS
        self.max_decisions = MAX_DECISIONS
        self.max_chain = MAX_CHAIN
        self.decisions = {
            PHASE.MAIN: Decision("MAIN", legality.main_mask, self._apply_main,
                                 legality.main_forced),
            PHASE.PICK_EXP_SHIP: Decision("PICK_EXP_SHIP", self._legal_exp_pick,
                                          self._apply_exp_pick, self._forced_exp_pick),
            PHASE.BUILD_CONTRACT: Decision("BUILD_CONTRACT", self._legal_build_pick,
                                           self._apply_build_pick, self._forced_build_pick),
        }
        self._main_handlers = (self._end_turn, self._take_coins, self._take_contract,
                               self._buy, self._send, self._play, self._reserve)

    # ---------------------------------------------------------------- setup (§3)
    def _init(self, seeds: np.ndarray) -> DiscoveriesState:
        num, players = len(seeds), self.num_players
        rng = make_rng(seeds)
        # The draws in the spec's order (§3, "All chance is drawn at setup").
        start = integers(rng, None, players).astype(np.int8)
        ships = SHIP_CARD_TYPE[permutation(rng, None, NUM_SHIPS)]  # (B, 42) types
        first_at = integers(rng, None, SHIPS_PER_PILE[2] + 1)
        final_at = integers(rng, None, SHIPS_PER_PILE[4] + 1)
        contracts = permutation(rng, None, NUM_CONTRACTS).astype(np.int8)
        tasks = permutation(rng, None, NUM_TASK_KINDS)
        flags = permutation(rng, None, NUM_FLAGSHIPS)
        seat_of = (start[:, None] + np.arange(players)) % players  # i-th dealt -> seat
        rows = np.arange(num)[:, None]

        def by_seat(dealt: np.ndarray) -> np.ndarray:
            out = np.empty((num, players), dtype=np.int8)
            out[rows, seat_of] = dealt[:, :players]
            return out

        hand = np.full((num, players, 4), _NONE, dtype=np.int8)
        start_hands = contracts[:, DISPLAY_SLOTS:DISPLAY_SLOTS + START_HAND * players]
        hand[rows, seat_of, :START_HAND] = start_hands.reshape(num, players, START_HAND)
        z = np.zeros
        p = players
        state = DiscoveriesState(
            current_player=start.astype(np.int32),
            terminated=z(num, dtype=bool),
            truncated=z(num, dtype=bool),
            rewards=z((num, p), dtype=np.float32),
            rng=rng,
            phase=z(num, dtype=np.int8),
            start_player=start,
            turn=z(num, dtype=np.int16),
            own_turns=z((num, p), dtype=np.int16),
            used=z(num, dtype=np.int8),
            open_type=z(num, dtype=np.int8),
            bought=z(num, dtype=np.int8),
            placed=z(num, dtype=np.int8),
            offer=ships[:, :MARKET_SLOTS].astype(np.int8),
            refill=ships[:, MARKET_SLOTS:SHIPS_BEFORE_PILES].astype(np.int8),
            piles=_pile_sequence(ships[:, SHIPS_BEFORE_PILES:], first_at, final_at),
            pile_pos=z(num, dtype=np.int8),
            pile_ships=_type_counts(ships[:, SHIPS_BEFORE_PILES:]),
            res_owner=np.full((num, 2 * MARKET_SLOTS + DISPLAY_SLOTS), _NONE, dtype=np.int8),
            res_turn=z((num, 2 * MARKET_SLOTS + DISPLAY_SLOTS), dtype=np.int16),
            contracts=contracts,
            deck_pos=np.full(num, DISPLAY_SLOTS + START_HAND * p, dtype=np.int8),
            display=contracts[:, :DISPLAY_SLOTS].copy(),
            hand=hand,
            hand_public=z((num, p, 4), dtype=bool),
            hand_size=np.full((num, p), START_HAND, dtype=np.int8),
            con_state=z((num, NUM_CONTRACTS), dtype=np.int8),
            con_owner=np.full((num, NUM_CONTRACTS), _NONE, dtype=np.int8),
            con_due=z((num, NUM_CONTRACTS), dtype=np.int16),
            con_duration=z((num, NUM_CONTRACTS), dtype=np.int8),
            con_revenue=z((num, NUM_CONTRACTS), dtype=np.int16),
            con_ships=z((num, NUM_CONTRACTS, NUM_TYPES), dtype=np.int8),
            con_flag_tv=z((num, NUM_CONTRACTS), dtype=np.int8),
            con_flag_colour=np.full((num, NUM_CONTRACTS), _NONE, dtype=np.int8),
            con_jokers=z((num, NUM_CONTRACTS), dtype=np.int8),
            voyage_revenue=z((num, p, 3), dtype=np.int16),
            voyage_ships=z((num, p, 3), dtype=np.int8),
            voyage_fleet=z((num, p, 3, NUM_TYPES), dtype=np.int8),
            target=np.full(num, _NONE, dtype=np.int8),
            build_card=np.full(num, _NONE, dtype=np.int8),
            build_duration=z(num, dtype=np.int8),
            build_tv=z(num, dtype=np.int8),
            build_ships=z((num, NUM_TYPES), dtype=np.int8),
            build_flag_tv=z(num, dtype=np.int8),
            build_flag_colour=np.full(num, _NONE, dtype=np.int8),
            build_jokers=z(num, dtype=np.int8),
            coins=np.full((num, p), START_COINS, dtype=np.int16),
            vp_first=z((num, p), dtype=np.int16),
            vp_final=z((num, p), dtype=np.int16),
            completed=z((num, p), dtype=np.int8),
            jokers=np.full((num, p), JOKERS_PER_PLAYER[p], dtype=np.int8),
            reserves=np.full((num, p), RESERVATIONS_PER_PLAYER[p], dtype=np.int8),
            idle=z((num, p, NUM_TYPES), dtype=np.int8),
            flag_id=by_seat(flags),
            flag_revealed=z((num, p), dtype=bool),
            flag_where=z((num, p), dtype=np.int8),
            task=by_seat(tasks),
            income_coins=z((num, p), dtype=np.int16),
            income_revenue=z((num, p), dtype=np.int16),
            contracts_taken=z((num, p), dtype=np.int16),
            paid_prices=z((num, p), dtype=np.int16),
            paid_fees=z((num, p), dtype=np.int16),
            ships_bought=z((num, p), dtype=np.int16),
            jokers_used_exp=z((num, p), dtype=np.int16),
            jokers_used_con=z((num, p), dtype=np.int16),
            contracts_discarded=z(num, dtype=np.int8),
            exp_owner=np.full((num, NUM_EXPEDITIONS, MAX_EXP_SHIPS), _NONE, dtype=np.int8),
            exp_colour=np.full((num, NUM_EXPEDITIONS, MAX_EXP_SHIPS), _NONE, dtype=np.int8),
            exp_tv=z((num, NUM_EXPEDITIONS, MAX_EXP_SHIPS), dtype=np.int8),
            exp_flag=z((num, NUM_EXPEDITIONS, MAX_EXP_SHIPS), dtype=bool),
            exp_joker=z((num, NUM_EXPEDITIONS, MAX_EXP_SHIPS), dtype=bool),
            exp_turn=np.full((num, NUM_EXPEDITIONS, MAX_EXP_SHIPS), _NONE, dtype=np.int16),
            exp_size=z((num, NUM_EXPEDITIONS), dtype=np.int8),
            exp_used=z((num, NUM_EXPEDITIONS), dtype=np.int8),
            exp_colour_set=np.full((num, NUM_EXPEDITIONS), _NONE, dtype=np.int8),
            exp_count=z((num, NUM_EXPEDITIONS, p), dtype=np.int8),
            exp_same=z((num, NUM_EXPEDITIONS, p), dtype=np.int8),
            first_reveal=np.full(num, NOT_REVEALED, dtype=np.int16),
            final_reveal=np.full(num, NOT_REVEALED, dtype=np.int16),
            first_done=z(num, dtype=bool),
        )
        state.own_turns[np.arange(num), start] = 1  # the start player's TURN_START
        return state

    # ---------------------------------------------------------------- masks
    def _legal_exp_pick(self, state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
        return self._pick_mask(state, rows, legality.exp_pick_options)

    def _legal_build_pick(self, state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
        return self._pick_mask(state, rows, legality.build_pick_options)

    @staticmethod
    def _pick_mask(state: DiscoveriesState, rows: np.ndarray, options) -> np.ndarray:
        seat = legality.Seat(state, rows)
        picks = options(state, seat, seat.flag_id)
        return ACTIONS.block_mask(ACTIONS.PICK_SHIP, picks, ACTIONS.PICK_FLAGSHIP)

    @staticmethod
    def _forced_exp_pick(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
        return legality.pick_forced(state, rows, legality.exp_pick_options)

    @staticmethod
    def _forced_build_pick(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
        return legality.pick_forced(state, rows, legality.build_pick_options)

    # ---------------------------------------------------------------- MAIN (§5.1-§5.8)
    def _apply_main(self, state: DiscoveriesState, rows: np.ndarray,
                    actions: np.ndarray) -> None:
        kinds = _MAIN_KIND[actions]
        if rows.size == 1:
            self._main_handlers[kinds[0]](state, rows, actions)
            return
        for kind in np.unique(kinds).tolist():
            sel = kinds == kind
            self._main_handlers[kind](state, rows[sel], actions[sel])

    @staticmethod
    def _open(state: DiscoveriesState, rows: np.ndarray, bit: int, open_type: int) -> None:
        """Take a step of main action ``bit``: it is used, and open (or nothing is)."""
        state.used[rows] |= bit
        state.open_type[rows] = open_type

    def _take_coins(self, state: DiscoveriesState, rows: np.ndarray, actions) -> None:
        seat = legality.seats(state, rows)
        state.coins[rows, seat] += COINS_ACTION
        state.income_coins[rows, seat] += COINS_ACTION
        self._open(state, rows, MAIN.COINS, OPEN.NONE)

    def _take_contract(self, state: DiscoveriesState, rows: np.ndarray,
                       actions: np.ndarray) -> None:
        """TAKE_DISPLAY(j) and TAKE_BLIND: pay 1, the card goes to the hand (§5.2)."""
        seat = legality.seats(state, rows)
        slot = (actions - ACTIONS.TAKE_DISPLAY.start).astype(np.intp)
        blind = slot == DISPLAY_SLOTS
        top = state.contracts[rows, np.minimum(state.deck_pos[rows], NUM_CONTRACTS - 1)]
        shown = state.display[rows, np.minimum(slot, DISPLAY_SLOTS - 1)]
        card = np.where(blind, top, shown)
        free = np.argmax(state.hand[rows, seat] < 0, axis=1)
        state.hand[rows, seat, free] = card
        state.hand_public[rows, seat, free] = ~blind
        state.hand_size[rows, seat] += 1
        # The display slot is refilled from the deck (the blind draw takes the same card).
        has_deck = state.deck_pos[rows] < NUM_CONTRACTS
        face = np.flatnonzero(~blind)
        sub = rows[face]
        state.display[sub, slot[face]] = np.where(has_deck[face], top[face], _NONE)
        state.res_owner[sub, RES_DISPLAY + slot[face]] = _NONE
        state.deck_pos[rows[has_deck]] += 1
        state.revealed[sub[has_deck[face]]] = True
        state.revealed[rows[blind], seat[blind]] = True
        state.coins[rows, seat] -= CONTRACT_FEE
        state.contracts_taken[rows, seat] += 1
        self._open(state, rows, MAIN.CONTRACT, OPEN.NONE)

    def _buy(self, state: DiscoveriesState, rows: np.ndarray, actions: np.ndarray) -> None:
        """BUY(i): pay, the refill card slides down with its marker, a new one is drawn."""
        seat = legality.seats(state, rows)
        slot = (actions - ACTIONS.BUY.start).astype(np.intp)
        ship = state.offer[rows, slot].astype(np.intp)
        price = TYPE_PRICE[ship]
        state.coins[rows, seat] -= price
        state.paid_prices[rows, seat] += price
        state.ships_bought[rows, seat] += 1
        state.idle[rows, seat, ship] += 1
        state.bought[rows] += 1
        above = slot + MARKET_SLOTS
        state.offer[rows, slot] = state.refill[rows, slot]
        state.res_owner[rows, slot] = state.res_owner[rows, above]
        state.res_turn[rows, slot] = state.res_turn[rows, above]
        state.res_owner[rows, above] = _NONE
        drawing = state.refill[rows, slot] >= 0
        state.refill[rows, slot] = _NONE
        sub = rows[drawing]
        state.refill[sub, slot[drawing]] = self._draw(state, sub)
        state.revealed[sub] = True
        self._open(state, rows, MAIN.BUY, OPEN.BUY)

    @staticmethod
    def _draw(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
        """DRAW() of §5.3 for ``rows``: the next ship of the pile sequence, a scoring card on
        the way setting its reveal turn (the two are never adjacent); -1 when all are gone."""
        card = np.full(rows.size, _NONE, dtype=np.int8)
        pending = np.arange(rows.size)
        for _ in range(2):
            if not pending.size:
                break
            sub = rows[pending]
            pos = state.pile_pos[sub].astype(np.intp)
            left = pos < PILE_CARDS
            pending, sub, pos = pending[left], sub[left], pos[left]
            drawn = state.piles[sub, pos]
            state.pile_pos[sub] += 1
            first, final = drawn == FIRST_CARD, drawn == FINAL_CARD
            state.first_reveal[sub[first]] = state.turn[sub[first]]
            state.final_reveal[sub[final]] = state.turn[sub[final]]
            ship = ~(first | final)
            card[pending[ship]] = drawn[ship]
            state.pile_ships[sub[ship], drawn[ship]] -= 1
            pending = pending[~ship]
        return card

    def _send(self, state: DiscoveriesState, rows: np.ndarray, actions: np.ndarray) -> None:
        state.target[rows] = actions - ACTIONS.SEND.start
        state.phase[rows] = PHASE.PICK_EXP_SHIP
        self._open(state, rows, MAIN.DISPATCH, OPEN.DISPATCH)

    def _play(self, state: DiscoveriesState, rows: np.ndarray, actions: np.ndarray) -> None:
        """PLAY_CONTRACT(c, d): the card leaves the hand face up; the build begins (§5.5)."""
        seat = legality.seats(state, rows)
        offset = actions - ACTIONS.PLAY.start
        card = (offset // 3).astype(np.int8)
        slot = np.argmax(state.hand[rows, seat] == card[:, None], axis=1)
        hidden = ~state.hand_public[rows, seat, slot]
        others = np.arange(self.num_players) != seat[:, None]
        state.revealed[rows] |= others & hidden[:, None]
        state.hand[rows, seat, slot] = _NONE
        state.hand_public[rows, seat, slot] = False
        state.hand_size[rows, seat] -= 1
        state.build_card[rows] = card
        state.build_duration[rows] = offset % 3 + 1
        state.phase[rows] = PHASE.BUILD_CONTRACT
        self._open(state, rows, MAIN.DISPATCH, OPEN.DISPATCH)

    @staticmethod
    def _reserve(state: DiscoveriesState, rows: np.ndarray, actions: np.ndarray) -> None:
        seat = legality.seats(state, rows)
        slot = (actions - ACTIONS.RESERVE_OFFER.start).astype(np.intp)
        state.res_owner[rows, slot] = seat
        state.res_turn[rows, slot] = state.own_turns[rows, seat]
        state.reserves[rows, seat] -= 1

    # ---------------------------------------------------------------- picks (§5.4, §5.5)
    def _pick(self, state: DiscoveriesState, rows: np.ndarray, actions: np.ndarray
              ) -> tuple[np.ndarray, ...]:
        """Take the picked ship out of the idle fleet and pay its fee; returns the seats,
        the picks that are the flagship, and each ship's (declared) colour and TV."""
        seat = legality.seats(state, rows)
        offset = (actions - ACTIONS.PICK_SHIP.start).astype(np.intp)
        flag = offset >= NUM_TYPES
        ship = np.minimum(offset, NUM_TYPES - 1)
        fslot = np.maximum(offset - NUM_TYPES, 0)
        flag_colour = FLAG_COLOURS[state.flag_id[rows, seat], fslot // 3]
        colour = np.where(flag, flag_colour, TYPE_COLOUR[ship])
        tv = np.where(flag, fslot % 3 + 1, TYPE_TV[ship]).astype(np.int8)
        regular = ~flag
        state.idle[rows[regular], seat[regular], ship[regular]] -= 1
        fee = np.where(flag, FLAGSHIP_FEE, SHIP_FEE)
        state.coins[rows, seat] -= fee
        state.paid_fees[rows, seat] += fee
        state.placed[rows] += 1
        # A flagship's first use shows it to the other seats.
        first_use = flag & ~state.flag_revealed[rows, seat]
        others = np.arange(self.num_players) != seat[:, None]
        state.revealed[rows] |= others & first_use[:, None]
        state.flag_revealed[rows[flag], seat[flag]] = True
        return seat, flag, colour, tv

    def _apply_exp_pick(self, state: DiscoveriesState, rows: np.ndarray,
                        actions: np.ndarray) -> None:
        """The ship joins the target expedition for good (§5.4)."""
        seat, flag, colour, tv = self._pick(state, rows, actions)
        target = state.target[rows].astype(np.intp)
        established = state.exp_colour_set[rows, target]
        joker = (established >= 0) & (colour != established)
        state.jokers[rows, seat] -= joker
        state.jokers_used_exp[rows, seat] += joker
        at = state.exp_size[rows, target].astype(np.intp)
        state.exp_owner[rows, target, at] = seat
        state.exp_colour[rows, target, at] = colour
        state.exp_tv[rows, target, at] = tv
        state.exp_flag[rows, target, at] = flag
        state.exp_joker[rows, target, at] = joker
        state.exp_turn[rows, target, at] = state.turn[rows]
        state.exp_size[rows, target] += 1
        state.exp_used[rows, target] += tv
        state.exp_colour_set[rows, target] = np.where(established < 0, colour, established)
        state.exp_count[rows, target, seat] += 1
        state.exp_same[rows, target, seat] += colour == EXP_COLOUR[target]
        state.flag_where[rows[flag], seat[flag]] = FLAG.EXPEDITION
        state.target[rows] = _NONE
        state.phase[rows] = PHASE.MAIN

    def _apply_build_pick(self, state: DiscoveriesState, rows: np.ndarray,
                          actions: np.ndarray) -> None:
        """The ship is attached; at the exact requirement the contract sails (§5.5)."""
        seat, flag, colour, tv = self._pick(state, rows, actions)
        card = state.build_card[rows].astype(np.intp)
        joker = colour != CONTRACT_COLOUR[card]
        state.jokers[rows, seat] -= joker
        state.jokers_used_con[rows, seat] += joker
        state.build_jokers[rows] += joker
        regular = ~flag
        ship = (actions - ACTIONS.PICK_SHIP.start).astype(np.intp)
        state.build_ships[rows[regular], ship[regular]] += 1
        state.build_flag_tv[rows[flag]] = tv[flag]
        state.build_flag_colour[rows[flag]] = colour[flag]
        state.flag_where[rows[flag], seat[flag]] = FLAG.BUILD
        state.build_tv[rows] += tv
        done = state.build_tv[rows] == CONTRACT_TV[card]
        if done.any():
            self._sail(state, rows[done], seat[done], card[done])

    @staticmethod
    def _sail(state: DiscoveriesState, rows: np.ndarray, seat: np.ndarray,
              card: np.ndarray) -> None:
        """The built contract becomes active with its revenue and timer d; back to MAIN."""
        duration = state.build_duration[rows]
        state.con_state[rows, card] = PLAYED.ACTIVE
        state.con_owner[rows, card] = seat
        state.con_due[rows, card] = state.own_turns[rows, seat] + duration
        state.con_duration[rows, card] = duration
        state.con_revenue[rows, card] = CONTRACT_REVENUE[card, duration - 1]
        state.con_ships[rows, card] = state.build_ships[rows]
        state.con_flag_tv[rows, card] = state.build_flag_tv[rows]
        state.con_flag_colour[rows, card] = state.build_flag_colour[rows]
        state.con_jokers[rows, card] = state.build_jokers[rows]
        with_flag = state.build_flag_tv[rows] > 0
        state.flag_where[rows[with_flag], seat[with_flag]] = FLAG.VOYAGE
        timer = (duration - 1).astype(np.intp)
        state.voyage_revenue[rows, seat, timer] += state.con_revenue[rows, card]
        state.voyage_ships[rows, seat, timer] += state.build_ships[rows].sum(
            axis=1, dtype=np.int8) + with_flag
        state.voyage_fleet[rows, seat, timer] += state.build_ships[rows]
        state.build_card[rows] = _NONE
        state.build_duration[rows] = 0
        state.build_tv[rows] = 0
        state.build_ships[rows] = 0
        state.build_flag_tv[rows] = 0
        state.build_flag_colour[rows] = _NONE
        state.build_jokers[rows] = 0
        state.phase[rows] = PHASE.MAIN

    # ---------------------------------------------------------------- turn end and start
    def _end_turn(self, state: DiscoveriesState, rows: np.ndarray, actions=None) -> None:
        """END_TURN and TURN_END (§5.8): expiry, the scorings, the next turn or the end."""
        seat = legality.seats(state, rows)
        owner = state.res_owner[rows]
        mine = owner == seat[:, None]
        if mine.any():  # the seat's markers placed in its previous turn go
            old = mine & (state.res_turn[rows] == state.own_turns[rows, seat][:, None] - 1)
            state.res_owner[rows] = np.where(old, _NONE, owner)
        turn = state.turn[rows] - self.num_players  # a card revealed then is due now
        first = state.first_reveal[rows] == turn
        final = state.final_reveal[rows] == turn
        if first.any():
            scoring.first_scoring(state, rows[first])
        state.turn[rows] += 1
        capped = ~final & (state.turn[rows] >= MAX_TURNS)
        ending = final | capped
        if ending.any():
            over = rows[ending]
            scoring.final_scoring(state, over)
            state.revealed[over] = True  # the tasks are shown
            state.terminated[rows[final]] = True
            state.truncated[rows[capped]] = True
            state.phase[over] = PHASE.GAME_OVER
            state.open_type[over] = OPEN.NONE
        self._start_turn(state, rows[~ending])

    def _start_turn(self, state: DiscoveriesState, rows: np.ndarray) -> None:
        """TURN_START (§4.2): the next seat's turn counter and contract tick (§5.9)."""
        if not rows.size:
            return
        seat = ((state.start_player[rows] + state.turn[rows]) % self.num_players).astype(
            np.intp)
        state.current_player[rows] = seat
        state.own_turns[rows, seat] += 1
        state.used[rows] = 0
        state.open_type[rows] = OPEN.NONE
        state.bought[rows] = 0
        state.placed[rows] = 0
        state.phase[rows] = PHASE.MAIN
        # The tick: the voyages due now come back, the others move one timer field on.
        sailing = state.voyage_ships[rows, seat].any(axis=1)
        if sailing.any():
            self._tick(state, rows[sailing], seat[sailing])

    @staticmethod
    def _tick(state: DiscoveriesState, rows: np.ndarray, seat: np.ndarray) -> None:
        """The contract tick (§5.9) of the seats to start in ``rows``, who have voyages."""
        revenue = state.voyage_revenue[rows, seat, 0]
        state.coins[rows, seat] += revenue
        state.income_revenue[rows, seat] += revenue
        state.idle[rows, seat] += state.voyage_fleet[rows, seat, 0]
        due = state.voyage_ships[rows, seat, 0] > 0
        for voyage in (state.voyage_revenue, state.voyage_ships, state.voyage_fleet):
            voyage[rows, seat, :2] = voyage[rows, seat, 1:]
            voyage[rows, seat, 2] = 0
        rows, seat = rows[due], seat[due]
        if not rows.size:
            return
        done = (state.con_due[rows] == state.own_turns[rows, seat][:, None]) & (
            state.con_owner[rows] == seat[:, None]) & (state.con_state[rows] == PLAYED.ACTIVE)
        state.completed[rows, seat] += done.sum(axis=1, dtype=np.int8)
        state.con_state[rows] = np.where(done, PLAYED.COMPLETED, state.con_state[rows])
        state.con_due[rows] = np.where(done, 0, state.con_due[rows])
        flag_back = (done & (state.con_flag_tv[rows] > 0)).any(axis=1)
        state.flag_where[rows[flag_back], seat[flag_back]] = FLAG.IDLE

    # ---------------------------------------------------------------- public protocol
    def observe(self, state: DiscoveriesState, player: int | np.ndarray) -> np.ndarray:
        return observation.observe(state, player)

    def scores(self, state: DiscoveriesState) -> np.ndarray:
        return (state.vp_first + state.vp_final).astype(np.float64)

    def ranking_keys(self, state: DiscoveriesState) -> np.ndarray:
        """(B, P, 2): VP, then ships not on expeditions (§7.2)."""
        return np.stack([self.scores(state),
                         scoring.ships_not_on_expeditions(state).astype(np.float64)], axis=2)

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
        return check_invariants(self, state)


def _type_counts(ships: np.ndarray) -> np.ndarray:
    """(B, 18) int8: how many ships of each type the rows of ``ships`` (B, n) hold."""
    num = ships.shape[0]
    keys = (np.arange(num)[:, None] * NUM_TYPES + ships).ravel()
    return np.bincount(keys, minlength=num * NUM_TYPES).reshape(num, NUM_TYPES).astype(np.int8)


def _pile_sequence(ships: np.ndarray, first_at: np.ndarray, final_at: np.ndarray) -> np.ndarray:
    """(B, 34) int8: the 32 pile ships (B, 32) dealt 6, 6, 6, 7, 7 into piles 1-5, the First
    Scoring card at ``first_at`` (0 = top) of pile 3 and the Final at ``final_at`` of pile 5,
    as one sequence in draw order."""
    num = ships.shape[0]
    seq = np.empty((num, PILE_CARDS), dtype=np.int8)
    dealt = 0
    for pile, (count, scoring_card, at) in enumerate(zip(
            SHIPS_PER_PILE, (None, None, FIRST_CARD, None, FINAL_CARD),
            (None, None, first_at, None, final_at), strict=True)):
        start = int(PILE_START[pile])
        cards = ships[:, dealt:dealt + count]
        dealt += count
        if scoring_card is None:
            seq[:, start:start + count] = cards
            continue
        place = np.arange(count + 1)[None, :]
        before = np.concatenate([cards, cards[:, -1:]], axis=1)  # pad: index count unused
        after = np.concatenate([cards[:, :1], cards], axis=1)  # position j > at: card j - 1
        seq[:, start:start + count + 1] = np.where(
            place < at[:, None], before, np.where(place == at[:, None], scoring_card, after))
    return seq


__all__ = ["COLOUR_NAMES", "VERSION", "DiscoveriesGame"]
