"""`scored` state fields: running totals that only the score reads, which solve sets aside; the
values are those of the same game with the totals in the state, the states fewer (counted by hand)."""
import json
from fractions import Fraction

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

# each player maximises its own points (k * k for taking k); both solves must agree move by move (with
# two players the totals stay in the state: which of the moves as good a player takes depends on who leads)
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
    assert scored["distinct_states"] == plain["distinct_states"]  # two players: the totals stay in the state
    assert scored["first_moves"] == plain["first_moves"]
    assert [s["move"] for s in scored["best_line"]] == [s["move"] for s in plain["best_line"]]

    def lines(name):  # the states the scored solve wrote, one per future key, are among the plain one's
        return [json.loads(row) for row in (tmp_path / name).read_text().splitlines()[1:]]
    everywhere = {json.dumps(x["state"], sort_keys=True): (x["move"], x["value"]) for x in lines("plain.jsonl")}
    for x in lines("scored.jsonl"):
        assert everywhere[json.dumps(x["state"], sort_keys=True)] == (x["move"], x["value"])


def test_the_text_says_the_states_that_differ_only_in_the_scored_field_count_once(tmp_path):
    path = tmp_path / "steps.rules"
    path.write_text(STEPS, encoding="utf-8")
    assert "  distinct states: 4 (states that differ only in the scored field 'points' counted once); terminal " \
           "paths: 8\n" in run_engine("solve", path).stdout
    # --depth keeps the totals: by hand (n, points) is (0, 0); (1, 1..2); (2, 3..6); (3, 6..12): 1 + 2 + 4 + 7
    assert "  distinct states: 14 (states that differ in the scored field 'points' counted apart: --depth keeps " \
           "it); terminal paths: 8\n" in run_engine("solve", path, "--depth", "3").stdout


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


def test_the_score_may_add_the_total_anywhere_in_a_chain_of_additions(tmp_path):
    out = solved(tmp_path, STEPS.replace("score points + n", "score n + points + 0"))
    assert (out["best_score"], out["distinct_states"]) == (15, 4)


def test_the_score_may_take_the_rest_away_from_the_total_but_not_the_total_from_the_rest(tmp_path):
    # by hand: k = 2 at each of the three steps gives 2 * (1 + 2 + 3) = 12 points, less 2 * n = 6: 6,
    # the same as the score without `scored`
    text = STEPS.replace("score points + n", "score points - 2 * n")
    out, plain = solved(tmp_path, text), solved(tmp_path, text.replace(" scored }", " }"))
    assert out["best_score"] == plain["best_score"] == 6 and out["distinct_states"] == 4
    path = tmp_path / "taken.rules"
    for score in ("score n - points", "score -points"):  # the hint: count it down instead
        path.write_text(STEPS.replace("score points + n", score), encoding="utf-8")
        r = run_engine("validate", path, "--playouts", "0")
        assert r.returncode == 1 and "error[scored]: the score must add the scored field 'points'" in r.stderr
        assert "hint: to score the total taken away, count it down: `points -= ...` where it grows, and the score " \
               "adds it\n" in r.stderr, r.stderr
    for score, k in (("score n + 2 * points", "2"), ("score points * w\nconst w = 3", "w"), ("score points * n", None)):
        path.write_text(STEPS.replace("score points + n", score), encoding="utf-8")
        r = run_engine("validate", path, "--playouts", "0")  # a number the game keeps: add it k times as it grows
        assert r.returncode == 1 and (f"hint: to score it {k} times, add {k} times as much to it (`points += {k} * "
                                      "...` where it grows), and the score adds it once\n" if k else
                                      "hint: solve adds the total so far to the value of") in r.stderr, r.stderr


def test_a_total_negated_twice_is_added(tmp_path):
    # -(n - points) is points - n: the score of the test above, 12 - 6 by hand
    out = solved(tmp_path, STEPS.replace("score points + n", "score -(2 * n - points)"))
    assert (out["best_score"], out["distinct_states"]) == (6, 4)


def test_lines_cut_by_depth_and_valued_by_a_heuristic_keep_the_totals_in_the_state(tmp_path):
    # the heuristic squares the points, which the score does not: two states that differ only in
    # them are worth different squares, so they are not valued once
    text = STEPS + "heuristic squared = points * points\n"
    scored = solved(tmp_path, text, "--depth", "2", "--heuristic", "squared")
    plain = solved(tmp_path, text.replace(" scored }", " }"), "--depth", "2", "--heuristic", "squared")
    assert scored["value"] == plain["value"] == [36]  # by hand: 2 + 4 after two moves, squared
    assert scored["first_moves"] == plain["first_moves"]


def test_with_several_players_the_totals_stay_in_the_state_as_who_leads_picks_among_moves_as_good(tmp_path):
    # by hand, B moves second and values gift and keep alike (its points do not change): after path2
    # (A 1, B 20) both leave B ahead, so the first listed, gift, is taken: A 11, B 20. After path1
    # (A 0, B 5) only keep leaves B ahead, and keep is taken: a state valued once for both paths
    # would carry path1's keep to path2 (A 1, B 20)
    text = """game "tie"
players A, B
state { phase: 0..2 = 0  pts: map<player, int> = {A: 0, B: 0} scored }
action p1 "path1" { phase = 1  pts[B] += 5 }
action p2 "path2" { phase = 1  pts[A] += 1  pts[B] += 20 }
action x "gift" { phase = 2  pts[A] += 10 }
action y "keep" { phase = 2 }
turn { if phase == 0 { either { p1 } or { p2 } } else { either { x } or { y } } }
terminal phase == 2
score for p: pts[p]
"""
    out = solved(tmp_path, text)
    assert out["value"] == [11, 20] and [s["move"] for s in out["best_line"]] == ["start", "path2", "gift"]
    assert "counted once" not in run_engine("solve", tmp_path / "game.rules").stdout


def test_an_invariant_or_a_policy_on_a_scored_total_sees_every_state(tmp_path):
    # by hand the points after the moves are 1 or 2, 3 to 6, 6 to 12: `points < 8` breaks after 3
    # moves at the least, in a state the first path to its n did not reach
    path = tmp_path / "steps.rules"
    path.write_text(STEPS, encoding="utf-8")
    r = run_engine("solve", path, "--invariant", "points < 8")
    assert r.returncode == 1 and "invariant does not hold after 3 moves" in r.stderr, r.stderr
    policy = tmp_path / "best.jsonl"
    assert run_engine("solve", path, "--policy", policy).returncode == 0
    rows = [json.loads(line) for line in policy.read_text().splitlines()[1:]]
    assert len(rows) == 1 + 2 + 4  # every state where a player moves, each with its own points
    out = json.loads(run_engine("play", path, "--agents", f"policy:{policy}", "--games", "5", "--json").stdout)
    assert out["agents"][0]["scores"] == [15] * 5


def test_a_heuristic_may_not_be_named_score(tmp_path):
    path = tmp_path / "steps.rules"
    path.write_text(STEPS + "heuristic score = 0 - n\n", encoding="utf-8")
    r = run_engine("validate", path, "--playouts", "0")
    assert r.returncode == 1 and "error[duplicate]: a heuristic cannot be named 'score'" in r.stderr


# A small snakes and ladders: squares 0..20, one die, a roll past 20 leaves the counter where it was;
# ladders 3 -> 11 and 8 -> 15, snakes 12 -> 6 and 17 -> 4. The turns count down in a scored field.
SNAKES = """game "snakes"
table jump: int -> int { 3: 11, 8: 15, 12: 6, 17: 4 }
def dest(p, d) = if p + d > 20 then p else get(jump, p + d, p + d)
state { pos: 0..20 = 0  turns: int = 0 scored }
chance when pos < 20 {
    draw d in 1..6
    pos = dest(pos, d)
    turns -= 1
}
turn { }
terminal pos == 20
score turns
"""


def expected_turns_to_finish() -> Fraction:
    """E[turns] from square 0 on the board of SNAKES: E[p] = 1 + (1/6) sum E[dest(p, d)], E[20] = 0,
    solved exactly by Gauss-Jordan elimination over fractions."""
    jump = {3: 11, 8: 15, 12: 6, 17: 4}
    squares = list(range(20))  # square 20 is worth 0
    rows = []
    for p in squares:
        row = [Fraction(0)] * 21  # the coefficients of E[0..19], then the constant
        row[p] += 1
        for d in range(1, 7):
            q = p if p + d > 20 else jump.get(p + d, p + d)
            if q != 20:
                row[q] -= Fraction(1, 6)
        row[20] = Fraction(1)
        rows.append(row)
    for c in range(20):
        pivot = next(r for r in range(c, 20) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        rows[c] = [x / rows[c][c] for x in rows[c]]
        for r in range(20):
            if r != c and rows[r][c] != 0:
                rows[r] = [x - rows[r][c] * y for x, y in zip(rows[r], rows[c])]
    return rows[0][20]


def test_value_iteration_counts_what_each_step_adds_to_a_scored_total_so_loops_give_the_expected_turns(tmp_path):
    out = solved(tmp_path, SNAKES)
    assert out["method"] == "value iteration"  # the snakes bring the counter back to squares it was on
    assert out["value"][0] == pytest.approx(-float(expected_turns_to_finish()), abs=1e-9)  # -11.3034844217
    assert out["distinct_states"] == 17  # squares 0..20 less the feet of the ladders and heads of the snakes
    assert out["best_line"][-1]["state"]["pos"] == 20
    taken = [s["state"]["turns"] for s in out["best_line"]]  # the line's own states: each roll takes one
    assert taken == list(range(0, -len(taken), -1))


def test_value_iteration_with_a_scored_total_values_each_first_outcome_with_what_it_adds(tmp_path):
    # pos 0 -> 2, a roll of 1 moving on and of 0 staying: by hand each square takes 2 rolls on average,
    # so the game 4; after a first 0 it is -1 - 4 = -5, after a first 1, -1 - 2 = -3
    out = solved(tmp_path, """state { pos: 0..2 = 0  t: int = 0 scored }
chance when pos < 2 {
    draw d in [0, 1]
    pos += d
    t -= 1
}
turn { }
terminal pos == 2
score t
""")
    assert out["value"] == [-4]
    assert [m["value"] for m in out["first_moves"]] == [[-5], [-3]]


def unsolved_with(path, text: str, *flags) -> str:
    """Write text to path; solve (with flags) must fail on it with exit status 1 and no traceback:
    its stderr."""
    path.write_text(text, encoding="utf-8")
    r = run_engine("solve", path, *flags)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


def test_a_loop_that_adds_to_a_scored_total_has_no_fixed_point_and_the_error_says_why(tmp_path):
    stderr = unsolved_with(tmp_path / "grow.rules", "state { pts: int = 0 scored  done: bool = no }\n"
                           "action stay \"stay\" { pts += 1 }\naction stop \"stop\" { done = yes }\n"
                           "turn { either { stay } or { stop } }\nterminal done\nscore pts\n")
    assert "so they are no fixed point (a loop of moves that adds to the scored field 'pts' is worth more each " \
           "time round; solve takes the largest score: a count to keep low is taken away, `pts -= 1` and " \
           "`score pts`); --depth N solves the first N moves" in stderr, stderr


def test_a_loop_that_adds_reached_after_a_walk_is_named_with_the_sweeps_of_its_own_part(tmp_path):
    # three steps of a walk first, each a part of its own swept once: the loop's part is swept up to the
    # limit of 100,000 sweeps (solve's own), and the message says so
    stderr = unsolved_with(tmp_path / "walk.rules", "state { pts: int = 0 scored  done: bool = no  n: 0..3 = 0 }\n"
                           "action stay \"stay\" { pts += 1 }\naction stop \"stop\" { done = yes }\n"
                           "action walk \"walk\" { n += 1 }\n"
                           "turn { if n < 3 { walk } else { either { stay } or { stop } } }\n"
                           "terminal done\nscore pts\n")
    assert "the values still changed by 1.0e+00 after 100,000 sweeps of value iteration" in stderr, stderr


def test_a_start_from_which_no_end_can_be_reached_is_an_error_at_once_not_after_every_sweep(tmp_path):
    # x goes round 1, 2, 3, 1, ... and never reaches 0: three states, none an end
    path = tmp_path / "round.rules"
    stderr = unsolved_with(path, "state { x: 0..3 = 1  presses: int = 0 scored }\n"
                           "action step \"step\" { x = if x == 3 then 1 else x + 1  presses -= 1 }\n"
                           "turn { step }\nterminal x == 0\nscore presses\n")
    assert stderr == f"error: {path}: no end of the game can be reached from the initial state (of the 3 states it " \
                     "leads to, none is an end), so the scored field 'presses' is never scored: the game has no " \
                     "value\n", stderr
    start = tmp_path / "at.json"  # begun elsewhere, the message says where
    start.write_text('{"x": 2}')
    stderr = unsolved_with(path, path.read_text(), "--from", start)
    assert stderr.startswith(f"error: {path}: no end of the game can be reached from the state of --from {start} (of "
                             "the 3 states"), stderr


TRAP = ("state { x: 0..3 = 0  t: int = 0 scored }\n"
        "action stop \"stop\" { require x == 0  x = 3 }\n"
        "action go \"go\" { require x < 3  x = if x == 1 then 2 else 1  t STEP }\n"
        "turn { either { stop } or { go } }\nterminal x == 3\nscore t\n")


def test_states_that_cannot_reach_an_end_are_named_when_the_values_do_not_settle(tmp_path):
    # stop ends the game; go enters a loop 1, 2, 1, ... that adds one each time and never ends
    stderr = unsolved_with(tmp_path / "trap.rules", TRAP.replace("STEP", "+= 1"))
    assert "(a loop of moves that adds to the scored field 't' is worth more each time round, or from 2 states " \
           "of the 4 no end can be reached, so what it adds there never stops; solve takes the largest score: a " \
           "count to keep low is taken away, `t -= 1` and `score t`)" in stderr, stderr


def test_states_that_reach_no_end_and_only_cost_are_kept_out_of(tmp_path):
    # the same loop taking one off each time: x = 1 and 2 are worth less than any number, so best
    # play stops at once, worth 0 (by hand); going is shown as leading to no end
    path = tmp_path / "trap.rules"
    path.write_text(TRAP.replace("STEP", "-= 1"))
    r = run_engine("solve", path, "--moves")
    assert r.returncode == 0, r.stderr
    assert "  from 2 states no end can be reached, and every step there takes from 't': worth less than any " \
           "number, they are kept out of\n" in r.stdout, r.stdout
    assert "  best score: 0\n" in r.stdout and "    go: no end can be reached after it\n" in r.stdout, r.stdout
    out = json.loads(run_engine("solve", path, "--moves", "--json").stdout)
    assert (out["best_score"], out["trapped"]) == (0, 2)
    assert {m["move"]: m["value"] for m in out["first_moves"]} == {"stop": [0], "go": [None]}
    # a chance step that leads there half the time: best play cannot keep out, so there is no value
    stderr = unsolved_with(tmp_path / "forced.rules", "state { x: 0..3 = 0  t: int = 0 scored }\n"
                           "chance when x == 0 { draw d in [1, 2]  x = d }\n"
                           "action fin \"fin\" { require x == 1  x = 3 }\n"
                           "action loop \"loop\" { require x == 2  t -= 1 }\n"
                           "turn { either { fin } or { loop } }\nterminal x == 3\nscore t\n")
    assert "from 1 state of the 4 no end can be reached, and every step there takes from the scored field 't', so " \
           "they are worth less than any number; best play cannot keep out of them" in stderr, stderr


def test_too_many_states_names_the_fields_that_vary_but_not_a_scored_total_set_aside(tmp_path):
    # a walk to 40 that takes one off the total a step: the states are the places x, whatever t
    stderr = unsolved_with(tmp_path / "walk.rules", "state { x: 0..40 = 0  t: int = 0 scored }\n"
                           "action step \"step {d}\" { choose d in [-1, 1] where x + d >= 0  x += d  t -= 1 }\n"
                           "turn { step }\nterminal x == 40\nscore t\n", "--max-states", "10")
    assert "the fields with the most values in the 5 states found last: x 5 values (5..9); " in stderr, stderr


def test_stats_counts_states_less_their_totals_so_the_depths_of_a_looping_game_are_seen_to_repeat(tmp_path):
    path = tmp_path / "snakes.rules"
    path.write_text(SNAKES, encoding="utf-8")
    r = run_engine("stats", path, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    # by hand: depth 1 holds squares 1, 2, 11 (the ladder from 3), 4, 5 and 6, each with one turn taken
    assert [d["states"] for d in out["depths"][:2]] == [1, 6]
    assert out["repeats"] is not None  # with the turns in the state no depth would repeat another
    r = run_engine("stats", path)
    assert "  (states that differ only in the scored field 'turns' counted once)\n" in r.stdout


def test_a_scored_map_may_not_lose_an_entry(tmp_path):
    path = tmp_path / "take.rules"
    path.write_text(TAKE.replace("points[current] += k * k", "points -= current"), encoding="utf-8")
    r = run_engine("validate", path, "--playouts", "0")
    assert r.returncode == 1
    assert "error[scored]: scored field 'points' changes only by += and -= on an entry (`points[p] += N`)" in r.stderr


def test_a_looping_game_whose_scored_total_stays_in_the_state_says_why_it_has_no_end(tmp_path):
    # where an invariant reads the totals they stay in the state (it must hold in every state): every
    # turn then makes a new state, and the solve meets no state again, whatever the loops of the game
    path = tmp_path / "snakes.rules"
    path.write_text(SNAKES, encoding="utf-8")
    r = run_engine("solve", path, "--invariant", "turns <= 0", "--policy", tmp_path / "p.jsonl")
    assert r.returncode == 1
    assert "; the scored field 'turns' stays in the state as an invariant reads it, so a game that comes round " \
           "makes a new state each time; --depth N solves the first N moves" in r.stderr, r.stderr
    assert not (tmp_path / "p.jsonl").exists()


# from 0 or 1, a step (2 turns) moves on one square, or a bet (1 turn) wins at once with 1 chance
# in 3 and else goes back to 0. By hand, with E the turns still to come: at 1, a step costs 2 and a
# bet 1 + 2/3 E(0); at 0, betting every time costs E(0) = 1 + 2/3 E(0) = 3, stepping 2 + E(1) = 4.
# So E(0) = 3 (bet) and E(1) = 2 (step): the game comes round to 0 under best play.
BET = """game "bet"
state { pos: 0..2 = 0  betting: bool = no  turns: int = 0 scored }
chance when betting { draw d in 1..3  pos = if d == 1 then 2 else 0  betting = no }
action step "step" { pos += 1  turns -= 2 }
action bet "bet" { betting = yes  turns -= 1 }
turn { either { step } or { bet } }
terminal pos == 2
score turns
"""


def test_the_policy_of_a_game_that_comes_round_with_more_in_its_scored_total_leaves_the_total_out(tmp_path):
    path, policy = tmp_path / "bet.rules", tmp_path / "best.jsonl"
    path.write_text(BET, encoding="utf-8")
    out = solved(tmp_path, BET, "--policy", policy)
    assert (out["method"], out["best_score"], out["policy"]) == (
        "value iteration", -3, {"file": str(policy), "states": 2, "scored_aside": "turns"})
    rows = [json.loads(line) for line in policy.read_text().splitlines()]
    assert rows[0]["scored_aside"] == "turns"
    assert rows[1:] == [{"state": {"pos": 0, "betting": False}, "move": "bet", "value": [-3]},
                        {"state": {"pos": 1, "betting": False}, "move": "step", "value": [-2]}]
    # a line of it is a state --from takes, the total left out starting at 0: at 1, a step costs 2
    # and a bet 1 + 2/3 * 3 = 3, by hand
    (tmp_path / "at1.json").write_text(json.dumps(rows[2]), encoding="utf-8")
    at1 = solved(tmp_path, BET, "--from", tmp_path / "at1.json", "--moves")
    assert [(m["move"], m["value"]) for m in at1["first_moves"]] == [("step", [-2]), ("bet", [-3])]
    # played, it finds its move whatever the total: 4,000 games average near -3 (s.e. about 0.03)
    played = json.loads(run_engine("play", path, "--agents", f"policy:{policy}", "--games", "4000", "--json").stdout)
    assert abs(played["agents"][0]["mean"] + 3) < 0.15, played["agents"][0]


# by hand: four steps of 1, 2 or 3 from x = 0, each adding its k: the best is 3 each time, 12. With
# the total in each state, x = i has the 2i + 1 totals i..3i: 1 + 3 + 5 + 7 + 9 = 25 states, 16 of
# them before the end; set aside, the five values of x
STEPS_OF_K = """game "steps of k"
state { x: 0..4 = 0  total: int = 0 scored }
action step "step {k}" { choose k in 1..3  x += 1  total += k }
turn { step }
terminal x == 4
score total
"""


def test_a_policy_whose_totals_make_too_many_states_is_solved_again_with_the_total_left_out(tmp_path):
    policy = tmp_path / "best.jsonl"
    whole = solved(tmp_path, STEPS_OF_K, "--policy", policy)
    assert (whole["best_score"], whole["distinct_states"], whole["policy"]["states"]) == (12, 25, 16)
    policy.unlink()
    r = run_engine("solve", tmp_path / "game.rules", "--policy", policy, "--max-states", 10)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "  more than 10 states with the scored field 'total' in each (a policy holds each state's own " \
        "value): solving again with it set aside, by value iteration\n"
    assert r.stdout.startswith("steps of k: solved by value iteration in ")
    assert "(the policy's states without the scored field 'total'; " in r.stdout.splitlines()[0]
    assert "(without the scored field 'total', whose totals made more than 10 states: the values are of what is " \
           "still to come)" in r.stdout
    rows = [json.loads(line) for line in policy.read_text().splitlines()]
    assert rows[0]["scored_aside"] == "total"
    assert sorted((row["state"]["x"], row["move"], row["value"]) for row in rows[1:]) == [
        (0, "step 3", [12]), (1, "step 3", [9]), (2, "step 3", [6]), (3, "step 3", [3])]


def test_too_many_states_names_a_total_only_the_score_reads_as_one_to_declare_scored(tmp_path):
    path = tmp_path / "steps.rules"
    path.write_text(STEPS_OF_K.replace(" scored }", " }"))
    r = run_engine("solve", path, "--max-states", 10)
    assert r.returncode == 1
    assert r.stderr.rstrip().endswith("; only the score reads 'total', so it can be declared `total: int = ... "
                                      "scored`, which solve sets aside, holding once the states that differ only "
                                      "in it (language.md, `state`)"), r.stderr
