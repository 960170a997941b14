"""stats in-process: where it stops enumerating, and what it tells of its progress."""
import random

import pytest

from conftest import ROOT
from engine import load_game
from search.stats import stats


class Counting:
    """A game that counts the moves applied to it."""

    def __init__(self, game):
        self.game, self.applied = game, 0

    def apply(self, s, m):
        self.applied += 1
        return self.game.apply(s, m)

    def __getattr__(self, name):
        return getattr(self.game, name)


@pytest.fixture(scope="module")
def tictactoe():
    return load_game(ROOT / "rules/tictactoe.rules", {})


def test_stats_stops_making_a_layer_once_it_holds_more_states_than_it_enumerates(tictactoe):
    game = Counting(tictactoe)
    rows = stats(game, rng=random.Random(1), exact_limit=100, samples=0)
    # by hand: 1 empty board, 9 boards with one mark, 9 * 8 = 72 with two; 252 with three is past 100
    assert [(r.depth, r.states, r.exact) for r in rows] == [(0, 1, True), (1, 9, True), (2, 72, True)]
    # making every board of depth 3 takes 9 + 72 + 72 * 7 = 585 moves; the layer is given up at 101
    assert 9 + 72 + 101 <= game.applied < 9 + 72 + 72 * 7


def test_stats_does_not_make_the_layer_below_the_depth_asked_for(tictactoe):
    game = Counting(tictactoe)
    rows = stats(game, rng=random.Random(1), depth=1)
    assert [(r.depth, r.states) for r in rows] == [(0, 1), (1, 9)]
    assert game.applied == 9  # the first mark's nine boards, none of their children


def test_stats_tells_of_each_layer_and_each_playout(tictactoe):
    layers, playouts = [], []
    stats(tictactoe, rng=random.Random(1), exact_limit=100, samples=5,
          progress=lambda d, done, n: layers.append((d, done, n)), sampled=playouts.append)
    assert [t for t in layers if t[1] == t[2]] == [(0, 1, 1), (1, 9, 9), (2, 72, 72)]
    assert playouts == [0, 1, 2, 3, 4, 5]
