"""stats in-process: where it stops enumerating, and what it tells of its progress."""
import json
import random

import pytest

from conftest import run_engine
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


# n runs 0, 1, 2, 3, then 1 again from 3 (a lead-in of one depth and a round of three); a coin
# at n == 2 keeps n or moves it on, so depths hold more than one state
ROUND = """game "round"
state { n: 0..3 = 0 }
action on "on" { n = if n == 3 then 1 else n + 1 }
action stay "stay" { require n == 2 }
turn { either { on } or { stay } }
terminal n > 3
score n
"""


def test_stats_stops_where_the_states_of_a_depth_come_back(tmp_path):
    path = tmp_path / "round.rules"
    path.write_text(ROUND)
    repeats = []
    rows = stats(load_game(path, {}), rng=random.Random(1), repeats=lambda d, e: repeats.append((d, e)))
    # by hand: depth 0 {0}, 1 {1}, 2 {2}, 3 {2, 3}, 4 {2, 3, 1}, 5 {2, 3, 1}: depth 5 is depth 4 again
    assert [(r.depth, r.states) for r in rows] == [(0, 1), (1, 1), (2, 1), (3, 2), (4, 3)]
    assert repeats == [(5, 4)]


def test_stats_command_says_the_depths_repeat(tmp_path):
    path = tmp_path / "round.rules"
    path.write_text(ROUND)
    r = run_engine("stats", path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith("  the states at depth 5 are those at depth 4, so the depths after repeat those "
                             "after it: games can go round for ever\n")
    assert json.loads(run_engine("stats", path, "--json").stdout)["repeats"] == {"depth": 5, "earlier": 4}


def test_a_depth_without_decisions_shows_dashes_for_the_moves():
    r = run_engine("stats", "tests/fixtures/dice.rules", "--depth", "0")
    # the dice game starts with a roll: one state, chance to move, no decision
    assert r.stdout.splitlines()[-1].split() == ["0", "1", "0", "1", "-", "-", "-", "0"], r.stdout


TWO_ROLLS = """game "two rolls"
state { total: 0..6 = 0  rolls: 0..2 = 0  rolled: bool = no  last: 1..3 = 1 }
chance when not rolled { draw r in 1..3  last = r  rolled = yes }
action add "add {last}" { require rolled  total += last  rolls += 1  rolled = no }
turn { add }
terminal rolls == 2 and not rolled
score total
"""


def test_stats_counts_the_states_where_chance_moves(tmp_path):
    # by hand: chance rolls 1..3 at depths 0 and 2 (1 state, then one per total), the player adds at
    # depths 1 and 3 (3 rolls, then 3 totals x 3 rolls), and the 9 (total, last roll) pairs end at 4
    path = tmp_path / "rolls.rules"
    path.write_text(TWO_ROLLS)
    out = json.loads(run_engine("stats", path, "--json").stdout)
    assert [(d["states"], d["chance"], d["decisions"], d["ended"]) for d in out["depths"]] == [
        (1, 1, 0, 0), (3, 0, 3, 0), (3, 3, 0, 0), (9, 0, 9, 0), (9, 0, 0, 9)]
    text = run_engine("stats", path).stdout.splitlines()
    assert text[1].split() == ["depth", "states", "decisions", "chance", "moves", "min", "mean", "max", "ended"]
    assert text[2].split() == ["0", "1", "0", "1", "-", "-", "-", "0"]
    assert "chance" not in run_engine("stats", "rules/tictactoe.rules", "--depth", "1").stdout  # none there


def test_stats_command_names_the_depth_whose_states_outgrew_max_states():
    # tic-tac-toe by hand: 1, 9, 72 boards at depths 0-2, 252 (9 * 8 * 7 / 2) at depth 3
    r = run_engine("stats", "rules/tictactoe.rules", "--max-states", "100", "--samples", "20")
    assert r.returncode == 0, r.stderr
    assert [line.split()[:2] for line in r.stdout.splitlines()[2:5]] == [["0", "1"], ["1", "9"], ["2", "72"]]
    assert "  ~ sampled from 20 random playouts: states seen, a lower bound (depth 3 held more than --max-states " \
           "100 states to enumerate: a larger one goes deeper)\n" in r.stdout, r.stdout


def test_stats_lists_the_moves_of_a_state_met_at_several_depths_once_though_its_scored_total_differs(tmp_path):
    # the ring of ROUND with a count of steps that only the score reads: at each depth the places are other
    # states to the game (their counts differ) but one state each to stats, whose moves it lists once
    path = tmp_path / "round.rules"
    path.write_text(ROUND.replace("state { n: 0..3 = 0 }", "state { n: 0..3 = 0  steps: int = 0 scored }")
                    .replace('{ require n == 2 }', '{ require n == 2  steps += 1 }')
                    .replace('n = if n == 3 then 1 else n + 1 }', 'n = if n == 3 then 1 else n + 1  steps += 1 }')
                    .replace("score n", "score steps"))
    game = Counting(load_game(path, {}))
    game.game.split_scored(True)
    listed = []
    game.legal_moves = lambda s: listed.append(game.future_key(s)) or game.game.legal_moves(s)
    rows = stats(game, rng=random.Random(1))
    # by hand, as in ROUND: depth 0 {0}, 1 {1}, 2 {2}, 3 {2, 3}, 4 {2, 3, 1}, then depth 5 repeats depth 4
    assert [(r.depth, r.states) for r in rows] == [(0, 1), (1, 1), (2, 1), (3, 2), (4, 3)]
    assert sorted(k[0] for k in listed) == [0, 1, 2, 3]  # each place listed once, though met at several depths
