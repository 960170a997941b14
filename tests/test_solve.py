"""`solve` reproduces published figures: seed 001's Nidavellir counts and line, tic-tac-toe's game tree."""
import gc
import json
import re

import pytest

from conftest import ROOT, TAKE_LAST, run_engine
from engine.load import load_game
from search.solve import TooManyStates, solve
from search.value_iteration import iterate_values


@pytest.fixture(scope="module")
def blog():
    r = run_engine("solve", "rules/nidavellir.rules", "--set", "variant=blog", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_blog_model_counts_the_paths_per_round_of_seed_001(blog):
    assert blog["paths_per_depth"] == [1, 6, 36, 216, 1296, 7746, 44552, 233251, 1104806]
    assert blog["terminal_paths"] == 1104806


def test_blog_model_optimum_is_58(blog):
    assert blog["best_score"] == 58
    assert blog["value"] == [58]


def test_blog_model_best_line_is_the_pouches_of_seed_001(blog):
    pouches = [tuple(c["value"] for c in step["state"]["pouch"]) for step in blog["best_line"]]
    assert pouches == [(2, 3, 4, 5), (2, 3, 5, 7), (2, 5, 5, 7), (2, 5, 7, 10), (2, 7, 7, 10),
                       (2, 7, 10, 14), (2, 7, 10, 24), (2, 7, 17, 24), (2, 7, 24, 25)]
    assert [step["state"]["round"] for step in blog["best_line"]] == list(range(9))


def test_json_output_is_one_object_and_states_serialise_by_field_name(blog):
    state = blog["best_line"][0]["state"]
    assert set(state) == {"pouch", "treasure", "round"}
    assert state["pouch"][0] == {"value": 2, "gold": False}
    assert state["treasure"] == sorted(state["treasure"])


@pytest.fixture(scope="module")
def tictactoe():
    r = run_engine("solve", "rules/tictactoe.rules", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_tictactoe_has_5478_positions_and_255168_games(tictactoe):
    # widely published figures for the full game tree of tic-tac-toe
    assert tictactoe["distinct_states"] == 5478
    assert tictactoe["terminal_paths"] == 255168


def test_a_map_keeps_its_json_shape_while_it_is_empty(tictactoe, tmp_path):
    # docs/commands.md: maps keyed by names are objects, other maps lists of [key, value] pairs. The
    # marks are keyed by cells: a list from the empty board on, not {} until the first mark
    marks = [step["state"]["marks"] for step in tictactoe["best_line"]]
    assert marks[0] == [] and marks[1] == [[list(marks[1][0][0]), "X"]]
    path = tmp_path / "keys.rules"
    path.write_text("""
enum colour { red, blue }
record Box { held: map<int, colour> }
state { by_colour: map<colour, int> = {}  box: Box = Box({})  n: 0..1 = 0 }
action go { n += 1  by_colour[red] = 1  box = Box({3: blue}) }
turn { go }
terminal n == 1
score n
""", encoding="utf-8")
    line = json.loads(run_engine("solve", path, "--json").stdout)["best_line"]
    assert [(s["state"]["by_colour"], s["state"]["box"]) for s in line] == [
        ({}, {"held": []}), ({"red": 1}, {"held": [[3, "blue"]]})]


@pytest.mark.parametrize("depth", [[], ["--depth", "9"]])
def test_solve_stops_with_a_clear_error_past_its_limit_of_states(depth):
    # tic-tac-toe has 5,478 positions (the published figure above): a limit of 5,478 solves it,
    # one fewer stops with exit 1 and names the ways on; with --depth the layers are counted first
    fits = run_engine("solve", "rules/tictactoe.rules", "--max-states", "5478", *depth, "--json")
    assert fits.returncode == 0 and json.loads(fits.stdout)["distinct_states"] == 5478, fits.stderr
    r = run_engine("solve", "rules/tictactoe.rules", "--max-states", "5477", *depth)
    assert r.returncode == 1 and r.stdout == "" and "Traceback" not in r.stderr, r.stderr
    out = json.loads(run_engine("solve", "rules/tictactoe.rules", "--max-states", "5477", *depth, "--json").stdout)
    assert out["file"] == "rules/tictactoe.rules" and out["error"].startswith("more than 5,477 states")
    assert "rules/tictactoe.rules: more than 5,477 states and not solved yet" in r.stderr
    assert "`python -m engine stats rules/tictactoe.rules`" in r.stderr
    assert "--depth N" in r.stderr and "--max-states N" in r.stderr
    # search plans for one player: with two, play is the way on
    assert "`play` pits search agents against each other" in r.stderr and "`search`" not in r.stderr
    # tic-tac-toe's returns add up to 0: alpha-beta is named as the solve that searches fewer
    assert "; for two players whose returns add up to the same, --alpha-beta searches far fewer states" in r.stderr


def test_tictactoe_is_a_draw_under_perfect_play(tictactoe):
    assert tictactoe["value"] == [0, 0]


def test_tictactoe_games_split_into_known_win_and_draw_counts(tictactoe):
    # 131,184 games won by the first player, 77,904 by the second, 46,080 drawn
    outcomes = {tuple(o["returns"]): o["paths"] for o in tictactoe["outcomes"]}
    assert outcomes == {(1, -1): 131184, (-1, 1): 77904, (0, 0): 46080}
    # listed as the text lists them, the best for the first player first: a win, a draw, a loss
    assert [o["returns"] for o in tictactoe["outcomes"]] == [[1, -1], [0, 0], [-1, 1]]


def test_tictactoe_paths_per_depth_start_with_9_then_72_first_moves(tictactoe):
    # 9 first moves, 9*8 replies, ...; the first wins are possible after 5 plies
    assert tictactoe["paths_per_depth"][:6] == [1, 9, 72, 504, 3024, 15120]
    assert tictactoe["paths_per_depth"][5] == 9 * 8 * 7 * 6 * 5


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_official_rule_solves_for_every_player_count(players):
    r = run_engine("solve", "rules/nidavellir.rules", "--set", f"players={players}", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["complete"] is True
    # an upper bound by hand: 2 is never traded up (always the smaller coin), the other three are at most 25
    assert 14 < out["best_score"] <= 2 + 25 + 24 + 23


def test_depth_limit_stops_early():
    r = run_engine("solve", "rules/nidavellir.rules", "--set", "variant=blog", "--depth", "2", "--json")
    out = json.loads(r.stdout)
    assert out["paths_per_depth"] == [1, 6, 36]
    assert out["complete"] is False


def test_human_readable_solve_names_the_best_score():
    r = run_engine("solve", "rules/nidavellir.rules", "--set", "variant=blog")
    assert r.returncode == 0
    assert "best score: 58" in r.stdout


def test_solve_cut_short_by_depth_says_its_value_is_the_score_where_the_lines_stop():
    r = run_engine("solve", "rules/tictactoe.rules", "--depth", "2")
    # two marks make no row of three, so the score there is 0 for both (rules/tictactoe.rules' score)
    assert r.returncode == 0 and "  value after 2 moves: X 0, O 0\n" in r.stdout
    assert r.stdout.endswith("    then the lines stop: the score of a game not over stands in for its end\n")
    assert "lines stop" not in run_engine("solve", "rules/tictactoe.rules").stdout


CYCLE = """game "round and round"
state { n: 0..2 = 0  stops: 0..1 = 0 }
action step "step to {n}" { n = (n + 1) % 3 }
action stop "stop at {n}" { require n == 2  stops = 1 }
turn { either { step } or { stop } }
terminal stops == 1
score n
"""


def test_a_game_that_comes_back_to_a_state_is_solved_by_value_iteration(tmp_path):
    # by hand: stepping round for ever is worth 0 and stopping at 2 is worth 2, so the best line
    # steps to 2 and stops there (a label shows the state as the action left it)
    path = tmp_path / "cycle.rules"
    path.write_text(CYCLE)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert (out["method"], out["distinct_states"], out["best_score"]) == ("value iteration", 4, 2)
    assert [m["move"] for m in out["best_line"]] == ["start", "step to 1", "step to 2", "stop at 2"]
    r = run_engine("solve", path)
    assert r.returncode == 0 and "solved by value iteration" in r.stdout and "best score: 2\n" in r.stdout


COIN_RACE = """players A, B
state { winner: int = 0  rolling: bool = no }
action roll "roll" { rolling = yes  pass to current }
action wait "wait" { }
chance when rolling {
    draw heads in [yes, no]
    if heads { winner = if current == A then 1 else 2 } else { pass to if current == A then B else A }
    rolling = no
}
turn { either { roll } or { wait } }
terminal winner > 0
score for p: if winner == 0 then 0 else if (winner == 1) == (p == A) then 1 else -1
"""


def test_value_iteration_values_a_two_player_race_with_chance_as_worked_out_by_hand(tmp_path):
    # whoever rolls wins on heads, else the other rolls: p = 1/2 + (1 - p) / 2, so the first
    # roller wins 2/3 of the games, a value of 2/3 - 1/3 = 1/3 (waiting for ever is worth 0)
    path = tmp_path / "race.rules"
    path.write_text(COIN_RACE)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert (out["method"], out["value"]) == ("value iteration", [0.333333333, -0.333333333])
    assert [m["move"] for m in out["first_moves"]] == ["roll", "wait"]


COUNT_TO_FIVE = """state { n: 0..5 = 0 }
action add "add {k}" { choose k in 1..2  n += k }
turn { add }
terminal n >= 4
score n
invariant n != 3
"""


@pytest.mark.parametrize("options", [(), ("--depth", "4"), ("--json",)], ids=["values", "depth", "json"])
def test_solve_checks_the_invariants_in_every_state_it_goes_through(tmp_path, options):
    # by hand: 3 is reached by 1 + 2, 2 + 1 or 1 + 1 + 1; solve values the moves in order, depth
    # first, so the first state of 3 it meets is after add 1, add 1, add 1 (`validate`'s 20 random
    # playouts may miss it; solve may not). It then reports the fewest moves: add 1, add 2 (the
    # moves in order, breadth first)
    path = tmp_path / "five.rules"
    path.write_text(COUNT_TO_FIVE)
    r = run_engine("solve", path, *options)
    assert r.returncode == 1
    assert (f"{path}:6:1: error[invariant]: invariant does not hold after 2 moves; no fewer moves break an "
            "invariant (solve goes through every state)\n") in r.stderr
    assert "  1. add 1\n  2. add 2\nstate: {\"n\": 3}\n" in r.stderr
    if "--json" in options:  # a script reading stdout learns what failed and where
        assert json.loads(r.stdout) == {
            "file": str(path), "at": f"{path}:6:1", "moves": ["add 1", "add 2"], "state": {"n": 3},
            "error": "invariant does not hold after 2 moves; no fewer moves break an invariant (solve goes "
                     "through every state)"}
    else:
        assert r.stdout == ""


@pytest.mark.parametrize("options", [(), ("--alpha-beta",)], ids=["exhaustive", "alpha-beta"])
def test_skip_invariants_leaves_the_files_out_but_not_those_of_the_command_line(tmp_path, options):
    path = tmp_path / "five.rules"
    path.write_text(COUNT_TO_FIVE.replace("state {", "players A, B\nstate {").replace("score n", "score 0"))
    solved = run_engine("solve", path, "--skip-invariants", *options)
    assert solved.returncode == 0 and "value: A 0, B 0" in solved.stdout, solved.stderr
    given = run_engine("solve", path, "--skip-invariants", "--invariant", "n != 2", *options)
    assert given.returncode == 1 and "after 1 move" in given.stderr, given.stderr


def test_skip_invariants_sets_aside_a_scored_total_that_only_an_invariant_read(tmp_path):
    # set aside: n = 0..6, 7 states. Kept, by hand, (n: totals) 0: 0; 1: 1; 2: 2, 4; 3: 3, 5; 4: 4, 6, 8;
    # 5: 5, 7, 9; 6 (from 4 only, 5 ends): 8, 10, 12. 15 states
    path = tmp_path / "squares.rules"
    path.write_text("state { n: 0..6 = 0  pts: int = 0 scored }\n"
                    "action add \"add {k}\" { choose k in 1..2  n += k  pts += k * k }\n"
                    "turn { add }\nterminal n >= 5\nscore pts\ninvariant pts >= 0\n")
    kept, skipped = (json.loads(run_engine("solve", path, "--json", *x).stdout) for x in ((), ("--skip-invariants",)))
    assert (kept["distinct_states"], skipped["distinct_states"]) == (15, 7)
    assert kept["best_score"] == skipped["best_score"] == 12  # 2 + 2 + 2, by hand


# counts to 30 in steps of 1 to 3 (31 states); the invariant runs a comprehension of 400,000 in each
# (about 1.5 s in all)
SLOW_INVARIANT = """state { n: 0..33 = 0 }
action add "add {k}" { choose k in 1..3  n += k }
turn { add }
terminal n >= 30
score n
invariant all(x + n >= 0 for x in 0..400000)
"""


def test_invariants_that_take_much_of_the_time_are_named_with_the_option_that_skips_them(tmp_path):
    path = tmp_path / "slow.rules"
    path.write_text(SLOW_INVARIANT)
    out = run_engine("solve", path).stdout
    took = re.search(r"checking the invariants in every state took ([\d.]+) s of the ([\d.]+) s "
                     r"\(--skip-invariants leaves out the file's\)", out)
    assert took and float(took.group(1)) >= 0.25 * float(took.group(2)), out
    assert "checking the invariants" not in run_engine("solve", path, "--skip-invariants").stdout


def test_a_broken_invariant_keeps_the_line_solve_met_when_a_shorter_one_would_take_too_many_states(tmp_path):
    from engine.cli import _Broken, _fewest_moves, _first_broken
    path = tmp_path / "five.rules"
    path.write_text(COUNT_TO_FIVE)
    game = load_game(str(path))
    s, moves = game.initial_state(), []
    for _ in range(3):
        moves.append(game.legal_moves(s)[0])
        s = game.apply(s, moves[-1])
    met = _Broken(game.invariants[0][0], moves, s)
    # breadth first, the walk holds n = 0..4 (one move: 1, 2; two: 3, 4) before it checks n = 3
    broken = _first_broken(game, [])
    assert _fewest_moves(game, met, 4, broken) is met and not met.fewest
    fewest = _fewest_moves(game, met, 5, broken)
    assert fewest.fewest and [game.describe(m) for m in fewest.moves] == ["add 1", "add 2"]


def test_value_iteration_checks_the_invariants_in_every_state_it_finds(tmp_path):
    # by hand: breadth first, the first state with n == 2 is two steps from the start
    path = tmp_path / "cycle.rules"
    path.write_text(CYCLE + "invariant n < 2\n")
    r = run_engine("solve", path)
    assert r.returncode == 1
    assert "error[invariant]: invariant does not hold after 2 moves" in r.stderr
    assert "  1. step to 1\n  2. step to 2\nstate: " in r.stderr


WAYS_TO_NINE = """state { n: 0..9 = 0 }
action back { require n > 0  n -= 1 }
action slow { n += 1 }
action fast { require n <= 6  n += 3 }
turn { either { back } or { slow } or { fast } }
terminal n == 9
score 1
"""


def test_value_iteration_takes_of_moves_as_good_the_one_that_ends_soonest(tmp_path):
    # every line that reaches 9 scores 1, and `back` can go round, so value iteration solves it;
    # by hand the fewest moves from 0 to 9 are three of +3, though `back` is listed first and
    # `slow` reaches a value of 1 first in the sweeps (from 8, the deepest state found)
    path = tmp_path / "nine.rules"
    path.write_text(WAYS_TO_NINE)
    game = load_game(str(path))
    fp = iterate_values(game)
    assert fp.value == (1.0,)
    assert [game.describe(m) for m, _ in fp.best_line] == ["fast", "fast", "fast"]



GO_ROUND = """game "go round"
param bonus in 0..9 = 1
state { n: 0..3 = 0  steps: int = 0 scored }
action go "go" { n += 1  steps -= 1 }
action wait "wait" { require n == 1 }
turn { either { go } or { wait } }
terminal n == 3
score steps + bonus
"""


@pytest.mark.parametrize("bonus, best", [(1, -1), (5, 2)])
def test_a_line_that_goes_round_for_free_after_a_step_is_worth_what_that_step_took(tmp_path, bonus, best):
    # by hand: the end is three steps of -1 away and adds the bonus (1 - 3 = -2, or 5 - 3 = 2); one
    # step on, `wait` goes round for ever taking nothing, worth 0 there and -1 from the start
    path = tmp_path / "round.rules"
    path.write_text(GO_ROUND)
    out = json.loads(run_engine("solve", path, "--set", f"bonus={bonus}", "--json").stdout)
    assert out["value"] == [best] and out["comes_round"] == (best == -1)
    moves = [m["move"] for m in out["best_line"][1:]]
    assert moves == (["go", "wait"] if best == -1 else ["go", "go", "go"])


SPIN = """state { pos: 0..1 = 0  rolled: bool = no  quit: bool = no }
chance when not rolled { draw d in ROLL  pos = (pos + d) % 2  rolled = yes }
action spin "spin" { rolled = no }
action stop "quit" { quit = yes }
turn { either { spin } or { stop } }
terminal quit
"""


def test_a_line_that_goes_round_through_a_roll_of_one_outcome_comes_round(tmp_path):
    # by hand: quitting ends at -1; spinning goes round for ever, worth 0, so best play spins. The roll has one
    # outcome (1): the state after it comes back every second spin, as a line without chance would
    path = tmp_path / "spin.rules"
    path.write_text(SPIN.replace("ROLL", "[1]") + "score 0 - 1\n")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert (out["value"], out["comes_round"]) == ([0], True), out
    assert [m["move"] for m in out["best_line"][1:]] == ["d = 1", "spin", "d = 1", "spin"], out  # back at the start
    # a measure of it says the line that never ends counts 0: no end is reached to measure
    text = run_engine("solve", path, "--measure", "1").stdout
    assert text.endswith("  at the end of the game under the best play found (which comes round: a line that never "
                         "ends counts 0), expected (chance weighing the outcomes):\n    1  0\n"), text


def test_a_rule_failing_in_the_initial_state_points_to_no_check_command(tmp_path):
    path = tmp_path / "div.rules"
    path.write_text("state { n: 0..3 = 0 }\naction go { n += 6 // (n - 0) }\nturn { go }\nterminal n == 3\nscore n\n")
    r = run_engine("solve", path)  # the initial state's move fails: no line of moves leads there to find
    assert r.returncode == 1 and r.stderr.startswith(f"{path}:2:24: error[runtime]: division by zero\n"), r.stderr
    assert r.stderr.endswith("\nin the initial state\n") and "engine check" not in r.stderr, r.stderr
    path.write_text("state { n: 0..3 = 0 }\naction go { let k = 6 // (2 - n)  n += 1 }\nturn { go }\n"
                    "terminal n == 3\nscore n\n")
    r = run_engine("solve", path)  # two moves in, at n = 2: the check command finds that line
    assert r.returncode == 1 and (f"`python -m engine check {path}` looks among random lines of play for a short "
                                  "one that leads here") in r.stderr, r.stderr


def test_a_sweep_marks_the_values_of_best_play_that_never_ends(tmp_path):
    path = tmp_path / "round.rules"
    path.write_text(GO_ROUND)
    lines = run_engine("solve", path, "--sweep", "bonus=1,5").stdout.splitlines()
    assert lines[0].endswith("; round: best play never ends, going round a loop worth more than any end"), lines
    # the values as above, by hand, and the four states n = 0..3 (steps set aside)
    assert [row.split()[:4] for row in lines[2:]][0] == ["1", "-1", "(round)", "4"]
    assert [row.split()[:3] for row in lines[2:]][1] == ["5", "2", "4"]


RING = """game "ring"
param cost in 0..1 = 1
state { n: 0..5 = 0  spent: int = 0 scored }
action step "to {m}" { choose m in [(n + 1) % 6, (n + 5) % 6]  n = m  spent -= cost }
turn { step }
terminal n == 3
score spent + 1
"""

GUARINI = """game "Guarini"
const board = square_grid(3, 3)
const jumps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
def from(c) = [cell(c.row + a, c.col + b) for a, b in jumps where cell(c.row + a, c.col + b) in cells(board)]
state { whites: set<cell> = {cell(0, 0), cell(0, 2)}  blacks: set<cell> = {cell(2, 0), cell(2, 2)}
        spent: int = 0 scored }
def free(c) = c not in whites and c not in blacks
action white "white {a} to {b}" { choose a in whites  choose b in from(a) where free(b)  whites -= a  whites += b
                                  spent -= 1 }
action black "black {a} to {b}" { choose a in blacks  choose b in from(a) where free(b)  blacks -= a  blacks += b
                                  spent -= 1 }
turn { either { white } or { black } }
terminal whites == {cell(2, 0), cell(2, 2)} and blacks == {cell(0, 0), cell(0, 2)}
score spent
"""


def test_the_lines_of_best_play_of_a_puzzle_that_comes_round_are_its_shortest_solutions(tmp_path):
    path = tmp_path / "ring.rules"
    path.write_text(RING)
    # by hand: 3 is three steps from 0 either way round the ring of six, one line each way
    out = json.loads(run_engine("solve", path, "--lines", "5", "--json").stdout)
    assert (out["method"], out["value"]) == ("value iteration", [-2])
    assert out["best_lines"] == {"count": 2, "lines": [["to 1", "to 2", "to 3"], ["to 5", "to 4", "to 3"]],
                                 "at_value": 2}
    text = run_engine("solve", path, "--lines", "1").stdout
    assert "  lines of best play: 2, the first 1:\n    1. to 1, to 2, to 3\n" in text, text
    # Guarini's knights: 16 moves at least (Guarini, 1512); 4,726,784 shortest lines by a plain breadth-first
    # count of the shortest paths over the puzzle's 280 positions, written apart from the engine
    path = tmp_path / "guarini.rules"
    path.write_text(GUARINI)
    out = json.loads(run_engine("solve", path, "--lines", "0", "--json").stdout)
    assert (out["value"], out["distinct_states"], out["best_lines"]["count"]) == ([-16], 280, 4726784)


def test_lines_of_best_play_that_can_go_round_are_not_counted_and_the_text_says_why(tmp_path):
    path = tmp_path / "ring.rules"
    path.write_text(RING)
    # without a cost every move keeps the value 1: round the ring for ever is as good as reaching 3
    r = run_engine("solve", path, "--set", "cost=0", "--lines", "3")
    assert r.returncode == 0 and "  lines of best play: not counted: best play can go round: a loop of moves that " \
        "add nothing to 'spent' keeps the value, so its lines need not end" in r.stdout, r.stdout + r.stderr
    out = json.loads(run_engine("solve", path, "--set", "cost=0", "--lines", "3", "--json").stdout)
    assert out["best_lines"]["count"] is None and out["best_lines"]["lines"] == []
    lines = run_engine("solve", path, "--sweep", "cost", "--lines", "0").stdout.splitlines()
    assert [row.split()[:4] for row in lines[2:]] == [["0", "1", "round", "6"], ["1", "-2", "2", "6"]], lines
    free = tmp_path / "free.rules"  # without a scored field: a puzzle scored only for reaching its goal
    free.write_text(RING.replace("  spent: int = 0 scored", "").replace("  spent -= cost", "")
                    .replace("score spent + 1", "score cost"))
    r = run_engine("solve", free, "--lines", "3")
    assert "lines of best play: not counted: best play can go round: a move keeps the value (as any move of a " \
           "puzzle scored only for reaching its goal)" in r.stdout, r.stdout + r.stderr
    path.write_text(GO_ROUND)  # one step on, waiting for ever (worth 0) beats the two steps left (worth -2 + 1)
    out = json.loads(run_engine("solve", path, "--lines", "3", "--json").stdout)
    assert (out["value"], out["best_lines"]["count"]) == ([-1], None)
    two = tmp_path / "two.rules"
    two.write_text('game "ring of two"\nplayers A, B\nstate { n: 0..5 = 0 }\n'
                   'action step "to {m}" { choose m in [(n + 1) % 6, (n + 5) % 6]  n = m }\nturn { step }\n'
                   "terminal n == 3\nscore for p: if p == current then -1 else 1\n")
    r = run_engine("solve", two, "--lines", "3")
    assert (r.returncode, r.stderr) == (2, "error: --lines 3: the game can come back to a state it was in; the lines "
                                           "of best play of such a game are counted for one player (a puzzle's "
                                           "shortest solutions), not several\n")


SLIDING = """game "two by three"
const board = square_grid(2, 3)
state {
    tiles: map<cell, int> = {cell(0, 0): 0, cell(0, 1): 5, cell(0, 2): 4, cell(1, 0): 3, cell(1, 1): 2, cell(1, 2): 1}
    moves: int = 0 scored
}
def blank() = first(c for c in cells(board) where tiles[c] == 0) else cell(0, 0)
action slide "{c}" {
    choose c in neighbours(board, blank())
    tiles[blank()] = tiles[c]
    tiles[c] = 0
    moves -= 1
}
turn { slide }
terminal all(tiles[cell(r, k)] == (3 * r + k + 1) % 6 for r in 0..1 for k in 0..2)
score moves
"""


def sliding_distance(start: tuple, goal: tuple) -> tuple:
    """(fewest slides from start to goal, positions reachable): breadth first over the tuples of
    the 2x3 board in reading order, 0 the blank."""
    seen, layer, depth = {start}, [start], 0
    found = None
    while layer:
        if found is None and goal in layer:
            found = depth
        nxt = []
        for t in layer:
            b = t.index(0)
            for d in (-3, 3, -1, 1):
                c = b + d
                if 0 <= c < 6 and (d in (-3, 3) or c // 3 == b // 3):
                    u = list(t)
                    u[b], u[c] = u[c], 0
                    u = tuple(u)
                    if u not in seen:
                        seen.add(u)
                        nxt.append(u)
        layer, depth = nxt, depth + 1
    return found, len(seen)


def test_a_sliding_puzzle_is_solved_in_its_fewest_slides(tmp_path):
    # a one-player puzzle that comes back to its states, each slide taking one: its value is minus
    # the fewest slides to the goal, as a breadth-first search over the puzzle's positions counts
    path = tmp_path / "sliding.rules"
    path.write_text(SLIDING)
    fewest, positions = sliding_distance((0, 5, 4, 3, 2, 1), (1, 2, 3, 4, 5, 0))
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert (out["value"], out["distinct_states"]) == ([-fewest], positions)
    line = out["best_line"]
    assert len(line) == fewest + 1
    end = {tuple(c): v for c, v in line[-1]["state"]["tiles"]}
    assert [end[r, k] for r in range(2) for k in range(3)] == [1, 2, 3, 4, 5, 0]


PIGLET = """game "Piglet"
players A, B
param goal in 1..3 = 2
state { banked: map<player, int> = {A: 0, B: 0}  pot: int = 0  flipping: bool = no }
def other(p) = if p == A then B else A
chance when flipping {
    draw heads in [yes, no]
    if heads { pot += 1 } else { pot = 0  pass to other(current) }
    flipping = no
}
action flip "flip" { flipping = yes  pass to current }
action hold "hold {kept}" { require pot > 0  let kept = pot  banked[current] += kept  pot = 0 }
turn { either { flip } or { hold } }
terminal banked[current] + pot >= goal
score for p: if p == current then 1 else 0
"""


def test_piglet_to_two_points_is_won_by_the_first_player_four_times_in_seven(tmp_path):
    # Piglet is Pig with a coin: heads adds 1 to the turn total, tails loses it and ends the
    # turn; a player wins on reaching the goal. Neller, Russell and Markov, "Solving the Dice Game
    # Pig: an introduction to dynamic programming and value iteration" (2005), solve the goal of 2
    # by hand; so, with P(i, j, k) the mover's chance to win from scores i and j and turn total k:
    #   P(1,1,0) = 1/2 + (1 - P(1,1,0))/2 = 2/3;  P(1,0,0) = 1/2 + (1 - P(0,1,0))/2;
    #   P(0,1,0) = P(0,1,1)/2 + (1 - P(1,0,0))/2 with P(0,1,1) = 1 - P(1,0,0)/2 (flipping beats
    #   holding's 1 - P(1,1,0) = 1/3), so P(1,0,0) = 4/5 and P(0,1,0) = 2/5;
    #   P(0,0,0) = P(0,0,1)/2 + (1 - P(0,0,0))/2 with P(0,0,1) = 1 - P(0,0,0)/2 (beats 1 - 2/5),
    #   so P(0,0,0) = 4/7.
    path = tmp_path / "piglet.rules"
    path.write_text(PIGLET)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["value"] == pytest.approx([4 / 7, 3 / 7], abs=1e-9)
    # flipping beats holding wherever both are open (above), so the best line flips, the coin's
    # outcomes in between, until a player's bank and pot reach the goal
    for seed in range(6):
        line = json.loads(run_engine("solve", path, "--seed", seed, "--json").stdout)["best_line"][1:]
        assert [m["move"] for m in line if not m.get("chance")] == ["flip"] * (len(line) // 2)
        assert [bool(m.get("chance")) for m in line] == [False, True] * (len(line) // 2)
        end = line[-1]["state"]
        assert end["banked"][end["to_move"]] + end["pot"] == 2


def test_value_iteration_says_when_it_stopped_before_its_values_settled(tmp_path):
    path = tmp_path / "piglet.rules"
    path.write_text(PIGLET)
    game = load_game(str(path))
    once = iterate_values(game, max_sweeps=1)
    assert (once.sweeps, once.converged) == (1, False) and once.change > 1e-12
    settled = iterate_values(game)
    assert settled.converged and settled.change <= 1e-12


def test_value_iteration_stops_at_its_limit_of_states(tmp_path):
    path = tmp_path / "piglet.rules"
    path.write_text(PIGLET)
    # by hand, Piglet to 2 has 32 states: for each mover, (own score, other's score, pot) is one
    # of (0,0,0), (0,0,1), (0,1,0), (0,1,1), (1,0,0), (1,1,0), each once to decide and once with
    # the coin in the air (24), and 8 ends, when heads brings the mover to 2 from (0,j,1) or (1,j,0)
    with pytest.raises(TooManyStates):
        iterate_values(load_game(str(path)), max_states=31)
    assert iterate_values(load_game(str(path)), max_states=32).distinct_states == 32
    r = run_engine("solve", str(path), "--max-states", "31")
    assert r.returncode == 1 and "the game can come back to a state it was in" in r.stderr, r.stderr
    assert "more than 31 states and not solved yet" in r.stderr and "Traceback" not in r.stderr
    # alpha-beta refuses a game that comes round, unless its lines stop at a depth: the hint says so
    assert "--alpha-beta searches far fewer states (a game that comes back to its states to a depth: --alpha-beta " \
           "--depth N, with --heuristic H valuing where the lines stop)" in r.stderr, r.stderr
    # the stats command pointed to repeats the parameters set: without them it would count another game
    r = run_engine("solve", str(path), "--max-states", "31", "--set", "goal=2")
    assert f"`python -m engine stats {path} --set goal=2` shows how the states grow" in r.stderr, r.stderr
    r = run_engine("solve", str(path), "--max-states", "0")
    assert r.returncode == 2 and "--max-states 0: expected a positive number" in r.stderr


COUNTER = """game "counter"
state { n: int = 0  flip: bool = no }
action step "step" { n += 1 }
action turnover "turn over" { flip = not flip }
turn { either { turnover } or { step } }
terminal n < 0
score n
"""


def test_past_its_limit_solve_names_the_fields_that_take_the_most_values(tmp_path):
    path = tmp_path / "counter.rules"
    path.write_text(COUNTER)
    r = run_engine("solve", str(path), "--max-states", "500")
    assert r.returncode == 1 and "more than 500 states and not solved yet" in r.stderr, r.stderr
    # by hand: turning over comes back, so value iteration finds the states breadth first, turnover
    # before step: (0, no), then (0, yes), (1, no), (1, yes), (2, no), ... the k-th (from 0) being
    # (k // 2, k odd) past the first. The last half of the 500, k = 250..499, holds n = 125..249.
    assert ("  the fields with the most values in the 250 states found last: n 125 values (125..249), flip 2 "
            "values; if one of them takes ever new values") in r.stderr, r.stderr


RUIN = """game "ruin"
state { money: 0..5 = 2  stake: 0..5 = 0 }
chance when stake > 0 {
    draw won in [yes, yes, no]
    money += if won then stake else -stake
    stake = 0
}
action timid "bet 1" { stake = 1 }
action bold "bet {money}" { require money > 1 and money * 2 <= 5  stake = money }
turn { either { timid } or { bold } }
terminal money == 0 or money == 5
score if money == 5 then 1 else 0
"""


def test_a_gambler_with_the_odds_on_his_side_bets_timidly_and_reaches_the_goal_24_times_in_31(tmp_path):
    # Gambler's ruin: betting 1 at a time, winning with p = 2/3, from 2 to 5 before 0 has the
    # textbook chance (1 - (q/p)^2) / (1 - (q/p)^5) = (3/4) / (31/32) = 24/31 (q/p = 1/2). With
    # the odds in his favour, bold play (all on one bet) does worse: from 2, reaching 4 by one
    # bet wins at most 2/3 of the time and then needs 5 from 4.
    path = tmp_path / "ruin.rules"
    path.write_text(RUIN)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["best_score"] == pytest.approx(24 / 31, abs=1e-9)
    # with the odds on his side timid play is best at every stake, so each bet of the line is 1
    bets = [m["move"] for m in out["best_line"][1:] if not m.get("chance")]
    assert bets and set(bets) == {"bet 1"}


PIG = """game "Pig"
players A, B
state { banked: map<player, int> = {A: 0, B: 0}  pot: int = 0  rolling: bool = no }
def other(p) = if p == A then B else A
chance when rolling {
    draw d in 1..6
    if d == 1 { pot = 0  pass to other(current) } else { pot += d }
    rolling = no
}
action roll "roll" { rolling = yes  pass to current }
action hold "hold {kept}" { let kept = pot  banked[current] += kept  pot = 0 }
turn { either { roll } or { hold } }
terminal banked[current] + pot >= 20
score for p: if p == current then 1 else -1
"""


def pig_by_hand(goal: int) -> float:
    """The mover's chance to win Pig from 0 to 0 by Neller and Presser's recurrence ("Optimal
    Play of the Dice Game Pig", 2004): P(i, j, k) = max(roll, hold), roll = (1 - P(j, i, 0)
    + P(i, j, k + 2) + ... + P(i, j, k + 6)) / 6, hold = 1 - P(j, i + k, 0), and 1 once
    i + k reaches the goal; swept until it settles."""
    p = {(i, j, k): 0.0 for i in range(goal) for j in range(goal) for k in range(goal - i)}

    def at(i, j, k):
        return 1.0 if i + k >= goal else p[i, j, k]
    change = 1.0
    while change > 1e-13:
        change = 0.0
        for i, j, k in p:
            v = max((1 - at(j, i, 0) + sum(at(i, j, k + r) for r in range(2, 7))) / 6, 1 - at(j, i + k, 0))
            change, p[i, j, k] = max(change, abs(v - p[i, j, k])), v
    return p[0, 0, 0]


def test_pig_to_twenty_has_the_value_of_its_recurrence(tmp_path):
    path = tmp_path / "pig.rules"
    path.write_text(PIG)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    first = pig_by_hand(20)  # about 0.6156: the value 2 * 0.6156 - 1 for a win worth 1 and a loss -1
    assert out["value"] == pytest.approx([2 * first - 1, 1 - 2 * first], abs=1e-8)


ROUND_AGAIN = """game "waiting"
state { n: 0..1 = 0  quit: bool = no }
action wait "wait" { n = 1 - n }
action give_up "give up" { quit = yes }
turn { either { wait } or { give_up } }
terminal quit
score -1
"""


def test_a_line_that_never_ends_is_worth_nothing_and_said_to_come_round_again(tmp_path):
    # by hand: giving up scores -1, waiting for ever 0, so the best line waits and comes back
    path = tmp_path / "waiting.rules"
    path.write_text(ROUND_AGAIN)
    r = run_engine("solve", path)
    assert "best score: 0\n" in r.stdout
    assert r.stdout.endswith("  best line (2 moves):\n    wait\n    wait\n    and round again: the line comes back "
                             "to a state it was in, so best play never ends there, which is worth 0 to every player "
                             "(where every end scores below 0, going round is best: a score shifted up, or an end "
                             "the game comes to, makes ending worth more)\n"), r.stdout


LURE = """game "lure"
players A, B
state { at: 0..4 = 0 }
action lure "lure" { require at == 0  at = 1 }
action press "press" { require at == 0  at = 2 }
action resign "resign" { require at == 1  at = 4 }
action stall "stall" { require at == 1  at = 0 }
action go_on "go on" { require at == 2  at = 3 }
action win "win" { require at == 3  at = 4 }
turn { either { lure } or { press } or { resign } or { stall } or { go_on } or { win } }
terminal at == 4
score for p: if p == A then 1 else -1
"""


def test_in_a_game_that_comes_round_the_winner_takes_the_moves_that_win_against_any_defence(tmp_path):
    # A wins whatever it does (B's stall only brings A back to move), so lure and press are as good.
    # Lure ends soonest only if B resigns; B, losing either way, holds out and stalls, and a policy
    # that lured again would go round for ever. Counted as a retrograde analysis counts (the winner
    # hurrying, the loser holding out), press wins in 3 moves and lure in none: A presses, and B at 1
    # stalls (back to 0, where A then presses: 4 moves) rather than resign (1)
    path = tmp_path / "lure.rules"
    path.write_text(LURE)
    out = json.loads(run_engine("solve", path, "--json", "--policy", tmp_path / "lure.jsonl").stdout)
    assert out["method"] == "value iteration" and out["value"] == [1, -1]
    assert [step["move"] for step in out["best_line"][1:]] == ["press", "go on", "win"]
    moves = {line["state"]["at"]: line["move"]
             for line in map(json.loads, (tmp_path / "lure.jsonl").read_text().splitlines()[1:])}
    assert moves == {0: "press", 1: "stall", 2: "go on", 3: "win"}


def test_taking_entries_away_from_a_map_one_at_a_time_reaches_every_part_of_it(tmp_path):
    # by hand: the maps left are the 8 parts of {1, 2, 3} and the orders of taking the keys 3! = 6
    path = tmp_path / "take.rules"
    path.write_text('state { men: map<int, int> = {1: 5, 2: 6, 3: 7}  n: 0..3 = 0 }\n'
                    'action take "take {k}" { choose k in keys(men)  men -= k  n += 1 }\n'
                    "turn { take }\nterminal len(men) == 0\nscore n + sum(values(men))\n")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert (out["distinct_states"], out["terminal_paths"], out["best_score"]) == (8, 6, 3)
    assert out["paths_per_depth"] == [1, 3, 6, 6]


def test_a_best_line_that_repeats_one_step_prints_it_once_with_the_count(tmp_path):
    # a roll of 1..20 that only a 20 gets past: the other outcomes lead back to the one state, drawn
    # again and again (with --seed 0, 17 times) before the 20, the first printed and the rest counted
    path = tmp_path / "rolls.rules"
    path.write_text("state { n: 0..3 = 0 }\nchance when n == 0 { draw d in 1..20  if d == 20 { n = 2 } }\n"
                    "action stop { n += 1 }\nturn { stop }\nterminal n >= 1\nscore n\n")
    r = run_engine("solve", path)
    assert r.returncode == 0, r.stderr
    assert re.search(r"\n    chance: d = 1, 2, 3, 4, 5 or 14 more\n    \(the same step \d+ more times\)\n"
                     r"    chance: d = 20\n$", r.stdout), r.stdout
    # a roll that is not kept: every outcome leads back to the one state, which is all the roll does,
    # so the line comes round at once (a roll of one outcome, in effect), with no end
    path.write_text("state { n: 0..3 = 0 }\nchance when n == 0 { draw d in 1..6 }\naction stop { n += 1 }\n"
                    "turn { stop }\nterminal n >= 1\nscore n\n")
    r = run_engine("solve", path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith("    chance: d = 1, 2, 3, 4, 5 or 6\n    and round again: the line comes back to a state "
                             "it was in, so best play never ends there, which is worth 0 to every player (where every "
                             "end scores below 0, going round is best: a score shifted up, or an end the game comes "
                             "to, makes ending worth more)\n"), r.stdout


def test_a_game_whose_lines_never_end_nor_come_back_is_refused(tmp_path):
    path = tmp_path / "forever.rules"
    path.write_text("""game "forever"
state { moved: int = 0 }
action step "step" { moved += 1 }
turn { step }
terminal moved < 0
score moved
""")
    r = run_engine("solve", path)
    assert r.returncode == 1 and r.stdout == "" and "Traceback" not in r.stderr
    # `moved` counts every move (the end reads it, so it could not be a scored total)
    assert r.stderr == (f"error: {path}: a line of play goes on for 1,000 moves without ending or coming back to a "
                        "state it was in (it begins step, step, step, ...), so the game may never end (solve "
                        "follows lines of at most 1,000 moves unless --depth N is given); the field 'moved' counts "
                        "up all along it (0 to 1,000), so a game that comes round makes a new state each time; "
                        "--depth N solves the first N moves\n")


@pytest.mark.parametrize("end, told", [
    ("terminal pos == 3", "only the score reads it, so it can be declared `rolls: int = ... scored`"),
    ("terminal pos == 3 or rolls > 5000", None),  # the end reads it: it cannot be scored
])
def test_a_count_that_makes_a_looping_game_endless_is_named(tmp_path, end, told):
    # a walk that can fall back to 0 comes round, but `rolls` makes every state new
    path = tmp_path / "count.rules"
    path.write_text("state { pos: 0..3 = 0  rolls: int = 0 }\n"
                    "chance when pos < 3 { draw d in 1..2  pos = if pos + d == 3 then 3 else if pos + d > 3 then 0 "
                    "else pos + d  rolls += 1 }\n"
                    f"action wait {{ pos = pos }}\nturn {{ wait }}\n{end}\nscore 0 - rolls\n")
    r = run_engine("solve", path)
    assert r.returncode == 1
    assert "; the field 'rolls' counts up all along it (0 to 1,000), so a game that comes round makes a new state " \
           "each time" in r.stderr, r.stderr
    assert (told is not None) == ("scored" in r.stderr) and (told is None or told in r.stderr), r.stderr


def test_a_game_with_a_loop_solves_to_a_depth(tmp_path):
    # by hand, 4 moves deep: each state has step and, at n = 2, stop (which ends the game), so
    # the paths are 1, 1, 1, 2 (step or stop at n = 2), then 1 (the step from 0 again)
    path = tmp_path / "cycle.rules"
    path.write_text(CYCLE)
    out = json.loads(run_engine("solve", path, "--depth", "4", "--json").stdout)
    assert out["paths_per_depth"] == [1, 1, 1, 2, 1]
    assert out["value"] == [2]
    assert [m["move"] for m in out["best_line"]] == ["start", "step to 1", "step to 2", "stop at 2"]


def test_solve_to_a_depth_takes_a_line_that_ends_before_an_equal_one_the_depth_cuts(tmp_path):
    # one move deep, `wait` (listed first, the game not over: its score -1 stands in) and `finish`
    # (an end, scoring -1) are as good; the line that really ends is the one to show
    path = tmp_path / "wait.rules"
    path.write_text('state { n: 0..9 = 0  done: bool = no }\naction wait "wait" { n += 1 }\n'
                    'action finish "finish" { done = yes  n += 1 }\nturn { either { wait } or { finish } }\n'
                    "terminal done\nscore 0 - n\n")
    out = json.loads(run_engine("solve", path, "--depth", "1", "--json").stdout)
    assert out["value"] == [-1] and [m["move"] for m in out["best_line"]] == ["start", "finish"]
    r = run_engine("solve", path, "--depth", "1")
    assert "lines stop" not in r.stdout and r.stdout.endswith("    finish\n"), r.stdout


def test_solving_frees_its_table_of_values_without_the_collector():
    """The table of every state's value goes when solve returns, not at the collector's next
    full pass: it can hold millions of states in a process that goes on."""
    game = load_game("rules/tictactoe.rules")
    gc.collect()
    gc.disable()
    try:
        assert solve(game).value == (0, 0)
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0


def test_the_commands_reference_names_every_key_solve_json_prints(tmp_path):
    section = (ROOT / "docs" / "commands.md").read_text().split("\n## solve\n", 1)[1].split("\n## ", 1)[0]
    for rules in ("rules/nidavellir.rules", "rules/tictactoe.rules"):
        out = json.loads(run_engine("solve", rules, "--json", "--policy", tmp_path / f"{rules[6:]}.jsonl").stdout)
        assert [k for k in out if f"`{k}`" not in section] == [], rules
    assert "`to_move`" in section


QUICK = """state { total: 0..9 = 0 }
action add(n) "add {n}" { total += n }
turn { choose n in [1, 2]  add(n) }
terminal total >= 4
score if total == 4 then 1 else 0
"""

DEFENCE = """players A, B
state { t: 0..4 = 0  over: bool = no }
action resign "resign" { require current == B  over = yes }
action wait "wait" { t += 1 }
turn { either { resign } or { wait } }
terminal over or t == 4
score for p: if p == A then 1 else -1
"""


def test_solve_moves_says_after_how_many_moves_best_play_ends_after_each_first_move(tmp_path):
    # by hand: 4 counters, take 1 or 2, who takes the last wins. Taking 1 leaves 3, a loss for B: B takes 1 or 2
    # and A the rest, 3 moves either way. Taking 2 leaves 2, which B takes at once: 2 moves
    path = tmp_path / "take.rules"
    path.write_text('players A, B\nstate { n: 0..4 = 4 }\naction take "take {k}" { choose k in 1..2 where k <= n '
                    ' n -= k }\nturn { take }\nterminal n == 0\nscore for p: if p == current then -1 else 1\n')
    text = run_engine("solve", path, "--moves").stdout
    assert text.endswith("  the moves of the initial state, each with the value after it (* the best line's):\n"
                         "    take 1: A 1, B -1 (best play ends after 3 moves) *\n"
                         "    take 2: A -1, B 1 (best play ends after 2 moves)\n"), text
    out = json.loads(run_engine("solve", path, "--moves", "--json").stdout)
    assert [(f["move"], f["moves_to_end"]) for f in out["first_moves"]] == [("take 1", 3), ("take 2", 2)]


def test_of_moves_as_good_the_best_line_takes_the_quickest_win(tmp_path):
    path = tmp_path / "quick.rules"
    path.write_text(QUICK)
    # by hand: every line to exactly 4 scores 1 (1+1+1+1, 1+1+2, ..., 2+2); the shortest is 2+2,
    # though "add 1" is listed first
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["best_score"] == 1
    assert [m["move"] for m in out["best_line"][1:]] == ["add 2", "add 2"]


def test_a_player_who_loses_anyway_holds_out_longest(tmp_path):
    path = tmp_path / "defence.rules"
    path.write_text(DEFENCE)
    # A wins whatever B does; B's resign, listed first, would end the game at once, but waiting
    # lasts until t reaches 4: four moves, B waiting at the second
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["value"] == [1, -1]
    moves = [m["move"] for m in out["best_line"][1:]]
    assert len(moves) == 4 and moves[:3] == ["wait", "wait", "wait"]


def _ttt_value(board: tuple, memo: dict) -> int:
    """X's return from a board of 9 cells ('X', 'O' or ''), both sides playing their best: a
    minimax of its own, apart from the engine."""
    if board not in memo:
        lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
        won = {p for p in "XO" for a, b, c in lines if board[a] == board[b] == board[c] == p}
        if won or all(board):
            memo[board] = 1 if "X" in won else -1 if "O" in won else 0
        else:
            mover = "X" if board.count("X") == board.count("O") else "O"
            after = [_ttt_value(board[:i] + (mover,) + board[i + 1:], memo) for i in range(9) if not board[i]]
            memo[board] = max(after) if mover == "X" else min(after)
    return memo[board]


def test_solve_policy_gives_tictactoe_the_best_move_of_every_unfinished_position(tmp_path):
    # 5,478 positions can be reached, 958 of them ends (the counts of the tic-tac-toe game tree,
    # as in the rule file's source), so 4,520 where a player moves
    path = tmp_path / "policy.jsonl"
    out = json.loads(run_engine("solve", "rules/tictactoe.rules", "--policy", path, "--json").stdout)
    assert out["policy"] == {"file": str(path), "states": 4520}
    about, *lines = [json.loads(line) for line in path.read_text().splitlines()]
    rules = about.pop("rules")  # a digest of the rule file (tests/test_search_commands.py)
    assert about == {"game": "Tic-tac-toe", "set": [], "params": {}} and rules  # the first line: what was solved
    assert len(lines) == 4520
    memo: dict = {}
    boards = set()
    for line in lines:
        board = [""] * 9
        for (r, c), p in line["state"]["marks"]:
            board[3 * r + c] = p
        board = tuple(board)
        boards.add(board)
        mover, move = line["state"]["to_move"], line["move"]
        assert move.startswith(f"{mover} at (")
        r, c = (int(x) for x in move.split("(")[1].rstrip(")").split(","))
        assert not board[3 * r + c]
        after = board[:3 * r + c] + (mover,) + board[3 * r + c + 1:]
        best = _ttt_value(board, memo)
        assert line["value"] == [best, -best] and _ttt_value(after, memo) == best, line
    assert len(boards) == 4520


def test_solve_policy_of_piglet_flips_everywhere_with_the_chances_worked_out_by_hand(tmp_path):
    # Piglet comes back to states, so value iteration solves it. The mover's chance to win from
    # (own score, other's score, pot), by hand in the Piglet test above: flipping is best in each
    # of the 6 states, for either mover (12 lines); hold is open only with a pot
    by_hand = {(0, 0, 0): 4 / 7, (0, 0, 1): 5 / 7, (0, 1, 0): 2 / 5, (0, 1, 1): 3 / 5,
               (1, 0, 0): 4 / 5, (1, 1, 0): 2 / 3}
    rules, path = tmp_path / "piglet.rules", tmp_path / "piglet.jsonl"
    rules.write_text(PIGLET)
    r = run_engine("solve", rules, "--policy", path)
    assert r.returncode == 0, r.stderr
    assert f"policy: the best move in each of 12 states where a player moves, one JSON line each, in {path}" \
        in r.stdout
    seen = []
    for line in map(json.loads, path.read_text().splitlines()[1:]):
        state = line["state"]
        mover = state["to_move"]
        other = "B" if mover == "A" else "A"
        where = (state["banked"][mover], state["banked"][other], state["pot"])
        seen.append((mover, where))
        assert line["move"] == "flip" and not state["flipping"]
        assert line["value"][["A", "B"].index(mover)] == pytest.approx(by_hand[where], abs=1e-9)
    assert sorted(seen) == sorted((p, w) for p in "AB" for w in by_hand)


def test_solve_policy_overwrites_nothing_and_leaves_nothing_when_solve_fails(tmp_path):
    kept = tmp_path / "kept.jsonl"
    kept.write_text("mine\n")
    r = run_engine("solve", "rules/tictactoe.rules", "--policy", kept)
    assert r.returncode == 2 and f"--policy {kept}: the file exists; choose a new name" in r.stderr
    assert kept.read_text() == "mine\n"
    r = run_engine("solve", "rules/tictactoe.rules", "--policy", tmp_path / "p.json")
    assert r.returncode == 2 and "expected a file name ending in .jsonl" in r.stderr
    r = run_engine("solve", "rules/tictactoe.rules", "--policy", tmp_path / "p.jsonl", "--max-states", "100")
    assert r.returncode == 1 and "more than 100 states" in r.stderr and "Traceback" not in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.jsonl"]


def test_solve_policy_of_a_game_where_no_player_moves_writes_no_file(tmp_path):
    path = tmp_path / "coin.rules"
    # chance takes every step: two flips, no decision anywhere
    path.write_text('game "two flips"\nstate { n: 0..2 = 0  heads: 0..2 = 0 }\n'
                    "chance when n < 2 { draw h in [0, 1]  heads += h  n += 1 }\nturn { }\nterminal n == 2\n"
                    "score heads\n")
    r = run_engine("solve", path, "--policy", tmp_path / "p.jsonl")
    assert r.returncode == 0, r.stderr
    assert f"  policy: no state where a player moves (chance takes every step), so {tmp_path / 'p.jsonl'} is not " \
           "written" in r.stdout
    out = json.loads(run_engine("solve", path, "--policy", tmp_path / "p.jsonl", "--json").stdout)
    assert (out["best_score"], out["policy"]) == (1, {"file": None, "states": 0})  # 1/4 * 0 + 1/2 * 1 + 1/4 * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["coin.rules"]


@pytest.mark.parametrize("text, method", [
    # by hand: 0 -> 1 -> 2, and at 2 the require holds no more: one dead end, n = 2
    ("state { n: 0..4 = 0 }\naction step { require n != 2  n += 1 }\nturn { step }\nterminal n == 4\nscore n\n",
     "exhaustive"),
    # by hand: 0 and 1 go round, 2 has no move and the game never ends: one dead end
    ("state { n: 0..3 = 0 }\naction up { require n < 2  n += 1 }\naction down { require n == 1  n -= 1 }\n"
     "turn { either { up } or { down } }\nterminal n == 3\nscore n\n", "value iteration"),
], ids=["exhaustive", "value-iteration"])
def test_solve_counts_the_dead_ends_it_values_as_ends(tmp_path, text, method):
    path = tmp_path / "dead.rules"
    path.write_text(text)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert (out["method"], out["dead_ends"], out["best_score"]) == (method, 1, 2)
    r = run_engine("solve", path)
    assert "  dead ends: 1 state not terminal but with no legal move, each valued by the score" in r.stdout
    assert "dead ends" not in run_engine("solve", "rules/tictactoe.rules").stdout


def test_solve_checks_an_invariant_given_on_the_command_line_in_every_state():
    # by hand: each move adds one mark, and a game can last 9 moves, so the first state with 7
    # marks is 7 moves in; a full board has 9 marks, so `<= 9` holds everywhere
    r = run_engine("solve", "rules/tictactoe.rules", "--invariant", "len(marks) < 7")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("--invariant:1:1: error[invariant]: invariant does not hold after 7 moves; no "
                               "fewer moves break an invariant (solve goes through every state)\n"
                               "  1 | len(marks) < 7\n")
    held = run_engine("solve", "rules/tictactoe.rules", "--invariant", "len(marks) <= 9", "--json")
    plain = run_engine("solve", "rules/tictactoe.rules", "--json")
    strip = [{k: v for k, v in json.loads(x.stdout).items() if k != "seconds"} for x in (held, plain)]
    assert held.returncode == 0 and strip[0] == strip[1]
    r = run_engine("solve", "rules/tictactoe.rules", "--invariant", "len(mark) < 7")
    assert r.returncode == 2 and "--invariant:1:5: error[unknown-name]: unknown name 'mark'" in r.stderr


def test_solve_show_draws_each_state_of_the_best_line_through_the_view():
    out = json.loads(run_engine("solve", "rules/tictactoe.rules", "--show", "--json").stdout)
    line = out["best_line"]
    assert line[0]["view"] == "...\n...\n..."
    for before, step in zip(line, line[1:]):  # the move's mark, where its label says, and nothing else
        player, (r, c) = step["move"][0], (int(step["move"][-5]), int(step["move"][-2]))
        rows = [list(row) for row in before["view"].splitlines()]
        rows[r][c] = player
        assert step["view"] == "\n".join("".join(row) for row in rows)
    text = run_engine("solve", "rules/tictactoe.rules", "--show").stdout
    drawn = "".join(f"    {s['move']}\n" + "".join(f"      {row}\n" for row in s["view"].splitlines())
                    for s in line[1:])
    assert f"  best line ({len(line) - 1} moves):\n      ...\n      ...\n      ...\n" + drawn in text


# Three players; only B's or C's crown gives anyone a point, so A gets 0 whatever it does. A may
# wait a move and then crown C, hand over to B (who crowns itself rather than spin for ever), or
# crown B at once: all as good for A. The spin makes the game able to come back to a state.
THREE_TIES = """players A, B, C
state { stage: 0..2 = 0  winner: 0..2 = 0 }
action later "{current} waits a move" { require stage == 0  stage = 1  pass to current }
action hand "{current} hands over" { require stage == 0  stage = 2  pass to B }
action spin "{current} spins" { require stage == 2  pass to current }
action crown "{current} crowns {w}" { choose w in 1..2 where (stage != 1) == (w == 1)  winner = w }
turn { either { later } or { hand } or { spin } or { crown } }
terminal winner > 0
score for p: if (p == B and winner == 1) or (p == C and winner == 2) then 1 else 0
"""


def test_value_iteration_gives_the_value_of_the_moves_its_line_and_policy_take(tmp_path):
    # A gets 0 whatever it does: of its moves, none is a win, so A holds out, as the exhaustive solve
    # has a mover without a win do: it waits a move and crowns C (the latest end, 2 moves). The sweeps
    # first keep A's first move; the value printed once told of another move than the line's. The
    # same game without B's spin can come to no state again, and its exhaustive solve must agree
    path = tmp_path / "ties.rules"
    path.write_text(THREE_TIES)
    policy = tmp_path / "policy.jsonl"
    out = json.loads(run_engine("solve", path, "--json", "--policy", policy).stdout)
    assert (out["method"], out["value"]) == ("value iteration", [0, 0, 1])
    assert [s["move"] for s in out["best_line"]] == ["start", "A waits a move", "A crowns 2"]
    rows = {(r["state"]["stage"], r["state"]["to_move"]): r
            for r in map(json.loads, policy.read_text().splitlines()[1:])}
    assert (rows[0, "A"]["move"], rows[0, "A"]["value"]) == ("A waits a move", [0, 0, 1])
    assert (rows[2, "B"]["move"], rows[2, "B"]["value"]) == ("B crowns 1", [0, 1, 0])  # not spinning for ever
    path.write_text(THREE_TIES.replace('action spin "{current} spins" { require stage == 2  pass to current }\n', "")
                    .replace(" or { spin }", ""))
    dag = json.loads(run_engine("solve", path, "--json").stdout)
    assert dag["method"] == "exhaustive"
    assert (dag["value"], dag["best_line"][1:]) == (out["value"], out["best_line"][1:])


def test_in_a_game_that_comes_round_the_loser_holds_out_as_long_as_it_can(tmp_path):
    # a cop chases a robber along the path 0 - 1 - 2, each moving to a neighbour or staying. The
    # robber at 2 with the cop at 1 is caught whatever it does: by hand, moving to 1 is caught at
    # once, staying at 2 a move later (the cop steps to 2): the robber stays
    path = tmp_path / "chase.rules"
    path.write_text('players C, R\nconst g = graph([(0, 1), (1, 2)])\nstate { cop: int = 0  rob: int = 2 }\n'
                    'action move "{current} to {n}" {\n    let at = if current == C then cop else rob\n'
                    "    choose n in neighbours(g, at) + [at]\n    if current == C { cop = n } else { rob = n }\n}\n"
                    "turn { move }\nterminal cop == rob\nscore for p: if p == C then 1 else -1\n")
    (tmp_path / "at.json").write_text('{"cop": 1, "rob": 2, "to_move": "R"}')
    out = json.loads(run_engine("solve", path, "--from", tmp_path / "at.json", "--json").stdout)
    assert out["value"] == [1, -1]
    assert [s["move"] for s in out["best_line"][1:]] == ["R to 2", "C to 2"]


@pytest.mark.parametrize("first", ["stop", "go"])
def test_of_moves_as_good_the_mover_takes_one_after_which_it_is_at_least_every_other_player(tmp_path, first):
    # A gets 0 either way: stopping now gives nobody a point, going on lets B win two moves later.
    # Whichever is listed first, A stops (0 is at least everyone's 0), and the value is no win for B
    moves = {"stop": "either { stop }", "go": "or { go }"}
    turn = "turn { " + (f"{moves['stop']} {moves['go']}" if first == "stop" else
                        f"either {{ go }} or {{ stop }}") + " }"
    path = tmp_path / "stop.rules"
    path.write_text(f"""players A, B, C
state {{ step: 0..2 = 0  done: bool = no }}
action stop "{{current}} stops" {{ require step == 0  done = yes }}
action go "{{current}} goes on" {{ require not done and step < 2  step += 1 }}
{turn}
terminal done or step == 2
score for p: if p == B and step == 2 then 1 else 0
""")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["value"] == [0, 0, 0] and [s["move"] for s in out["best_line"]] == ["start", "A stops"]


def test_solve_to_a_depth_values_where_the_lines_stop_by_a_heuristic():
    # Russell and Norvig's exercise 5.9 backs up Eval two plies deep: X's centre is worth 1 (a
    # corner -1, an edge -2), the rows file's `rows` heuristic being that Eval. By hand for the
    # centre, against O in a corner: X holds 3 lines alone (a row, a column, a diagonal), O 2
    out = json.loads(run_engine("solve", "rules/tictactoe.rules", "--depth", "2", "--heuristic", "rows",
                                "--json").stdout)
    assert (out["value"], out["heuristic"], out["complete"]) == ([1, -1], "rows", False)
    assert [s["move"] for s in out["best_line"]][1] == "X at (1, 1)"
    plain = json.loads(run_engine("solve", "rules/tictactoe.rules", "--depth", "2", "--json").stdout)
    assert plain["value"] == [0, 0] and "heuristic" not in plain  # the score of a game not over
    text = run_engine("solve", "rules/tictactoe.rules", "--depth", "2", "--heuristic", "rows").stdout
    assert "then the lines stop: the heuristic rows of a game not over stands in for its end" in text
    assert "  value of rows after 2 moves: X 1, O -1\n" in text  # a value of the heuristic, not a score
    r = run_engine("solve", "rules/tictactoe.rules", "--heuristic", "rows")
    assert r.returncode == 2 and "--heuristic rows: values the states where --depth N stops the lines" in r.stderr
    r = run_engine("solve", "rules/tictactoe.rules", "--heuristic", "rowz")  # the misspelling told first
    assert (r.returncode, r.stderr) == (2, "error: --heuristic rowz: the rule file declares no heuristic named "
                                           "'rowz'; did you mean 'rows'?\n")


def test_past_its_limit_solve_says_how_many_of_the_states_found_last_it_looked_at(monkeypatch, capsys):
    import engine.cli
    monkeypatch.setattr(engine.cli, "SPREAD_SAMPLE", 10)
    assert engine.cli.main(["solve", "rules/tictactoe.rules", "--max-states", "100"]) == 1
    err = capsys.readouterr().err
    # past 100 states the solve names the fields over the last half of them, 50, of which every 5th
    # is looked at; each of those 10 has marks of its own
    assert "the fields with the most values in the 50 states found last (10 of them looked at): marks 10 " \
           "values;" in err and "if not, the game is simply this large" in err


def test_solve_show_may_come_before_the_file():
    r = run_engine("solve", "--show", "rules/tictactoe.rules", "--depth", "1")
    assert r.returncode == 0 and "      X..\n" in r.stdout, r.stderr


def test_a_long_game_lists_its_first_and_last_depths_and_leaves_out_the_middle(tmp_path):
    # 30 moves, each heads or tails: 2 ** d paths at depth d (counted by hand), 31 depths in all
    path = tmp_path / "coins.rules"
    path.write_text("""game "thirty coins"
state { tossed: 0..30 = 0  heads: 0..30 = 0 }
action toss "toss" { choose h in 0..1  tossed += 1  heads += h }
turn { toss }
terminal tossed == 30
score heads
""")
    text = run_engine("solve", path).stdout
    assert ("  paths per depth: 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, ... (17 depths left out; --json lists "
            "them all), 134,217,728, 268,435,456, 536,870,912, 1,073,741,824\n") in text, text
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["paths_per_depth"] == [2 ** d for d in range(31)]


TAKE_AWAY = """game "take away"
players A, B
state { heap: 0..5 = 5 }
action take "take {k}" { choose k in 1..3 where k <= heap  heap -= k }
turn { take }
terminal heap == 0
score for p: if p == current then -1 else 1
"""


def test_moves_gives_the_value_after_each_opening_move_the_best_first(tmp_path):
    # by hand: taking the last counter wins; heaps of 4 are lost for the mover (whatever it takes,
    # 1-3 are left and taken), so from 5 taking 1 wins for A and taking 2 or 3 loses
    path = tmp_path / "take.rules"
    path.write_text(TAKE_AWAY)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    # after taking 1, B takes any and A the rest: 3 moves; after 2 or 3, B takes the rest: 2
    assert out["first_moves"] == [
        {"move": "take 1", "state": {"heap": 4, "to_move": "B"}, "value": [1, -1], "moves_to_end": 3},
        {"move": "take 2", "state": {"heap": 3, "to_move": "B"}, "value": [-1, 1], "moves_to_end": 2},
        {"move": "take 3", "state": {"heap": 2, "to_move": "B"}, "value": [-1, 1], "moves_to_end": 2}]
    text = run_engine("solve", path, "--moves").stdout
    assert text.endswith("  the moves of the initial state, each with the value after it (* the best line's):\n"
                         "    take 1: A 1, B -1 (best play ends after 3 moves) *\n"
                         "    take 2: A -1, B 1 (best play ends after 2 moves)\n"
                         "    take 3: A -1, B 1 (best play ends after 2 moves)\n"), text
    # two moves deep, the score where the lines stop: A's move and B's leave a game not over, -1 for A
    # (current is A again there), whatever they took
    cut = json.loads(run_engine("solve", path, "--depth", "2", "--json").stdout)["first_moves"]
    assert [m["value"] for m in cut] == [[-1, 1]] * 3


def test_moves_of_a_roll_give_each_outcome_its_chance_and_value(tmp_path):
    # by hand: a die of 1-3 is rolled, then the player adds 0 or 1 and scores the total: 2, 3, 4
    path = tmp_path / "roll.rules"
    path.write_text("""game "roll"
state { rolled: 0..3 = 0  done: bool = no  total: 0..4 = 0 }
chance when rolled == 0 { draw d in 1..3  rolled = d }
action add "add {k}" { choose k in 0..1  total = rolled + k  done = yes }
turn { add }
terminal done
score total
""")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert [m["value"] for m in out["first_moves"]] == [[2], [3], [4]]
    assert [m["probability"] for m in out["first_moves"]] == [pytest.approx(1 / 3, abs=1e-12)] * 3
    text = run_engine("solve", path, "--moves").stdout
    assert "  the chance outcomes of the initial state, each with the value after it:\n" in text
    assert " (chance 1/3): 4\n" in text, text


def test_moves_lists_the_best_thirty_first_moves_or_the_first_thirty_outcomes_and_counts_the_rest(tmp_path):
    # by hand: picking k of 1..40 scores k, so the best thirty are 40 down to 11 and ten are left,
    # none better; drawing k of 1..40 (each 1/40) lists 1..30 and leaves ten of chance 10/40 = 1/4
    path = tmp_path / "pick.rules"
    path.write_text('game "pick"\nstate { x: 0..40 = 0 }\naction pick "pick {k}" { choose k in 1..40  x = k }\n'
                    "turn { pick }\nterminal x > 0\nscore x\n")
    lines = run_engine("solve", path, "--moves").stdout.splitlines()
    listed = lines[lines.index("  the moves of the initial state, each with the value after it (* the best line's):")
                   + 1:]
    assert listed == ["    pick 40: 40 *"] + [f"    pick {k}: {k}" for k in range(39, 10, -1)] + [
        "    ... 10 more moves, none better; --json lists them all"]
    assert len(json.loads(run_engine("solve", path, "--json").stdout)["first_moves"]) == 40
    path.write_text('game "roll"\nstate { x: 0..40 = 0 }\nchance when x == 0 { draw k in 1..40  x = k }\n'
                    "turn { }\nterminal x > 0\nscore x\n")
    lines = run_engine("solve", path, "--moves").stdout.splitlines()
    listed = lines[lines.index("  the chance outcomes of the initial state, each with the value after it:") + 1:]
    assert listed == [f"    k = {k} (chance 1/40): {k}" for k in range(1, 31)] + [
        "    ... 10 more outcomes (chance 1/4 in all); --json lists them all"]


REROLL = """game "one reroll"
state { total: 0..6 = 0  rolls: 0..2 = 0  rolled: bool = no  kept: bool = no }
chance when not rolled { draw d in 1..6  total = d  rolled = yes  rolls += 1 }
action keep "keep {total}" { kept = yes }
action reroll "reroll" { require rolls < 2  rolled = no }
turn { either { keep } or { reroll } }
terminal kept
score total
"""

LADDER = """game "coin ladder"
state { p: 0..3 = 0  flipping: bool = no  stopped: bool = no }
chance when flipping {
    draw heads in [yes, no]
    p = if heads then p + 1 else (if p == 0 then 0 else 3)
    flipping = no
}
action go "go" { flipping = yes }
action stop "stop" { require p == 1  stopped = yes }
turn { either { go } or { stop } }
terminal stopped or p >= 2
score if stopped then 3 else if p == 2 then 8 else 0
"""


def test_measure_gives_the_expected_value_of_an_expression_at_the_end_under_best_play(tmp_path):
    # by hand: a die, kept or rolled again once (worth 3.5): best play rolls again on 1-3, so 1.5
    # rolls are expected and a six ends the game 1/6 + 1/2 * 1/6 = 1/4 of the time
    path = tmp_path / "reroll.rules"
    path.write_text(REROLL)
    out = json.loads(run_engine("solve", path, "--measure", "rolls", "--measure", "if total == 6 then 1 else 0",
                                "--json").stdout)
    assert out["best_score"] == 4.25  # 1/2 * 5 + 1/2 * 3.5
    assert out["measures"] == [{"expr": "rolls", "value": 1.5}, {"expr": "if total == 6 then 1 else 0", "value": 0.25}]
    text = run_engine("solve", path, "--measure", "rolls").stdout
    assert text.endswith("  at the end of the game under the best play found, expected (chance weighing the "
                         "outcomes):\n    rolls  1.5\n"), text
    # an expression that starts with a minus is the option's, not an option of its own
    text = run_engine("solve", path, "--measure", "-rolls").stdout
    assert text.endswith("outcomes):\n    -rolls  -1.5\n"), text
    # a game that comes back to a state (tails at 0 stays at 0), by value iteration: at 1, stopping
    # is worth 3 and going on 1/2 * 8, so best play goes on and ends at 2 half the time
    path.write_text(LADDER)
    out = json.loads(run_engine("solve", path, "--measure", "if p == 2 then 1 else 0", "--json").stdout)
    assert (out["method"], out["best_score"], out["measures"][0]["value"]) == ("value iteration", 4, 0.5)


RACE_H = """players A, B
state { n: 0..6 = 0  winner: 0..2 = 0 }
action add "add {k}" { choose k in 1..2  n += k  if n >= 5 { winner = if current == A then 1 else 2 } }
turn { add }
terminal winner > 0
score for p: if winner == (if p == A then 1 else 2) then 1 else -1
heuristic lead for p = HEURISTIC
"""


@pytest.mark.parametrize("heuristic, noted", [("10 * n * (if p == A then 1 else -1)", True),
                                              ("if p == A then 0 else 0", False)])
@pytest.mark.parametrize("alpha_beta", [False, True])
def test_a_heuristic_valuing_a_state_where_the_lines_stop_above_the_best_end_is_noted(tmp_path, heuristic, noted,
                                                                                      alpha_beta):
    # by hand: 5 ends the race; within 4 moves A can win (1 + 2 + 2 at move 3) and B too (move 4), so the ends met
    # give A 1 and -1; a state at depth 4 that has not ended has n = 4 (1 + 1 + 1 + 1), which the heuristic
    # values at 40 for A: above a win
    path = tmp_path / "race.rules"
    path.write_text(RACE_H.replace("HEURISTIC", heuristic))
    r = run_engine("solve", path, "--depth", "4", "--heuristic", "lead", *(["--alpha-beta"] if alpha_beta else []))
    assert r.returncode == 0, r.stderr
    assert ("  note: the heuristic lead values a state where the lines stop at 40 for A, above the 1 of the best end "
            "met (by the score; its ends give -1, 1): such a state outranks every end, the best too. A heuristic "
            "within the score's range there (or a score scaled up to the heuristic's) ranks them as the game does\n"
            in r.stdout) == noted, r.stdout


def test_a_heuristic_giving_both_players_alike_is_no_lead_to_alpha_beta_and_is_not_noted_there(tmp_path):
    # by hand: 10 * n for both players is 40 each at depth 4 (above a win of 1), but alpha-beta takes
    # the values as A's lead over B, 0, which ranks below a win; the exhaustive solve ranks 40 above it
    path = tmp_path / "race.rules"
    path.write_text(RACE_H.replace("HEURISTIC", "10 * n"))
    notes = ["note: the heuristic lead" in run_engine("solve", path, "--depth", "4", "--heuristic", "lead",
                                                      *flags).stdout for flags in ([], ["--alpha-beta"])]
    assert notes == [True, False]


def test_a_value_rounded_to_fewer_places_than_shown_keeps_its_places_in_the_text(tmp_path):
    # one number of 1..27 drawn: a 1 is drawn 1/27 = 0.037037... of the time, which to four places is
    # 0.0370 (0.037 would read as exact to three); a 27 or more 1/27 too, and 14 or more 14/27
    path = tmp_path / "draw.rules"
    path.write_text("state { x: 0..27 = 0 }\nchance when x == 0 { draw k in 1..27  x = k }\n"
                    "turn { }\nterminal x > 0\nscore if x >= 14 then 1 else 0\n")
    text = run_engine("solve", path, "--measure", "if x == 1 then 1 else 0", "--measure", "x").stdout
    assert "  best score: 0.5185\n" in text and text.endswith("if x == 1 then 1 else 0  0.0370\n"
                                                             "    x                        14\n"), text
    out = json.loads(run_engine("solve", path, "--measure", "if x == 1 then 1 else 0", "--json").stdout)
    assert abs(out["measures"][0]["value"] - 1 / 27) < 1e-9, out


def test_a_measure_reading_a_name_a_block_binds_is_told_to_read_state_fields():
    r = run_engine("solve", "rules/tictactoe.rules", "--measure", "c + 1")
    assert r.returncode == 2 and r.stderr.endswith(
        "hint: 'c' is bound at rules/tictactoe.rules:20:12, in action 'place', and seen in that block only: an "
        "expression of --measure reads the state's fields, the parameters and the constants; keep the value in a "
        "state field to read it\n"), r.stderr


@pytest.mark.parametrize("flags, message", [
    (["--depth", "2"], "--measure: takes the best play of a whole solve, to the end of the game; --depth N stops the "
                       "lines short of it"),
])
def test_measure_that_cannot_be_given_is_a_usage_error(tmp_path, flags, message):
    path = tmp_path / "reroll.rules"
    path.write_text("param n in 1..2 = 1\n" + REROLL)
    r = run_engine("solve", path, "--measure", "rolls", *flags)
    assert (r.returncode, r.stderr) == (2, f"error: {message}\n")
    r = run_engine("solve", path, "--measure", "rolls > 1")
    assert r.returncode == 2 and r.stderr.startswith("error: --measure: the expression has errors\n"), r.stderr


def test_moves_after_value_iteration_give_the_value_after_each_opening(tmp_path):
    # CYCLE by hand: from n = 0 the only move is a step to 1, and the best from there stops at 2
    path = tmp_path / "cycle.rules"
    path.write_text(CYCLE)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["method"] == "value iteration"
    assert out["first_moves"] == [{"move": "step to 1", "state": {"n": 1, "stops": 0}, "value": [2]}]
    assert run_engine("solve", path, "--moves").stdout.endswith(
        "  the moves of the initial state, each with the value after it (* the best line's):\n    step to 1: 2 *\n")


def test_a_rule_failing_in_solve_shows_the_moves_the_solve_went_down_to_it(tmp_path):
    # by hand: the solve goes down the first move first, step 1 each time; at n = 3 the rule reads
    # index 3 of a list of three, after three moves
    path = tmp_path / "fails.rules"
    path.write_text('state { n: 0..5 = 0 }\naction step "step {k}" { choose k in 1..2  n += [1, 1, 1][n] * k }\n'
                    "turn { step }\nterminal n >= 4\nscore n\n")
    r = run_engine("solve", path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{path}:2:49: error[runtime]: index 3 is outside a list of 3 elements")
    assert r.stderr.endswith("moves from the initial state, as the solve went down them:\n  1. step 1\n  2. step 1\n"
                             "  3. step 1\n"), r.stderr


def test_moves_marks_the_opening_the_best_line_takes_and_lists_it_first_of_those_as_good(tmp_path):
    # QUICK by hand: add 1 and add 2 both reach 4 exactly (value 1), but the best line takes the
    # quicker, add 2, listed second: 2 then 2, two moves; after 1, three (1 + 1 + 2 at the quickest)
    path = tmp_path / "quick.rules"
    path.write_text(QUICK)
    text = run_engine("solve", path, "--moves").stdout
    assert text.endswith("(* the best line's):\n    add 2: 1 (best play ends after 2 moves) *\n"
                         "    add 1: 1 (best play ends after 3 moves)\n"), text


def test_a_view_failing_while_the_solved_line_is_shown_claims_no_line_the_solve_was_on(tmp_path):
    # by hand the view divides by 3 - n: it fails only at the end, after 3 moves, not at the start
    path = tmp_path / "view.rules"
    path.write_text('state { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 3\nscore n\n'
                    'view "n = {10 // (3 - n)}"\n')
    r = run_engine("solve", path, "--show")
    assert r.returncode == 1 and r.stderr.startswith(f"{path}:6:19: error[runtime]: division by zero\n"), r.stderr
    assert "initial state" not in r.stderr and "moves from" not in r.stderr


def test_values_equal_but_for_the_last_bits_of_sums_of_chances_are_as_good(tmp_path):
    # by hand A gets 3/5 either way: six tenths of 1, or one tenth of 6 (0.1 * 6 is 0.6000000000000001
    # in floats); neither leaves A at least B, so the first listed, safe, is taken, and B gets 5
    path = tmp_path / "tie.rules"
    path.write_text("""game "float tie"
players A, B
state { pick: 0..2 = 0  d: 0..10 = 0 }
action safe "safe" { pick = 1 }
action bold "bold" { pick = 2 }
turn { either { safe } or { bold } }
chance when pick > 0 and d == 0 { draw x in 1..10  d = x }
terminal d > 0
score for p: if p == A then (if pick == 1 then (if d <= 6 then 1 else 0) else (if d == 1 then 6 else 0))
    else (if pick == 1 then 5 else 9)
""")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["value"] == [0.6, 5] and out["best_line"][1]["move"] == "safe"
    assert run_engine("solve", path, "--moves").stdout.endswith(
        "each with the value after it (* the best line's):\n    safe: A 0.6, B 5 *\n    bold: A 0.6, B 9\n")


def test_the_text_counts_the_terminal_paths_by_their_returns_the_best_first():
    # the published counts of tic-tac-toe's 255,168 games: 131,184 won by X, 77,904 by O, 46,080 drawn
    r = run_engine("solve", "rules/tictactoe.rules")
    assert "  terminal paths by returns (X, O), the best first: (1, -1): 131,184, (0, 0): 46,080, " \
           "(-1, 1): 77,904\n" in r.stdout


QUEENS = """param n in 1..8 = 5
state { queens: list<int> = [] }
def safe(c) = all(queens[i] != c and abs(queens[i] - c) != len(queens) - i for i in 0..len(queens) - 1)
action place "{c}" { choose c in 0..n - 1 where safe(c)  queens += c }
turn { place }
terminal len(queens) == n
score if len(queens) == n then 1 else 0
dead ends are ends
"""


@pytest.mark.parametrize("n, solutions", [(4, 2), (5, 10), (6, 4)])  # OEIS A000170
def test_lines_counts_and_lists_every_solution_of_a_puzzle(tmp_path, n, solutions):
    path = tmp_path / "queens.rules"
    path.write_text(QUEENS)
    out = json.loads(run_engine("solve", path, "--set", f"n={n}", "--lines", "3", "--json").stdout)
    assert out["best_lines"]["count"] == solutions
    lines = [[int(m) for m in line] for line in out["best_lines"]["lines"]]
    assert len(lines) == min(3, solutions) and lines == sorted(lines)  # in the order of the moves
    for cols in lines:  # each a solution: n queens, no two on a column or a diagonal
        assert len(cols) == n and all(cols[i] != cols[j] and abs(cols[i] - cols[j]) != j - i
                                      for i in range(n) for j in range(i + 1, n))
    text = run_engine("solve", path, "--set", f"n={n}", "--lines", "1").stdout
    assert f"  lines of best play: {solutions}, the first 1:\n    1. {', '.join(map(str, lines[0]))}\n" in text
    counted = run_engine("solve", path, "--set", f"n={n}", "--lines", "0", "--json").stdout
    assert json.loads(counted)["best_lines"] == {"count": solutions, "lines": [], "at_value": solutions}
    assert run_engine("solve", path, "--set", f"n={n}", "--lines", "0").stdout.endswith(
        f"  lines of best play: {solutions}\n")


def test_a_chance_block_that_never_applies_leaves_a_game_without_chance(tmp_path):
    # queens with a draw that only `--set shaken=yes` lets apply (one queen taken off at random, then the
    # puzzle goes on): without it the game has no chance step, so its lines, path counts and the sweep's
    # paths column are those of the puzzle (5-queens: 10 solutions, OEIS A000170)
    path = tmp_path / "queens.rules"
    path.write_text("param shaken = no\n" + QUEENS.replace("state { queens: list<int> = [] }",
                    "state { queens: list<int> = []  shook: bool = no }")
                    + "chance when shaken and not shook and len(queens) == 2 {\n"
                      "    draw k in 0..1\n    queens = [queens[1 - k]]\n    shook = yes\n}\n")
    out = json.loads(run_engine("solve", path, "--lines", "0", "--json").stdout)
    assert (out["chance"], out["best_lines"]["count"], out["outcomes"][0]) == (False, 10, {"returns": [1], "paths": 10})
    assert "terminal paths by final scores, the best first: 1: 10" in run_engine("solve", path).stdout
    r = run_engine("solve", path, "--sweep", "n=4,5")
    assert "paths to it" in r.stdout.splitlines()[1], r.stdout
    r = run_engine("solve", path, "--set", "shaken=yes", "--lines", "0")
    assert (r.returncode, r.stderr) == (2, "error: --lines 0: lists the lines of best play of a whole game without "
                                           "chance (with chance, best play is a policy for every outcome, not lines: "
                                           "--policy writes it)\n")
    assert json.loads(run_engine("solve", path, "--set", "shaken=yes", "--json").stdout)["chance"] is True
    # swept: a run refused whatever the values is that one usage error; one refused for one value alone is a row
    r = run_engine("solve", path, "--set", "shaken=yes", "--sweep", "n=4,5", "--lines", "0")
    assert (r.returncode, r.stdout, r.stderr) == (2, "", "error: --lines 0: lists the lines of best play of a whole "
                                                  "game without chance (with chance, best play is a policy for every "
                                                  "outcome, not lines: --policy writes it)\n")
    r = run_engine("solve", path, "--sweep", "shaken", "--lines", "0")
    assert r.returncode == 1 and r.stderr.startswith("with --set shaken=yes: error: --lines 0: lists"), r.stderr
    assert [row.split()[:4] for row in r.stdout.splitlines()[2:]] == [
        ["no", "1", "10", "10"], ["yes", "failed:", "its", "error"]], r.stdout


def test_lines_of_best_play_of_three_players_say_how_many_end_at_the_value(tmp_path):
    # three players take 1 or 2 of 4, the last to take wins. By hand: whatever A takes, A cannot take
    # the last. Taking 1 leaves B 3, where B cannot either: each of B's 2 moves leaves C the rest,
    # which C takes (2 lines, C wins); taking 2 leaves B 2, which B takes (1 line, B wins). A, losing,
    # holds out longest: takes 1, so the value is C's win, which 2 of the 3 lines reach
    path = tmp_path / "last.rules"
    path.write_text(TAKE_LAST)
    out = json.loads(run_engine("solve", path, "--set", "seats=3", "--lines", "0", "--json").stdout)
    assert out["value"] == [0, 0, 1] and out["best_lines"] == {"count": 3, "lines": [], "at_value": 2}
    assert run_engine("solve", path, "--set", "seats=3", "--lines", "0").stdout.endswith(
        "  lines of best play: 3 (2 of them end at the value above: with several players a move as good for its "
        "mover may be worse for another, and these lines take each)\n")


@pytest.mark.parametrize("flags, message", [
    (["--lines", "-1"], "--lines -1: expected 0 (the count alone) or more"),
    (["--lines", "2", "--depth", "3"], "--lines 2: lists the lines of best play of a whole game without chance "
                                       "(--depth cuts them short)"),
])
def test_lines_that_cannot_be_listed_are_a_usage_error(tmp_path, flags, message):
    path = tmp_path / "queens.rules"
    path.write_text(QUEENS)
    r = run_engine("solve", path, *flags)
    assert (r.returncode, r.stderr) == (2, f"error: {message}\n")


def test_lines_of_a_game_of_two_players_with_chance_that_comes_round_are_refused_for_the_chance(tmp_path):
    # two reasons hold: the game comes round with two players, and chance moves; chance is the one told
    path = tmp_path / "spin2.rules"
    path.write_text("players A, B\n" + SPIN.replace("ROLL", "[1, 2]") + "score for p: pos\n")
    r = run_engine("solve", path, "--lines", "1")
    assert (r.returncode, r.stderr) == (2, "error: --lines 1: lists the lines of best play of a whole game without "
                                           "chance (with chance, best play is a policy for every outcome, not "
                                           "lines: --policy writes it)\n")


def test_an_entry_of_a_map_of_maps_or_a_key_that_is_a_set_is_taken_away_by_minus_equals(tmp_path):
    # by hand: l[A] loses key 1 (2 left of 1, 2), m loses the key {} (the empty set): 2 + 2 = 4
    path = tmp_path / "maps.rules"
    path.write_text("players A, B\nstate { l: map<player, map<int, int>> = {A: {1: 5, 2: 6}, B: {}}\n"
                    "        m: map<set<int>, int> = {{}: 1, {1}: 2}  n: 0..1 = 0 }\n"
                    'action go "go" { l[current] -= 1  m -= {}  n += 1 }\nturn { go }\nterminal n == 1\n'
                    "score for p: sum(values(l[A])) // 3 + sum(values(m))\n")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["value"] == [4, 4]  # 6 // 3 + 2
    assert {k: out["best_line"][-1]["state"][k] for k in ("l", "m")} == {"l": {"A": [[2, 6]], "B": []},
                                                                      "m": [[[1], 2]]}


SPEND = """enum Res { wood, coins }
state { res: map<Res, 0..5> = {wood: 4, coins: 0}  t: 0..9 = 0 }
action gather "gather {r}" { choose r in Res  res[r] += 2  t += 1 }
action spend "spend 3 wood" { res[wood] -= 3  res[coins] += 1  t += 1 }
turn { either { gather } or { spend } }
terminal t == 4
score res[coins]
"""


def test_a_map_of_a_range_keeps_its_values_in_it_as_a_field_of_a_range_does(tmp_path):
    # by hand, 4 turns from 4 wood and 0 coins, at most 5 of each: gather coins twice (4), spend
    # (1 wood, 5 coins), gather wood: 5. From 1 wood and 4 coins spending would leave -2 wood and
    # gathering coins make 6, so neither is a move; with `clamp` spending leaves 0 wood, and a 6th
    # coin is kept at 5
    path = tmp_path / "spend.rules"
    path.write_text(SPEND)
    assert json.loads(run_engine("solve", path, "--json").stdout)["best_score"] == 5
    start = tmp_path / "late.json"
    start.write_text(json.dumps({"res": {"wood": 1, "coins": 4}, "t": 3}))
    moves = json.loads(run_engine("solve", path, "--from", start, "--json").stdout)["first_moves"]
    assert [(m["move"], m["value"]) for m in moves] == [("gather wood", [4])]
    path.write_text(SPEND.replace("coins: 0}", "coins: 0} clamp"))
    moves = json.loads(run_engine("solve", path, "--from", start, "--json").stdout)["first_moves"]
    assert [(m["move"], m["value"]) for m in moves] == [("gather wood", [4]), ("gather coins", [5]),
                                                        ("spend 3 wood", [5])]


def test_value_iteration_sweeps_the_parts_lines_go_round_in_each_after_those_they_lead_to():
    # by hand: 0 -> 1 <-> 2 -> 3 <-> 4 -> 5 (an end), and 1 -> 5: parts {3, 4}, then {1, 2}, then {0}
    from search.value_iteration import _END, _MOVE, _parts
    kinds = [(_MOVE, 0)] * 5 + [(_END, (1.0,))]
    links = [((1, None),), ((2, None), (5, None)), ((1, None), (3, None)), ((4, None),), ((3, None), (5, None)), ()]
    assert [sorted(p) for p in _parts(kinds, links)] == [[3, 4], [1, 2], [0]]


@pytest.mark.parametrize("goal", [1, 2, 3])
def test_value_iteration_by_parts_settles_at_the_values_of_sweeps_over_every_state(tmp_path, goal):
    # Piglet: the values of plain sweeps over every state (written here apart from the engine's), each
    # state's value from its ways on in the engine's own listing
    from search.protocol import CHANCE
    path = tmp_path / "piglet.rules"
    path.write_text(PIGLET)
    game = load_game(str(path), {"goal": str(goal)})
    states, index, ways = [game.initial_state()], {}, []
    index[game.key(states[0])] = 0
    for s in states:  # breadth first
        if game.is_terminal(s):
            ways.append(None)
            continue
        chance = game.current_player(s) == CHANCE
        row = [(t, p if chance else None) for m, p in (game.chance_outcomes(s) if chance else
                                                      [(m, None) for m in game.legal_moves(s)])
               for t in (game.apply(s, m),)]
        for t, _ in row:
            if game.key(t) not in index:
                index[game.key(t)] = len(states)
                states.append(t)
        ways.append([(index[game.key(t)], p) for t, p in row])
    values = [tuple(game.returns(s)) if w is None else (0.0, 0.0) for s, w in zip(states, ways)]
    for _ in range(10_000):
        new = [v if w is None else
               tuple(sum(p * values[j][q] for j, p in w) for q in range(2)) if w[0][1] is not None else
               max((values[j] for j, _ in w), key=lambda x: x[game.current_player(s)])
               for s, w, v in zip(states, ways, values)]
        done = max(abs(a - b) for x, y in zip(new, values) for a, b in zip(x, y)) < 1e-13
        values = new
        if done:
            break
    assert iterate_values(game).value == pytest.approx(values[0], abs=1e-9)
