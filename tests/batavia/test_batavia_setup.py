"""Setup and chance (§3, §9.6), the options (§2.8, §9.5), the observation (§9.4), and the
invariants after every step of random games (§10) for every player count and option."""

from __future__ import annotations

import numpy as np
import pytest
import test_conformance as shared_conformance
import test_resample as shared_resample
from batavia_helpers import Position

import envs
from envs.batavia import BataviaGame
from envs.batavia.data import CARD_COMPANY, FIXED_LAYOUT, TILE_COMPANY, TILE_GOOD
from envs.batavia.observation import OBS, SEAT
from envs.core.rng import make_rng, random_bits
from envs.core.sampling import sample_actions

# ---------------------------------------------------------------- chance (§3, §9.6)


def test_setup_deals_from_its_181_words_and_rolls_the_182nd():
    """§9.6: words 0-34 order each company's stack (its k-th tile to block k), words 35-69
    each block's spaces, words 70-179 the cards (10 to each seat in turn, the rest the pile,
    top first); the first round's die is the next word and flips the pile's top cards."""
    game = BataviaGame(4)
    state = game.init(3, seed=10)
    for r in range(3):
        rng = make_rng(np.array([10 + r]))
        u = (random_bits(rng, None, 181)[0] >> np.uint64(32)).astype(np.int64)
        stacks = [np.argsort(u[7 * c:7 * c + 7], kind="stable") for c in range(5)]
        route = []
        for k in range(7):
            block = [7 * c + stacks[c][k] for c in range(5)]
            route += [block[j] for j in np.argsort(u[35 + 5 * k:40 + 5 * k], kind="stable")]
        assert state.route[r].tolist() == route
        cards = CARD_COMPANY[np.argsort(u[70:180], kind="stable")]
        for seat in range(4):
            hand = np.bincount(cards[10 * seat:10 * seat + 10], minlength=5)
            assert state.hand[r, seat].tolist() == hand.tolist()
        die = 1 + ((int(random_bits(rng, None, 1)[0, 0] >> np.uint64(32)) * 6) >> 32)
        assert state.die[r] == die
        assert state.lot[r].tolist() == np.bincount(cards[40:40 + die], minlength=5).tolist()
        pile = state.deck[r, :int(state.deck_size[r])][::-1]
        assert pile.tolist() == cards[40 + die:].tolist()
        assert int(state.rng[r, 1]) == 182


def test_every_block_holds_one_tile_of_each_company():
    """§3 step 1: a random deal puts one tile of each company in every block, and spreads
    each company's 7 goods over the 7 blocks."""
    state = BataviaGame(5).init(50, seed=3)
    companies = TILE_COMPANY[state.route].reshape(50, 7, 5)
    assert (np.sort(companies, axis=2) == np.arange(5)).all()
    assert len({tuple(r) for r in state.route.tolist()}) == 50


def test_the_random_first_auctioneer_is_word_180():
    """§3 step 6, §9.6: ``first_auctioneer="random"`` seats the ship at ``⌊N·u / 2^32⌋`` of
    word 180; the default is seat 0."""
    game = BataviaGame(5, first_auctioneer="random")
    state = game.init(200, seed=0)
    words = random_bits(make_rng(np.arange(200)), None, 181)[:, 180] >> np.uint64(32)
    expected = (np.uint64(5) * words) >> np.uint64(32)
    assert state.ship.tolist() == expected.astype(int).tolist()
    assert set(state.ship.tolist()) == set(range(5))
    assert (state.current_player == (state.ship + 1) % 5).all()  # the auctioneer's left
    assert not BataviaGame(5).init(20, seed=0).ship.any()


# ---------------------------------------------------------------- options (§2.8, §9.5)


def test_the_open_variant_lays_the_fixed_layout_of_section_2_8_face_up():
    """§2.8: the printed table (spot checks) and its three properties."""
    game = BataviaGame(3, variant="open")
    state = game.init(2, seed=5)
    assert (state.route == FIXED_LAYOUT).all() and (state.open == 35).all()
    named = {1: (1, 3), 2: (3, 2), 3: (0, 0), 4: (2, 6), 5: (4, 5), 13: (2, 1), 19: (0, 3),
             25: (3, 6), 27: (3, 0), 35: (0, 6)}
    for space, (company, good) in named.items():
        t = FIXED_LAYOUT[space - 1]
        assert (TILE_COMPANY[t], TILE_GOOD[t]) == (company, good), space
    blocks = FIXED_LAYOUT.reshape(7, 5)
    assert (np.sort(TILE_COMPANY[blocks], axis=1) == np.arange(5)).all()
    assert all(len(set(TILE_GOOD[b])) == 5 for b in blocks)
    assert sorted(FIXED_LAYOUT.tolist()) == list(range(35))
    hidden = game.observe(state, 0)[:, OBS.offsets["hidden_goods"]]
    assert not hidden.any()


def test_the_open_random_layout_is_the_standard_deal_face_up():
    standard = BataviaGame(4).init(4, seed=8)
    shown = BataviaGame(4, variant="open", open_layout="random").init(4, seed=8)
    np.testing.assert_array_equal(shown.route, standard.route)
    assert (shown.open == 35).all()


def test_bad_options_name_the_valid_choices():
    with pytest.raises(ValueError, match="variant='open'"):
        BataviaGame(4, open_layout="random")
    with pytest.raises(ValueError, match="'standard', 'open'"):
        BataviaGame(4, variant="quick")
    with pytest.raises(ValueError, match="'seat0', 'random'"):
        envs.make_game("batavia", 4, first_auctioneer="oldest")
    with pytest.raises(ValueError, match="valid: 3, 4, 5"):
        envs.make_game("batavia", 2)


OPTION_SETS = [{"variant": "open"}, {"variant": "open", "open_layout": "random"},
               {"first_auctioneer": "random"}]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o.values()))
def test_every_option_passes_the_shared_contract_and_leak_tests(options, monkeypatch):
    """§9.5: the registry-wide conformance, resample and dynamic leak tests, played with
    each option (the registry's ``make_game`` patched to pass it)."""
    make = envs.make_game
    monkeypatch.setattr(envs, "make_game", lambda env_id, players=None, **kw: make(
        env_id, players, **options, **kw))
    shared_conformance.test_random_play_keeps_the_contract("batavia", 4)
    shared_conformance.test_observation_leaks_nothing_hidden("batavia", 4)
    shared_resample.test_resampled_states_are_consistent_with_the_seats_view("batavia", 3)
    shared_resample.test_dynamic_leak("batavia", 5)


# ---------------------------------------------------------------- observation (§9.4)


def _slots(obs: np.ndarray) -> np.ndarray:
    return obs[:, OBS.offsets["seats"]].reshape(len(obs), 5, SEAT.size)


def test_the_observation_is_egocentric_padded_and_bounded():
    """§9.4: 1018 values in [0, 1] at every count; slot k holds seat (o + k) mod N, slots
    k >= N are zeros; the acting seat is a relative one-hot."""
    for players in (3, 4, 5):
        game = BataviaGame(players)
        assert game.observation_shape == (1018,)
        assert (game.observation_low == 0).all() and (game.observation_high == 1).all()
        state = game.init(4, seed=1)
        state.coins[:] = np.arange(players) + 10
        for o in range(players):
            slots = _slots(game.observe(state, o))
            coins = slots[:, :players, SEAT.offsets["coins"]][:, :, 0] * 75
            np.testing.assert_allclose(coins[0], (np.arange(players) + o) % players + 10)
            assert not slots[:, players:].any()
            assert (slots[:, :players, 0] == 1).all()  # present
            to_act = game.observe(state, o)[:, OBS.offsets["to_act"]]
            assert (to_act[0].argmax() - (state.current_player[0] - o)) % players == 0


def test_the_observation_names_the_second_bidder_and_shows_only_the_own_hand():
    """§9.4: the high bidder and the seat of the bid just below it, relative to the observer;
    the hand piece is the observer's own and nothing else private is shown."""
    p = Position(4).auction(0, "EN1").cards(2, hand="SE3")
    p.play("BID_3", "BID_4")
    obs = p.game.observe(p.s, 3)[0]
    assert obs[OBS.offsets["high_bidder"]].tolist() == [0, 0, 0, 1, 0]  # seat 2 = 3 + 3
    assert obs[OBS.offsets["second_bidder"]].tolist() == [0, 0, 1, 0, 0]  # seat 1
    assert obs[OBS.offsets["high_bid"]][0] == pytest.approx(4 / 75)
    mine = p.game.observe(p.s, 2)[0, OBS.offsets["hand"]]
    assert mine.tolist() == pytest.approx([0, 0, 0, 0, 3 / 22])
    assert not obs[OBS.offsets["hand"]].any()


# ---------------------------------------------------------------- invariants (§10)


def _random_games(players: int, games: int, seed: int, **options) -> int:
    game = BataviaGame(players, **options)
    state = game.init(games, seed=seed)
    generator = np.random.default_rng(seed)
    steps = 0
    while not state.done.all():
        state = game.step(state, sample_actions(game.legal_action_mask(state), generator))
        problems = game.check_invariants(state)
        assert not problems, problems[:5]
        steps += 1
        assert steps <= game.max_decisions
    assert state.terminated.all()
    return steps


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_hold_in_a_few_random_games(players):
    _random_games(players, 6, seed=players, first_auctioneer="random")


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "open"])
def test_invariants_hold_after_every_step_of_200_random_games(players, variant):
    """§10: the invariants after every step of 200 random games per player count (and the
    open variant), none truncated (the spec saw at most 18 rounds)."""
    _random_games(players, 200, seed=1000 * players, variant=variant)


def test_the_seat_render_shows_only_that_seats_view():
    """design.md: ``render(state, i, seat=p)`` shows p's hand, the other hands' sizes and
    known cards, no face-down tile and no pile; ``seat=None`` shows everything."""
    p = Position(4).cards(0, hand="EN3 DK2", known="DK1").cards(1, hand="SE4")
    mine, theirs, full = (p.game.render(p.s, 0, seat=s).split("\n  legend:")[0]
                          for s in (0, 1, None))  # the board without its legend line
    assert "hand EN3 DK2" in mine and "hand 4 cards (known -)" in mine
    assert "hand 5 cards (known DK1)" in theirs and "hand SE4" in theirs
    assert "11 ??????" in theirs and "11 (" not in theirs and "11 (" in full
    assert "draw pile, top first" in full and "draw pile, top first" not in theirs
    assert "hand EN3 DK2" in full and "hand SE4" in full and "??????" not in full
    assert p.game.render(p.s, 0).splitlines()[-1].startswith("  legend: companies EN DK")
    assert "player_0: coins 15" in mine and "view of player_1" in theirs
