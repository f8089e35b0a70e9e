"""The batched-game protocol: the base class of every game, what every user of a game calls.

``Game`` holds what every game shares whatever its rules: option and player-count checking,
seeding rows as ``seed + i``, the checks of a batch of actions and the message of an illegal
one, and the names of the calls (``init``, ``step``, ``legal_action_mask``, ``observe``,
``scores``, ``render``...). The one implementation of the calls is the compiled core,
``envs.core.compiled.CompiledGame``: a game's rules are per-row functions compiled with numba
and a batch is one compiled call (``tests/toy_game.py`` is the smallest complete game,
``docs/adding-a-game.md`` the walk through it).

A game's class attributes: ``ENV_ID``, ``VERSION``, ``PLAYER_COUNTS``, ``DEFAULT_PLAYERS``
(the one player count every command uses by default), ``OPTIONS`` (defaults of its keyword
options), ``OPTION_CHOICES`` and ``HAS_HIDDEN_INFO``; in ``__init__``: ``num_actions``,
``observation_shape``, ``observation_low``/``observation_high``, ``action_layout`` and
``observation_layout`` (``envs.core.layout``; the docs pages are made from them),
``max_decisions`` (an upper bound on the decisions of one game, automatic ones and the cap
included) and ``max_chain`` (the most automatic decisions one step can apply).

Forced decisions (design.md): after the asked action, ``step`` applies, one after the other,
the decisions whose single legal action public information alone leaves, and ``init`` does
the same for the first decisions; ``step_record`` lists them. The masks of the decisions
then asked are kept in the state (``legal_mask``); code that edits a state's arrays by hand
calls ``refresh`` (the masks again) or ``settle`` (also the forced decisions) afterwards.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from envs.core.decisions import StepRecord
from envs.core.driver import rank_rewards_row
from envs.core.errors import IllegalActionError
from envs.core.layout import ActionLayout, ObservationLayout
from envs.core.state import BatchState

S = TypeVar("S", bound=BatchState)
_INT64 = np.dtype(np.int64)  # NumPy's own instance, the dtype of a native int64 array


def rank_rewards(keys: np.ndarray) -> np.ndarray:
    """Rank-based terminal rewards: (seats i beats − seats that beat i) / (P − 1).

    Args:
        keys: (B, P) or (B, P, K) ranking keys, higher is better; with K keys the comparison
            is lexicographic (the game's tie-breaks in order). Equal keys are a tie.

    Returns:
        (B, P) float32, zero-sum per row, +1 for a sole winner and −1 for a sole loser.
    """
    keys = np.asarray(keys, dtype=np.float64)
    if keys.ndim == 2:
        keys = keys[:, :, None]
    keys = np.ascontiguousarray(keys)
    out = np.zeros(keys.shape[:2], dtype=np.float32)
    for row in range(keys.shape[0]):  # the compiled rule that ends every game
        rank_rewards_row(keys[row], out[row])
    return out


class Game(abc.ABC, Generic[S]):
    """Rules of one game for a fixed player count and options; holds no mutable state."""

    ENV_ID: ClassVar[str]
    VERSION: ClassVar[int]
    PLAYER_COUNTS: ClassVar[tuple[int, ...]]
    DEFAULT_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[dict[str, Any]] = {}
    # The allowed values of options that take one of a few (e.g. ``{"variant": ("standard",
    # "quick")}``); the others are checked by type only (and by the game's ``__init__``).
    OPTION_CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {}
    # True when seats hold information others cannot see; the leak test then demands that
    # resample_hidden actually changes some states.
    HAS_HIDDEN_INFO: ClassVar[bool] = False

    num_actions: int
    observation_shape: tuple[int, ...]
    observation_low: np.ndarray
    observation_high: np.ndarray
    max_decisions: int
    max_chain: int = 0
    action_layout: ActionLayout  # the named ranges of the actions (docs, play)
    observation_layout: ObservationLayout  # the pieces of one seat's observation (docs)

    def __init__(self, num_players: int | None = None, **options: Any):
        if num_players is None:
            num_players = self.DEFAULT_PLAYERS
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise ValueError(f"{self.ENV_ID}: num_players must be an int, got {num_players!r}")
        if num_players not in self.PLAYER_COUNTS:
            raise ValueError(
                f"{self.ENV_ID}: unsupported num_players={num_players}; "
                f"valid: {', '.join(map(str, self.PLAYER_COUNTS))}"
            )
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            valid = ", ".join(f"{k}={v!r}" for k, v in self.OPTIONS.items()) or "none"
            raise ValueError(f"{self.ENV_ID}: unknown option(s) {unknown}; valid options: {valid}")
        resolved = dict(self.OPTIONS)
        for key, value in options.items():
            default = self.OPTIONS[key]
            if type(value) is not type(default) and not (
                isinstance(default, int) and isinstance(value, np.integer)
            ):
                raise ValueError(
                    f"{self.ENV_ID}: option {key} must be {type(default).__name__}, "
                    f"got {value!r}"
                )
            choices = self.OPTION_CHOICES.get(key)
            if choices is not None and value not in choices:
                raise ValueError(f"{self.ENV_ID}: option {key}={value!r} is not one of "
                                 f"{', '.join(map(repr, choices))}")
            resolved[key] = value
        self.num_players = int(num_players)
        self.options = resolved

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(num_players={self.num_players}{opts})"

    # ---------------------------------------------------------------- the public protocol
    def init(self, batch_size: int = 1, seed: int = 0) -> S:
        """A batch of new games; row i is seeded ``seed + i``."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)):
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ValueError(f"seed must be an int, got {seed!r}")
        return self.init_rows(np.arange(batch_size, dtype=np.int64) + int(seed))

    @abc.abstractmethod
    def init_rows(self, seeds: np.ndarray) -> S:
        """A batch of new games with one explicit seed per row, ``(B,)`` int64 (their first
        decisions that public information forces applied, see ``step_record``)."""

    @abc.abstractmethod
    def legal_action_mask(self, state: S) -> np.ndarray:
        """(B, A) bool, read-only; all False where the game is over."""

    @abc.abstractmethod
    def step(self, state: S, actions: np.ndarray) -> S:
        """Apply one action per row, then the decisions it leaves that public information
        forces; finished rows ignore theirs and get zero rewards. The state is changed in
        place (and returned): keep ``state.copy()`` to compare or go back.

        Raises:
            ValueError: ``actions`` has the wrong shape or is not integer.
            IllegalActionError: an action of a live row is out of range or masked out; the
                state is unchanged.
        """

    @abc.abstractmethod
    def settle(self, state: S) -> S:
        """Apply the decisions that public information forces in ``state`` (as ``init`` and
        ``step`` do) and keep the masks of those then asked, for a position built or edited
        by hand (rules tests)."""

    @abc.abstractmethod
    def refresh(self, state: S) -> S:
        """Recompute the legal masks of ``state`` after editing its arrays by hand, applying
        nothing."""

    @abc.abstractmethod
    def step_record(self, state: S) -> StepRecord:
        """What the last ``step`` (or ``init``) of ``state`` did besides the asked actions:
        the seats it showed hidden information to and the automatic decisions it applied."""

    @abc.abstractmethod
    def reset_rows(self, state: S, rows: np.ndarray, seeds: np.ndarray) -> S:
        """Start a new game in each of ``rows`` of ``state``, seeded ``seeds`` (one int each),
        in place (and returned): the same as ``put(state, rows, init_rows(seeds))``, made
        where they go (the auto-resetting envs' restart of finished rows).

        Raises:
            ValueError: ``rows`` are not distinct rows of ``state``, or ``seeds`` not one
                integer per row; the state is unchanged.
        """

    def take(self, state: S, rows: np.ndarray) -> S:
        """The sub-batch of ``rows`` (its masks along: they are a field of the state)."""
        return state.take(rows)

    def put(self, state: S, rows: np.ndarray, part: S) -> None:
        """Replace ``rows`` of ``state`` with the rows of ``part`` (masks included)."""
        state.put(rows, part)

    @abc.abstractmethod
    def ranking_keys(self, state: S) -> np.ndarray:
        """(B, P, K) float64: the final ranking keys, the game's tie-breaks in order."""

    @abc.abstractmethod
    def phase_name(self, phase: int) -> str:
        """The name of a decision key (a row's ``phase``), as the step record gives it."""

    @abc.abstractmethod
    def decision_table(self) -> list[tuple[int, str, bool]]:
        """``(phase, name, may be automatic)`` of every decision, in phase order (docs)."""

    @abc.abstractmethod
    def observe(self, state: S, player: int | np.ndarray) -> np.ndarray:
        """(B, *observation_shape) float32: what ``player`` (int or (B,)) may know."""

    def observe_rows(self, state: S, rows: np.ndarray, players: np.ndarray) -> np.ndarray:
        """(R, *observation_shape) float32: what ``players[i]`` may know of row ``rows[i]``
        (a row may come several times, for several seats): ``observe`` of those rows, taken
        out of ``state``."""
        return self.observe(state.take(rows), players)

    @abc.abstractmethod
    def scores(self, state: S) -> np.ndarray:
        """(B, P) float: the game's own victory points or money."""

    def scores_rows(self, state: S, rows: np.ndarray) -> np.ndarray:
        """(R, P) float: ``scores`` of rows ``rows``, taken out of ``state``."""
        return self.scores(state.take(rows))

    # ---------------------------------------------------------------- game-specific pieces
    @abc.abstractmethod
    def render(self, state: S, index: int = 0, seat: int | None = None) -> str:
        """A readable text board of one game in the batch: what ``seat`` may know, or the
        full (omniscient, debugging) view when ``seat`` is None."""

    def draw(self, state: S, index: int = 0, seat: int | None = None) -> np.ndarray:
        """(H, W, 3) uint8: a picture of one game's board (``envs.core.draw``), as ``seat``
        sees it (None: everything); ``render_mode="rgb_array"`` shows it."""
        raise NotImplementedError(f"{self.ENV_ID} has no picture of its board yet")

    @abc.abstractmethod
    def action_name(self, action: int) -> str:
        """Readable name of one action."""

    @abc.abstractmethod
    def decision_name(self, state: S, row: int) -> str:
        """Name of the decision asked in one row (for messages and renders)."""

    def resample_hidden(self, state: S, player: int, seed: int) -> S:
        """A copy of ``state`` with everything ``player`` cannot see redrawn at random.

        Used by the information-leak test: ``observe(state, player)`` must not change. The
        default suits games with no hidden information.
        """
        return state.copy()

    def check_invariants(self, state: S) -> list[str]:
        """Violations of the rules spec's invariants, one message each; empty when all hold."""
        return []

    # ---------------------------------------------------------------- helpers
    def _check_actions(self, state: S, actions: Any) -> np.ndarray:
        if (type(actions) is np.ndarray and actions.dtype is _INT64
                and actions.shape == (state.batch_size,)):
            # The common call (the AEC env's, a vector env's): what the checks below pass
            # unchanged. Between two batched steps NumPy's code is cold, and those checks
            # cost 5-8 µs a step at B = 1024 against ~1 µs when called in a loop of their own.
            # (The dtype by identity: ``== np.int64`` converts the type to a dtype first.)
            return actions
        arr = np.asarray(actions)
        if arr.ndim == 0:
            arr = arr.reshape(1)
        if arr.shape != (state.batch_size,):
            raise ValueError(
                f"{self.ENV_ID}: actions must have shape ({state.batch_size},), got {arr.shape}"
            )
        if arr.dtype.kind not in "iu":  # not integer (bool and whole floats included)
            raise ValueError(f"{self.ENV_ID}: actions must be integers (an integer dtype), "
                             f"got {arr.dtype}")
        return arr.astype(np.int64, copy=False)

    def _raise_illegal(self, state: S, actions: np.ndarray, row: int, mask: np.ndarray) -> None:
        """Raise the ``IllegalActionError`` of row ``row``'s action."""
        a = int(actions[row])
        why = (
            f"out of range [0, {self.num_actions})"
            if not 0 <= a < self.num_actions
            else f"{self.action_name(a)} is not legal here"
        )
        raise IllegalActionError(
            f"{self.ENV_ID}: row {row}: action {a} is illegal in decision "
            f"{self.decision_name(state, row)!r} (seat {int(state.current_player[row])} to "
            f"act): {why}; legal: {self._legal_names(mask[row])}"
        )

    def _legal_names(self, row_mask: np.ndarray, limit: int = 12) -> str:
        legal = np.flatnonzero(row_mask)
        names = [f"{a}={self.action_name(int(a))}" for a in legal[:limit]]
        more = f" … ({len(legal)} in all)" if len(legal) > limit else ""
        return "[" + ", ".join(names) + more + "]"
