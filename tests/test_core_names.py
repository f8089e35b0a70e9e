"""Core's shared names and invariant report, which every game's render and invariants use."""

from enum import IntEnum

import numpy as np

from envs.core.invariants import InvariantReport
from envs.core.names import plain, seat_name


class Colour(IntEnum):
    RED = 0
    BLUE = 3


def test_seat_names_match_the_aec_agents():
    assert [seat_name(s) for s in range(3)] == ["player_0", "player_1", "player_2"]


def test_plain_copies_members_as_ints():
    values = plain(Colour)
    assert (values.RED, values.BLUE) == (0, 3)
    assert type(values.BLUE) is int


def test_report_names_failing_rows_and_counts_the_rest():
    report = InvariantReport(7, listed=2)
    report.check("money >= 0", np.array([True, False, True, False, False, True, True]))
    report.fail("deck size", True)
    report.check("always", True)
    assert report.messages() == [
        "row 1: money >= 0", "row 3: money >= 0", "money >= 0: 1 more row(s)",
        "row 0: deck size", "row 1: deck size", "deck size: 5 more row(s)"]


def test_report_empty_when_every_check_holds():
    report = InvariantReport(2)
    report.check("ok", np.array([True, True]))
    assert report.messages() == []
