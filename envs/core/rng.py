"""Per-row, counter-based random numbers kept inside the batched state.

Every row of a batch owns a key (derived from its seed) and a counter, stored together in an
``rng`` array of shape ``(B, 2)`` uint64. A draw for row ``r`` hashes ``(key[r], counter[r] + j)``
with SplitMix64 and then advances that row's counter. No generator is shared across rows, so a
row's chance outcomes depend only on its own seed and on how many numbers it has drawn: row i
of a batch seeded ``s`` plays exactly like a batch of one seeded ``s + i``, whatever the other
rows do and whatever the batch size.

``rows`` arguments are boolean selectors ``(B,)`` or integer row indices; results come back for
the selected rows in row order, and only those rows' counters move.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import local_zeros, njit

MAX_PERMUTATION = 256  # the longest permutation ``next_permutation`` draws (its keys' room)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SEED_SALT = np.uint64(0x5DEECE66D1234567)


def _splitmix(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser on uint64 arrays (wrapping arithmetic)."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


def make_rng(seeds: np.ndarray) -> np.ndarray:
    """Build the ``(B, 2)`` uint64 key/counter array for per-row integer seeds."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    rng = np.zeros((seeds.shape[0], 2), dtype=np.uint64)
    _seed_keys(seeds, rng)
    return rng


def _row_index(rng: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
    if rows is None:
        return np.arange(rng.shape[0])
    rows = np.asarray(rows)
    return np.flatnonzero(rows) if rows.dtype == bool else rows.astype(np.intp)


def random_bits(rng: np.ndarray, rows: np.ndarray | None, n: int) -> np.ndarray:
    """Draw ``n`` 64-bit words per selected row, advancing those rows' counters by ``n``.

    Returns:
        (R, n) uint64.
    """
    idx = _row_index(rng, rows)
    steps = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = rng[idx, 0, None] + (rng[idx, 1, None] + steps) * _GOLDEN
        rng[idx, 1] += np.uint64(n)
        return _splitmix(z)


def uniform(rng: np.ndarray, rows: np.ndarray | None, n: int = 1) -> np.ndarray:
    """Uniform floats in [0, 1), ``(R, n)`` float64, from the top 53 bits of each word."""
    return (random_bits(rng, rows, n) >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def integers(rng: np.ndarray, rows: np.ndarray | None, high: int | np.ndarray) -> np.ndarray:
    """One uniform integer in ``[0, high)`` per selected row; ``high`` is an int or ``(R,)``."""
    u = uniform(rng, rows, 1)[:, 0]
    high = np.asarray(high, dtype=np.int64)
    return np.minimum((u * high).astype(np.int64), high - 1)


def permutation(rng: np.ndarray, rows: np.ndarray | None, n: int) -> np.ndarray:
    """A uniform permutation of ``range(n)`` per selected row, ``(R, n)`` int64."""
    return np.argsort(random_bits(rng, rows, n), axis=1, kind="stable").astype(np.int64)


def choice(rng: np.ndarray, rows: np.ndarray | None, mask: np.ndarray) -> np.ndarray:
    """One index drawn uniformly among the True entries of each row of ``mask`` ``(R, n)``.

    Returns:
        (R,) int64, -1 for a row whose mask is empty (its counter still advances by one).
    """
    mask = np.asarray(mask, dtype=bool)
    counts = mask.sum(axis=1)
    pick = integers(rng, rows, np.maximum(counts, 1))
    cum = np.cumsum(mask, axis=1)
    chosen = np.argmax(cum > pick[:, None], axis=1)
    return np.where(counts > 0, chosen, -1)


# ---------------------------------------------------------------- one row, compiled
# The same stream as above, drawn inside the compiled kernels one row at a time: n calls of
# ``next_word`` give the n words of ``random_bits(rng, [r], n)``.
@njit
def _mix(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser of one word (``_splitmix``, compiled)."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit
def seed_key(seed: int) -> np.uint64:
    """The key of a row seeded ``seed`` (its counter starts at 0)."""
    return _mix(np.uint64(seed) * _GOLDEN + _SEED_SALT)


@njit
def _seed_keys(seeds: np.ndarray, rng: np.ndarray) -> None:
    for i in range(seeds.shape[0]):
        rng[i, 0] = seed_key(seeds[i])


@njit
def next_word(rng: np.ndarray, r: int) -> np.uint64:
    """The next 64-bit word of row ``r``'s stream; its counter advances by one."""
    z = rng[r, 0] + rng[r, 1] * _GOLDEN
    rng[r, 1] += np.uint64(1)
    return _mix(z)


@njit
def next_uniform(rng: np.ndarray, r: int) -> float:
    """A uniform float in [0, 1) from the top 53 bits of the row's next word."""
    return float(next_word(rng, r) >> np.uint64(11)) * (1.0 / (1 << 53))


@njit
def next_integer(rng: np.ndarray, r: int, high: int) -> int:
    """A uniform integer in ``[0, high)`` (as ``integers``), from one word."""
    return min(int(next_uniform(rng, r) * high), high - 1)


@njit
def argsort_into(keys: np.ndarray, out: np.ndarray) -> None:
    """The stable ascending order of ``keys`` into ``out`` (as ``np.argsort(keys,
    kind="stable")``), by insertion: no room to allocate, and the rules sort at most a deck
    of cards, rarely."""
    for i in range(keys.shape[0]):
        key = keys[i]
        j = i
        while j > 0 and keys[out[j - 1]] > key:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i


@njit
def next_permutation(rng: np.ndarray, r: int, out: np.ndarray) -> None:
    """A uniform permutation of ``range(len(out))`` into ``out`` (as ``permutation``): the
    order of ``len(out)`` words, drawn in one go."""
    n = out.shape[0]
    if n > MAX_PERMUTATION:
        raise ValueError("next_permutation: longer than MAX_PERMUTATION")
    keys = local_zeros(MAX_PERMUTATION, np.uint64)[:n]
    for j in range(n):
        keys[j] = next_word(rng, r)
    argsort_into(keys, out)
