"""The OpenSpiel bridge: every registered game as a Python game of ``pyspiel``.

    import pyspiel
    import envs.openspiel  # registers python_tradewinds_<env id> for every registered game

    game = pyspiel.load_game("python_tradewinds_cairo", {"players": 3, "seed": 7})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()  # the rank reward

Importing this module is the only place pyspiel is imported; without OpenSpiel it raises an
ImportError that says how to install it.

Design notes:

* No second implementation. A state is one row of the batched game (``game.init`` at
  B = 1) and every method goes through the rules object: ``step`` (the automatic decisions
  inside it, as in the AEC env), ``legal_action_mask``, ``observe``, ``render``,
  ``action_name``, ``resample_hidden``. The game's parameters are ``players``, ``seed``
  and the game's own options (``Game.OPTIONS``), checked by ``envs.make_game``.
* Chance is ``SAMPLED_STOCHASTIC``: the row's counter-based generator draws inside
  ``apply_action``, so OpenSpiel sees no chance nodes and a history lists decisions only.
  The generator is part of the state, so every ``new_initial_state()`` of one loaded game is
  the same deal, the one ``make_game(...).init(1, seed)`` and the AEC env's
  ``reset(seed=seed)`` start from; another deal is another ``seed`` parameter (OpenSpiel's
  own sampled games keep a generator in the game object instead, which would make a
  state's future depend on what other states drew before it).
* Rewards are the rank reward, paid on the step that ends the game (``ZERO_SUM``,
  ``utility_sum`` 0, utilities in [-1, 1]); the safety cap ends a game like its rules do.
* Observations: the tensor is ``game.observe`` of the seat (one named tensor per piece of
  the game's ``observation_layout``, so ``observation_tensor()`` is the flat observation),
  the string is the seat's own view, ``game.render(state, 0, seat)``.
* The information state of a seat is its observation history: a rolling BLAKE2b digest of
  the seat's first observation and, after every step, the action (where the seat took it)
  and its observation then. Its cost stays the same however long the game (P observations
  a step), and equal strings mean equal observation histories (up to a 128-bit collision).
  ``resample_from_infostate(p, sampler)`` redraws what seat p cannot see
  (``resample_hidden``) and keeps p's digest, as OpenSpiel's IS-MCTS requires; the other
  seats' digests take in their new observation, so theirs differ where their view does.
* ``clone`` is OpenSpiel's (a new initial state whose Python attributes are deep-copied);
  the whole position lives in one attribute that copies itself with ``state.copy()``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "envs.openspiel needs OpenSpiel (the module pyspiel): pip install open-spiel, or "
        "the bench extra, pip install -e '.[bench]'"
    ) from error

import envs
from envs.core.game import Game
from envs.core.registry import game_class
from envs.core.state import BatchState

PREFIX = "python_tradewinds_"
_DIGEST_SIZE = 16  # bytes of an information-state digest (128 bits)
_NOT_ACTED = -1  # the action field of a digest update for the seats that did not act
_RESAMPLED = -2  # the action field that marks a redraw by resample_from_infostate


def game_string(env_id: str) -> str:
    """The OpenSpiel short name of ``env_id``, ``"python_tradewinds_<env id>"``."""
    return PREFIX + env_id


def game_type(env_id: str) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of ``env_id``: its parameters are ``players`` (the game's
    default count), ``seed`` (0) and the game's options with their defaults."""
    cls = game_class(env_id)
    counts = sorted(cls.PLAYER_COUNTS)
    return pyspiel.GameType(
        short_name=game_string(env_id),
        long_name=f"Tradewinds {env_id} (VERSION {cls.VERSION})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=counts[-1],
        min_num_players=counts[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": cls.DEFAULT_PLAYERS, "seed": 0, **cls.OPTIONS},
    )


def register(env_id: str) -> str:
    """Register ``env_id`` with pyspiel (once; a game registered later in ``envs`` joins
    with this call) and return its game string."""
    name = game_string(env_id)
    if name not in pyspiel.registered_names():
        # A class per game, as OpenSpiel's own Python games register: pyspiel keeps the
        # creator in a C++ registry that outlives the interpreter, and a class (held by its
        # own reference cycles) is never freed there, where a closure would be freed after
        # Python has shut down (a fatal error at exit).
        cls = type(f"TradewindsGame_{env_id}", (TradewindsGame,), {"ENV_ID": env_id})
        pyspiel.register_game(game_type(env_id), cls)
    return name


def load_game(game: Game, seed: int = 0) -> TradewindsGame:
    """The pyspiel game of a rules object: its env id, player count and options."""
    params = {"players": game.num_players, "seed": int(seed), **game.options}
    return pyspiel.load_game(register(game.ENV_ID), params)


def _digest(previous: bytes, action: int, observation: np.ndarray) -> bytes:
    """One step of a seat's history digest: what it knew, what it did, what it sees now."""
    h = hashlib.blake2b(previous, digest_size=_DIGEST_SIZE)
    h.update(int(action).to_bytes(8, "little", signed=True))
    h.update(np.ascontiguousarray(observation, dtype=np.float32).tobytes())
    return h.digest()


class _Position:
    """One game at B = 1 and what the bridge keeps beside it: each seat's history digest
    and the returns so far. OpenSpiel's ``clone`` deep-copies it: the arrays are copied,
    the rules object is shared (it holds no state)."""

    __slots__ = ("digests", "game", "returns", "state")

    def __init__(self, game: Game, state: BatchState, digests: list[bytes],
                 returns: np.ndarray):
        self.game = game
        self.state = state
        self.digests = digests
        self.returns = returns

    @classmethod
    def start(cls, game: Game, state: BatchState, tag: bytes) -> _Position:
        """A position whose seats' histories begin with ``tag`` and their view of ``state``."""
        digests = [_digest(tag, _NOT_ACTED, game.observe(state, p)[0])
                   for p in range(game.num_players)]
        return cls(game, state, digests, np.zeros(game.num_players))

    def __deepcopy__(self, memo: dict) -> _Position:
        return _Position(self.game, self.state.copy(), list(self.digests), self.returns.copy())


class TradewindsGame(pyspiel.Game):
    """A registered game as a ``pyspiel.Game`` (made by ``pyspiel.load_game``; ``register``
    derives one class per env id, naming it in ``ENV_ID``)."""

    ENV_ID: str

    def __init__(self, params: dict[str, Any] | None = None):
        env_id = self.ENV_ID
        params = dict(params or {})
        cls = game_class(env_id)
        num_players = int(params.pop("players", cls.DEFAULT_PLAYERS))
        seed = int(params.pop("seed", 0))
        rules = envs.make_game(env_id, num_players, **params)  # checks players and options
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.num_actions,
            max_chance_outcomes=0,  # sampled inside apply_action: no chance nodes
            num_players=num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=rules.max_decisions,
        )
        super().__init__(game_type(env_id), info,
                         {"players": num_players, "seed": seed, **rules.options})
        self.tradewinds_game = rules
        self.seed = seed
        # Every initial state is the deal of ``seed`` (module notes): made once, copied.
        self._initial = _Position.start(rules, rules.init(1, seed=seed),
                                        f"{env_id} v{rules.VERSION} seed {seed}".encode())

    def new_initial_state(self) -> TradewindsState:
        """The game dealt from the ``seed`` parameter."""
        return TradewindsState(self, self._initial.__deepcopy__({}))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The seat's observation (``perfect_recall=False``, the default) or its
        information state (``perfect_recall=True``)."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        return Observer(self.tradewinds_game, iig_obs_type, params)

    def state_at(self, state: BatchState, row: int = 0) -> TradewindsState:
        """A pyspiel state of one row of a batch of this game, its seats' histories starting
        there (what a search that begins at that position needs; its ``history()`` is
        empty)."""
        part = state.take(np.array([row]))
        game = self.tradewinds_game
        return TradewindsState(self, _Position.start(
            game, part, f"{game.ENV_ID} v{game.VERSION} position".encode()))


class TradewindsState(pyspiel.State):
    """One game of a ``TradewindsGame``: a row of the batched game at B = 1."""

    def __init__(self, game: TradewindsGame, position: _Position):
        super().__init__(game)
        self._position = position

    @property
    def tradewinds_state(self) -> BatchState:
        """The batched state (B = 1) behind this state; read it, do not change it."""
        return self._position.state

    def current_player(self) -> int:
        state = self._position.state
        if state.done[0]:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(state.current_player[0])

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel asks only about the seat to act (it answers [] for the others itself).
        pos = self._position
        return np.flatnonzero(pos.game.legal_action_mask(pos.state)[0]).tolist()

    def _apply_action(self, action: int) -> None:
        pos = self._position
        seat = int(pos.state.current_player[0])
        pos.game.step(pos.state, np.array([action], dtype=np.int64))
        pos.returns += self._exact(pos.state.rewards[0])
        pos.digests = [
            _digest(digest, action if p == seat else _NOT_ACTED, pos.game.observe(pos.state, p)[0])
            for p, digest in enumerate(pos.digests)
        ]

    def _action_to_string(self, player: int, action: int) -> str:
        return self._position.game.action_name(int(action))

    def is_terminal(self) -> bool:
        return bool(self._position.state.done[0])

    def returns(self) -> list[float]:
        return self._position.returns.tolist()

    def rewards(self) -> list[float]:
        return self._exact(self._position.state.rewards[0]).tolist()

    def _exact(self, rewards: np.ndarray) -> np.ndarray:
        """(P,) float64 rank rewards from the game's float32 ones.

        A rank reward is a whole number of 1 / (P - 1) steps, but its float32 rounding
        leaves a sum of about 1e-8 where OpenSpiel's zero-sum check allows 1e-9: the
        nearest multiple of the step is the reward itself, exactly summing to 0.
        """
        steps = max(len(rewards) - 1, 1)
        return np.round(rewards.astype(np.float64) * steps) / steps

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> TradewindsState:
        """A state ``player_id`` cannot tell from this one: everything it cannot see redrawn
        (``resample_hidden``), seeded by one draw of ``probability_sampler`` (a callable
        giving a float in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``)."""
        # 31 bits: games mix the seed into int64 arithmetic (cairo by 7919 x 512).
        seed = int(probability_sampler() * 2.0**31)
        clone = self.clone()
        pos = clone._position
        pos.state = pos.game.resample_hidden(pos.state, int(player_id), seed)
        pos.digests = [
            digest if p == player_id else _digest(digest, _RESAMPLED,
                                                  pos.game.observe(pos.state, p)[0])
            for p, digest in enumerate(pos.digests)
        ]
        return clone

    def __str__(self) -> str:
        return self._position.game.render(self._position.state, 0)


class Observer:
    """OpenSpiel's Python observer (``open_spiel.python.observation``) of one game.

    ``perfect_recall=False``: ``tensor`` is ``game.observe`` of the seat, with one named
    view per piece of its observation layout in ``dict``, and the string is the seat's
    render. ``perfect_recall=True``: no tensor, and the string is the seat's history digest.
    Both show the seat its own private information and the public board, nothing else.

    Raises:
        ValueError: observer parameters, or an observation type other than the seat's own
            view (a public-only or all-seeing observer does not exist here).
    """

    def __init__(self, game: Game, iig_obs_type: Any = None, params: Any = None):
        if params:
            raise ValueError(f"observer parameters are not supported, got {params!r}")
        if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("only a seat's own view is observable: public_info=True and "
                             "private_info=SINGLE_PLAYER")
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.dict: dict[str, np.ndarray] = {}
        if self.perfect_recall:
            self.tensor = None
            return
        self.tensor = np.zeros(game.observation_shape, dtype=np.float32)
        layout = game.observation_layout
        if layout.size == self.tensor.size:
            flat = self.tensor.reshape(-1)
            for name, piece in layout.pieces.items():
                self.dict[name] = flat[layout.offsets[name]].reshape(piece.shape)
        else:  # a game whose observation is not its layout's buffer: one tensor
            self.dict["observation"] = self.tensor

    def set_from(self, state: TradewindsState, player: int) -> None:
        """Fill ``tensor`` (and its views) with ``player``'s observation of ``state``."""
        if self.tensor is not None:
            self.tensor[...] = self.game.observe(state.tradewinds_state, int(player))[0]

    def string_from(self, state: TradewindsState, player: int) -> str:
        """``player``'s view of ``state`` as text, or its history digest (perfect recall)."""
        if self.perfect_recall:
            return state._position.digests[player].hex()
        return self.game.render(state.tradewinds_state, 0, seat=int(player))


for _env_id in envs.list_envs():
    register(_env_id)
