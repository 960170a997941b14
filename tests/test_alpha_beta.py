"""solve --alpha-beta: the value, a best line and the first moves' values of a two-player game whose
returns add up to the same at every end, against values worked out by hand and published ones."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import run_engine
from engine import load_game
from search.alpha_beta import alpha_beta
from search.solve import solve

TAKE = """game "take one or two"
players A, B
param n in 1..12 = 7
state { pile: int = n  last: player = B }
action take "{current} takes {k}" { choose k in 1..2 where k <= pile  pile -= k  last = current }
turn { take }
terminal pile == 0
score for p: if p == last then 1 else -1
"""

GAMBLE = """game "safe or gamble"
players A, B
state { stage: 0..2 = 0  gambled: bool = no  rolled: bool = no  low: bool = no  paid: int = 0 }
chance when gambled and not rolled { draw d in 1..6  low = d <= 2  rolled = yes }
action start "{how}" { choose how in ["safe", "gamble"]  gambled = how == "gamble"  stage = 1 }
action pay "B pays {k}" { choose k in (if gambled then [3, 2] else [1, 3])  paid = k  stage = 2 }
turn { if stage == 0 { start } else { pay } }
terminal stage == 2 or low
score for p: if low then (if p == A then -2 else 2) else if p == A then paid else -paid
"""


def solved(path, text, *flags):
    path.write_text(text)
    r = run_engine("solve", path, "--alpha-beta", "--json", *flags)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_tic_tac_toe_is_a_draw_after_every_first_move_and_fewer_than_all_5478_positions_are_searched():
    r = run_engine("solve", "rules/tictactoe.rules", "--alpha-beta", "--json", "--moves")
    out = json.loads(r.stdout)
    assert out["method"] == "alpha-beta" and out["value"] == [0, 0]
    # every one of the nine openings draws under best play; a drawn game fills the board: 9 moves
    assert [m["value"] for m in out["first_moves"]] == [[0, 0]] * 9
    assert len(out["best_line"]) == 1 + 9
    assert out["states_searched"] < 5478  # the positions reachable in tic-tac-toe, all of which solve visits
    alone = json.loads(run_engine("solve", "rules/tictactoe.rules", "--alpha-beta", "--json").stdout)
    # the value alone: the first moves are not each searched to their exact values
    assert alone["value"] == [0, 0] and "first_moves" not in alone
    assert alone["states_searched"] < out["states_searched"]


@pytest.mark.parametrize("n", range(1, 10))
def test_taking_one_or_two_the_first_player_wins_unless_the_pile_is_a_multiple_of_three(tmp_path, n):
    path = tmp_path / "take.rules"
    path.write_text(TAKE)
    found = alpha_beta(load_game(str(path), {"n": str(n)}))
    # by hand: leave the other player a multiple of three; from one, nothing takes you there
    assert found.value == ((1, -1) if n % 3 else (-1, 1))
    winning = [str(m) for m, v, _ in found.first_moves if v == (1, -1)]
    assert winning == ([] if n % 3 == 0 else [f"A takes {n % 3}"])


def test_to_a_depth_of_two_the_textbook_evaluation_of_tic_tac_toe_takes_the_centre():
    out = json.loads(run_engine("solve", "rules/tictactoe.rules", "--alpha-beta", "--depth", "2", "--heuristic",
                                "rows", "--moves", "--json").stdout)
    # by hand (Eval = 3 X2 + X1 - 3 O2 - O1): X in the centre, O in a corner: X has three open
    # lines through the centre (the diagonal holds the O), O two through its corner: 3 - 2 = 1;
    # O at an edge: X three (the column holds the O), O one: 3 - 1 = 2, so O takes a corner
    assert out["value"] == [1, -1] and out["complete"] is False and out["heuristic"] == "rows"
    assert [step["move"] for step in out["best_line"]][1:] == ["X at (1, 1)", "O at (0, 0)"]
    assert out["first_moves"][4] == {"move": "X at (1, 1)", "state": {"marks": [[[1, 1], "X"]], "to_move": "O"},
                                     "value": [1, -1]}


def test_a_chance_step_is_the_mean_of_its_outcomes_each_searched_whole(tmp_path):
    out = solved(tmp_path / "gamble.rules", GAMBLE, "--moves")
    # by hand: safe, then B pays the least of 1 and 3: 1; gamble: 2 in 6 lose 2, else B pays the
    # least of 3 and 2: (2 * -2 + 4 * 2) / 6 = 2/3
    assert out["value"] == [1, -1]
    assert [(m["move"], m["value"]) for m in out["first_moves"]] == [
        ("safe", [1, -1]), ("gamble", [pytest.approx(2 / 3), pytest.approx(-2 / 3)])]
    assert [step["move"] for step in out["best_line"]] == ["start", "safe", "B pays 1"]


def test_a_sweep_names_its_states_those_searched(tmp_path):
    path = tmp_path / "take.rules"
    path.write_text(TAKE)
    r = run_engine("solve", path, "--alpha-beta", "--sweep", "n=2..3")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].split() == ["n", "A", "B", "states", "searched", "seconds", "first", "move"]
    # by hand: from 2, A takes both and wins; from 3, A loses whatever it takes, and takes one, the
    # first listed of moves as bad
    assert [line.split()[:3] + line.split()[-3:] for line in lines[2:]] == [
        ["2", "1", "-1", "A", "takes", "2"], ["3", "-1", "1", "A", "takes", "1"]]


def test_a_sweep_to_a_depth_marks_the_values_cut_and_names_the_heuristic(tmp_path):
    path = tmp_path / "take.rules"
    path.write_text(TAKE + "heuristic left for p = if p == A then pile else -pile\n")
    r = run_engine("solve", path, "--alpha-beta", "--sweep", "n=3..4", "--depth", "1", "--heuristic", "left")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].endswith("solved for each value of n, to depth 1 (cut: the heuristic left where the lines "
                             "stop)"), r.stdout
    # by hand: A's move leaves the pile less 1 or 2, worth the pile to A: 3 - 1 and 4 - 1
    assert [line.split()[:5] for line in lines[2:]] == [["3", "2", "(cut)", "-2", "(cut)"],
                                                        ["4", "3", "(cut)", "-3", "(cut)"]], r.stdout


@pytest.mark.parametrize("text, message", [
    ("""game "uneven"
players A, B
state { done: bool = no  pick: int = 0 }
action go "take {k}" { choose k in 1..2  pick = k  done = yes }
turn { go }
terminal done
score for p: if p == A then pick else 0
""", "--alpha-beta: the returns (A, B) of two ends add up to different totals, (1, 0) and (2, 0), so one "
     "player's gain is not the other's loss"),
    ("""game "round"
players A, B
state { at: 0..3 = 0  done: bool = no }
action step "to {k}" { choose k in 0..3 where k != at  at = k  done = k == 3 }
turn { step }
terminal done
score for p: if p == current then -1 else 1
""", "--alpha-beta: a line of play comes back to a state it was in; solve without --alpha-beta values such a "
     "game by value iteration"),
])
def test_a_game_alpha_beta_cannot_value_is_an_error_that_points_to_solve_without_it(tmp_path, text, message):
    path = tmp_path / "game.rules"
    path.write_text(text)
    r = run_engine("solve", path, "--alpha-beta")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {path}: {message}"), r.stderr


TOKENS = """players A, B
state { pile: 0..3 = 3  taken: map<player, 0..3> = {A: 0, B: 0} }
action take "{current} takes {k}" { choose k in 1..2 where k <= pile  pile -= k  taken[current] += k }
turn { take }
terminal pile == 0
score for p: taken[p]
"""


def test_where_the_lines_stop_alpha_beta_values_a_players_lead_on_the_scale_of_the_ends(tmp_path):
    # by hand: the ends share the 3 tokens. Two moves deep, A takes 2 and B the last: (2, 1). A takes 1,
    # then B takes 2, an end (1, 2), or 1, where the lines stop at (1, 1): no lead, worth 3/2 each on
    # the ends' scale; B takes 2 (A's 1 below 3/2). So A's take 2 is worth 2 and take 1 is worth 1. The
    # first state valued, (1, 1), adds up to 2, the ends to 3
    path = tmp_path / "tokens.rules"
    path.write_text(TOKENS)
    out = json.loads(run_engine("solve", path, "--alpha-beta", "--depth", "2", "--moves", "--json").stdout)
    assert (out["value"], out["best_line"][1]["move"]) == ([2, 1], "A takes 2"), out
    assert sorted((m["move"], m["value"]) for m in out["first_moves"]) == [("A takes 1", [1, 2]),
                                                                          ("A takes 2", [2, 1])], out


@pytest.mark.parametrize("args, message", [
    (["rules/nidavellir.rules"], "--alpha-beta: searches a game of two players whose returns add up to the same "
                                 "at every end; Nidavellir: coin trades has 1 player"),
    (["rules/tictactoe.rules", "--policy", "best.jsonl"], "--policy: cannot go with --alpha-beta"),
    (["rules/tictactoe.rules", "--lines", "3"], "--lines: cannot go with --alpha-beta"),
])
def test_what_alpha_beta_does_not_take_is_a_usage_error(args, message):
    r = run_engine("solve", *args, "--alpha-beta")
    assert r.returncode == 2 and message in r.stderr, r.stderr


class Dag:
    """A random two-player game as a DAG over nodes 0..n-1 (moves lead to higher nodes only): each
    node is an end worth `v` to player 0 and -v to player 1, a chance node or a player's node (a
    dead end, with no move, is worth its `v` too)."""

    num_players = 2

    def __init__(self, nodes: list):
        self.nodes = nodes  # ("end", v) | ("chance", [(child, weight)]) | (player, [child, ...]) | (player, [], v)

    def initial_state(self):
        return 0

    def is_terminal(self, s):
        return self.nodes[s][0] == "end"

    def current_player(self, s):
        kind = self.nodes[s][0]
        return -1 if kind == "chance" else kind

    def legal_moves(self, s):
        return list(self.nodes[s][1])

    def chance_outcomes(self, s):
        total = sum(w for _, w in self.nodes[s][1])
        return [(c, w / total) for c, w in self.nodes[s][1]]

    def apply(self, s, m):
        return m

    def returns(self, s):
        v = self.nodes[s][-1]
        return (v, -v)

    def key(self, s):
        return s

    def describe(self, m):
        return f"to {m}"


class StoppingDag(Dag):
    """A Dag that can stop listing its moves past a limit, as the engine's games can."""

    def legal_moves_within(self, s, limit: int):
        moves = self.legal_moves(s)
        return None if len(moves) > limit else moves


@st.composite
def dags(draw):
    """Deep games with many transpositions: each node's ways lead to some of the next five."""
    n = draw(st.integers(2, 80))
    nodes = []
    for i in range(n - 1):
        later = st.integers(i + 1, min(n - 1, i + 5))
        kind = draw(st.sampled_from(["end", "chance", 0, 1, 0, 1, 0, 1]))
        if kind == "end":
            nodes.append(("end", draw(st.integers(-9, 9))))
        elif kind == "chance":
            nodes.append(("chance", draw(st.lists(st.tuples(later, st.integers(1, 3)), min_size=1, max_size=3,
                                                  unique_by=lambda cw: cw[0]))))
        elif draw(st.integers(0, 9)) == 0:
            nodes.append((kind, [], draw(st.integers(-9, 9))))
        else:
            nodes.append((kind, draw(st.lists(later, min_size=1, max_size=4, unique=True))))
    nodes.append(("end", draw(st.integers(-9, 9))))
    return draw(st.sampled_from([Dag, StoppingDag]))(nodes)


def minimax(game, s, memo) -> float:
    """Player 0's value of s, every node searched: the reference alpha-beta must agree with."""
    if s not in memo:
        kind, ways = game.nodes[s][:2]
        memo[s] = game.returns(s)[0] if kind == "end" or not ways else \
            sum(p * minimax(game, c, memo) for c, p in game.chance_outcomes(s)) if kind == "chance" else \
            (max if kind == 0 else min)(minimax(game, c, memo) for c in ways)
    return memo[s]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(dags())
def test_alpha_beta_agrees_with_a_full_minimax_on_random_games_with_chance_and_transpositions(game):
    found = alpha_beta(game, rng=random.Random(1))
    memo: dict = {}
    assert found.value[0] == pytest.approx(minimax(game, 0, memo)) and found.value[1] == pytest.approx(-found.value[0])
    kind, ways = game.nodes[0][:2]
    firsts = [] if kind == "end" else [c for c, _ in ways] if kind == "chance" else ways
    assert [(m, v[0]) for m, v, _ in found.first_moves] == [(c, pytest.approx(minimax(game, c, memo))) for c in firsts]
    assert alpha_beta(game, first_moves=False).value == pytest.approx(found.value)
    s = 0
    for m, t in found.best_line:  # each move of a player keeps the value the state had
        if game.current_player(s) != -1:
            assert minimax(game, t, memo) == pytest.approx(minimax(game, s, memo))
        s = t
    assert game.is_terminal(s) or not game.legal_moves(s)  # an end, or a dead end
    assert found.states <= len(memo)


def minimax_to(game, s, left: int, memo) -> float:
    """Player 0's value of s with `left` steps to go, where a state not at an end (nor a dead end) is
    worth its number less 40 (a stand-in heuristic): every state searched."""
    if (s, left) not in memo:
        kind, ways = game.nodes[s][:2]
        memo[s, left] = game.returns(s)[0] if kind == "end" or not ways else s - 40 if left == 0 else \
            sum(p * minimax_to(game, c, left - 1, memo) for c, p in game.chance_outcomes(s)) if kind == "chance" \
            else (max if kind == 0 else min)(minimax_to(game, c, left - 1, memo) for c in ways)
    return memo[s, left]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(dags(), st.integers(0, 6))
def test_alpha_beta_to_a_depth_agrees_with_a_full_minimax_to_that_depth(game, depth):
    found = alpha_beta(game, max_depth=depth, leaf=lambda s: (s - 40, 40 - s))
    memo: dict = {}
    assert found.value[0] == pytest.approx(minimax_to(game, 0, depth, memo))
    solved = solve(game, max_depth=depth, leaf=lambda s: (s - 40, 40 - s))
    assert solved.value[0] == pytest.approx(found.value[0])
    layer, reached = {0}, {0}
    for _ in range(depth):  # the states within `depth` steps of the start
        layer = {c for s in layer if game.nodes[s][0] != "end"
                 for c in (game.legal_moves(s) if game.nodes[s][0] != "chance" else [c for c, _ in game.nodes[s][1]])}
        reached |= layer
    assert solved.dead_ends == sum(1 for s in reached if game.nodes[s][0] in (0, 1) and not game.nodes[s][1])
    kind, ways = game.nodes[0][:2]
    firsts = [] if kind == "end" or depth == 0 else [c for c, _ in ways] if kind == "chance" else ways
    assert [(m, v[0]) for m, v, _ in found.first_moves] == \
        [(c, pytest.approx(minimax_to(game, c, depth - 1, memo))) for c in firsts]
    assert len(found.best_line) <= depth


@settings(max_examples=300, deadline=None, derandomize=True)
@given(dags(), st.integers(1, 8))
def test_deepening_without_first_moves_tells_each_depths_best_move_and_stops_where_every_line_ended(game, depth):
    # without first moves the search may stop at a shallower depth where every line it searched
    # ended: its value must still be the minimax value to the depth asked, and each depth's best
    # move one that a minimax to that depth takes
    told: list = []
    found = alpha_beta(game, max_depth=depth, leaf=lambda s: (s - 40, 40 - s), first_moves=False,
                       deepened=lambda d, i: told.append((d, i)))
    memo: dict = {}
    assert found.value[0] == pytest.approx(minimax_to(game, 0, depth, memo))
    kind, ways = game.nodes[0][:2]
    assert [d for d, _ in told] == list(range(1, len(told) + 1)) and len(told) < depth
    if len(told) < depth - 1:  # stopped at depth len(told) + 1, where no line was cut: the value is whole
        assert found.complete
    if kind in (0, 1) and ways:
        for d, i in told:
            assert minimax_to(game, ways[i], d - 1, memo) == pytest.approx(minimax_to(game, 0, d, memo))


@pytest.mark.parametrize("depth", [[], ["--depth", "5", "--heuristic", "rows"]])
def test_more_states_than_max_states_stop_it_naming_the_fields_that_vary(depth):
    r = run_engine("solve", "rules/tictactoe.rules", "--alpha-beta", "--max-states", "100", *depth)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "more than 100 states and not solved yet" in r.stderr
    assert "the fields with the most values in the 50 states found last: marks 50 values" in r.stderr, r.stderr


def test_past_max_states_it_says_what_may_search_fewer():
    r = run_engine("solve", "rules/tictactoe.rules", "--alpha-beta", "--max-states", "100", "--moves")
    assert "; with --alpha-beta, --depth N (N at least the longest line of the game) searches depth by depth, " \
        "trying first the move best a depth less, which can cut off far more; with --alpha-beta, without --moves " \
        "only the value is searched, not each first move's exact value, which can take many times more states" \
        in r.stderr, r.stderr
    r = run_engine("solve", "rules/tictactoe.rules", "--alpha-beta", "--max-states", "100", "--depth", "9")
    assert r.returncode == 1 and "with --alpha-beta" not in r.stderr, r.stderr


def test_searched_to_depth_0_the_one_state_is_visited_once():
    r = run_engine("solve", "rules/tictactoe.rules", "--alpha-beta", "--depth", "0")
    assert "  states searched: 1 (1 visit)\n" in r.stdout, r.stdout


def test_a_depth_past_every_end_is_a_whole_solve_even_where_the_best_line_meets_lines_the_value_did_not():
    # every game of Connect-3 on 4x4 ends by move 16: to depth 20 the deepening stops at a depth where
    # every line it searched ended, and the best line, searched again with other bounds, may meet lines
    # that depth cuts; the value is whole all the same, the score's (the heuristic is of cut lines),
    # and the same as a search without --depth
    fixture = "tests/fixtures/connect-three.rules"
    whole = json.loads(run_engine("solve", fixture, "--alpha-beta", "--json").stdout)
    r = run_engine("solve", fixture, "--alpha-beta", "--depth", "20", "--heuristic", "open_lines", "--json")
    deep = json.loads(r.stdout)
    assert (deep["complete"], deep["value"]) == (True, whole["value"]), r.stdout
    text = run_engine("solve", fixture, "--alpha-beta", "--depth", "20", "--heuristic", "open_lines").stdout
    assert "solved by alpha-beta" in text and f"  value: X {whole['value'][0]}, O {whole['value'][1]}\n" in text, text


@pytest.mark.parametrize("rows, cols, states, winner", [
    (2, 2, 3, "V"),  # by hand: V fills a column, and H finds no two cells side by side
    (3, 3, 46, "V"), (4, 4, 2443, "V"), (3, 4, 238, "H"),  # a user's plain-Python solver, states and winner
])
def test_domineering_on_small_boards_is_won_as_an_independent_solver_found(rows, cols, states, winner):
    # V moves first; the player who cannot move loses. Alpha-beta gives the exhaustive solve's value
    fixture = "tests/fixtures/domineering.rules"
    sets = ["--set", f"rows={rows}", "--set", f"cols={cols}"]
    whole = json.loads(run_engine("solve", fixture, *sets, "--json").stdout)
    assert whole["distinct_states"] == states
    assert whole["value"] == ([1, -1] if winner == "V" else [-1, 1])
    assert json.loads(run_engine("solve", fixture, *sets, "--alpha-beta", "--json").stdout)["value"] == whole["value"]
