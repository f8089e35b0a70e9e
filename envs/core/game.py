"""The batched-game protocol: the base class every game's rules object derives from.

A game subclass brings its rules; this base brings what every game shares: option and
player-count checking, seeding rows as ``seed + i``, validating a batch of actions before
anything changes, zeroing rewards of finished rows, paying the rank-based terminal reward,
and caching the legal-action mask between decisions (with the game's ``scratch`` beside it).

What a game must supply (see the toy game in ``tests/toy_game.py`` for a small example):

* class attributes ``ENV_ID``, ``VERSION``, ``PLAYER_COUNTS``, ``OPTIONS`` (defaults of its
  keyword options) and, in ``__init__``, ``self.num_actions``, ``self.observation_shape``,
  ``self.observation_low``/``self.observation_high`` (float32 arrays of that shape) and
  ``self.max_decisions`` (an upper bound on the decisions of one game, cap included);
* ``_init(seeds)``, ``_legal_action_mask(state)``, ``_step(state, actions, rows)``,
  ``observe``, ``scores``, ``render``, ``action_name``, ``decision_name``;
* for the shared tests: ``resample_hidden`` (the information-leak harness) and
  ``check_invariants`` (the rules spec's invariants);
* optionally ``ROW_CHECKED_CACHE = True``, when every entry it keeps in ``state_cache`` is
  checked row by row against its source arrays (the vector envs then keep the cache when they
  restart some rows; see ``forget_rows``).
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from envs.core.errors import IllegalActionError
from envs.core.memory import retain_freed_memory
from envs.core.scratch import Scratch
from envs.core.state import BatchState

S = TypeVar("S", bound=BatchState)

_MASK_CACHE = "_legal_mask_cache"
_STATE_CACHE = "_game_cache"
_SCRATCH = "_decision_scratch"
_HANDED = "_handed_scratch"


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
    a, b = keys[:, :, None, :], keys[:, None, :, :]  # (B, P, P, K)
    diff = np.sign(a - b)
    # The first non-zero key difference decides between two seats.
    first = np.argmax(diff != 0, axis=-1)
    decided = np.take_along_axis(diff, first[..., None], axis=-1)[..., 0]
    num_players = keys.shape[1]
    return (decided.sum(axis=2) / max(num_players - 1, 1)).astype(np.float32)


class Game(abc.ABC, Generic[S]):
    """Rules of one game for a fixed player count and options; holds no mutable state."""

    ENV_ID: ClassVar[str]
    VERSION: ClassVar[int]
    PLAYER_COUNTS: ClassVar[tuple[int, ...]]
    OPTIONS: ClassVar[dict[str, Any]] = {}
    # True when seats hold information others cannot see; the leak test then demands that
    # resample_hidden actually changes some states.
    HAS_HIDDEN_INFO: ClassVar[bool] = False
    # True when every entry of the game's ``state_cache`` is checked, row by row, against the
    # arrays it derives from (see ``forget_rows``).
    ROW_CHECKED_CACHE: ClassVar[bool] = False

    num_actions: int
    observation_shape: tuple[int, ...]
    observation_low: np.ndarray
    observation_high: np.ndarray
    max_decisions: int

    def __init__(self, num_players: int | None = None, **options: Any):
        if num_players is None:
            num_players = self.PLAYER_COUNTS[0]
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

    def init_rows(self, seeds: np.ndarray) -> S:
        """A batch of new games with one explicit seed per row, ``(B,)`` int64."""
        seeds = np.asarray(seeds, dtype=np.int64)
        if seeds.size > 1:  # batched play: large per-step arrays, see ``envs.core.memory``
            retain_freed_memory()
        return self._init(seeds)

    def legal_action_mask(self, state: S) -> np.ndarray:
        """(B, A) bool, read-only; all False where the game is over.

        The mask is cached on the state until the next ``step``; code that edits a state's
        arrays by hand (tests building positions) calls ``invalidate(state)`` afterwards.
        """
        cached = state.__dict__.get(_MASK_CACHE)
        if cached is None:
            cached = self._legal_action_mask(state)
            cached[state.done] = False
            cached.flags.writeable = False
            state.__dict__[_MASK_CACHE] = cached
        return cached

    @staticmethod
    def invalidate(state: S) -> None:
        """Forget everything cached on ``state`` after editing its arrays by hand (or ``put``)."""
        for key in (_MASK_CACHE, _SCRATCH, _STATE_CACHE):
            state.__dict__.pop(key, None)

    def forget_rows(self, state: S, rows: np.ndarray) -> None:
        """Forget what is cached about ``rows`` after ``state.put`` replaced them.

        The mask cache always goes, and the scratch's entries of ``rows``. The state cache
        goes too unless the game declares ``ROW_CHECKED_CACHE``: that its entries check each
        row against the arrays they derive from, so that a replaced row simply misses while
        the other rows keep theirs.
        """
        state.__dict__.pop(_MASK_CACHE, None)
        scratch = state.__dict__.get(_SCRATCH)
        if scratch is not None:
            scratch.forget(rows)
        if not self.ROW_CHECKED_CACHE:
            state.__dict__.pop(_STATE_CACHE, None)

    @staticmethod
    def state_cache(state: S) -> dict:
        """A scratch dict for derived data a game reuses across decisions of one state.

        It lives on the state object (``copy``, ``take`` and pickling never carry it) and
        survives ``step``, so the game keys or checks each entry against what it derives from.
        ``invalidate`` clears it.
        """
        return state.__dict__.setdefault(_STATE_CACHE, {})

    @staticmethod
    def scratch(state: S) -> Scratch:
        """Row-keyed derived data about the state as it stands (``envs.core.scratch``), which
        a game's mask hands to its step (the options the step applies) and a step to the
        next mask (an analysis of the board it leaves).

        Unlike ``state_cache`` entries, nothing in it is checked against the arrays, so it
        lives only as long as the state it describes: every ``step`` starts a new one (inside
        ``_step`` this is the one of the state the step leaves; the old one is ``handed``),
        ``invalidate`` drops it, and ``forget_rows`` drops its rows.
        """
        scratch = state.__dict__.get(_SCRATCH)
        if scratch is None:
            scratch = state.__dict__[_SCRATCH] = Scratch(state.batch_size)
        return scratch

    @staticmethod
    def handed(state: S) -> Scratch:
        """Inside ``_step``: the ``scratch`` of the state the step started from, where its
        mask left what it worked out. Elsewhere an empty one."""
        return state.__dict__.get(_HANDED) or Scratch(state.batch_size)

    @staticmethod
    def row_bytes(row: int, arrays: list[np.ndarray]) -> bytes:
        """The bytes of one row of each of ``arrays`` (per-row arrays of one batch), joined
        (C order, as ``tobytes`` gives them)."""
        if len(arrays[0]) == 1:  # a batch of one: each array's bytes are the row's, no views
            return b"".join([a.tobytes() for a in arrays])
        return b"".join([a[row].tobytes() for a in arrays])

    @staticmethod
    def row_cached(state: S, name: str, row: int, arrays: list[np.ndarray],
                   build: Callable[[S, int], Any]) -> Any:
        """``build(state, row)``, kept in ``state_cache(state)[name]`` while the row's bytes of
        ``arrays`` (everything it derives from) stay the same: a row-checked entry."""
        key = (row, Game.row_bytes(row, arrays))
        cache = Game.state_cache(state)
        cached = cache.get(name)
        if cached is None or cached[0] != key:
            cached = (key, build(state, row))
            cache[name] = cached
        return cached[1]

    def step(self, state: S, actions: np.ndarray) -> S:
        """Apply one action per row; finished rows ignore theirs and get zero rewards.

        Raises:
            ValueError: ``actions`` has the wrong shape or is not integer.
            IllegalActionError: an action of a live row is out of range or masked out; the
                state is unchanged.
        """
        actions = self._check_actions(state, actions)
        if state.batch_size == 1:
            return self._step_one(state, actions)
        live = ~state.done
        mask = self.legal_action_mask(state)
        in_range = (actions >= 0) & (actions < self.num_actions)
        legal = np.zeros(state.batch_size, dtype=bool)
        legal[in_range] = mask[in_range, actions[in_range]]
        bad = live & ~legal
        if bad.any():
            self._raise_illegal(state, actions, int(np.flatnonzero(bad)[0]), mask)
        state.__dict__.pop(_MASK_CACHE, None)
        state.rewards[:] = 0.0
        if live.any():
            self._step_with_scratch(state, actions, live)
            ended = live & state.done
            if ended.any():
                state.current_player[ended] = -1
                state.rewards[ended] = rank_rewards(self.ranking_keys(state.take(ended)))
        return state

    def _step_one(self, state: S, actions: np.ndarray) -> S:
        """``step`` of a batch of one, with Python scalars: a fraction of the NumPy calls."""
        if state.terminated[0] or state.truncated[0]:
            state.rewards[:] = 0.0
            return state
        mask = self.legal_action_mask(state)
        action = int(actions[0])
        if not (0 <= action < self.num_actions and mask[0, action]):
            self._raise_illegal(state, actions, 0, mask)
        state.__dict__.pop(_MASK_CACHE, None)
        state.rewards[:] = 0.0
        self._step_with_scratch(state, actions, np.ones(1, dtype=bool))
        if state.terminated[0] or state.truncated[0]:
            state.current_player[0] = -1
            state.rewards[0] = rank_rewards(self.ranking_keys(state))[0]
        return state

    def _step_with_scratch(self, state: S, actions: np.ndarray, rows: np.ndarray) -> None:
        """``_step`` with the old ``scratch`` ``handed`` over and a new one begun."""
        state.__dict__[_HANDED] = state.__dict__.pop(_SCRATCH, None)
        try:
            self._step(state, actions, rows)
        except BaseException:
            state.__dict__.pop(_SCRATCH, None)  # it would describe a half-made state
            raise
        finally:
            state.__dict__.pop(_HANDED)

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

    def ranking_keys(self, state: S) -> np.ndarray:
        """Keys of the final ranking, (B, P) or (B, P, K); the game's own tie-breaks go here."""
        return self.scores(state)

    # ---------------------------------------------------------------- game-specific pieces
    @abc.abstractmethod
    def _init(self, seeds: np.ndarray) -> S:
        """New games, one per seed."""

    @abc.abstractmethod
    def _legal_action_mask(self, state: S) -> np.ndarray:
        """(B, A) bool, a fresh array."""

    @abc.abstractmethod
    def _step(self, state: S, actions: np.ndarray, rows: np.ndarray) -> None:
        """Apply validated ``actions`` of the selected live ``rows`` in place.

        Sets ``terminated``/``truncated`` of rows that end; the base pays the rewards.
        """

    @abc.abstractmethod
    def observe(self, state: S, player: int | np.ndarray) -> np.ndarray:
        """(B, *observation_shape) float32: what ``player`` (int or (B,)) may know."""

    @abc.abstractmethod
    def scores(self, state: S) -> np.ndarray:
        """(B, P) float: the game's own victory points or money."""

    @abc.abstractmethod
    def render(self, state: S, index: int = 0) -> str:
        """A readable text board of one game in the batch."""

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
        if (type(actions) is np.ndarray and actions.dtype == np.int64
                and actions.shape == (1,) == (state.batch_size,)):
            return actions  # the common B = 1 call, as the AEC env makes it
        arr = np.asarray(actions)
        if arr.ndim == 0:
            arr = arr.reshape(1)
        if arr.shape != (state.batch_size,):
            raise ValueError(
                f"{self.ENV_ID}: actions must have shape ({state.batch_size},), got {arr.shape}"
            )
        if arr.dtype.kind not in "iu":  # not integer (bool included)
            if arr.dtype.kind == "f" and np.all(arr == np.round(arr)):
                arr = arr.astype(np.int64)
            else:
                raise ValueError(f"{self.ENV_ID}: actions must be integers, got {arr.dtype}")
        return arr.astype(np.int64, copy=False)

    def _legal_names(self, row_mask: np.ndarray, limit: int = 12) -> str:
        legal = np.flatnonzero(row_mask)
        names = [f"{a}={self.action_name(int(a))}" for a in legal[:limit]]
        more = f" … ({len(legal)} in all)" if len(legal) > limit else ""
        return "[" + ", ".join(names) + more + "]"
