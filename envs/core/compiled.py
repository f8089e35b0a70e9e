"""The compiled core: a game whose rules are per-row functions compiled with numba.

A game on the compiled core (``tests/toy_game.py`` is the smallest complete one; the walk
through is ``docs/adding-a-game.md``) supplies

* a state class deriving from ``CompiledState`` (a dataclass of batch-first arrays), and
  ``View = kernel_view(ItsState)`` at module level in the same module: the named tuple of
  its arrays, plus the game's ``params``, that the kernels read as ``s``;
* its rules as ``envs.core.driver.RowRules`` (per-row legality and effect, one pair per
  phase, behind a ``switch`` on the row's phase; the forced predicate, ranking keys, setup,
  observation and scores of one row);
* a ``CompiledGame`` subclass with the sizes and options, ``ROWS``, ``VIEW``,
  ``NUM_RANKING_KEYS``, ``Phase`` and ``_allocate(batch_size)`` (the arrays of new games,
  before their rows are set up), and ``params`` (an int64 array of the options the kernels
  read).

Each public call is one compiled call over the whole batch (``envs.core.driver``), on one
thread or on ``threads`` of them: the same rows, the same results.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import operator
import threading
from enum import IntEnum
from typing import Any, ClassVar

import numba
import numpy as np

from envs.core.decisions import AutoDecision, StepRecord
from envs.core.driver import (
    MAX_RANKING_KEYS,
    MAX_SEATS,
    OVERFLOW,
    ROW_OUT_OF_RANGE,
    ROW_REPEATED,
    Kernels,
    RowRules,
    _first_bad_row,
    compile_kernels,
)
from envs.core.game import Game
from envs.core.jit import check_threads, default_threads
from envs.core.rng import make_rng
from envs.core.state import SPECS, BatchState, _field_names

# Rows per thread below which a batch runs on one thread (the parallel runtime costs more
# than it saves on a few rows).
_MIN_ROWS_PER_THREAD = 16


# numba's thread count as this module last set it, per Python thread (numba keeps one per
# thread): ``_use_threads`` calls numba only when the count changes.
_threads_set = threading.local()


def _use_threads(threads: int) -> None:
    """numba's threads for the next parallel kernel. ``numba.set_num_threads`` costs 4-10 µs
    a call between batched steps, 5% of a step on two threads, so it is called only when the
    count differs from the one set here last. Code that sets numba's threads itself between
    two kernel calls has them run on its count instead, with the same results (rows share
    nothing)."""
    if getattr(_threads_set, "count", 0) != threads:
        numba.set_num_threads(threads)
        _threads_set.count = threads


def _ints(values: np.ndarray) -> bool:
    """Whether ``values`` holds integers (an empty array of any dtype does)."""
    return values.size == 0 or values.dtype.kind in "iu"


@dataclasses.dataclass
class CompiledState(BatchState):
    """The fields the compiled driver keeps for every game, besides ``BatchState``'s.

    ``init``, ``step`` and ``settle`` write them; copies, takes, puts and pickles carry them
    like any field.
    """

    STEP_FIELDS: ClassVar[tuple[str, ...]] = ("rewards", "num_auto")

    # (B, A) bool, the legal actions of the decision asked (all False where the game is over)
    legal_mask: np.ndarray = dataclasses.field(default=None, kw_only=True)
    # (B, C, 3) int32, the automatic decisions of the last step, in order: seat, phase, action
    auto: np.ndarray = dataclasses.field(default=None, kw_only=True)
    # (B,) int32, how many of ``auto`` the last step applied in each row
    num_auto: np.ndarray = dataclasses.field(default=None, kw_only=True)


def kernel_view(state_class: type[CompiledState]) -> type:
    """The named tuple the kernels see as ``s``: every field of ``state_class``, in order,
    then ``params``. Assign it to ``View`` in the state's module (numba's disk cache names
    the type by its module and name)."""
    fields = (*_field_names(state_class), "params")
    view = collections.namedtuple("View", fields)
    view.__module__ = state_class.__module__
    return view


@functools.cache
def _fields_of(state_class: type[CompiledState]) -> operator.attrgetter:
    """Reads every field of a state, in order, as a tuple (in C: 1.6 µs for cairo's 42
    against 5 for a loop of ``getattr``)."""
    return operator.attrgetter(*_field_names(state_class))


class CompiledGame(Game):
    """A game whose rules are compiled per-row functions (see the module docstring)."""

    ROWS: ClassVar[RowRules]
    VIEW: ClassVar[type]
    Phase: ClassVar[type[IntEnum]]
    NUM_RANKING_KEYS: ClassVar[int] = 1
    # The phases that are decisions (default: every member of ``Phase``), and those of them
    # that ``forced`` may apply without asking.
    DECISIONS: ClassVar[tuple[IntEnum, ...]] = ()
    AUTOMATIC: ClassVar[frozenset[IntEnum]] = frozenset()
    params: np.ndarray  # (N,) int64, the options the kernels read

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        self.threads = default_threads()

    # ---------------------------------------------------------------- kernels
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Each class's own kernels by (spec, parallel): a subclass with other rules (a rigged
        # test game) gets kernels, and disk-cache entries, of its own.
        cls._compiled: dict[tuple[int, bool], Kernels] = {}
        seats = max(getattr(cls, "PLAYER_COUNTS", (0,)))
        if seats > MAX_SEATS or cls.NUM_RANKING_KEYS > MAX_RANKING_KEYS:
            raise TypeError(f"{cls.__qualname__}: the compiled driver ranks at most "
                            f"{MAX_SEATS} seats by at most {MAX_RANKING_KEYS} keys, got "
                            f"{seats} and {cls.NUM_RANKING_KEYS}")

    @classmethod
    def _kernels(cls, spec: int, parallel: bool) -> Kernels:
        """The kernels for states of ``spec`` (``envs.core.state.SPECS``)."""
        kernels = cls._compiled.get((spec, parallel))
        if kernels is None:
            name = f"{cls.__module__}_{cls.__qualname__}".replace(".", "_")
            kernels = cls._compiled[spec, parallel] = compile_kernels(
                name, cls.ROWS, cls.VIEW, SPECS[spec], parallel)
        return kernels

    def with_threads(self, threads: int) -> CompiledGame:
        """This game with its batch kernels on ``threads`` threads (not a rule option: the
        results are the same)."""
        self.threads = check_threads(threads)
        return self

    def _run(self, state: CompiledState, rows: int | None = None) -> Kernels:
        """The kernels for ``state``'s fields and ``rows`` rows to work on (default: the
        batch), numba's threads set."""
        rows = state.batch_size if rows is None else rows
        threads = min(self.threads, rows // _MIN_ROWS_PER_THREAD)
        if threads > 1:
            _use_threads(threads)
        # The table read here, a classmethod's call only the first time: twice a decision
        # in the AEC env.
        key = (state._spec, threads > 1)
        return self._compiled.get(key) or self._kernels(*key)

    def view(self, state: CompiledState) -> tuple:
        """The kernels' view of ``state``: its arrays (no copies) and ``params``."""
        return self.VIEW(*_fields_of(type(state))(state), self.params)

    def _packed(self, state: CompiledState) -> tuple:
        """What the batch loops take (``driver``): the state's buffer, its layout and
        ``params``."""
        return state._buffer, state._layout, self.params

    # ---------------------------------------------------------------- the protocol
    def init_rows(self, seeds: np.ndarray) -> CompiledState:
        """A batch of new games with one explicit seed per row, ``(B,)`` int64 (the games'
        first decisions that public information forces applied, see ``step_record``)."""
        seeds = np.asarray(seeds, dtype=np.int64)
        size = seeds.shape[0]
        state = self._new_games(size)
        state.rng = make_rng(seeds)
        if self._run(state).init(self._packed(state)):
            self._raise_chain(state)
        return state

    def reset_rows(self, state: CompiledState, rows: np.ndarray, seeds: np.ndarray
                   ) -> CompiledState:
        """``Game.reset_rows`` in one compiled call: each row's arrays set to a new game's
        (``_blank``), then set up and settled as ``init_rows`` does."""
        rows, seeds = self._check_reset(state, rows, seeds)
        blank, row_bytes, shapes = self._blank
        if state._layout[:, 2:].tobytes() != shapes:
            raise ValueError(f"{self.ENV_ID}: the state's arrays are not this game's "
                             f"({self.num_players} players, its options)")
        if rows.size == 0:
            return state
        # The kernel checks the rows (in range, none twice) and seeds their streams: a few
        # NumPy calls less on a path that runs between two batched steps, where NumPy's code
        # is cold and each call costs several µs.
        status = self._run(state, rows.size).reset(
            self._packed(state), blank, row_bytes, rows, seeds)
        if status == ROW_OUT_OF_RANGE:
            raise ValueError(f"{self.ENV_ID}: rows out of range for {state.batch_size} rows: "
                             f"{rows}")
        if status == ROW_REPEATED:
            raise ValueError(f"{self.ENV_ID}: rows must be distinct, got {rows}")
        if status:
            self._raise_chain(state)
        return state

    def _check_reset(self, state: CompiledState, rows: Any, seeds: Any
                     ) -> tuple[np.ndarray, np.ndarray]:
        """``rows`` and ``seeds`` of ``reset_rows`` as C-ordered (R,) int64, their types and
        shapes checked (the kernel checks that each row is in range and none repeats)."""
        rows, seeds = self._row_indices(rows), np.asarray(seeds)
        if seeds.shape != rows.shape or not _ints(seeds):
            raise ValueError(f"{self.ENV_ID}: seeds must be one int per row, {rows.shape}, "
                             f"got {seeds!r}")
        return rows, np.ascontiguousarray(seeds, dtype=np.int64)

    def _row_indices(self, rows: Any) -> np.ndarray:
        """``rows`` as C-ordered (R,) int64, checked to be a 1-D array of ints (the kernels
        check each one's range)."""
        rows = np.asarray(rows)
        if rows.ndim != 1 or not _ints(rows):
            raise ValueError(f"{self.ENV_ID}: rows must be a 1-D array of ints, got {rows!r}")
        return np.ascontiguousarray(rows, dtype=np.int64)

    def _new_games(self, size: int) -> CompiledState:
        """The arrays of ``size`` new games, the driver's fields included, before
        ``init_row`` sets each up (with its stream still unseeded)."""
        state = self._allocate(size)
        state.legal_mask = np.zeros((size, self.num_actions), dtype=bool)
        state.auto = np.zeros((size, self.max_chain, 3), dtype=np.int32)
        state.num_auto = np.zeros(size, dtype=np.int32)
        return state

    @functools.cached_property
    def _blank(self) -> tuple[np.ndarray, np.ndarray, bytes]:
        """One new game's row of every field before its setup, as bytes (the fields' rows
        one after the other), each field's row size in bytes, and the bytes of the fields'
        shapes past the batch axis (``_layout[:, 2:]``): what ``reset_rows`` writes into a
        row before setting it up, and the states it fits. Made once: ``_allocate`` depends
        on the options alone."""
        games = self._new_games(1)
        fields = games.arrays().values()
        return (np.concatenate([np.frombuffer(a.tobytes(), dtype=np.uint8) for a in fields]),
                np.array([a.nbytes for a in fields], dtype=np.int64),
                games._layout[:, 2:].tobytes())

    def _allocate(self, batch_size: int) -> CompiledState:
        """The arrays of ``batch_size`` new games, before ``init_row`` sets each up."""
        raise NotImplementedError

    def legal_action_mask(self, state: CompiledState) -> np.ndarray:
        """(B, A) bool, read-only; all False where the game is over. A copy: the state's own
        mask changes with the next step, one handed out does not."""
        mask = state.legal_mask.copy()
        mask.flags.writeable = False
        return mask

    def step(self, state: CompiledState, actions: np.ndarray) -> CompiledState:
        """``Game.step``, the whole batch in one compiled call."""
        actions = self._check_actions(state, actions)
        bad = self._run(state).step(self._packed(state), actions)
        if bad >= 0:
            self._raise_illegal(state, actions, bad, state.legal_mask)
        if bad == OVERFLOW:
            self._raise_chain(state)
        return state

    def settle(self, state: CompiledState) -> CompiledState:
        """Apply the decisions that public information forces in ``state`` and compute the
        masks of the decisions then asked (a position built or edited by hand), ending the
        games that end there as ``step`` does."""
        if self._run(state).settle(self._packed(state)):
            self._raise_chain(state)
        return state

    def refresh(self, state: CompiledState) -> CompiledState:
        """Recompute the legal masks of ``state`` after editing its arrays by hand, applying
        nothing (``settle`` also applies the forced decisions)."""
        self._run(state).refresh(self._packed(state))
        return state

    def step_record(self, state: CompiledState) -> StepRecord:
        """The seats the last step (or ``init``) showed hidden information to, and its
        automatic decisions, one ``AutoDecision`` per position in the rows' chains."""
        rounds = []
        for k in range(int(state.num_auto.max(initial=0))):
            rows = np.flatnonzero(state.num_auto > k)
            seats, phases, actions = state.auto[rows, k].T.astype(np.int64)
            rounds.append(AutoDecision(rows, seats, phases, actions))
        return StepRecord(state.revealed, tuple(rounds))

    def _raise_chain(self, state: CompiledState) -> None:
        """Raise for the first row whose automatic decisions overflowed the step record."""
        row = int(np.argmin(state.num_auto))
        raise RuntimeError(f"{self.ENV_ID}: row {row}: more than max_chain="
                           f"{self.max_chain} automatic decisions in one step")

    def observe(self, state: CompiledState, player: int | np.ndarray) -> np.ndarray:
        """(B, *observation_shape) float32: what ``player`` (int or (B,) ints) may know; a
        finished row asked for seat -1 gives zeros."""
        seats = self._check_seats(state, player)
        out = np.empty((state.batch_size, *self.observation_shape), dtype=np.float32)
        bad = self._run(state).observe(self._packed(state), seats, out)
        if bad >= 0:
            raise ValueError(f"{self.ENV_ID}: row {bad}: player {int(seats[bad])} is not a "
                             f"seat; valid: 0..{self.num_players - 1} (-1 only where the game "
                             "is over)")
        return out

    def observe_rows(self, state: CompiledState, rows: np.ndarray, players: np.ndarray
                     ) -> np.ndarray:
        """``Game.observe_rows`` in one compiled call, reading the rows in place (no copy of
        the state's rows, which costs a NumPy call per field)."""
        rows, seats = np.asarray(rows), np.asarray(players)
        if (rows.ndim != 1 or seats.shape != rows.shape
                or not (_ints(rows) and _ints(seats))):
            raise ValueError(f"{self.ENV_ID}: rows and players must be two 1-D arrays of ints "
                             f"of the same length, got {rows!r} and {players!r}")
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        seats = np.ascontiguousarray(seats, dtype=np.int64)
        out = np.empty((rows.shape[0], *self.observation_shape), dtype=np.float32)
        bad = self._run(state, rows.shape[0]).observe_rows(self._packed(state), rows, seats, out)
        if bad >= 0:
            raise ValueError(f"{self.ENV_ID}: entry {bad}: row {int(rows[bad])} of "
                             f"{state.batch_size} rows, player {int(seats[bad])} (valid: "
                             f"0..{self.num_players - 1}, -1 only where the game is over)")
        return out

    def scores(self, state: CompiledState) -> np.ndarray:
        return self._scores(state, np.arange(state.batch_size))

    def scores_rows(self, state: CompiledState, rows: np.ndarray) -> np.ndarray:
        """``Game.scores_rows`` in one compiled call, reading the rows in place."""
        return self._scores(state, self._row_indices(rows))

    def _scores(self, state: CompiledState, rows: np.ndarray) -> np.ndarray:
        out = np.zeros((rows.shape[0], self.num_players))
        self._check_row(state, rows, self._run(state, rows.shape[0]).scores(
            self._packed(state), rows, out))
        return out

    def _check_row(self, state: CompiledState, rows: np.ndarray, bad: int) -> None:
        """Raise if ``bad`` (``driver._first_bad_row``'s answer) names an entry of ``rows``
        that is not one of the batch's rows."""
        if bad >= 0:
            raise ValueError(f"{self.ENV_ID}: row {int(rows[bad])} is not one of the "
                             f"{state.batch_size} rows")

    def forced_rows(self, state: CompiledState, rows: np.ndarray) -> np.ndarray:
        """(R,) bool: public information forces the decision asked in row ``rows[i]`` (the
        test of the forced-decision loop, which never leaves such a decision asked: the
        invariants check it), in one compiled call; False where the game is over."""
        rows = self._row_indices(rows)
        self._check_row(state, rows, _first_bad_row(rows, state.batch_size))
        out = np.zeros(rows.shape[0], dtype=bool)
        masks = np.zeros((rows.shape[0], self.num_actions), dtype=bool)
        self._run(state, rows.shape[0]).forced(self._packed(state), rows, masks, out)
        return out

    def ranking_keys(self, state: CompiledState) -> np.ndarray:
        keys = np.zeros((state.batch_size, self.num_players, self.NUM_RANKING_KEYS))
        self._run(state).ranking(self._packed(state), keys)
        return keys

    def phase_name(self, phase: int) -> str:
        return self.Phase(phase).name

    def decision_table(self) -> list[tuple[int, str, bool]]:
        return [(int(p), p.name, p in self.AUTOMATIC) for p in self.DECISIONS or self.Phase]

    def _check_seats(self, state: CompiledState, player: Any) -> np.ndarray:
        """``player`` as (B,) int64 seats; ``observe``'s kernel checks that each is one of
        its row's (in [0, P), or -1 where the game is over)."""
        size, players = state.batch_size, self.num_players
        if type(player) is int and 0 <= player < players:  # the AEC env's call
            seats = np.empty(size, dtype=np.int64)  # np.full costs 0.8 µs, this 0.3
            seats.fill(player)
            return seats
        seats = np.asarray(player)
        if seats.dtype.kind not in "iu" or seats.ndim > 1:
            raise ValueError(f"{self.ENV_ID}: player must be an int or ({size},) ints in "
                             f"[0, {players}), got {player!r}")
        seats = np.broadcast_to(seats, (size,)) if seats.ndim == 0 else seats
        if seats.shape != (size,):
            raise ValueError(f"{self.ENV_ID}: player must be an int or ({size},) ints in "
                             f"[0, {players}), got shape {seats.shape}")
        return seats.astype(np.int64)
