"""The compiled batch driver: one generic loop over rows for every game.

A game on the compiled core writes its rules as plain per-row functions (``RowRules``) over
``s``, the kernels' view of a state (a named tuple of the state's arrays plus the game's
``params``), and a row index ``r``. The batch loops take the state's buffer, its layout and
``params`` and rebuild the view inside (``envs.core.packing``): numba unboxes every array it
is handed, ~90 ns each. They hand the rules a pointer to that view (``envs.core.stateref``):
numba passes a named tuple to a call as its arrays' fields one by one, hundreds of words a
call.

This module holds the loops that every game shares, as plain Python: the validation of a
batch of actions, the forced-decision loop, the end of a game with its rank rewards, and the
batch loops of ``init``, ``reset_rows``, ``step``, ``observe``, ``scores`` and
``forced_rows``.
``compile_kernels`` binds a game's row functions into copies of these loops
(``envs.core.jit.specialise``) and compiles them, once serial and once with the rows in
parallel (``prange``), so a batch is one compiled call whatever its size.

Rows never share anything: each writes only its own row of every array, so results are the
same for any number of threads and any batch size.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import prange

from envs.core.jit import local_zeros, njit, specialise
from envs.core.packing import view_unpacker
from envs.core.rng import seed_key
from envs.core.stateref import state_ref


class RowRules(NamedTuple):
    """A game's rules as compiled per-row functions (``s`` the view, ``r`` the row).

    legal(s, r, mask): set the legal actions of the decision asked in row ``r`` in ``mask``
        (A,) bool, which comes cleared.
    forced(s, r, mask): whether public information alone forces the decision, whose legal
        ``mask`` (A,) holds a single action: the same legal function judged on what every
        seat knows of the acting seat's holdings (design.md, "Forced decisions").
    apply(s, r, action): the effect of a validated ``action``, and all that follows it up
        to the next decision (chance, the end of a turn, the end of the game).
    phase(s, r): the key of the decision asked (the game's ``Phase``), for the step record.
    ranking(s, r, keys): the final ranking keys of every seat into the first
        ``NUM_RANKING_KEYS`` columns of ``keys`` (P, K) float64, higher is better, compared
        in order (the game's tie-breaks); further columns come zeroed and tie.
    init_row(s, r): set up row ``r``'s new game (its arrays come allocated and its random
        stream seeded); its first decision is asked next.
    observe_row(s, r, seat, out): what ``seat`` may know into ``out`` (obs,) float32, which
        comes zeroed.
    score_row(s, r, out): the game's own victory points or money of every seat into ``out``
        (P,) float64.
    """

    legal: Callable
    forced: Callable
    apply: Callable
    phase: Callable
    ranking: Callable
    init_row: Callable
    observe_row: Callable
    score_row: Callable


# The ranking keys of a row whose game ends go to a zeroed block of this size on the
# stack (``local_zeros``): its first P rows are the seats', and the columns past the game's
# keys stay 0 and tie. A batch of keys allocated in Python and passed to every loop cost
# batavia's, junk's and discoveries' step 6-10%.
MAX_SEATS, MAX_RANKING_KEYS = 8, 4


def _unbound(*args: object) -> None:
    raise RuntimeError("the generic loops run only in a game's copy (compile_kernels)")


# The game's row functions (``RowRules``): each game's copy of the loops below has them bound
# to its own (``compile_kernels``); here they only name what the loops call.
legal = forced = apply = phase = ranking = init_row = observe_row = score_row = _unbound
unpack = _unbound  # the game's view from a state's buffer (``envs.core.packing``)


# ---------------------------------------------------------------- one row
@njit
def rank_rewards_row(keys: np.ndarray, out: np.ndarray) -> None:
    """Rank rewards from ranking ``keys`` (P, K) into ``out`` (P,) float32: (seats i beats -
    seats that beat i) / (P - 1), the first differing key deciding between two seats."""
    num_players = keys.shape[0]
    for i in range(num_players):
        total = 0
        for j in range(num_players):
            for k in range(keys.shape[1]):
                if keys[i, k] != keys[j, k]:
                    total += 1 if keys[i, k] > keys[j, k] else -1
                    break
        out[i] = total / max(num_players - 1, 1)


@njit
def first_true(mask: np.ndarray) -> int:
    """The index of ``mask``'s first True entry, -1 if none: ``np.argmax`` of a mask known to
    hold one (numba's reads every entry through a flat iterator, 7% of discoveries' step)."""
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit
def count_true(mask: np.ndarray) -> int:
    """The True entries of ``mask``: ``np.sum``, in a loop that LLVM vectorises (numba's
    sum reads every entry through a flat iterator: 34 against 14 ns on a 134-action mask)."""
    count = 0
    for a in range(mask.shape[0]):
        count += mask[a]
    return count


def _done(s, r: int) -> bool:
    return s.terminated[r] or s.truncated[r]


def _forced_decision(s, r: int, mask: np.ndarray) -> bool:
    """Whether public information forces the decision asked in row ``r`` (live): its legal
    actions, set in ``mask``, are one, and the game's ``forced`` confirms it. A finished
    row: False, ``mask`` untouched."""
    if _done(s, r):
        return False
    mask[:] = False
    legal(s, r, mask)
    return count_true(mask) == 1 and forced(s, r, mask)


def _settle_row(s, r: int, mask: np.ndarray) -> None:
    """After an action (or at ``init``, or on a position built by hand): apply, one after
    the other, the decisions of row ``r`` that public information forces; then keep the
    legal mask of the decision asked, or end the game (its seat to act -1, its rewards).

    The automatic decisions go to the step record (``auto``/``num_auto``); a chain longer
    than the record holds marks the row with ``num_auto = -1`` (a bug of the game's
    ``max_chain``), which the caller raises.
    """
    auto = s.auto[r]
    count = 0
    while _forced_decision(s, r, mask):
        if count == auto.shape[0]:
            s.num_auto[r] = -1
            return
        action = first_true(mask)
        auto[count, 0] = s.current_player[r]
        auto[count, 1] = phase(s, r)
        auto[count, 2] = action
        count += 1
        apply(s, r, action)
    s.num_auto[r] = count
    if _done(s, r):
        mask[:] = False
        s.current_player[r] = -1
        keys = local_zeros((MAX_SEATS, MAX_RANKING_KEYS), np.float64)[:s.rewards.shape[1]]
        ranking(s, r, keys)
        rank_rewards_row(keys, s.rewards[r])


# ---------------------------------------------------------------- batch loops
def _first_illegal(s, actions: np.ndarray) -> int:
    """The first live row whose action is out of range or masked out, -1 if none."""
    num_actions = s.legal_mask.shape[1]
    for i in range(actions.shape[0]):
        r = np.uint64(i)
        if _done(s, r):
            continue
        action = actions[r]
        if action < 0 or action >= num_actions or not s.legal_mask[r, action]:
            return i
    return -1


@njit
def _first_bad_row(rows: np.ndarray, size: int) -> int:
    """The first ``i`` whose row ``rows[i]`` is not in [0, size); -1 if none."""
    for i in range(rows.shape[0]):
        if rows[i] < 0 or rows[i] >= size:
            return i
    return -1


def _bad_seat(s, r: int, seat: int) -> bool:
    """``seat`` is not one of row ``r``'s game's: out of range, or -1 where it goes on."""
    return seat >= s.rewards.shape[1] or seat < -1 or (seat == -1 and not _done(s, r))


def _first_bad_seat(s, seats: np.ndarray) -> int:
    """The first row whose seat to observe is not one of its game's; -1 if none."""
    for i in range(seats.shape[0]):
        r = np.uint64(i)
        if _bad_seat(s, r, seats[r]):
            return i
    return -1


def _first_bad_pair(s, rows: np.ndarray, seats: np.ndarray) -> int:
    """The first ``i`` whose row ``rows[i]`` is not one of the batch's, or whose seat
    ``seats[i]`` is not one of that row's game's; -1 if none."""
    bad = _first_bad_row(rows, s.current_player.shape[0])
    for i in range(rows.shape[0] if bad < 0 else bad):
        if _bad_seat(s, np.uint64(rows[i]), seats[i]):
            return i
    return bad


def _observe_into(s, r: int, seat: int, out: np.ndarray, i: int) -> None:
    """Row ``r`` as ``seat`` sees it into ``out[i]``, cleared first (zeros for seat -1).

    A helper without numba's runtime: the batch loop, which has it, would count a reference
    to ``out`` for the row's view, an atomic add that waits for the row's stores to drain
    (a quarter of discoveries' observation)."""
    row = out[i]
    row.fill(0)
    if seat >= 0:
        observe_row(s, r, seat, row)


def _step_row(s, r: int, action: int) -> int:
    """Row ``r``'s part of ``step_batch``: its step record cleared, then its action and the
    decisions it leaves forced. Returns 1 if their chain overflowed the record, else 0."""
    s.rewards[r, :] = 0.0
    s.num_auto[r] = 0
    if _done(s, r):
        return 0  # a finished row keeps the revealed record of its last step
    s.revealed[r, :] = False
    apply(s, r, action)
    _settle_row(s, r, s.legal_mask[r])
    return 1 if s.num_auto[r] < 0 else 0


def _settle_live_row(s, r: int) -> int:
    s.num_auto[r] = 0
    if _done(s, r):
        return 0
    _settle_row(s, r, s.legal_mask[r])
    return 1 if s.num_auto[r] < 0 else 0


def _init_row(s, r: int) -> int:
    init_row(s, r)
    _settle_row(s, r, s.legal_mask[r])
    return 1 if s.num_auto[r] < 0 else 0


@njit
def blank_row(buffer: np.ndarray, layout: np.ndarray, r: np.uint64, blank: np.ndarray,
              row_bytes: np.ndarray) -> None:
    """Row ``r`` (unsigned, as the loops pass rows) of every field in a state's ``buffer``
    (its ``layout``) overwritten with the bytes of a new game's row, ``blank``: the fields'
    rows one after the other, ``row_bytes`` each (a field's block holds its rows in order,
    ``row_bytes`` apart)."""
    at = np.uint64(0)
    for f in range(row_bytes.shape[0]):
        size = np.uint64(row_bytes[f])
        start = np.uint64(layout[f, 0]) + r * size
        # A slice assignment would copy through the heap (the arrays might overlap); unsigned
        # indices spare numba's test for a negative one, so LLVM copies in wide words.
        for k in range(size):
            buffer[start + k] = blank[at + k]
        at += size


def _reset_row(s, buffer: np.ndarray, layout: np.ndarray, r: int, blank: np.ndarray,
               row_bytes: np.ndarray, seed: int) -> int:
    """Row ``r``'s part of ``reset_batch``: a new game's arrays, its stream seeded ``seed``
    (``make_rng``'s key, its counter at 0), then ``init``'s setup and settling."""
    blank_row(buffer, layout, r, blank, row_bytes)
    s.rng[r, 0] = seed_key(seed)
    s.rng[r, 1] = 0
    return _init_row(s, r)


def _refresh_row(s, r: int) -> None:
    s.legal_mask[r, :] = False
    if not _done(s, r):
        legal(s, r, s.legal_mask[r])


# The batch loops below only call row functions in their ``prange`` loops: numba 0.68 drops a
# write through an attribute of the view (``s.rewards[r, 0] = x``) made in a parallel loop's
# own body, while the same write inside a called function, or through a local, is kept.
# A ``prange`` index is unsigned: each loop passes it on as a uint64 in the serial copy too
# (where ``range`` gives an int64), so the game's row functions are compiled for one
# signature, not two, and every read of a state field at row ``r`` skips numba's test for a
# negative index (counted from the end): 5-10% of a batched step and observation.
# ``step``, ``settle``, ``init`` and ``reset`` count the rows whose chain of automatic
# decisions overflowed the step record (``num_auto`` -1, a bug of the game's ``max_chain``).
OVERFLOW = -2  # what ``step_batch`` returns when a row's chain overflowed
# What ``reset_batch`` returns, nothing changed, when a row is out of range or given twice.
ROW_OUT_OF_RANGE, ROW_REPEATED = -3, -4


def step_batch(packed: tuple, actions: np.ndarray) -> int:
    """``Game.step``: validate every live row's action, then apply them, each followed by
    the decisions it leaves forced. Returns the first illegal row (nothing changed), else
    -1, or ``OVERFLOW``.
    """
    s = state_ref(unpack(packed))
    bad = _first_illegal(s, actions)
    if bad >= 0:
        return bad
    overflows = 0
    for i in prange(actions.shape[0]):
        r = np.uint64(i)
        overflows += _step_row(s, r, actions[r])
    return -1 if overflows == 0 else OVERFLOW


def settle_batch(packed: tuple) -> int:
    """``Game.settle``: the forced decisions and masks of every live row, as after a step.
    Returns the count of overflowed rows."""
    s = state_ref(unpack(packed))
    overflows = 0
    for i in prange(s.current_player.shape[0]):
        r = np.uint64(i)
        overflows += _settle_live_row(s, r)
    return overflows


def init_batch(packed: tuple) -> int:
    """``Game.init``: set up every row's game (its stream seeded), then settle it. Returns
    the count of overflowed rows."""
    s = state_ref(unpack(packed))
    overflows = 0
    for i in prange(s.current_player.shape[0]):
        r = np.uint64(i)
        overflows += _init_row(s, r)
    return overflows


@njit(_nrt=True)  # the table of rows seen, only for rows out of order
def _rows_error(rows: np.ndarray, size: int) -> int:
    """``ROW_OUT_OF_RANGE`` if some row is not in [0, size), else ``ROW_REPEATED`` if some
    row comes twice, else 0. Rows in increasing order (``np.flatnonzero``'s) are distinct
    without a table of the batch's rows."""
    if _first_bad_row(rows, size) >= 0:
        return ROW_OUT_OF_RANGE
    increasing = True
    for i in range(1, rows.shape[0]):
        increasing = increasing and rows[i] > rows[i - 1]
    if not increasing:
        seen = np.zeros(size, dtype=np.bool_)
        for i in range(rows.shape[0]):
            if seen[rows[i]]:
                return ROW_REPEATED
            seen[rows[i]] = True
    return 0


def reset_batch(packed: tuple, blank: np.ndarray, row_bytes: np.ndarray, rows: np.ndarray,
                seeds: np.ndarray) -> int:
    """``Game.reset_rows``: each of ``rows`` a new game in place, as ``init`` makes it:
    every field's row set to a new game's (``blank_row``), its stream seeded ``seeds[i]``,
    then set up and settled. Returns the count of overflowed rows, or (nothing changed)
    ``ROW_OUT_OF_RANGE`` or ``ROW_REPEATED``."""
    buffer, layout = packed[0], packed[1]
    s = state_ref(unpack(packed))
    error = _rows_error(rows, s.current_player.shape[0])
    if error:
        return error
    overflows = 0
    for i in prange(rows.shape[0]):
        overflows += _reset_row(s, buffer, layout, np.uint64(rows[i]), blank, row_bytes,
                                seeds[i])
    return overflows


def refresh_batch(packed: tuple) -> None:
    """The legal masks of every row's decision, nothing applied (a position edited by
    hand); finished rows get empty masks."""
    s = state_ref(unpack(packed))
    for i in prange(s.legal_mask.shape[0]):
        r = np.uint64(i)
        _refresh_row(s, r)


def ranking_batch(packed: tuple, keys: np.ndarray) -> None:
    """``Game.ranking_keys`` into ``keys`` (B, P, K) float64."""
    s = state_ref(unpack(packed))
    for i in prange(keys.shape[0]):
        r = np.uint64(i)
        ranking(s, r, keys[r])


def observe_batch(packed: tuple, seats: np.ndarray, out: np.ndarray) -> int:
    """``Game.observe``: row ``r`` as seat ``seats[r]`` sees it into ``out[r]`` (cleared
    here, by the thread that writes it); a finished row asked for seat -1 gets zeros.
    Returns the first row whose seat is none (nothing written), else -1."""
    s = state_ref(unpack(packed))
    bad = _first_bad_seat(s, seats)
    if bad >= 0:
        return bad
    for i in prange(seats.shape[0]):
        r = np.uint64(i)
        _observe_into(s, r, seats[r], out, r)
    return -1


def observe_rows_batch(packed: tuple, rows: np.ndarray, seats: np.ndarray, out: np.ndarray
                       ) -> int:
    """``Game.observe_rows``: row ``rows[i]`` as seat ``seats[i]`` sees it into ``out[i]``
    (cleared here). Returns the first ``i`` whose row or seat is none (nothing written),
    else -1."""
    s = state_ref(unpack(packed))
    bad = _first_bad_pair(s, rows, seats)
    if bad >= 0:
        return bad
    for i in prange(rows.shape[0]):
        _observe_into(s, np.uint64(rows[i]), seats[i], out, np.uint64(i))
    return -1


def forced_batch(packed: tuple, rows: np.ndarray, masks: np.ndarray, out: np.ndarray
                 ) -> None:
    """``CompiledGame.forced_rows``: whether public information forces the decision asked
    in row ``rows[i]`` (checked to be one of the batch's) into ``out[i]`` (False where the
    game is over), its legal mask worked out in ``masks[i]`` (A,), the state's own mask left
    as it is."""
    s = state_ref(unpack(packed))
    for i in prange(rows.shape[0]):
        out[i] = _forced_decision(s, np.uint64(rows[i]), masks[i])


def scores_batch(packed: tuple, rows: np.ndarray, out: np.ndarray) -> int:
    """``Game.scores`` of rows ``rows`` into ``out`` (R, P) float64. Returns the first ``i``
    whose row is not one of the batch's (nothing written), else -1."""
    s = state_ref(unpack(packed))
    bad = _first_bad_row(rows, s.current_player.shape[0])
    if bad >= 0:
        return bad
    for i in prange(rows.shape[0]):
        score_row(s, np.uint64(rows[i]), out[i])
    return -1


class Kernels(NamedTuple):
    """One game's compiled batch loops (rows one after the other, or in parallel)."""

    step: Callable
    settle: Callable
    init: Callable
    reset: Callable
    refresh: Callable
    ranking: Callable
    observe: Callable
    observe_rows: Callable
    scores: Callable
    forced: Callable


_LOOPS = {"step": step_batch, "settle": settle_batch, "init": init_batch,
          "reset": reset_batch, "refresh": refresh_batch, "ranking": ranking_batch,
          "observe": observe_batch, "observe_rows": observe_rows_batch,
          "scores": scores_batch, "forced": forced_batch}
_HELPERS = (_done, _forced_decision, _settle_row, _first_illegal, _bad_seat, _first_bad_seat,
            _first_bad_pair, _observe_into, _step_row, _settle_live_row, _init_row,
            _reset_row, _refresh_row)
# Inlined into their callers in numba's IR: a call of its own cost batavia's step ~7%.
_INLINED = frozenset({_forced_decision})


def _bind(function: Callable, suffix: str, bindings: dict[str, Callable]) -> Callable:
    """``function``'s copy with the names it uses from ``bindings`` bound."""
    used = {k: v for k, v in bindings.items() if k in function.__code__.co_names}
    return specialise(function, suffix, **used)


@functools.cache
def _row_helpers(name: str, rules: RowRules) -> dict[str, Callable]:
    """The row helpers that the loops call, bound to one game's rules and compiled once for
    its serial and parallel loops alike (both pass them the same types)."""
    bindings = rules._asdict()
    for helper in _HELPERS:  # in order: a helper may call one bound before it
        inline = "always" if helper in _INLINED else "never"
        bindings[helper.__name__] = njit(_bind(helper, name, bindings), inline=inline)
    return {helper.__name__: bindings[helper.__name__] for helper in _HELPERS}


def compile_kernels(name: str, rules: RowRules, view: type, spec: tuple, parallel: bool
                    ) -> Kernels:
    """The batch loops of this module bound to one game's ``rules`` and ``view`` class, for
    states whose fields have ``spec``'s dtypes and ranks (``envs.core.state``), compiled
    lazily (on first call; numba's disk cache keeps them). ``name`` (the env id) and the
    spec's digest name the copies."""
    stamp = hashlib.blake2b(repr(spec).encode(), digest_size=4).hexdigest()
    suffix = f"{name}_{stamp}_par" if parallel else f"{name}_{stamp}"
    bindings = {**rules._asdict(), "unpack": view_unpacker(view, spec),
                **_row_helpers(name, rules)}
    return Kernels(**{key: njit(_bind(loop, suffix, bindings), parallel=parallel, _nrt=True)
                      for key, loop in _LOOPS.items()})
