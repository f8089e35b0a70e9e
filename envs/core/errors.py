"""Errors raised by every game and adapter."""


class IllegalActionError(ValueError):
    """An action that the rules forbid in the decision being asked.

    The message names the game, the batch row, the action, the decision and why it is illegal.
    The whole batch is checked before anything changes, so the state is left untouched.
    """
