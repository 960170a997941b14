"""Statements: `try { A } else { B }` goes on with the ways through A, and with those through B
only where A has none; what fails after the `try` does not bring B in."""
import json
import textwrap

from conftest import first_diagnostic, run_engine
from engine import load_game
from engine.frame_room import with_room

PASSING = """
players A, B
state { n: 0..9 = 0  passes: int = 0 }
action add(k) "add {k}" { require n + k <= 4  n += k }
action skip "skip" { passes += 1 }
turn { try { choose k in [2, 3]  add(k) } else { skip } }
terminal passes >= 2
score for p: if p == A then n else -n
"""


def labels(tmp_path, text, start=None):
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    game = load_game(str(path))
    s = game.initial_state() if start is None else start(game.initial_state())
    return [m.label for m in with_room(game.legal_moves, s)]


def test_a_player_passes_only_where_no_move_is_possible(tmp_path):
    path = tmp_path / "passing.rules"
    path.write_text(PASSING)
    r = run_engine("solve", path, "--json")
    out = json.loads(r.stdout)
    # by hand: from 0, add 2 or add 3; from 2 only add 2 (to 4), from 3 neither, so skip; from 4
    # skip, skip: paths 1, 2, 2, 2, 1; A adds 2, B adds 2, both skip: A 4
    assert out["paths_per_depth"] == [1, 2, 2, 2, 1]
    assert out["value"] == [4, -4]
    assert [m["move"] for m in out["best_line"]] == ["start", "add 2", "add 2", "skip", "skip"]


def test_a_failure_after_the_try_does_not_bring_the_else_block_in(tmp_path):
    # from n = 2, add 2 completes the try's block, and the require after it drops the path: no move
    text = PASSING.replace("else { skip } }", "else { skip }  require n < 3 }").replace("n: 0..9 = 0", "n: 0..9 = 2")
    assert labels(tmp_path, text) == []


def test_else_try_tries_a_third_block(tmp_path):
    text = """
        state { n: 0..9 = 0  done: bool = no }
        action a "a" { done = yes }
        action b "b" { done = yes }
        action c "c" { done = yes }
        turn { try { require n > 5  a } else try { require n > 1  b } else { c } }
        terminal done
        score n
        """
    assert labels(tmp_path, text) == ["c"]
    assert labels(tmp_path, text.replace("n: 0..9 = 0", "n: 0..9 = 2")) == ["b"]
    assert labels(tmp_path, text.replace("n: 0..9 = 0", "n: 0..9 = 7")) == ["a"]


def test_try_inside_a_chance_block_is_misplaced(tmp_path):
    d, shown = first_diagnostic(tmp_path / "c.rules", "state { n: 0..9 = 0  rolled: bool = no }\n"
                                "chance when not rolled { try { draw d in 1..6  n = d } else { n = 0 }  rolled = yes "
                                "}\n"
                                "turn { n += 1 }\nterminal n == 9\nscore n\n")
    assert (d.code, d.message, d.span.line, d.span.col) == ("misplaced", "`try` inside a chance block", 2, 26), shown
