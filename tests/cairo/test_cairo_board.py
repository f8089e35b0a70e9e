"""The board of §2.7 (its verification bullets) and the reachability machinery of §9.2."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from envs.cairo.board import (
    NEIGHBOURS,
    OUTSIDE,
    Reachability,
    _ring_cut,
    flood,
    pack,
    unpack,
    walk_distances,
)
from envs.cairo.data import (
    CUSTOMER_STARTS,
    MARKET,
    NUM_CELLS,
    RESTAURANT,
    SECTION,
    WIDTH,
    cell,
)


def test_nine_sections_of_four_by_four_market_cells():
    """§2.7: 9 sections, each a 4 × 4 block of market cells."""
    for section in range(9):
        cells = np.flatnonzero(MARKET & (section == SECTION))
        xs, ys = cells % WIDTH, cells // WIDTH
        assert cells.size == 16
        assert xs.max() - xs.min() == 3 and ys.max() - ys.min() == 3


def test_restaurant_cells_per_section():
    """§2.7 counts: 0:4, 2:4, 3:4, 5:4, 6:9, 7:4, 8:9, 38 in all; none in sections 1 and 4."""
    counts = np.bincount(SECTION[RESTAURANT], minlength=9)
    assert counts.tolist() == [4, 0, 4, 4, 0, 4, 9, 4, 9]
    assert RESTAURANT.sum() == 38 and MARKET.sum() == 144


def test_restaurant_cells_have_one_market_neighbour_in_their_section():
    """§2.7: every restaurant cell but (0,12) and (13,12) has exactly one market neighbour."""
    for k in np.flatnonzero(RESTAURANT):
        near = [n for n in NEIGHBOURS[k] if n != OUTSIDE and MARKET[n]]
        if k in (cell(0, 12), cell(13, 12)):
            assert near == []
        else:
            assert len(near) == 1 and SECTION[near[0]] == SECTION[k]


def test_customer_start_cells():
    """§2.7: start cells are market cells in five sections, none adjacent to another."""
    assert MARKET[CUSTOMER_STARTS].all()
    assert len(set(SECTION[CUSTOMER_STARTS].tolist())) == 5
    for k in CUSTOMER_STARTS:
        assert not set(NEIGHBOURS[k].tolist()) & set(CUSTOMER_STARTS.tolist())


def test_empty_board_is_one_walkable_component_without_restaurant():
    """§2.7: the empty market is one component; restaurant cells are never walked."""
    seed = np.zeros((1, NUM_CELLS), bool)
    seed[0, cell(1, 0)] = True
    reached = unpack(flood(pack(seed), pack(MARKET[None])))[0]
    assert (reached == MARKET).all()


def test_pack_round_trip():
    rng = np.random.default_rng(1)
    mask = rng.random((7, NUM_CELLS)) < 0.4
    assert (unpack(pack(mask)) == mask).all()


def test_pack_puts_cell_x_y_at_bit_16y_plus_x():
    """The bitboard layout the dilations rely on: one 16-bit lane per grid row."""
    mask = np.zeros((2, NUM_CELLS), bool)
    mask[0, cell(13, 12)] = True
    mask[1, cell(2, 5)] = True
    words = pack(mask)
    assert int(words[0, 3]) == 1 << (16 * 12 + 13 - 192)
    assert int(words[1, 1]) == 1 << (16 * 5 + 2 - 64)
    assert int(words[0, :3].sum()) == 0 and int(words[1, [0, 2, 3]].sum()) == 0


def _bfs(walk: np.ndarray, start: int) -> dict[int, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        k = queue.popleft()
        for n in NEIGHBOURS[k]:
            if n != OUTSIDE and walk[n] and n not in dist:
                dist[n] = dist[k] + 1
                queue.append(n)
    return dist


def _random_board(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A market with random tiles and a few target cells in one component."""
    while True:
        walk = MARKET & (rng.random(NUM_CELLS) > rng.uniform(0.2, 0.5))
        cells = np.flatnonzero(walk)
        start = int(rng.choice(cells))
        component = np.array(sorted(_bfs(walk, start)))
        if component.size >= 8:
            targets = np.zeros(NUM_CELLS, bool)
            targets[rng.choice(component, size=6, replace=False)] = True
            return walk, targets


@pytest.mark.parametrize("seed", range(6))
def test_reachability_matches_brute_force(seed):
    """§9.2: the ring test plus per-cell floods equal one BFS per candidate cell."""
    rng = np.random.default_rng(seed)
    boards = [_random_board(rng) for _ in range(4)]
    walk = np.stack([b[0] for b in boards])
    targets = np.stack([b[1] for b in boards])
    candidates = walk & ~targets
    safe, connected = Reachability(walk, targets).placements(candidates)
    for m in range(len(boards)):
        for v in np.flatnonzero(candidates[m]):
            without = walk[m].copy()
            without[v] = False
            first = int(np.flatnonzero(targets[m])[0])
            reached = _bfs(without, first)
            assert safe[m, v] == all(t in reached for t in np.flatnonzero(targets[m]))
            if safe[m, v]:
                for d, n in enumerate(NEIGHBOURS[v]):
                    assert connected[m, v, d] == (n != OUTSIDE and n in reached)


def test_walk_distances_match_breadth_first_search():
    """§5.1 dist: the bitboard wavefront gives BFS distances, -1 when unreachable."""
    rng = np.random.default_rng(7)
    walk, targets = _random_board(rng)
    start = int(np.flatnonzero(targets)[0])
    goals = np.flatnonzero(walk)[None, :40]
    dist = walk_distances(walk[None], np.array([start]), goals, np.ones(goals.shape, bool))
    expected = _bfs(walk, start)
    assert dist[0].tolist() == [expected.get(int(g), -1) for g in goals[0]]


def test_walk_distances_of_many_boards_match_breadth_first_search():
    """The bitboard path for many boards (past the Python-int one for a few): BFS distances
    per board, -1 for a goal that is not valid or not reachable (a tile cell among them)."""
    rng = np.random.default_rng(11)
    boards = [_random_board(rng) for _ in range(40)]
    walk = np.stack([b[0] for b in boards])
    starts = np.array([int(np.flatnonzero(b[1])[0]) for b in boards])
    goals = np.stack([rng.choice(np.flatnonzero(MARKET), size=5, replace=False)
                      for _ in boards])
    valid = rng.random(goals.shape) < 0.8
    dist = walk_distances(walk, starts, goals, valid)
    for m in range(len(boards)):
        expected = _bfs(walk[m], int(starts[m]))
        assert dist[m].tolist() == [expected.get(int(g), -1) if ok else -1
                                    for g, ok in zip(goals[m], valid[m], strict=True)]


def test_reachability_few_boards_path_matches_many():
    """The Python-int path for one board (with its bit-parallel ring test) answers as the
    bitboard path for many does."""
    rng = np.random.default_rng(7)
    boards = [_random_board(rng) for _ in range(20)]
    walk = np.stack([b[0] for b in boards])
    targets = np.stack([b[1] for b in boards])
    candidates = walk & ~targets
    many = Reachability(walk, targets)
    safe, connected = many.placements(candidates)
    for m in range(len(boards)):
        few = Reachability(walk[m : m + 1], targets[m : m + 1])
        assert np.array_equal(few.suspect[0], many.suspect[m])
        one_safe, one_connected = few.placements(candidates[m : m + 1])
        assert np.array_equal(one_safe[0], safe[m])
        assert np.array_equal(one_connected[0], connected[m])


def _ring_links_by_runs(code: int) -> bool:
    """The walkable orthogonal neighbours (bits 0, 2, 4, 6 of the N, NE, ..., NW ring) all
    lie on one run of consecutive walkable ring cells."""
    bits = [(code >> i) & 1 for i in range(8)]
    if all(bits):
        return True
    start = bits.index(0)
    run_of, run = [-1] * 8, 0
    for j in range(1, 9):
        i = (start + j) % 8
        if bits[i]:
            run_of[i] = run
        else:
            run += 1
    return len({run_of[i] for i in (0, 2, 4, 6) if bits[i]}) <= 1


def test_ring_test_matches_runs_of_walkable_ring_cells():
    """The bit-parallel ring test fails exactly the 8-cell rings whose walkable orthogonal
    neighbours lie on more than one run of walkable ring cells."""
    for code in range(256):
        ring = [(code >> i) & 1 for i in range(8)]
        assert bool(_ring_cut(ring)) == (not _ring_links_by_runs(code))
