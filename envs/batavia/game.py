"""Batavia: ship-card auctions, company majorities, trading posts and pirates, for 3-5 players.

Batched NumPy rules of the game specified in ``docs/rules/batavia.md`` (with its
"Amendments after the implementation review"). Each round a face-up lot of 1-6 ship cards
and the ship (start player) is auctioned for promissory notes, the payment going to the
other players; then every seat either draws 2 cards or displays cards to hold a company's
seal (a strict majority of displayed cards) and moves its merchant to that company's next
trading post on the route, taking the tile, placing a crate in its good's warehouse, and
perhaps exchanging one post of every company held for gold. When the displayed total
reaches the pirate threshold the largest companies are swept to the discard pile. The game
ends at the end of the round in which a merchant reaches the goal; warehouses, coins, seals
and the goal tile then score.

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
9. (§4) Every automatic step (round start, auction resolution, turn end with its pirate
   check, final scoring) runs inside the handler whose action leads to it; the decisions
   that public information forces (§9.3) are applied by core's forced-decision loop, bounded
   by ``max_chain = max_decisions``. The turn ends of all rows of a step run together.
10. (§9.4) The acting seat of the relative one-hots is ``current_player``; in the padded
    seat slots every feature, "present" included, is 0.

====================  =================================================================
players               3, 4, 5 (DEFAULT_PLAYERS 4)
actions               90: PASS 0, BID 1-75, DRAW 76, PLAY_CARD 77-81, END_MOVE 82-86,
                      END_GOAL 87, EXCHANGE 88, KEEP 89 (§9.1)
observation           float32 in [0, 1], 1018 at 3, 4 and 5 players (§9.4)
rewards               rank-based at the end (design.md; ties share), 0 otherwise
longest game          100 rounds: max_decisions 16 400 (3p), 18 200 (4p), 20 000 (5p)
VERSION               1
====================  =================================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.batavia import observation, picture, render, resample, scoring
from envs.batavia.cards import (
    draw_to_hand,
    flat,
    hand_bounds,
    hand_to_display,
    seat_rows,
    take_cards,
    words32,
)
from envs.batavia.data import (
    CARD_COMPANY,
    CRATES,
    DRAW_COUNT,
    EXCHANGE_GOLD,
    FIXED_LAYOUT,
    GOAL_SPACE,
    MAX_ROUNDS,
    NUM_BLOCKS,
    NUM_CARDS,
    NUM_COMPANIES,
    NUM_GOODS,
    NUM_SPACES,
    NUM_TILES,
    OPEN_AT_START,
    PIRATE_THRESHOLD,
    REVEAL_STEP,
    START_COINS,
    START_HAND,
    TILE_GOOD,
    max_decisions,
)
from envs.batavia.invariants import check_invariants
from envs.batavia.state import (
    ACTIONS,
    BID,
    DRAW,
    END_GOAL,
    END_MOVE,
    EXCHANGE,
    GENERATION_SLOTS,
    PLAY_CARD,
    TURN_OVER,
    BataviaState,
    Phase,
    action_name,
    route_words,
)
from envs.core.decisions import Decision
from envs.core.game import Game
from envs.core.rng import make_rng, random_bits

VERSION = 1
SETUP_WORDS = 181  # §9.6
_BIDS = np.arange(1, ACTIONS.BID.size + 1)
_GOOD_OFFSET = NUM_GOODS * np.arange(NUM_COMPANIES)  # tile id of each company's good 0


class BataviaGame(Game[BataviaState]):
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

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        if self.options["variant"] == "standard" and self.options["open_layout"] != "fixed":
            raise ValueError(
                "batavia: open_layout applies to variant='open' only; with "
                "variant='standard' the deal is random and face down, so open_layout must "
                "stay 'fixed' (valid: variant='open' with open_layout='fixed' or 'random')")
        players = self.num_players
        self.threshold = PIRATE_THRESHOLD[players]
        self.num_actions = ACTIONS.size
        self.action_layout = ACTIONS
        self.observation_layout = observation.OBS
        self.observation_shape = (observation.OBS.size,)
        self.observation_low, self.observation_high = observation.OBS.bounds()
        self.max_decisions = max_decisions(players)
        self.max_chain = self.max_decisions
        self._after = np.arange(1, players)  # the other seats, clockwise from a seat
        self.decisions = {
            Phase.AUCTION_BID: Decision("AUCTION_BID", self._legal_bid, self._bid,
                                        self._forced_bid),
            Phase.TURN_START: Decision("TURN_START", self._legal_turn_start,
                                       self._turn_start, self._forced_turn_start),
            Phase.PLAYING: Decision("PLAYING", self._legal_playing, self._playing,
                                    self._forced_playing),
            Phase.EXCHANGE_CHOICE: Decision("EXCHANGE_CHOICE", self._legal_exchange,
                                            self._exchange),
        }

    # ---------------------------------------------------------------- setup (§3, §9.6)
    def _init(self, seeds: np.ndarray) -> BataviaState:
        num, players = len(seeds), self.num_players
        rng = make_rng(seeds)
        words = random_bits(rng, None, SETUP_WORDS) >> np.uint64(32)  # (B, 181), §9.6
        route = self._deal_route(words, num)
        order = np.argsort(words[:, 70:70 + NUM_CARDS], axis=1, kind="stable")
        cards = CARD_COMPANY[order].astype(np.int8)  # (B, 110), the first card on top
        dealt = START_HAND * players
        hands = (cards[:, :dealt].reshape(num, players, START_HAND, 1)
                 == np.arange(NUM_COMPANIES)).sum(axis=2, dtype=np.int8)
        deck = np.full((num, NUM_CARDS), -1, dtype=np.int8)
        deck[:, :NUM_CARDS - dealt] = cards[:, dealt:][:, ::-1]  # bottom first
        ship = np.zeros(num, dtype=np.int8)
        if self.options["first_auctioneer"] == "random":
            ship[:] = (np.uint64(players) * words[:, 180]) >> np.uint64(32)
        unknown = np.zeros((num, players, GENERATION_SLOTS, NUM_COMPANIES), dtype=np.int8)
        unknown[:, :, 0] = hands
        gen_id = np.full((num, GENERATION_SLOTS), -1, dtype=np.int16)
        gen_id[:, 0] = 0
        tile_space = np.zeros((num, NUM_TILES), dtype=np.int8)
        np.put_along_axis(tile_space, route.astype(np.intp),
                          np.arange(1, NUM_SPACES + 1, dtype=np.int8)[None, :], axis=1)
        zeros_p = np.zeros((num, players), dtype=np.int8)
        zeros_c = np.zeros((num, NUM_COMPANIES), dtype=np.int8)
        state = BataviaState(
            current_player=np.zeros(num, dtype=np.int32),
            terminated=np.zeros(num, dtype=bool),
            truncated=np.zeros(num, dtype=bool),
            rewards=np.zeros((num, players), dtype=np.float32),
            rng=rng,
            revealed=np.ones((num, players), dtype=bool),  # every seat sees its hand
            phase=np.full(num, Phase.TURN_START, dtype=np.int8),
            round=np.ones(num, dtype=np.int16),
            ship=ship,
            turn=np.zeros(num, dtype=np.int8),
            final=np.zeros(num, dtype=bool),
            goal_holder=np.full(num, -1, dtype=np.int8),
            hand=hands,
            known=np.zeros_like(hands),
            unknown=unknown,
            gen_id=gen_id,
            pile_slot=np.zeros(num, dtype=np.int8),
            generation=np.zeros(num, dtype=np.int16),
            deck=deck,
            deck_size=np.full(num, NUM_CARDS - dealt, dtype=np.int8),
            discard=zeros_c.copy(),
            lot=zeros_c.copy(),
            carried=np.zeros(num, dtype=bool),
            die=np.zeros(num, dtype=np.int8),
            display=np.zeros_like(hands),
            cubes=zeros_c.copy(),
            top=zeros_c.copy(),
            seal=np.full((num, NUM_COMPANIES), -1, dtype=np.int8),
            cannon=np.zeros(num, dtype=np.int16),
            played=zeros_c.copy(),
            high_bid=np.zeros(num, dtype=np.int8),
            high_bidder=np.full(num, -1, dtype=np.int8),
            second_bidder=np.full(num, -1, dtype=np.int8),
            passed=np.zeros((num, players), dtype=bool),
            coins=np.full((num, players), START_COINS, dtype=np.int8),
            gold=np.zeros((num, players), dtype=np.int16),
            route=route,
            tile_space=tile_space,
            remaining=route_words(route),
            open=np.full(num, OPEN_AT_START if self.options["variant"] == "standard"
                         else NUM_SPACES, dtype=np.int8),
            pos=zeros_p.copy(),
            taken_by=np.full((num, NUM_TILES), -1, dtype=np.int8),
            exchanged=np.zeros((num, NUM_TILES), dtype=bool),
            posts=np.zeros_like(hands),
            crates=np.full((num, players), CRATES, dtype=np.int8),
            warehouse=np.full((num, NUM_GOODS, NUM_COMPANIES), -1, dtype=np.int8),
        )
        self._start_rounds(state, np.arange(num))
        return state

    def _deal_route(self, words: np.ndarray, num: int) -> np.ndarray:
        """(B, 35) int8 tile ids on spaces 1..35 (§3 step 1, §2.8, §9.6 words 0-69)."""
        if self.options["variant"] == "open" and self.options["open_layout"] == "fixed":
            return np.broadcast_to(FIXED_LAYOUT, (num, NUM_SPACES)).copy()
        # Company c's stack: its goods ordered by words 7c .. 7c + 6; tile k goes to block k.
        stacks = np.argsort(words[:, :NUM_TILES].reshape(num, NUM_COMPANIES, NUM_GOODS),
                            axis=2, kind="stable")
        blocks = np.swapaxes(stacks, 1, 2) + _GOOD_OFFSET  # (B, 7, 5) tile of company c
        # Block k's tiles, listed by company, ordered by its 5 words onto its spaces.
        places = np.argsort(words[:, NUM_TILES:2 * NUM_TILES].reshape(num, NUM_BLOCKS, 5),
                            axis=2, kind="stable")
        return np.take_along_axis(blocks, places, axis=2).reshape(num, NUM_SPACES).astype(
            np.int8)

    # ---------------------------------------------------------------- masks by decision
    def _seat_view(self, state: BataviaState, rows: np.ndarray):
        """The acting seat of ``rows``: seat (R,), its seals (R, 5) and the companies with a
        post ahead of its merchant (R, 5)."""
        seat = state.current_player[rows]
        own_seal = state.seal[rows] == seat[:, None]
        pos = flat(state.pos)[rows * self.num_players + seat].astype(np.int64)
        ahead = (state.remaining[rows] >> pos[:, None]) != 0
        return seat, own_seal, ahead

    def _endings(self, state: BataviaState, rows: np.ndarray, own_seal: np.ndarray,
                 ahead: np.ndarray) -> np.ndarray:
        """(R, 6) bool: END_MOVE per company, then END_GOAL (§5.5); public. Rows in PLAYING
        have displayed a card this turn (the first PLAY_CARD is TURN_START's)."""
        move = own_seal & ahead
        goal = ~state.final[rows] & own_seal.any(axis=1) & ~move.any(axis=1)
        return np.concatenate([move, goal[:, None]], axis=1)

    def _legal_bid(self, state: BataviaState, rows: np.ndarray) -> np.ndarray:
        coins = state.coins[rows, state.current_player[rows]]
        bids = (state.high_bid[rows, None] < _BIDS) & (coins[:, None] >= _BIDS)
        values = np.concatenate([np.ones((rows.size, 1), dtype=bool), bids], axis=1)
        return ACTIONS.block_mask(ACTIONS.PASS, values, ACTIONS.BID)

    @staticmethod
    def _forced_bid(state: BataviaState, rows: np.ndarray) -> np.ndarray:
        """The coins cannot cover the minimum bid: only PASS (§9.3)."""
        return state.coins[rows, state.current_player[rows]] <= state.high_bid[rows]

    def playable(self, state: BataviaState, rows: np.ndarray) -> np.ndarray:
        """(R,) bool: the acting seat's hand can make (or finish) a play, ``can_play`` of
        §5.3: ``potential`` in some company, with a post ahead in the final round (§5.7)."""
        seat, own_seal, ahead = self._seat_view(state, rows)
        seat_row = rows * self.num_players + seat
        hand = seat_rows(state.hand)[seat_row]
        potential = own_seal | (seat_rows(state.display)[seat_row] + hand > state.top[rows])
        return (potential & (ahead | ~state.final[rows, None])).any(axis=1)

    def _legal_turn_start(self, state: BataviaState, rows: np.ndarray) -> np.ndarray:
        hand = seat_rows(state.hand)[rows * self.num_players + state.current_player[rows]]
        play = (hand > 0) & self.playable(state, rows)[:, None]
        values = np.concatenate([np.ones((rows.size, 1), dtype=bool), play], axis=1)
        return ACTIONS.block_mask(ACTIONS.DRAW, values, ACTIONS.PLAY_CARD)

    def _forced_turn_start(self, state: BataviaState, rows: np.ndarray) -> np.ndarray:
        """No hand the public record allows could make a play: only DRAW (§9.3)."""
        seat, own_seal, ahead = self._seat_view(state, rows)
        size, hmax = hand_bounds(state, rows, seat)
        shown = seat_rows(state.display)[rows * self.num_players + seat]
        blocked = ~own_seal & (shown + hmax <= state.top[rows])
        blocked |= state.final[rows, None] & ~ahead  # not eligible in the final round
        return (size == 0) | blocked.all(axis=1)

    def _legal_playing(self, state: BataviaState, rows: np.ndarray) -> np.ndarray:
        seat, own_seal, ahead = self._seat_view(state, rows)
        cards = seat_rows(state.hand)[rows * self.num_players + seat] > 0
        values = np.concatenate([cards, self._endings(state, rows, own_seal, ahead)], axis=1)
        return ACTIONS.block_mask(ACTIONS.PLAY_CARD, values, ACTIONS.END_GOAL)

    def _forced_playing(self, state: BataviaState, rows: np.ndarray) -> np.ndarray:
        """An empty hand with one ending, or no ending and a hand publicly of one company."""
        seat, own_seal, ahead = self._seat_view(state, rows)
        endings = self._endings(state, rows, own_seal, ahead).sum(axis=1)
        size = seat_rows(state.hand)[rows * self.num_players + seat].sum(axis=1)
        forced = (size == 0) & (endings == 1)
        open_play = np.flatnonzero(endings == 0)
        if open_play.size:
            _, hmax = hand_bounds(state, rows[open_play], seat[open_play])
            forced[open_play] = (hmax > 0).sum(axis=1) == 1
        return forced

    def _legal_exchange(self, state: BataviaState, rows: np.ndarray) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.EXCHANGE, np.ones((rows.size, 2), dtype=bool),
                                  ACTIONS.KEEP)

    # ---------------------------------------------------------------- effects by decision
    # An effect that ends the seat's turn writes TURN_OVER as the row's phase; the end of the
    # step ends all those turns at once.
    def _end_step(self, state: BataviaState, rows: np.ndarray) -> None:
        self._end_turns(state, rows[state.phase[rows] == TURN_OVER])

    # ---------------------------------------------------------------- the auction (§5.1, §5.2)
    def _bid(self, state: BataviaState, rows: np.ndarray, actions: np.ndarray) -> None:
        """PASS or BID b, then the next bidder, the winner, or the all-pass."""
        seat = state.current_player[rows]
        bid = actions >= BID
        if bid.any():
            r = rows[bid]
            state.second_bidder[r] = state.high_bidder[r]
            state.high_bid[r] = actions[bid]
            state.high_bidder[r] = seat[bid]
        if not bid.all():
            state.passed[rows[~bid], seat[~bid]] = True
        passed = state.passed[rows]
        still_in = self.num_players - passed.sum(axis=1)
        won = (state.high_bidder[rows] >= 0) & (still_in == 1)
        nobody = still_in == 0
        going = np.flatnonzero(~won & ~nobody)
        if going.size:
            order = (seat[going, None] + self._after) % self.num_players
            waiting = ~passed[going[:, None], order]
            state.current_player[rows[going]] = order[np.arange(going.size),
                                                      np.argmax(waiting, axis=1)]
        if won.any():
            self._resolve_auctions(state, rows[won])
        if nobody.any():
            all_pass = rows[nobody]
            state.carried[all_pass] = True  # the lot stays for the next round (§5.2)
            self._close_auctions(state, all_pass)

    def _resolve_auctions(self, state: BataviaState, rows: np.ndarray) -> None:
        """The winner pays, the others share (remainder to the second bidder, else one each
        from the winner's left, §8 #6), the lot goes to his hand and the ship to him."""
        others = self.num_players - 1
        winner = state.high_bidder[rows].astype(np.intp)
        price = state.high_bid[rows].astype(np.int64)
        share, rest = np.divmod(price, others)
        left = (winner[:, None] + 1 + np.arange(others)) % self.num_players
        second = state.second_bidder[rows].astype(np.intp)
        alone = second < 0
        extra = alone[:, None] & (np.arange(others) < rest[:, None])
        state.coins[rows[:, None], left] += (share[:, None] + extra).astype(np.int8)
        state.coins[rows[~alone], second[~alone]] += rest[~alone].astype(np.int8)
        state.coins[rows, winner] -= price.astype(np.int8)
        lot = state.lot[rows]
        state.hand[rows, winner] += lot
        state.known[rows, winner] += lot  # the lot was face up (§6)
        state.lot[rows] = 0
        state.carried[rows] = False
        state.ship[rows] = winner
        self._close_auctions(state, rows)

    def _close_auctions(self, state: BataviaState, rows: np.ndarray) -> None:
        state.high_bid[rows] = 0
        state.high_bidder[rows] = -1
        state.second_bidder[rows] = -1
        state.passed[rows] = False
        self._start_turns(state, rows)

    # ---------------------------------------------------------------- a turn (§5.3-§5.6)
    def _turn_start(self, state: BataviaState, rows: np.ndarray, actions: np.ndarray) -> None:
        """DRAW (the turn ends) or the first PLAY_CARD."""
        seat = state.current_player[rows]
        draw = actions == DRAW
        drawing = rows[draw]
        if drawing.size:
            draw_to_hand(state, drawing, seat[draw], DRAW_COUNT)
            state.phase[drawing] = TURN_OVER
        if drawing.size < rows.size:
            play = ~draw
            playing = rows[play]
            hand_to_display(state, playing, seat[play], actions[play] - PLAY_CARD)
            state.phase[playing] = Phase.PLAYING

    def _playing(self, state: BataviaState, rows: np.ndarray, actions: np.ndarray) -> None:
        """PLAY_CARD, END_MOVE or END_GOAL (both end the turn, unless an exchange is due)."""
        seat = state.current_player[rows]
        card = actions < END_MOVE
        if card.any():
            hand_to_display(state, rows[card], seat[card], actions[card] - PLAY_CARD)
        if card.all():
            return
        move = ~card & (actions < END_GOAL)
        self._move(state, rows[move], seat[move], actions[move] - END_MOVE)
        goal = actions == END_GOAL
        if goal.any():
            reached = rows[goal]
            state.pos[reached, seat[goal]] = GOAL_SPACE
            state.goal_holder[reached] = seat[goal]
            state.final[reached] = True  # the game-end trigger (§5.7)
            state.phase[reached] = TURN_OVER

    def _move(self, state: BataviaState, rows: np.ndarray, seat: np.ndarray,
              company: np.ndarray) -> None:
        """END_MOVE c (§5.5): to the nearest c post ahead, take it, place a crate, reveal if
        due; the turn ends unless the post is the seat's first of the company (an exchange to
        decide)."""
        if not rows.size:
            return
        word = state.remaining[rows, company]
        pos = state.pos[rows, seat].astype(np.int64)
        ahead = (word >> pos) << pos
        lowest = ahead & -ahead
        space = np.frexp(lowest.astype(np.float64))[1]  # lowest = 2^(space - 1)
        tile = state.route[rows, space - 1].astype(np.intp)
        state.route[rows, space - 1] = -1
        state.remaining[rows, company] = word ^ lowest
        state.pos[rows, seat] = space
        state.taken_by[rows, tile] = seat
        fresh = state.posts[rows, seat, company] == 0
        state.posts[rows, seat, company] += 1
        crate = state.crates[rows, seat] > 0
        state.warehouse[rows[crate], TILE_GOOD[tile[crate]], company[crate]] = seat[crate]
        state.crates[rows[crate], seat[crate]] -= 1
        opened = state.open[rows]
        reveal = (opened < NUM_SPACES) & (space >= opened - (REVEAL_STEP - 1))
        if reveal.any():
            state.open[rows[reveal]] += REVEAL_STEP
            state.revealed[rows[reveal]] = True
        state.phase[rows] = np.where(fresh, Phase.EXCHANGE_CHOICE, TURN_OVER)

    def _exchange(self, state: BataviaState, rows: np.ndarray, actions: np.ndarray) -> None:
        """EXCHANGE (one tile of every company held, k(k+1)/2 gold) or KEEP; the turn ends."""
        chosen = actions == EXCHANGE
        if chosen.any():
            r, seat = rows[chosen], state.current_player[rows[chosen]]
            held = state.posts[r, seat] > 0
            state.gold[r, seat] += EXCHANGE_GOLD[held.sum(axis=1)]
            state.posts[r, seat] -= held
            mine = (state.taken_by[r] == seat[:, None]) & ~state.exchanged[r]
            first = np.argmax(mine.reshape(r.size, NUM_COMPANIES, NUM_GOODS), axis=2)
            k, c = np.nonzero(held)
            state.exchanged[r[k], _GOOD_OFFSET[c] + first[k, c]] = True
        state.phase[rows] = TURN_OVER

    # ---------------------------------------------------------------- automatic steps (§4)
    def _end_turns(self, state: BataviaState, rows: np.ndarray) -> None:
        """TURN_END: the pirate check, then the next seat or the end of the round."""
        if not rows.size:
            return
        self._pirates(state, rows)
        state.played[rows] = 0
        state.turn[rows] += 1
        over = state.turn[rows] >= self.num_players
        self._begin_turns(state, rows[~over])
        if over.any():
            ended = rows[over]
            last = state.final[ended] | (state.round[ended] >= MAX_ROUNDS)
            self._final_scoring(state, ended[last])
            going = ended[~last]
            state.round[going] += 1
            self._start_rounds(state, going)

    def _pirates(self, state: BataviaState, rows: np.ndarray) -> None:
        """§5.8: while the displayed total reaches the threshold, every company tied for the
        most displayed cards goes to the discard pile (repeated, §8 #13)."""
        hit_rows = rows[state.cannon[rows] >= self.threshold]
        while hit_rows.size:
            cubes = state.cubes[hit_rows]
            hit = cubes == cubes.max(axis=1, keepdims=True)
            state.discard[hit_rows] += np.where(hit, cubes, 0).astype(np.int8)
            state.display[hit_rows] = np.where(hit[:, None, :], 0, state.display[hit_rows])
            cubes = np.where(hit, 0, cubes)
            state.cubes[hit_rows] = cubes
            state.top[hit_rows] = np.where(hit, 0, state.top[hit_rows])
            state.seal[hit_rows] = np.where(hit, -1, state.seal[hit_rows])
            state.cannon[hit_rows] = cubes.sum(axis=1)
            hit_rows = hit_rows[state.cannon[hit_rows] >= self.threshold]

    def _start_rounds(self, state: BataviaState, rows: np.ndarray) -> None:
        """ROUND_START (chance): the die, d cards flipped onto the lot, then the auction, or
        the turns at once when the lot is empty (§5.1, §8 #15)."""
        if not rows.size:
            return
        die = 1 + ((words32(state, rows, 1)[:, 0] * np.uint64(6)) >> np.uint64(32))
        die = die.astype(np.int64)
        state.die[rows] = die
        state.turn[rows] = 0
        first, _, second, _ = take_cards(state, rows, die)
        state.lot[rows] += first + second
        state.revealed[rows] = True
        has_lot = state.lot[rows].any(axis=1)
        auction = rows[has_lot]
        state.phase[auction] = Phase.AUCTION_BID
        state.current_player[auction] = (state.ship[auction] + 1) % self.num_players
        if not has_lot.all():
            self._start_turns(state, rows[~has_lot])

    def _start_turns(self, state: BataviaState, rows: np.ndarray) -> None:
        state.turn[rows] = 0
        self._begin_turns(state, rows)

    def _begin_turns(self, state: BataviaState, rows: np.ndarray) -> None:
        state.phase[rows] = Phase.TURN_START
        state.current_player[rows] = (state.ship[rows] + state.turn[rows]) % self.num_players

    def _final_scoring(self, state: BataviaState, rows: np.ndarray) -> None:
        """FINAL_SCORING (§7 steps 1-2): the hands go onto the displays and the seals are
        recounted; the game is over (truncated at the round cap without the goal taken)."""
        if not rows.size:
            return
        scoring.reveal_hands(state, rows)
        state.phase[rows] = Phase.GAME_OVER
        final = state.final[rows]
        state.terminated[rows[final]] = True
        state.truncated[rows[~final]] = True
        state.revealed[rows] = True  # every hand is shown

    # ---------------------------------------------------------------- public pieces
    def observe(self, state: BataviaState, player: int | np.ndarray) -> np.ndarray:
        return observation.observe(self, state, player)

    def scores(self, state: BataviaState) -> np.ndarray:
        return scoring.scores(state).astype(np.float64)

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

