"""The board of §2.7 (its verification bullets) and the reachability machinery of §9.2."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from envs.cairo.board import (
    NEIGHBOURS,
    OUTSIDE,
    Reachability,
    board_bits,
    board_sections,
    cells_of,
    component_bits,
    first_cell,
    flood,
    flood_bits,
    has_bit,
    mask_bits,
    neighbours_of,
    pack,
    placements_row,
    ring_cut_bits,
    ring_cut_word,
    sections_board,
    unpack,
    walk_distances,
    walk_distances_row,
)
from envs.cairo.data import (
    CUSTOMER_STARTS,
    HEIGHT,
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
    """Many boards in one call: BFS distances per board, -1 for a goal that is not valid or
    not reachable (a tile cell among them)."""
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


def _bits(mask: np.ndarray) -> np.ndarray:
    """(182,) bool -> (4,) uint64 board, by the per-row packer."""
    out = np.empty(4, np.uint64)
    mask_bits(mask, out)
    return out


def test_per_row_board_matches_pack_and_has_bit():
    """``mask_bits`` writes ``pack``'s layout, and ``has_bit`` reads every cell back."""
    rng = np.random.default_rng(3)
    mask = rng.random(NUM_CELLS) < 0.4
    board = _bits(mask)
    assert np.array_equal(board, pack(mask[None])[0])
    assert [has_bit(board, k) for k in range(NUM_CELLS)] == mask.tolist()


def test_cells_of_lists_a_boards_cells_in_order():
    """``cells_of`` and ``first_cell`` read a board's cells back, lowest first."""
    rng = np.random.default_rng(4)
    for density in (0.0, 0.05, 0.5, 1.0):
        mask = rng.random(NUM_CELLS) < density
        out = np.full(NUM_CELLS, -1, dtype=np.int64)
        count = cells_of(tuple(_bits(mask)), out)
        assert out[:count].tolist() == np.flatnonzero(mask).tolist()
        assert first_cell(tuple(_bits(mask))) == (np.flatnonzero(mask)[0] if mask.any() else -1)


def test_sections_board_and_board_sections():
    """Sections 0 and 8 are the cells of those sections (the corner restaurant cells too);
    a board's sections are those holding one of its cells."""
    board = sections_board(0b100000001)
    assert [has_bit(board, k) for k in range(NUM_CELLS)] == np.isin(SECTION, (0, 8)).tolist()
    assert has_bit(board, cell(13, 12)) and not has_bit(board, cell(0, 12))
    mask = np.zeros(NUM_CELLS, dtype=bool)
    mask[[cell(5, 0), cell(0, 12)]] = True  # section 1, and the corner of section 6
    assert board_sections(tuple(_bits(mask))) == 0b1000010


def test_neighbours_of_a_board_stay_on_the_grid():
    """The orthogonal neighbours of the west column's and east column's cells: no bit
    wraps into the next row or off the grid."""
    mask = np.zeros(NUM_CELLS, dtype=bool)
    mask[[cell(0, 3), cell(13, 7)]] = True
    near = neighbours_of(tuple(_bits(mask)))
    expected = {cell(0, 2), cell(0, 4), cell(1, 3), cell(13, 6), cell(13, 8), cell(12, 7)}
    assert {k for k in range(NUM_CELLS) if has_bit(near, k)} == expected


def test_board_bits_are_walkable_cells_and_targets():
    """§5.1: walkable = market cells without a tile; K = customer and entrance cells."""
    rng = np.random.default_rng(4)
    tile = np.where(rng.random(NUM_CELLS) < 0.3, 7, -1).astype(np.int8)
    entrance = np.full(NUM_CELLS, -1, np.int8)
    entrance[[cell(2, 3), cell(9, 9)]] = 7
    customer = np.array([cell(1, 0), -1, cell(6, 5), -1, -1, cell(12, 11)], np.int16)
    walk, targets = np.empty(4, np.uint64), np.empty(4, np.uint64)
    board_bits(tile, entrance, customer, walk, targets)
    assert np.array_equal(walk, _bits(MARKET & (tile < 0)))
    expected = entrance >= 0
    expected[customer[customer >= 0]] = True
    assert np.array_equal(targets, _bits(expected))


def test_flood_bits_match_breadth_first_search():
    rng = np.random.default_rng(5)
    for _ in range(10):
        walk, targets = _random_board(rng)
        start = int(np.flatnonzero(targets)[0])
        seed = np.zeros(NUM_CELLS, bool)
        seed[start] = True
        out = np.empty(4, np.uint64)
        flood_bits(_bits(seed), _bits(walk), out)
        expected = np.zeros(NUM_CELLS, bool)
        expected[list(_bfs(walk, start))] = True
        assert np.array_equal(out, _bits(expected))
        component_bits(_bits(walk), _bits(targets), out)
        assert np.array_equal(out, _bits(expected))  # the targets lie in one component


def test_placements_row_fills_every_cell():
    """Outside the candidates ``safe`` is True and ``connected`` is whether the neighbour lies
    in K's component; at the candidates it is what ``Reachability`` answers for the batch."""
    rng = np.random.default_rng(6)
    boards = [_random_board(rng) for _ in range(3)]
    walk = np.stack([b[0] for b in boards])
    targets = np.stack([b[1] for b in boards])
    candidates = walk & ~targets & (rng.random(walk.shape) < 0.5)
    safe, connected = Reachability(walk, targets).placements(candidates)
    for m in range(len(boards)):
        one_safe = np.zeros(NUM_CELLS, bool)
        one_connected = np.zeros((NUM_CELLS, 4), bool)
        placements_row(_bits(walk[m]), _bits(targets[m]), candidates[m], one_safe,
                       one_connected)
        assert np.array_equal(one_safe, safe[m]) and np.array_equal(one_connected, connected[m])
        assert one_safe[~candidates[m]].all()
        component = np.append(unpack(flood(pack(targets[m : m + 1]), pack(walk[m : m + 1])))[0],
                              False)
        assert np.array_equal(one_connected[~candidates[m]],
                              component[NEIGHBOURS[~candidates[m]]])


def test_walk_distances_row_matches_breadth_first_search():
    """One board's distances, a goal listed twice and an invalid goal among them."""
    rng = np.random.default_rng(8)
    walk, targets = _random_board(rng)
    start = int(np.flatnonzero(targets)[0])
    goals = np.append(np.flatnonzero(MARKET)[::5], np.flatnonzero(MARKET)[0])
    valid = np.ones(goals.size, bool)
    valid[3] = False
    out = np.empty(goals.size, np.int32)
    walk_distances_row(_bits(walk), start, goals, valid, out)
    expected = _bfs(walk, start)
    assert out.tolist() == [expected.get(int(g), -1) if ok else -1
                            for g, ok in zip(goals, valid, strict=True)]


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
        assert bool(ring_cut_word(*ring) & 1) == (not _ring_links_by_runs(code))


_RING = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def test_ring_cut_bits_read_each_cells_ring_on_the_board():
    """``ring_cut_bits`` reads every cell's ring off the board (off the grid: not walkable)."""
    rng = np.random.default_rng(9)
    walk = MARKET & (rng.random(NUM_CELLS) < 0.6)
    out = np.empty(4, np.uint64)
    ring_cut_bits(_bits(walk), out)
    for k in range(NUM_CELLS):
        x, y = k % WIDTH, k // WIDTH
        code = sum(1 << i for i, (dx, dy) in enumerate(_RING)
                   if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT and walk[cell(x + dx, y + dy)])
        assert has_bit(out, k) == (not _ring_links_by_runs(code))
