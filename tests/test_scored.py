"""`scored` state fields: running totals that only the score reads, which solve sets aside; the
values are those of the same game with the totals in the state, the states fewer (counted by hand)."""
import json

import pytest

from conftest import run_engine

# n goes 1, 2, 3; each move adds k * n points (k 1 or 2); the score adds n. By hand the best is
# 2 + 4 + 6 + 3 = 15. With the points in the state there are 1 + 2 + 4 + 7 = 14 states (the
# points after each move: {0}; {1, 2}; {3, 4, 5, 6}; {6, ..., 12}); scored, one a value of n: 4
STEPS = """game "steps"
state { n: 0..3 = 0  points: int = 0 scored }
action add "add {k}" { choose k in 1..2  n += 1  points += k * n }
turn { add }
terminal n == 3
score points + n
view "{points}"
"""

# each player maximises its own points (k * k for taking k); both solves must agree move by move
TAKE = """game "take"
players A, B
state { pile: 0..5 = 5  points: map<player, int> = {A: 0, B: 0} scored }
action take "{current} takes {k}" { choose k in 1..2 where k <= pile  pile -= k  points[current] += k * k }
turn { take }
terminal pile == 0
score for p: points[p] + (if p == current then 0 else 1)
"""


def solved(tmp_path, text: str, *extra) -> dict:
    path = tmp_path / "game.rules"
    path.write_text(text, encoding="utf-8")
    r = run_engine("solve", path, "--json", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_scored_total_gives_the_value_of_the_game_with_it_in_the_state_from_fewer_states(tmp_path):
    scored, plain = solved(tmp_path, STEPS), solved(tmp_path, STEPS.replace(" scored }", " }"))
    assert scored["best_score"] == plain["best_score"] == 15
    assert (scored["distinct_states"], plain["distinct_states"]) == (4, 14)
    assert scored["paths_per_depth"] == plain["paths_per_depth"] == [1, 2, 4, 8]
    assert [s["move"] for s in scored["best_line"]] == ["start", "add 2", "add 2", "add 2"]
    assert [m["value"] for m in scored["first_moves"]] == [[14], [15]]  # add 1 first: 1 + 4 + 6 + 3
    assert scored["outcomes"] == [] and len(plain["outcomes"]) == 7  # the final points 6..12, by hand


def test_a_scored_map_of_the_players_totals_gives_the_same_values_moves_and_policy(tmp_path):
    scored = solved(tmp_path, TAKE, "--policy", tmp_path / "scored.jsonl")
    plain = solved(tmp_path, TAKE.replace(" scored }", " }"), "--policy", tmp_path / "plain.jsonl")
    assert scored["value"] == plain["value"]
    assert scored["distinct_states"] < plain["distinct_states"]
    assert scored["first_moves"] == plain["first_moves"]
    assert [s["move"] for s in scored["best_line"]] == [s["move"] for s in plain["best_line"]]

    def lines(name):  # the states the scored solve wrote, one per future key, are among the plain one's
        return [json.loads(row) for row in (tmp_path / name).read_text().splitlines()]
    everywhere = {json.dumps(x["state"], sort_keys=True): (x["move"], x["value"]) for x in lines("plain.jsonl")}
    for x in lines("scored.jsonl"):
        assert everywhere[json.dumps(x["state"], sort_keys=True)] == (x["move"], x["value"])


def test_the_text_says_the_states_that_differ_only_in_the_scored_field_count_once(tmp_path):
    path = tmp_path / "steps.rules"
    path.write_text(STEPS, encoding="utf-8")
    assert "  distinct states: 4 (states that differ only in the scored field 'points' counted once); terminal " \
           "paths: 8\n" in run_engine("solve", path).stdout


@pytest.mark.parametrize("change, at, message", [
    ("points += k * n", "points = k", "scored field 'points' changes only by += and -="),
    ("terminal n == 3", "terminal n == 3 or points > 5", "scored field 'points' is read here"),
    ("choose k in 1..2", "choose k in 1..2 where points < 9", "scored field 'points' is read here"),
    ("score points + n", "score n", "the score must add the scored field 'points': score points + ..."),
    ("score points + n", "score points + n + points", "scored field 'points' is read here"),
    ("points: int = 0 scored", "points: 0..20 = 0 scored",
     "a scored field is declared `int` or `map<player, int>`, without a range or a bound"),
    ("view \"{points}\"", "def big() = points > 5\nwhen big() { n += 0 }\nview \"{points}\"",
     "scored field 'points' is read here"),
    ("score points + n", "def twice() = points\nscore points + twice()", "scored field 'points' is read here"),
])
def test_what_would_make_the_game_depend_on_a_scored_field_is_an_error_where_it_is(tmp_path, change, at, message):
    path = tmp_path / "steps.rules"
    text = STEPS.replace(change, at)
    path.write_text(text, encoding="utf-8")
    r = run_engine("validate", path, "--playouts", "0")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    first = r.stderr.splitlines()[0]
    assert first.endswith(f": error[scored]: {message}"), r.stderr
    line, col = (int(x) for x in first[len(str(path)) + 1:].split(":")[:2])
    assert text.splitlines()[line - 1][col - 1:].startswith(("points", "score", "points:", "points =")), first


def test_lines_cut_by_depth_and_valued_by_a_heuristic_keep_the_totals_in_the_state(tmp_path):
    # the heuristic squares the points, which the score does not: two states that differ only in
    # them are worth different squares, so they are not valued once
    text = STEPS + "heuristic squared = points * points\n"
    scored = solved(tmp_path, text, "--depth", "2", "--heuristic", "squared")
    plain = solved(tmp_path, text.replace(" scored }", " }"), "--depth", "2", "--heuristic", "squared")
    assert scored["value"] == plain["value"] == [36]  # by hand: 2 + 4 after two moves, squared
    assert scored["first_moves"] == plain["first_moves"]
