"""A tiny card game that drives the shared conformance suite (test-only, never shipped).

Rules: 12 cards, three of each value 0..3, are shuffled; every seat is dealt 2 hidden cards
and one card is laid face up as the market. On a turn the seat plays a card from hand and
scores its value, then draws either the top of the deck or the market card (the market is
refilled from the deck). The game ends when every hand is empty; the highest score wins and
equal scores tie. Option ``max_turns`` caps the number of plays (truncation).

It has what the suite must exercise: two decision kinds dispatched by phase, hidden hands
and deck order, chance drawn from the per-row generator, a decision that public information
forces (the draw once the deck is empty: only the market is left), the seats each step
shows hidden cards to, and checkable invariants.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum

import numpy as np

from envs.core import ActionLayout, BatchState, Game, ObservationLayout, Piece
from envs.core import rng as rnglib
from envs.core.decisions import Decision

NUM_VALUES = 4  # card values 0..3
COPIES = 3
NUM_CARDS = NUM_VALUES * COPIES  # 12
HAND_SIZE = 2
MAX_PLAYERS = 3


class Phase(IntEnum):
    PLAY = 0
    DRAW = 1


ACTIONS = ActionLayout(
    [
        ("PLAY", NUM_VALUES, lambda v: f"PLAY_{v}"),
        ("DRAW_DECK", 1, None),
        ("DRAW_MARKET", 1, None),
    ]
)

OBS = ObservationLayout(
    [
        Piece("hand", (NUM_VALUES,), public=False, high=COPIES),
        Piece("market", (NUM_VALUES + 1,), public=True, high=1),  # one-hot, last = empty
        Piece("deck_left", (1,), public=True, high=1),
        Piece("scores", (MAX_PLAYERS,), public=True, high=1),  # egocentric, / max score
        Piece("hand_sizes", (MAX_PLAYERS,), public=True, high=HAND_SIZE + 1),
        Piece("to_act", (MAX_PLAYERS,), public=True, high=1),  # relative seat one-hot
        Piece("phase", (len(Phase),), public=True, high=1),
    ]
)
MAX_SCORE = COPIES * NUM_VALUES * (NUM_VALUES - 1) // 2  # 18


@dataclasses.dataclass
class ToyState(BatchState):
    hands: np.ndarray  # (B, P, NUM_VALUES) int8, cards of each value per hand; private
    deck: np.ndarray  # (B, NUM_CARDS) int8, card values in draw order; hidden
    deck_pos: np.ndarray  # (B,) int8, cards drawn from the deck so far
    market: np.ndarray  # (B,) int8, face-up card value, -1 when empty
    played: np.ndarray  # (B, P, NUM_VALUES) int8, cards each seat has played; public
    phase: np.ndarray  # (B,) int8, Phase
    turns: np.ndarray  # (B,) int32, plays so far


class ToyGame(Game[ToyState]):
    """The toy card game (see the module docstring)."""

    ENV_ID = "toy"
    VERSION = 1
    PLAYER_COUNTS = (2, 3)
    DEFAULT_PLAYERS = 3
    OPTIONS = {"max_turns": 100}
    HAS_HIDDEN_INFO = True

    def __init__(self, num_players: int | None = None, **options):
        super().__init__(num_players, **options)
        self.num_actions = ACTIONS.size
        self.action_layout, self.observation_layout = ACTIONS, OBS
        self.observation_shape = (OBS.size,)
        self.observation_low, self.observation_high = OBS.bounds()
        self.max_decisions = 2 * NUM_CARDS
        self.decisions = {
            Phase.PLAY: Decision("PLAY", self._legal_play, self._apply_play),
            Phase.DRAW: Decision("DRAW", self._legal_draw, self._apply_draw, self._forced_draw),
        }
        self.max_chain = 1  # a forced draw ends the turn

    def _init(self, seeds: np.ndarray) -> ToyState:
        b, p = seeds.shape[0], self.num_players
        rng = rnglib.make_rng(seeds)
        deck = (rnglib.permutation(rng, None, NUM_CARDS) // COPIES).astype(np.int8)
        hands = np.zeros((b, p, NUM_VALUES), dtype=np.int8)
        rows = np.arange(b)
        for k in range(p * HAND_SIZE):
            np.add.at(hands, (rows, k % p, deck[:, k]), 1)
        dealt = p * HAND_SIZE
        return ToyState(
            current_player=rnglib.integers(rng, None, p).astype(np.int32),
            terminated=np.zeros(b, dtype=bool),
            truncated=np.zeros(b, dtype=bool),
            rewards=np.zeros((b, p), dtype=np.float32),
            rng=rng,
            hands=hands,
            deck=deck,
            deck_pos=np.full(b, dealt + 1, dtype=np.int8),
            market=deck[:, dealt].copy(),
            played=np.zeros((b, p, NUM_VALUES), dtype=np.int8),
            phase=np.zeros(b, dtype=np.int8),
            turns=np.zeros(b, dtype=np.int32),
        )

    def _legal_play(self, state: ToyState, rows: np.ndarray) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.PLAY, state.hands[rows, state.current_player[rows]] > 0)

    def _legal_draw(self, state: ToyState, rows: np.ndarray) -> np.ndarray:
        mask = np.zeros((rows.size, self.num_actions), dtype=bool)
        mask[:, ACTIONS.DRAW_DECK.start] = state.deck_pos[rows] < NUM_CARDS
        mask[:, ACTIONS.DRAW_MARKET.start] = state.market[rows] >= 0
        return mask

    @staticmethod
    def _forced_draw(state: ToyState, rows: np.ndarray) -> np.ndarray:
        """The deck is empty (public): only the market card is left to draw."""
        return state.deck_pos[rows] >= NUM_CARDS

    def _apply_play(self, state: ToyState, idx: np.ndarray, actions: np.ndarray) -> None:
        seat, value = state.current_player[idx], actions - ACTIONS.PLAY.start
        state.hands[idx, seat, value] -= 1
        state.played[idx, seat, value] += 1
        state.turns[idx] += 1
        can_draw = (state.deck_pos[idx] < NUM_CARDS) | (state.market[idx] >= 0)
        state.phase[idx[can_draw]] = Phase.DRAW
        self._end_turn(state, idx[~can_draw])

    def _apply_draw(self, state: ToyState, idx: np.ndarray, actions: np.ndarray) -> None:
        seat = state.current_player[idx]
        from_market = actions == ACTIONS.DRAW_MARKET.start
        top = state.deck[idx, np.minimum(state.deck_pos[idx], NUM_CARDS - 1)]
        card = np.where(from_market, state.market[idx], top)
        state.hands[idx, seat, card] += 1
        # The deck's top card goes to the hand (deck draw) or replaces the market card.
        has_deck = state.deck_pos[idx] < NUM_CARDS
        state.market[idx[from_market]] = np.where(has_deck[from_market], top[from_market], -1)
        state.deck_pos[idx[from_market & has_deck]] += 1
        state.deck_pos[idx[~from_market]] += 1
        # A deck draw shows the drawer its card; a new market card is shown to everyone.
        state.revealed[idx[~from_market], seat[~from_market]] = True
        state.revealed[idx[from_market & has_deck]] = True
        state.phase[idx] = Phase.PLAY
        self._end_turn(state, idx)

    def _end_turn(self, state: ToyState, idx: np.ndarray) -> None:
        over = state.hands[idx].sum(axis=(1, 2)) == 0
        capped = ~over & (state.turns[idx] >= self.options["max_turns"])
        state.terminated[idx[over]] = True
        state.truncated[idx[capped]] = True
        going = idx[~over & ~capped]
        p = self.num_players
        # The next seat clockwise that still holds a card takes the turn.
        candidates = (state.current_player[going, None] + np.arange(1, p + 1)) % p
        holds = state.hands[going[:, None], candidates].sum(axis=2) > 0
        first = np.argmax(holds, axis=1)
        state.current_player[going] = candidates[np.arange(going.size), first]

    def observe(self, state: ToyState, player: int | np.ndarray) -> np.ndarray:
        b, p = state.batch_size, self.num_players
        rows = np.arange(b)
        seat = np.broadcast_to(np.asarray(player), (b,))
        buf = OBS.new_buffer(b)
        OBS.view(buf, "hand")[:] = state.hands[rows, seat]
        OBS.view(buf, "market")[rows, np.where(state.market >= 0, state.market, NUM_VALUES)] = 1
        OBS.view(buf, "deck_left")[:, 0] = (NUM_CARDS - state.deck_pos) / NUM_CARDS
        order = (seat[:, None] + np.arange(p)) % p  # egocentric seat order
        OBS.view(buf, "scores")[:, :p] = self.scores(state)[rows[:, None], order] / MAX_SCORE
        OBS.view(buf, "hand_sizes")[:, :p] = state.hands.sum(axis=2)[rows[:, None], order]
        live = state.current_player >= 0
        rel = (state.current_player - seat) % p
        OBS.view(buf, "to_act")[rows[live], rel[live]] = 1
        OBS.view(buf, "phase")[rows, state.phase] = 1
        return buf

    def scores(self, state: ToyState) -> np.ndarray:
        return (state.played * np.arange(NUM_VALUES)).sum(axis=2).astype(np.float64)

    def render(self, state: ToyState, index: int = 0, seat: int | None = None) -> str:
        lines = [f"toy: phase {Phase(state.phase[index]).name}, "
                 f"to act {state.current_player[index]}, market {state.market[index]}, "
                 f"deck {NUM_CARDS - state.deck_pos[index]} left"]
        for s in range(self.num_players):
            hand = (state.hands[index, s].tolist() if seat is None or seat == s
                    else f"{int(state.hands[index, s].sum())} cards")
            lines.append(f"  seat {s}: hand {hand} score {self.scores(state)[index, s]:.0f}")
        return "\n".join(lines)

    def draw(self, state: ToyState, index: int = 0, seat: int | None = None) -> np.ndarray:
        """Each seat's hand as cards (face down for others in a seat's view), the market
        card, and the deck as a stack."""
        from envs.core.draw import Canvas

        canvas = Canvas(60 + 40 * HAND_SIZE * 3, 60 + 50 * self.num_players)
        for s in range(self.num_players):
            cards = np.repeat(np.arange(NUM_VALUES), state.hands[index, s])
            for k, value in enumerate(cards):
                box = (60 + 40 * k, 10 + 50 * s, 90 + 40 * k, 50 + 50 * s)
                shown = seat is None or seat == s
                canvas.rect(box, fill=(250, 250, 250) if shown else (70, 90, 160), radius=4)
                if shown:
                    canvas.text((box[0] + 15, box[1] + 20), str(value), size=14, anchor="mm")
            canvas.text((8, 22 + 50 * s), f"p{s}", size=12)
        bottom = 10 + 50 * self.num_players
        if state.market[index] >= 0:
            canvas.rect((60, bottom, 90, bottom + 40), fill=(250, 230, 150), radius=4)
            canvas.text((75, bottom + 20), str(int(state.market[index])), size=14, anchor="mm")
        left = NUM_CARDS - int(state.deck_pos[index])
        canvas.rect((110, bottom, 110 + 2 * left, bottom + 40), fill=(70, 90, 160))
        return canvas.array()

    def action_name(self, action: int) -> str:
        return ACTIONS.name(action)

    def decision_name(self, state: ToyState, row: int) -> str:
        return Phase(state.phase[row]).name

    def resample_hidden(self, state: ToyState, player: int, seed: int) -> ToyState:
        """Redeal the undrawn deck together with the other seats' hands."""
        new = state.copy()
        shuffle = np.random.default_rng(seed)
        for r in range(state.batch_size):
            others = [s for s in range(self.num_players) if s != player]
            pool = list(new.deck[r, new.deck_pos[r]:])
            for s in others:
                pool += [v for v in range(NUM_VALUES) for _ in range(new.hands[r, s, v])]
            pool.sort()  # the draw depends on the unseen cards, not on where they are
            shuffle.shuffle(pool)
            for s in others:
                size = int(new.hands[r, s].sum())
                new.hands[r, s] = np.bincount(pool[:size], minlength=NUM_VALUES)
                pool = pool[size:]
            new.deck[r, new.deck_pos[r]:] = pool
        return new

    def check_invariants(self, state: ToyState) -> list[str]:
        errors = []
        counts = state.hands.sum(axis=1) + state.played.sum(axis=1)
        counts += np.eye(NUM_VALUES, dtype=np.int8)[np.maximum(state.market, 0)] * (
            state.market >= 0
        )[:, None]
        for r in range(state.batch_size):
            counts[r] += np.bincount(state.deck[r, state.deck_pos[r]:], minlength=NUM_VALUES)
        for r in np.flatnonzero((counts != COPIES).any(axis=1)):
            errors.append(f"row {r}: card counts {counts[r].tolist()} != {COPIES} each")
        if (state.hands < 0).any():
            errors.append("negative hand count")
        return errors
