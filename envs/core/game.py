"""The batched-game protocol: the base class every game's rules object derives from.

A game subclass brings its rules; this base brings what every game shares: option and
player-count checking, seeding rows as ``seed + i``, validating a batch of actions before
anything changes, dispatching each row to its phase's decision, applying the decisions that
public information forces, zeroing rewards of finished rows, paying the rank-based terminal
reward, and caching the legal-action mask between decisions.

What a game supplies (``tests/toy_game.py`` is a complete small example):

* class attributes ``ENV_ID``, ``VERSION``, ``PLAYER_COUNTS``, ``DEFAULT_PLAYERS`` (the one
  player count every command uses by default), ``OPTIONS`` (defaults of its keyword options);
* in ``__init__``: ``self.num_actions``, ``self.observation_shape``,
  ``self.observation_low``/``self.observation_high`` (float32 arrays of that shape),
  ``self.action_layout`` and ``self.observation_layout`` (``envs.core.layout``; the docs
  pages are made from them),
  ``self.max_decisions`` (an upper bound on the decisions of one game, automatic ones and
  the cap included), ``self.decisions`` (``phase -> envs.core.decisions.Decision``: one
  legality and one effect function per phase over an index array of rows, and the public
  ``forced`` predicate) and ``self.max_chain`` (the most automatic decisions one step can
  apply);
* a state (an ``envs.core.state.BatchState``) with a ``phase`` field, (B,) int, the key of
  the decision each row is asked; handlers set ``state.revealed[row, seat]`` whenever a step
  shows hidden information to a seat (chance drawn, a card or tile turned, a pile searched);
* ``_init(seeds)``, ``observe``, ``scores`` (and ``ranking_keys`` for tie-breaks),
  ``render(state, index, seat=None)``, ``action_name``, ``decision_name``;
* for the shared tests and search agents: ``resample_hidden`` and ``check_invariants``;
* optionally ``_end_step(state, rows)``: work its effects leave for the end of a step,
  done once for all the step's rows (cairo ends its turns there).

Forced decisions (design.md): after the asked actions, ``step`` applies, round after round,
every row's decision whose ``forced`` predicate holds (its single legal action), until no row
has one; ``init`` does the same for the first decisions. ``step_record`` lists them. Each
round computes the rows' legal masks first: only a decision with a single legal action can
be forced, so the predicate is asked about those rows alone.

Caching: the masks of the decisions a step leaves to be asked are kept on the state until
the next ``step`` (``invalidate`` drops them after a state is edited by hand,
``forget_rows`` after rows are replaced; ``take`` and ``put`` carry them along). Derived data a
game reuses across decisions goes through ``envs.core.memo`` (opt-in, checked row by row);
nothing else is kept, and the rules object keeps nothing at all.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from envs.core.decisions import AutoDecision, Decision, StepRecord, rows_by_phase
from envs.core.errors import IllegalActionError
from envs.core.layout import ActionLayout, ObservationLayout
from envs.core.state import BatchState

S = TypeVar("S", bound=BatchState)

_MASK_CACHE = "_legal_mask_cache"
_AUTOMATIC = "_automatic_decisions"


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
    DEFAULT_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[dict[str, Any]] = {}
    # The allowed values of options that take one of a few (e.g. ``{"variant": ("standard",
    # "quick")}``); the others are checked by type only (and by the game's ``__init__``).
    OPTION_CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {}
    # True when seats hold information others cannot see; the leak test then demands that
    # resample_hidden actually changes some states.
    HAS_HIDDEN_INFO: ClassVar[bool] = False
    # Ask every forced predicate about every row, not only about the rows whose mask has a
    # single action, and raise where one claims a decision with more (a bug of the
    # predicate): the test suite and the soak set it.
    check_forced: ClassVar[bool] = False

    num_actions: int
    observation_shape: tuple[int, ...]
    observation_low: np.ndarray
    observation_high: np.ndarray
    max_decisions: int
    decisions: dict[int, Decision]
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

    def init_rows(self, seeds: np.ndarray) -> S:
        """A batch of new games with one explicit seed per row, ``(B,)`` int64.

        The games' first decisions that public information forces are applied (see
        ``step_record``).
        """
        state = self._init(np.asarray(seeds, dtype=np.int64))
        self._apply_forced(state, np.arange(state.batch_size))
        return state

    def legal_action_mask(self, state: S) -> np.ndarray:
        """(B, A) bool, read-only; all False where the game is over.

        The mask is cached on the state until the next ``step``; code that edits a state's
        arrays by hand (tests building positions) calls ``invalidate(state)`` afterwards.
        """
        cached = state.__dict__.get(_MASK_CACHE)
        if cached is None:
            cached = np.zeros((state.batch_size, self.num_actions), dtype=bool)
            live = np.flatnonzero(~state.done)
            for phase, sel in rows_by_phase(state.phase, live) if live.size else ():
                idx = live[sel]
                cached[idx] = self.decisions[phase].legal(state, idx)
            cached.flags.writeable = False
            state.__dict__[_MASK_CACHE] = cached
        return cached

    def take(self, state: S, rows: np.ndarray) -> S:
        """``state.take(rows)`` with the legal mask of those rows, when it is already known,
        carried along (so a sub-batch, e.g. the rows one agent plays, is not checked again)."""
        part = state.take(rows)
        mask = state.__dict__.get(_MASK_CACHE)
        if mask is not None:
            part_mask = mask[np.atleast_1d(np.asarray(rows))]
            part_mask.flags.writeable = False
            part.__dict__[_MASK_CACHE] = part_mask
        return part

    def put(self, state: S, rows: np.ndarray, part: S) -> None:
        """``state.put(rows, part)`` with ``part``'s legal masks carried into ``state``'s when
        both are known (a state made by ``init``, ``step`` or ``take`` knows its own), else
        the cached mask dropped: new games or stepped sub-batches put back are not checked
        again."""
        state.put(rows, part)
        mask = state.__dict__.get(_MASK_CACHE)
        fresh = part.__dict__.get(_MASK_CACHE)
        if mask is None or fresh is None:
            self.forget_rows(state, rows)
            return
        mask = mask.copy()  # the cached mask may have been handed out: never written to
        mask[rows] = fresh
        mask.flags.writeable = False
        state.__dict__[_MASK_CACHE] = mask

    def settle(self, state: S) -> S:
        """Apply the decisions that public information forces in ``state`` (as ``init`` and
        ``step`` do), for a position built or edited by hand (rules tests)."""
        self.invalidate(state)
        self._apply_forced(state, np.flatnonzero(~state.done))
        return state

    def step_record(self, state: S) -> StepRecord:
        """What the last ``step`` (or ``init``) of ``state`` did besides the asked actions:
        the seats it showed hidden information to and the automatic decisions it applied."""
        return StepRecord(state.revealed, state.__dict__.get(_AUTOMATIC, ()))

    @staticmethod
    def invalidate(state: S) -> None:
        """Forget the cached mask of ``state`` after editing its arrays by hand (or ``put``)."""
        state.__dict__.pop(_MASK_CACHE, None)

    def forget_rows(self, state: S, rows: np.ndarray) -> None:
        """Forget what is cached about ``rows`` after ``state.put`` replaced them: the mask
        (``envs.core.memo`` entries check every row themselves; ``put`` carries the new rows'
        masks instead)."""
        state.__dict__.pop(_MASK_CACHE, None)

    def step(self, state: S, actions: np.ndarray) -> S:
        """Apply one action per row, then the decisions it leaves that public information
        forces; finished rows ignore theirs and get zero rewards. The state is changed in
        place (and returned): keep ``state.copy()`` to compare or go back.

        Raises:
            ValueError: ``actions`` has the wrong shape or is not integer.
            IllegalActionError: an action of a live row is out of range or masked out; the
                state is unchanged.
        """
        actions = self._check_actions(state, actions)
        live = np.flatnonzero(~state.done)
        mask = self.legal_action_mask(state)
        chosen = actions[live]
        in_range = (chosen >= 0) & (chosen < self.num_actions)
        legal = in_range.copy()
        legal[in_range] = mask[live[in_range], chosen[in_range]]
        if not legal.all():
            self._raise_illegal(state, actions, int(live[np.argmin(legal)]), mask)
        state.__dict__.pop(_MASK_CACHE, None)
        state.rewards[:] = 0.0
        state.revealed[live] = False  # a finished row keeps its last step's record
        state.__dict__.pop(_AUTOMATIC, None)
        if live.size:
            self._apply(state, live, chosen)
            self._apply_forced(state, live)
            ended = live[state.done[live]]
            if ended.size:
                state.current_player[ended] = -1
                state.rewards[ended] = rank_rewards(self.ranking_keys(state.take(ended)))
        return state

    def _apply(self, state: S, rows: np.ndarray, actions: np.ndarray) -> None:
        """Apply validated ``actions`` (R,) of live ``rows`` (R,): each phase's ``apply``.

        The handlers set ``terminated``/``truncated`` of rows that end, and ``step`` pays the
        rewards.
        """
        for phase, sel in rows_by_phase(state.phase, rows):
            self.decisions[phase].apply(state, rows[sel], actions[sel])
        self._end_step(state, rows)

    def _end_step(self, state: S, rows: np.ndarray) -> None:
        """What follows the decisions' effects of a step, and of each round of automatic
        decisions, once for all their ``rows`` (R,) together: a game whose effects leave
        shared work (cairo: the ends of the turns and the next setup placements) does it
        here, where a few rows cost about as much as many.
        Nothing by default."""

    def _apply_forced(self, state: S, rows: np.ndarray) -> None:
        """Apply the forced decisions of ``rows`` (every live row), round after round, until
        none is left, and keep the legal masks of the decisions then asked.

        Each round computes the legal mask of every row's decision; where it has a single
        action, the decision's public predicate says whether public information forces it
        (a decision with more legal actions has more in public too, so its predicate need
        not run), and the single actions of the forced rows are applied. A row leaves the
        loop at its first decision that must be asked, whose mask becomes the cached one
        (``legal_action_mask``), or when its game ends.
        """
        automatic = []
        mask = np.zeros((state.batch_size, self.num_actions), dtype=bool)
        for _ in range(self.max_chain + 1):
            rows = rows[~state.done[rows]]
            forced_rows = []
            for phase, sel in rows_by_phase(state.phase, rows) if rows.size else ():
                idx = rows[sel]
                legal = self.decisions[phase].legal(state, idx)
                mask[idx] = legal
                forced = self._forced_rows(state, phase, idx, legal)
                if forced.any():
                    forced_rows.append(idx[forced])
            rows = np.concatenate(forced_rows) if forced_rows else rows[:0]
            if not rows.size:
                break
            rows.sort()
            actions = np.argmax(mask[rows], axis=1)
            mask[rows] = False  # a row that ends here keeps an empty mask
            automatic.append(AutoDecision(rows, state.current_player[rows].copy(),
                                          state.phase[rows].copy(), actions))
            self._apply(state, rows, actions)
        else:
            raise RuntimeError(f"{self.ENV_ID}: more than max_chain={self.max_chain} automatic "
                               "decisions in one step")
        if automatic:
            state.__dict__[_AUTOMATIC] = (*state.__dict__.get(_AUTOMATIC, ()), *automatic)
        mask.flags.writeable = False
        state.__dict__[_MASK_CACHE] = mask

    def _forced_rows(self, state: S, phase: int, rows: np.ndarray, legal: np.ndarray
                     ) -> np.ndarray:
        """(R,) bool: the rows of ``phase`` whose decision public information forces, from
        their legal masks ``legal`` (R, A): the predicate asked about the single-action rows
        (all of them under ``check_forced``, which then checks its answers)."""
        decision = self.decisions[phase]
        single = legal.sum(axis=1) == 1
        if decision.public_mask:
            return single
        if decision.forced is None:
            return np.zeros(rows.size, dtype=bool)
        if self.check_forced:
            forced = np.asarray(decision.forced(state, rows), dtype=bool)
            wrong = forced & ~single
            if wrong.any():
                bad = int(np.argmax(wrong))
                row = int(rows[bad])
                raise RuntimeError(
                    f"{self.ENV_ID}: row {row}: decision {self.decision_name(state, row)!r} is "
                    f"forced but has {int(legal[bad].sum())} legal actions (a bug of the "
                    "game's forced predicate)")
            return forced
        forced = single.copy()
        if single.any():
            forced[single] = decision.forced(state, rows[single])
        return forced

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

    def decision_table(self) -> list[tuple[int, str, bool]]:
        """``(phase, name, may be automatic)`` of every decision, in phase order (docs)."""
        return [(p, d.name, d.may_be_automatic) for p, d in sorted(self.decisions.items())]

    def phase_name(self, phase: int) -> str:
        """The name of a decision key (a row's ``phase``), as the step record gives it."""
        return self.decisions[phase].name

    def ranking_keys(self, state: S) -> np.ndarray:
        """Keys of the final ranking, (B, P) or (B, P, K); the game's own tie-breaks go here."""
        return self.scores(state)

    # ---------------------------------------------------------------- game-specific pieces
    @abc.abstractmethod
    def _init(self, seeds: np.ndarray) -> S:
        """New games, one per seed."""

    @abc.abstractmethod
    def observe(self, state: S, player: int | np.ndarray) -> np.ndarray:
        """(B, *observation_shape) float32: what ``player`` (int or (B,)) may know."""

    @abc.abstractmethod
    def scores(self, state: S) -> np.ndarray:
        """(B, P) float: the game's own victory points or money."""

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
        if arr.dtype.kind not in "iu":  # not integer (bool and whole floats included)
            raise ValueError(f"{self.ENV_ID}: actions must be integers (an integer dtype), "
                             f"got {arr.dtype}")
        return arr.astype(np.int64, copy=False)

    def _legal_names(self, row_mask: np.ndarray, limit: int = 12) -> str:
        legal = np.flatnonzero(row_mask)
        names = [f"{a}={self.action_name(int(a))}" for a in legal[:limit]]
        more = f" … ({len(legal)} in all)" if len(legal) > limit else ""
        return "[" + ", ".join(names) + more + "]"
