"""Statements: a name declared with `var` changes with `=`, `+=` and `-=` inside its block and its
loops, each path through a fork keeps its own copy, and it is no part of the state."""
import textwrap

import pytest

from conftest import first_diagnostic
from engine import load_game
from engine.frame_room import with_room


def load(tmp_path, text):
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(str(path))


def moves(game, s):
    return [(m.label, m.next) for m in with_room(game.legal_moves, s)]


def test_a_sowing_loop_carries_the_seeds_in_hand_without_a_state_field(tmp_path):
    game = load(tmp_path, """
        state { board: list<int> = [0, 3, 0, 0, 1]  sown: 0..3 = 0 }
        action sow "sow {i}" {
            choose i in 0..4 where board[i] > 0
            var hand = board[i]
            board[i] = 0
            var pos = i
            for k in 1..9 where hand > 0 {
                pos = (pos + 1) % 5
                board[pos] += 1
                hand -= 1
            }
            if pos == 0 { board[0] += 10 }
            sown += 1
        }
        turn { sow }
        terminal sown == 3
        score board[0]
        """)
    # the state is the board, sown, the player to move and the triggers fired: no hand, no pos
    # sow 1: 3 seeds into pits 2, 3, 4: [0, 0, 1, 1, 2]; sow 4: 1 seed into pit 0, which ends
    # there and gets 10 more: [11, 3, 0, 0, 0]
    assert moves(game, game.initial_state()) == [("sow 1", ((0, 0, 1, 1, 2), 1, 0, 0)),
                                                 ("sow 4", ((11, 3, 0, 0, 0), 1, 0, 0))]


def test_each_path_of_a_choose_inside_a_loop_keeps_its_own_total(tmp_path):
    game = load(tmp_path, """
        state { x: int = 0 }
        action roll {
            var n = 0
            for r in 1..2 {
                choose d in 1..2
                n += d
            }
            x = n
        }
        turn { roll }
        terminal x > 0
        score x
        """)
    # two rounds of 1 or 2: totals 1+1, 1+2, 2+1, 2+2, each path its own n
    assert [s[0] for _, s in moves(game, game.initial_state())] == [2, 3, 3, 4]


def test_a_var_with_a_range_drops_the_path_that_would_leave_it(tmp_path):
    game = load(tmp_path, """
        state { x: int = 0 }
        action take "take {k}" {
            choose k in 1..3
            var left: 0..4 = 4
            left -= k
            left -= k
            x = left
        }
        turn { take }
        terminal x > 0
        score x
        """)
    # 4 - 2k: 2 for k = 1, 0 for k = 2, -2 (outside 0..4) for k = 3
    assert moves(game, game.initial_state()) == [("take 1", (2, 0, 0)), ("take 2", (0, 0, 0))]


def test_a_var_with_clamp_keeps_the_nearest_bound_and_a_collection_of_a_range_keeps_its_values(tmp_path,
                                                                                               engine_cli):
    game = load(tmp_path, """
        state { x: int = 0  got: list<int> = [] }
        action go "go {k}" {
            choose k in 1..3
            var c: 0..4 = 0 clamp
            c += 3 * k
            var v: list<0..4> = []
            v += 2 * k
            x = c
            got = v
        }
        turn { go }
        terminal x > 0
        score x + sum(got)
        """)
    # c: 3, 6 kept at 4, 9 kept at 4; v: [2], [4], and [6] leaves 0..4, so k = 3 is no move
    assert moves(game, game.initial_state()) == [("go 1", (3, (2,), 0, 0)), ("go 2", (4, (4,), 0, 0))]
    # and validate does not call v's range one that nothing keeps
    r = engine_cli("validate", tmp_path / "game.rules")
    assert (r.returncode, r.stderr) == (0, ""), r.stderr


@pytest.mark.parametrize("body, code, message", [
    ('var n: int = "a"', "type-mismatch", "'n' is int, got str"),
    ('var n = 0  n = "a"', "type-mismatch", "'n' is int, got str"),
    ("if x == 0 { var n = 0 }  n += 1", "unknown-name", "unknown state field 'n'"),
    ("var n = 0  n[0] = 1", "type-mismatch", "'n[...] =' needs a map or list, got int"),
    ("var n = 0 clamp", "bad-bound", "'clamp' needs a range type such as 0..18 (or a collection of one, map<Res, 0..9>)"),
    ("let hand = 2  var left: 0..hand = 1", "not-constant",
     "a range bound must be known before play: parameters and constants, not 'hand', a name bound as the rules run"),
    ("choose k in 1..2  k += 1", "not-assignable",
     "'k' is a local name, only state fields and names declared with `var` can be assigned"),
])
def test_a_var_used_wrongly_is_a_rule_error(tmp_path, body, code, message):
    d, errors = first_diagnostic(tmp_path / "v.rules", f"state {{ x: int = 0 }}\naction go {{ {body}  x = 1 }}\n"
                                 "turn { go }\nterminal x > 0\nscore x\n")
    assert (d.code, d.message, d.span.line) == (code, message, 2), errors
    if code == "not-assignable":  # a chosen name: no hint to write `var` in place of `let`
        assert d.hint is None, errors


def warnings_of(tmp_path, engine_cli, fields: str, action: str, score: str) -> str:
    """validate's stderr for a game of these fields and one action, over when the score is above 0;
    it must pass."""
    path = tmp_path / "w.rules"
    path.write_text(f"state {{ {fields} }}\naction go {{ {action} }}\nturn {{ go }}\nterminal {score} > 0\n"
                    f"score {score}\n")
    r = engine_cli("validate", path)
    assert r.returncode == 0, r.stderr
    return r.stderr.replace(str(path), "w.rules")


def test_a_var_only_changed_and_never_read_is_a_warning(tmp_path, engine_cli):
    stderr = warnings_of(tmp_path, engine_cli, "x: int = 0", "var a = 1  a += 2  var b = 3  x = b  var _c = 0", "x")
    # a is changed but never read; b is read; _c is meant so
    assert stderr.count("warning[") == 1, stderr
    assert "w.rules:2:17: warning[unused]: 'a' is never read after this `var`" in stderr


def test_a_local_named_as_a_state_field_is_a_warning(tmp_path, engine_cli):
    stderr = warnings_of(tmp_path, engine_cli, "x: int = 0  n: int = 0", "var x = 5  x += 1  n = x", "n + x")
    assert "w.rules:2:17: warning[hides-field]: 'x' here is a new name that hides the state field 'x' to the end " \
           "of its block" in stderr
    assert "hint: the field cannot be read there, and `x = ...` changes the `var`, not the field; give this one " \
           "another name" in stderr
    assert stderr.count("warning[") == 1, stderr


@pytest.mark.parametrize("body, col", [("draw x in 1..6  x = x", 27), ("let x = 2  x = 3", 26)])
def test_assigning_a_local_name_that_hides_a_state_field_says_where_it_was_bound(tmp_path, body, col):
    # `draw x` binds a local x that hides the field x for the rest of the block: `x = x` assigns the local;
    # its column: 21 characters of `chance when n == 0 { ` and `draw ` or `let `
    d, errors = first_diagnostic(tmp_path / "v.rules", f"state {{ x: int = 0  n: 0..1 = 0 }}\nchance when n == 0 "
                                 f"{{ {body}  n = 1 }}\naction go {{ n = 0 }}\nturn {{ go }}\n"
                                 "terminal x > 0\nscore x\n")
    assert (d.code, d.span.line, d.hint) == (
        "not-assignable", 2, f"the 'x' bound at line 2, column {col} hides the state field 'x': bind another name "
        "there and assign the field from it"), errors
