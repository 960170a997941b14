"""`--from STATE.json`: commands start from a state written as the engine writes states in JSON."""
import json

import pytest

from conftest import run_engine

TTT = "rules/tictactoe.rules"


def position(tmp_path, marks: dict, to_move: str, name: str = "state.json", **extra):
    """A tic-tac-toe state as solve --json writes one: marks as [[row, col], player] pairs."""
    path = tmp_path / name
    path.write_text(json.dumps({"marks": [[[r, c], p] for (r, c), p in marks.items()], "to_move": to_move,
                                **extra}))
    return path


def test_solve_from_a_position_values_it_as_worked_out_by_hand(tmp_path):
    # X . .     by hand: X to move completes the diagonal at (2, 2), O to move completes the bottom row
    # . X .     there: the player to move wins at once, whichever it is
    # O O .
    marks = {(0, 0): "X", (1, 1): "X", (2, 0): "O", (2, 1): "O"}
    for mover, value in (("X", [1, -1]), ("O", [-1, 1])):
        out = json.loads(run_engine("solve", TTT, "--from", position(tmp_path, marks, mover), "--json").stdout)
        assert out["value"] == value and out["from"] == str(tmp_path / "state.json")
        assert [step["move"] for step in out["best_line"][1:]] == [f"{mover} at (2, 2)"]  # the win is at once
        assert out["distinct_states"] > 1


def test_stats_and_play_start_from_the_position(tmp_path):
    # five marks made, O to move: four empty squares, so four moves at depth 0 (by hand)
    marks = {(0, 0): "X", (0, 1): "O", (1, 1): "O", (1, 0): "X", (2, 1): "X"}
    path = position(tmp_path, marks, "O")
    out = json.loads(run_engine("stats", TTT, "--from", path, "--json").stdout)
    assert (out["depths"][0]["states"], out["depths"][0]["moves_min"], out["depths"][0]["moves_max"]) == (1, 4, 4)
    played = json.loads(run_engine("play", TTT, "--from", path, "--agents", "random", "--games", "3", "--show",
                                   "--json").stdout)
    assert all(end["view"].startswith("XO") for end in played["shown"])  # every game began from the marks
    assert played["from"] == str(path)


def test_a_step_of_a_best_line_or_a_policy_line_is_read_by_its_state(tmp_path):
    out = json.loads(run_engine("solve", TTT, "--json").stdout)
    step = out["best_line"][3]  # after three moves
    (tmp_path / "step.json").write_text(json.dumps(step))
    again = json.loads(run_engine("solve", TTT, "--from", tmp_path / "step.json", "--json").stdout)
    assert again["value"] == out["value"]  # a state on the best line has the game's value
    assert [s["move"] for s in again["best_line"][1:]] == [s["move"] for s in out["best_line"][4:]]


@pytest.mark.parametrize("text, message", [
    ('{"marks": [], "to_move": "Z"}', "to_move: expected the player to move, one of X, O, got \"Z\""),
    ('{"marks": []}', "to_move: expected the player to move, one of X, O, but it is missing"),
    ('{"marks": [[[0, 0], "Q"]], "to_move": "X"}', "field marks[[0, 0]]: expected one of X, O, got \"Q\""),
    ('{"marks": [[[0], "X"]], "to_move": "X"}', "field marks key: expected a cell, [row, column], got [0]"),
    ('{"marks": 3, "to_move": "X"}', "field marks: expected a map: an object, or a list of [key, value] pairs, "
                                     "got 3"),
    ('{"to_move": "X"}', "the field marks is missing (its fields: marks)"),
    ('{"marks": [[[0, 0], "X"], [[0, 0], "O"]], "to_move": "X"}',
     'field marks: expected a map, each key once, got [[[0, 0], "X"], [[0, 0], "O"]]'),
    ('{"marks": []}\n{"marks": []}', "not JSON (Extra data: line 2 column 1 (char 14)); one state a file: give one "
                                      "line of a policy file (or one step of a best line)"),
    ('{"marks": [], "mark": [], "to_move": "X"}', "no field mark in Tic-tac-toe (its fields: marks)"),
    ('[1, 2]', "expected an object of the state's fields, as solve --json prints one"),
    ('{"marks": [', "not JSON (Expecting value: line 1 column 12 (char 11))"),
    ('{"marks": [[[0, 0], "X"], [[0, 1], "X"], [[0, 2], "X"], [[1, 0], "O"], [[1, 1], "O"], [[1, 2], "O"]], '
     '"to_move": "X"}', "the state breaks the invariant at rules/tictactoe.rules:30:1: "
                        "invariant not (won(X) and won(O))"),
])
def test_a_state_that_is_not_one_of_the_game_is_a_usage_error_saying_why(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    r = run_engine("solve", TTT, "--from", path)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"error: --from {path}: {message}\n"


def test_a_field_outside_its_range_is_refused(tmp_path):
    rules = tmp_path / "count.rules"
    rules.write_text('state { n: 0..5 = 0 }\naction up "up" { n += 1 }\nturn { up }\nterminal n == 5\nscore n\n')
    (tmp_path / "s.json").write_text('{"n": 7}')
    r = run_engine("solve", rules, "--from", tmp_path / "s.json")
    assert r.stderr == f"error: --from {tmp_path / 's.json'}: field n: 7 is outside its range 0..5\n"
    (tmp_path / "s.json").write_text('{"n": 3}')
    out = json.loads(run_engine("solve", rules, "--from", tmp_path / "s.json", "--json").stdout)
    assert out["paths_per_depth"] == [1, 1, 1] and out["best_score"] == 5  # by hand: 3 -> 4 -> 5
    rules.write_text('state { ns: list<0..5> = [0] }\naction up "up" { ns += 1 }\nturn { up }\n'
                     "terminal len(ns) == 3\nscore sum(ns)\n")
    (tmp_path / "s.json").write_text('{"ns": [1, 7]}')
    r = run_engine("solve", rules, "--from", tmp_path / "s.json")
    assert r.stderr == f"error: --from {tmp_path / 's.json'}: field ns: 7 is outside the range 0..5 of its values\n"


def test_a_list_the_rules_set_an_element_at_a_time_must_keep_its_length_in_from(tmp_path):
    # three piles taken from one at a time: no statement sets `piles` whole, so it holds three
    rules = tmp_path / "piles.rules"
    text = ("param n in 2..3 = 3\nstate { piles: list<0..4> = [2 for k in 1..n] }\n"
            'action take "take {i}" { choose i in 0..n - 1 where piles[i] > 0  piles[i] -= 1 }\nturn { take }\n'
            "terminal sum(piles) == 0\nscore 0\n")
    rules.write_text(text)
    (tmp_path / "s.json").write_text('{"piles": [1, 1]}')
    r = run_engine("solve", rules, "--from", tmp_path / "s.json")
    assert (r.returncode, r.stderr) == (2, f"error: --from {tmp_path / 's.json'}: field piles: a list of 2, where the "
                                           "game's has 3 from the start (the rules set it an element at a time, so its "
                                           "length never changes)\n")
    # with n = 2 the game's list holds two: by hand, two piles of 1 take two moves in either order
    out = json.loads(run_engine("solve", rules, "--set", "n=2", "--from", tmp_path / "s.json", "--json").stdout)
    assert out["paths_per_depth"] == [1, 2, 2]
    # a list the rules add to may hold any number: no such check (the rules then fail at piles[2])
    rules.write_text(text.replace("score 0", "score 0\naction grow { piles += [1] }"))
    r = run_engine("solve", rules, "--from", tmp_path / "s.json")
    assert r.returncode == 1 and "index 2 is outside a list of 2 elements" in r.stderr, r.stderr


def test_a_map_the_rules_take_no_entry_from_must_hold_its_starting_keys_in_from(tmp_path):
    # a hand of counts set an entry at a time: blue is in it from the start and stays
    rules = tmp_path / "hand.rules"
    text = ("enum Colour { red, blue }\nstate { hand: map<Colour, int> = {red: 1, blue: 2}  n: 0..3 = 0 }\n"
            'action take "take {c}" { choose c in [red, blue] where hand[c] > 0  hand[c] -= 1  n += 1 }\n'
            "turn { take }\nterminal n == 3\nscore hand[red]\n")
    rules.write_text(text)
    (tmp_path / "s.json").write_text('{"hand": {"red": 1}, "n": 2}')
    r = run_engine("solve", rules, "--from", tmp_path / "s.json")
    assert (r.returncode, r.stderr) == (2, f"error: --from {tmp_path / 's.json'}: field hand: no entry for blue, which "
                                           "the game's map holds from the start (the rules set its entries and take "
                                           "none away)\n")
    # by hand: from red 1, blue 2 with one take left, taking blue keeps red's 1
    (tmp_path / "s.json").write_text('{"hand": {"red": 1, "blue": 2}, "n": 2}')
    assert json.loads(run_engine("solve", rules, "--from", tmp_path / "s.json", "--json").stdout)["best_score"] == 1
    # a map the rules take entries from (`hand -= c`) may lack one: no such check
    rules.write_text(text.replace("score hand[red]", "score get(hand, red, 0)\naction drop { hand -= red }"))
    (tmp_path / "s.json").write_text('{"hand": {"red": 1}, "n": 2}')
    assert run_engine("solve", rules, "--from", tmp_path / "s.json").returncode != 2


def test_a_rule_failing_after_from_names_that_state_and_points_to_no_check(tmp_path):
    rules = tmp_path / "fail.rules"
    rules.write_text('state { n: int = 0  xs: list<int> = [] }\naction go "add {k}" { choose k in 1..2  n += k }\n'
                     'action bad "bad" { require n >= 3  n += max(xs) }\nturn { either { go } or { bad } }\n'
                     "terminal n >= 6\nscore n\n")
    start = tmp_path / "at.json"
    start.write_text('{"n": 2, "xs": []}')
    r = run_engine("solve", rules, "--from", start)
    assert r.returncode == 1
    # by hand: from n = 2, add 1 makes 3, where `bad` is listed and fails
    assert r.stderr.endswith(f"moves from the state of --from {start}, as the solve went down them:\n  1. add 1\n")
    assert "engine check" not in r.stderr  # check starts from the file's initial state, not this one
    r = run_engine("stats", rules, "--from", start)  # which state it failed in, stats does not tell
    assert r.returncode == 1 and r.stderr.endswith(f"the run started from the state of --from {start}\n"), r.stderr


def test_an_invariant_broken_after_from_counts_its_moves_from_that_state(tmp_path):
    # X . O     by hand: X to move; an invariant that no more than four marks stand is broken by X's
    # . O .     first move (five marks), whichever it is: the line is one move from the --from state
    # . . X
    start = position(tmp_path, {(0, 0): "X", (1, 1): "O", (2, 2): "X", (0, 2): "O"}, "X")
    r = run_engine("solve", TTT, "--from", start, "--invariant", "len(marks) <= 4")
    assert r.returncode == 1 and "invariant does not hold after 1 move" in r.stderr, r.stderr
    assert f"moves from the state of --from {start}:\n  1. X at " in r.stderr, r.stderr


def test_a_game_of_one_player_refuses_another_to_move_in_from(tmp_path):
    start = tmp_path / "one.json"
    state = json.loads(run_engine("solve", "rules/nidavellir.rules", "--json").stdout)["best_line"][2]["state"]
    start.write_text(json.dumps({**state, "to_move": "Z"}))
    r = run_engine("solve", "rules/nidavellir.rules", "--from", start)
    assert (r.returncode, r.stderr) == (2, f'error: --from {start}: to_move: a game of one player has no player to '
                                           f'name, got "Z" (leave it out)\n')
    start.write_text(json.dumps(state))
    assert run_engine("solve", "rules/nidavellir.rules", "--from", start).returncode == 0


BONUS = """state { n: 0..4 = 0  pts: int = 0 }
action step "step" { n += 1  pts += 1 }
turn { step }
when n >= 2 once { pts += 10 }
terminal n == 4
score pts
"""


def test_a_state_says_which_once_triggers_have_fired_and_from_it_they_fire_no_more(tmp_path):
    # by hand: four steps of 1 and the bonus of 10 once n reaches 2 (line 4): 14 in all. From n = 3,
    # pts = 13 the bonus has fired: 14 at the end; told it has not, it fires again: 24
    path = tmp_path / "bonus.rules"
    path.write_text(BONUS)
    line = json.loads(run_engine("solve", path, "--json").stdout)["best_line"]
    assert json.loads(run_engine("solve", path, "--json").stdout)["value"] == [14]
    assert [step["state"]["fired"] for step in line] == [[], [], [4], [4], [4]]  # after the second step
    for fired, value in (([4], 14), ([], 24)):
        start = tmp_path / "s.json"
        start.write_text(json.dumps({"n": 3, "pts": 13, "fired": fired}))
        assert json.loads(run_engine("solve", path, "--from", start, "--json").stdout)["value"] == [value]
    start.write_text(json.dumps({"n": 3, "pts": 13}))
    r = run_engine("solve", path, "--from", start)
    assert (r.returncode, r.stderr) == (2, f"error: --from {start}: fired is missing: the file's `when ... once` "
                                           "triggers (line 4) run once a game, so a state says which have fired, as "
                                           "the engine writes states: \"fired\": [LINE, ...], or [] for none\n")
    for fired in ([5], [4, 4]):
        start.write_text(json.dumps({"n": 3, "pts": 13, "fired": fired}))
        assert "fired: expected a list of the lines of `when ... once` triggers that have fired, each once (of 4), " \
            f"got {json.dumps(fired)}" in run_engine("solve", path, "--from", start).stderr


def test_a_policy_solved_from_a_state_is_refused_for_games_from_the_initial_one(tmp_path):
    marks = {(0, 0): "X", (1, 1): "X", (2, 0): "O", (2, 1): "O"}
    start = position(tmp_path, marks, "X")
    policy = tmp_path / "p.jsonl"
    assert run_engine("solve", TTT, "--from", start, "--policy", policy).returncode == 0
    r = run_engine("play", TTT, "--agents", f"policy:{policy},random", "--games", "1")
    assert (r.returncode, r.stderr) == (2, f"error: --agents policy:{policy}: {policy} was solved from --from "
                                           f"{start}, so it holds the states reached from there: give the games that "
                                           f"start too, --from {start}\n")
    assert run_engine("play", TTT, "--agents", f"policy:{policy},random", "--games", "1", "--from", start
                      ).returncode == 0


def test_a_cell_on_no_grid_of_the_file_in_from_is_a_warning_and_the_run_goes_on(tmp_path):
    # a 2 x 2 board: (5, 5) lies on no grid, and the initial state holds no such cell
    path = tmp_path / "marks.rules"
    path.write_text("const board = square_grid(2, 2)\nstate { marked: set<cell> = {} }\n"
                    'action mark "{c}" { choose c in cells(board) where c not in marked  marked += c }\n'
                    "turn { mark }\nterminal len(marked) >= 3\nscore len(marked)\n")
    start = tmp_path / "start.json"
    start.write_text('{"marked": [[5, 5]]}')
    r = run_engine("solve", path, "--from", start, "--json")
    assert r.returncode == 0, r.stderr
    assert r.stderr == f"warning: --from {start}: field 'marked' holds the cell (5, 5), on none of the file's grids " \
                       "(board) and not in the initial state\n"
    # by hand: two of the four cells more end it, 4 * 3 ways
    assert json.loads(r.stdout)["terminal_paths"] == 12
    start.write_text('{"marked": [[1, 1]]}')
    assert run_engine("solve", path, "--from", start).stderr == ""
