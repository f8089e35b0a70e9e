"""A tiny card game on the compiled core: the smallest complete example of a game (test-only,
never shipped; ``docs/adding-a-game.md`` walks through it).

Rules: 12 cards, three of each value 0..3, are shuffled; every seat is dealt 2 hidden cards
and one card is laid face up as the market. On a turn the seat plays a card from hand and
scores its value, then draws either the top of the deck or the market card (the market is
refilled from the deck). The game ends when every hand is empty; the highest score wins and
equal scores tie. Option ``max_turns`` caps the number of plays (truncation).

It has what the suite must exercise: two decision kinds dispatched by phase, hidden hands
and deck order, chance drawn from the per-row generator, a decision that public information
forces (the draw once the deck is empty: only the market is left), the seats each step
shows hidden cards to, and checkable invariants.

The rules are per-row functions compiled with numba (``envs.core.jit.njit``) over ``s``, the
kernels' view of the state (``View``), and a row ``r``: per phase one ``legal_<phase>`` and
one ``apply_<phase>``, the ``switch`` on the phase in ``legal`` and ``apply``, and the rows'
setup, observation, scores and ranking. ``ToyGame`` holds no rules: sizes, options and the
contract's glue.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum

import numpy as np

from envs.core import ActionLayout, ObservationLayout, Piece
from envs.core.compiled import CompiledGame, CompiledState, kernel_view
from envs.core.driver import RowRules
from envs.core.jit import local_zeros, njit
from envs.core.rng import next_integer, next_permutation

NUM_VALUES = 4  # card values 0..3
COPIES = 3
NUM_CARDS = NUM_VALUES * COPIES  # 12
HAND_SIZE = 2
MAX_PLAYERS = 3
MAX_SCORE = COPIES * NUM_VALUES * (NUM_VALUES - 1) // 2  # 18


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
PLAY = ACTIONS.PLAY.start  # plain ints: the kernels read them as constants
DRAW_DECK, DRAW_MARKET = ACTIONS.DRAW_DECK.start, ACTIONS.DRAW_MARKET.start

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
# Where each piece starts in one row's observation (the compiled encoder writes by offset).
OBS_HAND, OBS_MARKET, OBS_DECK_LEFT, OBS_SCORES, OBS_HAND_SIZES, OBS_TO_ACT, OBS_PHASE = (
    OBS.offsets[name].start for name in OBS.pieces)
MAX_TURNS = 0  # index of the option in ``params``


@dataclasses.dataclass
class ToyState(CompiledState):
    hands: np.ndarray  # (B, P, NUM_VALUES) int8, cards of each value per hand; private
    deck: np.ndarray  # (B, NUM_CARDS) int8, card values in draw order; hidden
    deck_pos: np.ndarray  # (B,) int8, cards drawn from the deck so far
    market: np.ndarray  # (B,) int8, face-up card value, -1 when empty
    played: np.ndarray  # (B, P, NUM_VALUES) int8, cards each seat has played; public
    phase: np.ndarray  # (B,) int8, Phase
    turns: np.ndarray  # (B,) int32, plays so far


View = kernel_view(ToyState)


# ---------------------------------------------------------------- setup
@njit
def init_row(s, r):
    """Shuffle the deck, deal HAND_SIZE cards to each seat in turn, lay the market card and
    draw the start player."""
    order = local_zeros(NUM_CARDS, np.int64)
    next_permutation(s.rng, r, order)
    for k in range(NUM_CARDS):
        s.deck[r, k] = order[k] // COPIES
    players = s.hands.shape[1]
    s.current_player[r] = next_integer(s.rng, r, players)
    for k in range(players * HAND_SIZE):
        s.hands[r, k % players, s.deck[r, k]] += 1
    dealt = players * HAND_SIZE
    s.market[r] = s.deck[r, dealt]
    s.deck_pos[r] = dealt + 1


# ---------------------------------------------------------------- PLAY
@njit
def legal_play(s, r, mask):
    for v in range(NUM_VALUES):
        mask[PLAY + v] = s.hands[r, s.current_player[r], v] > 0


@njit
def apply_play(s, r, action):
    seat, value = s.current_player[r], action - PLAY
    s.hands[r, seat, value] -= 1
    s.played[r, seat, value] += 1
    s.turns[r] += 1
    if s.deck_pos[r] < NUM_CARDS or s.market[r] >= 0:
        s.phase[r] = Phase.DRAW
    else:
        end_turn(s, r)


# ---------------------------------------------------------------- DRAW
@njit
def legal_draw(s, r, mask):
    mask[DRAW_DECK] = s.deck_pos[r] < NUM_CARDS
    mask[DRAW_MARKET] = s.market[r] >= 0


@njit
def apply_draw(s, r, action):
    seat = s.current_player[r]
    has_deck = s.deck_pos[r] < NUM_CARDS
    top = s.deck[r, s.deck_pos[r]] if has_deck else -1
    if action == DRAW_MARKET:
        s.hands[r, seat, s.market[r]] += 1
        s.market[r] = top  # the deck's top card replaces the market card
        if has_deck:
            s.deck_pos[r] += 1
            s.revealed[r, :] = True  # a new market card is shown to everyone
    else:
        s.hands[r, seat, top] += 1
        s.deck_pos[r] += 1
        s.revealed[r, seat] = True  # the drawer sees its card
    s.phase[r] = Phase.PLAY
    end_turn(s, r)


@njit
def end_turn(s, r):
    """The end, the cap, or the next seat clockwise that still holds a card."""
    players = s.hands.shape[1]
    holds = local_zeros(MAX_PLAYERS, np.bool_)
    for p in range(players):
        holds[p] = s.hands[r, p].sum() > 0
    if not holds.any():
        s.terminated[r] = True
    elif s.turns[r] >= s.params[MAX_TURNS]:
        s.truncated[r] = True
    else:
        for k in range(1, players + 1):
            seat = (s.current_player[r] + k) % players
            if holds[seat]:
                s.current_player[r] = seat
                break


# ---------------------------------------------------------------- dispatch
@njit
def legal(s, r, mask):
    if s.phase[r] == Phase.PLAY:
        legal_play(s, r, mask)
    else:
        legal_draw(s, r, mask)


@njit
def apply(s, r, action):
    if s.phase[r] == Phase.PLAY:
        apply_play(s, r, action)
    else:
        apply_draw(s, r, action)


@njit
def forced(s, r, mask):
    """The draw once the deck is empty (public): only the market card is left. A single
    legal PLAY comes from the hidden hand, so it is asked."""
    return s.phase[r] == Phase.DRAW and s.deck_pos[r] >= NUM_CARDS


@njit
def phase(s, r):
    return s.phase[r]


# ---------------------------------------------------------------- scores and observation
@njit
def score_row(s, r, out):
    for p in range(out.shape[0]):
        for v in range(NUM_VALUES):
            out[p] += s.played[r, p, v] * v


@njit
def ranking(s, r, keys):
    score_row(s, r, keys[:, 0])


@njit
def observe_row(s, r, seat, out):
    players = s.hands.shape[1]
    for v in range(NUM_VALUES):
        out[OBS_HAND + v] = s.hands[r, seat, v]
    out[OBS_MARKET + (s.market[r] if s.market[r] >= 0 else NUM_VALUES)] = 1
    out[OBS_DECK_LEFT] = (NUM_CARDS - s.deck_pos[r]) / NUM_CARDS
    for k in range(players):  # egocentric: the observing seat first
        other = (seat + k) % players
        score = 0
        for v in range(NUM_VALUES):
            score += s.played[r, other, v] * v
        out[OBS_SCORES + k] = score / MAX_SCORE
        out[OBS_HAND_SIZES + k] = s.hands[r, other].sum()
    if s.current_player[r] >= 0:
        out[OBS_TO_ACT + (s.current_player[r] - seat) % players] = 1
    out[OBS_PHASE + s.phase[r]] = 1


ROWS = RowRules(legal=legal, forced=forced, apply=apply, phase=phase, ranking=ranking,
                init_row=init_row, observe_row=observe_row, score_row=score_row)


class ToyGame(CompiledGame):
    """The toy card game (see the module docstring)."""

    ENV_ID = "toy"
    VERSION = 1
    PLAYER_COUNTS = (2, 3)
    DEFAULT_PLAYERS = 3
    OPTIONS = {"max_turns": 100}
    HAS_HIDDEN_INFO = True
    ROWS, VIEW, Phase = ROWS, View, Phase
    AUTOMATIC = frozenset({Phase.DRAW})

    def __init__(self, num_players: int | None = None, **options):
        super().__init__(num_players, **options)
        self.num_actions = ACTIONS.size
        self.action_layout, self.observation_layout = ACTIONS, OBS
        self.observation_shape = (OBS.size,)
        self.observation_low, self.observation_high = OBS.bounds()
        self.max_decisions = 2 * NUM_CARDS
        self.max_chain = 1  # a forced draw ends the turn
        self.params = np.array([self.options["max_turns"]], dtype=np.int64)

    def _allocate(self, batch_size: int) -> ToyState:
        b, p = batch_size, self.num_players
        return ToyState(
            current_player=np.zeros(b, dtype=np.int32),
            terminated=np.zeros(b, dtype=bool),
            truncated=np.zeros(b, dtype=bool),
            rewards=np.zeros((b, p), dtype=np.float32),
            rng=np.zeros((b, 2), dtype=np.uint64),
            hands=np.zeros((b, p, NUM_VALUES), dtype=np.int8),
            deck=np.zeros((b, NUM_CARDS), dtype=np.int8),
            deck_pos=np.zeros(b, dtype=np.int8),
            market=np.zeros(b, dtype=np.int8),
            played=np.zeros((b, p, NUM_VALUES), dtype=np.int8),
            phase=np.zeros(b, dtype=np.int8),
            turns=np.zeros(b, dtype=np.int32),
        )

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
        return self.refresh(new)  # the seat to act may hold other cards now

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
