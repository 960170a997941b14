"""A move's label: the labels of the actions on its path, in the order they were called; and the
text view of a state."""
import textwrap

from conftest import ROOT
from engine.load import load_game

GAME = """
state { pos: 0..3 = 0  marks: set<int> = {}  score_track: int = 0  done: bool = no }
action bonus(k) "bonus {k}" { score_track += k }
action build "build" { bonus(2)  tidy }
action tidy "tidy" { bonus(1) }
action mark(c) "mark {c}" { marks += c }
action walk "walk to {b}" {
    choose b in 1..2
    optional { mark(b) }
    pos = b
}
action quiet "" { bonus(5) }
action finish "finish" { done = yes }
turn { TURN }
terminal done
score score_track
"""


def labels(tmp_path, turn: str) -> list:
    path = tmp_path / "labels.rules"
    path.write_text(GAME.replace("TURN", turn))
    game = load_game(str(path))
    return [m.label for m in game.legal_moves(game.initial_state())]


def test_a_caller_comes_before_the_actions_it_calls_and_they_in_the_order_called(tmp_path):
    # build calls bonus(2), then tidy, which calls bonus(1)
    assert labels(tmp_path, "build  finish") == ["build | bonus 2 | tidy | bonus 1 | finish"]


def test_a_caller_whose_label_names_a_later_choice_still_comes_first(tmp_path):
    # walk's label is evaluated when walk has finished, after the optional mark it calls
    assert labels(tmp_path, "walk  finish") == ["walk to 1 | finish", "walk to 1 | mark 1 | finish",
                                                 "walk to 2 | finish", "walk to 2 | mark 2 | finish"]


def test_an_action_labelled_empty_adds_nothing_but_what_it_calls(tmp_path):
    assert labels(tmp_path, "quiet  finish") == ["bonus 5 | finish"]


def test_either_gives_the_moves_of_each_branch_in_the_order_written(tmp_path):
    # by hand: the first branch has the four walks, the second the one build, the third
    # nothing to finish on (its require fails), and every path then finishes
    turn = "either { walk } or { build } or { require pos > 0  tidy }  finish"
    assert labels(tmp_path, turn) == ["walk to 1 | finish", "walk to 1 | mark 1 | finish", "walk to 2 | finish",
                                      "walk to 2 | mark 2 | finish", "build | bonus 2 | tidy | bonus 1 | finish"]


def test_a_random_move_through_either_is_one_of_its_moves(tmp_path):
    import random

    path = tmp_path / "labels.rules"
    path.write_text(GAME.replace("TURN", "either { walk } or { build } or { require pos > 0  tidy }  finish"))
    game = load_game(str(path))
    s = game.initial_state()
    every = {m.label for m in game.legal_moves(s)}
    drawn = {game.sample_move(s, random.Random(seed)).label for seed in range(60)}
    assert drawn == every  # 60 draws, each branch first a third of the time: all five seen


def test_the_tictactoe_view_draws_the_grid_a_row_a_line():
    game = load_game(str(ROOT / "rules" / "tictactoe.rules"))
    s = game.initial_state()
    for label in ["X at (1, 1)", "O at (0, 2)", "X at (2, 0)"]:  # by hand: the centre, a corner, a corner
        [move] = [m for m in game.legal_moves(s) if m.label == label]
        s = game.apply(s, move)
    assert game.view(s) == "..O\n.X.\nX.."


def string_game(tmp_path, view: str):
    path = tmp_path / "g.rules"
    path.write_text(textwrap.dedent("""\
        game "strings"
        players A, B
        state { total: 0..9 = 0 }
        def tag(i) = "<{i}:{total}>"
        action add "{current} adds {k}" { choose k in 1..2  total += k }
        turn { add }
        terminal total >= 3
        score total
        view VIEW
        """).replace("VIEW", view), encoding="utf-8")
    return load_game(str(path))


def play_labels(game, labels):
    s = game.initial_state()
    for label in labels:
        [move] = [m for m in game.legal_moves(s) if m.label == label]
        s = game.apply(s, move)
    return s


def test_a_string_fills_in_its_braces_where_it_is_evaluated_as_a_label_does(tmp_path):
    game = string_game(tmp_path, r'''join(" ", ["total {total}, {current} to play", tag(total + 1),
                                      join(",", ["c{i}" for i in 0..2]), "\{x\}"])''')
    s = play_labels(game, ["A adds 2"])  # total 2, B to move
    assert game.view(s) == "total 2, B to play <3:2> c0,c1,c2 {x}"


def test_a_string_without_braces_is_the_text_written(tmp_path):
    game = string_game(tmp_path, '"no braces here"')
    assert game.view(game.initial_state()) == "no braces here"
