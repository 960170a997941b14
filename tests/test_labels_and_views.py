"""A move's label: the labels of the actions on its path, in the order they were called; and the
text view of a state."""
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
