"""Compile: expressions run as generated Python (engine/pysource.py) give the values worked
out by hand, and a rule that fails inside one still names the exact place."""
import textwrap

import pytest

from conftest import first_diagnostic
from engine import RuleErrors
from engine.compile import Compiler
from engine.diagnostics import RuleRuntimeError
from engine.load import command_line_predicates, load_game

GAME = """
    const table: map<int, int> = {0: 1, 1: 2}
    def look(k) = table[k]
    def minus(a, b) = a - b
    def pick(a, b) = if a > 0 then a else b
    def span(a) = [a, a + 1]
    record Edge { r: int, c: int }
    state { x: 0..9 = 3  s: set<int> = {4, 1, 7} }
    action go { x += 1 }
    turn { go }
    terminal x == 9
    score x
    """


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("gen") / "gen.rules"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    return load_game(str(path))


CASES = [
    # a def called inside its own arguments: each call binds its parameters afresh.
    # minus(3, 1) = 2, minus(2, 3) = -1, minus(2, -1) = 3
    ("minus(minus(x, 1), minus(2, x)) == 3", True),
    # nested comprehensions, the inner range bound by the outer name (x = 3):
    # i=1: 1*1 = 1; i=2: 2*1 + 2*2 = 6; i=3: 3*1 + 3*2 + 3*3 = 18; total 25
    ("sum(sum(i * j for j in 1..i) for i in 1..x) == 25", True),
    # a set is walked in sorted order: 1, 4, 7
    ("[v * 10 for v in s] == [10, 40, 70]", True),
    # a 95-term sum of ones after x: 3 + 95 = 98
    (" + ".join(["x"] + ["1"] * 95) + " == 98", True),
    # `and` and `or` stop early: table[5] (absent) is never looked up
    ("x == 4 and table[5] == 0", False),
    ("x == 3 or table[5] == 0", True),
    # count with a condition and min over a comprehension: 4 and 7 are > 3; the least v*v is 1
    ("count(v for v in s where v > x) == 2 and min(v * v for v in s) == 1", True),
    # union of sets: {1, 2} + {4, 5} + {7, 8}; of none, the empty set; as a call on a list of sets
    ("union({v, v + 1} for v in s) == {1, 2, 4, 5, 7, 8}", True),
    ("len(union({v} for v in s where v > 9)) == 0 and union([{1}, {2, 1}]) == {1, 2}", True),
    # records built inside generated code: named fields in any order, positional, one per item of s
    ("Edge(c: x, r: 1) == Edge(1, 3) and Edge(c: x, r: 1).c == 3", True),
    ("[e.r + e.c for e in [Edge(v, x) for v in s]] == [4, 7, 10] and Edge(1, 3) in {Edge(1, x)}", True),
    # first: s in order 1, 4, 7; the first above x = 3 is 4; none above 9, so the default, table[1] = 2;
    # a default not needed is not worked out (table[5] has no entry)
    ("(first(v for v in s where v > x) else 0) == 4", True),
    ("(first(v for v in s where v > 9) else table[1]) == 2", True),
    ("(first(v for v in s where v > 0) else table[5]) == 1", True),
    # small defs written in place of their calls: arguments worked out once each, in a
    # comprehension's collection too. minus(6, minus(3, 1)) = 6 - 2 = 4; span(3 + 1) = [4, 5]
    ("minus(x * 2, minus(x, 1)) == 4", True),
    ("[v * 2 for v in span(x + 1)] == [8, 10] and sum(w for v in span(x) for w in span(v)) == 3 + 4 + 4 + 5", True),
    # + and - of collections, whole or one element: s = {1, 4, 7}, x = 3
    ("s - {4, 9} == {1, 7} and s + {x} == {1, 3, 4, 7} and len(s - s) == 0", True),
    ("s - 4 == {1, 7} and s + x == {1, 3, 4, 7} and s - 9 == s", True),
    # a list with a whole list: + appends it; - takes every copy of its elements away
    ("[x, 1] + [2] == [3, 1, 2] and [1, x, 1] - [1] == [3] and [v for v in s] - [7] + [x] == [1, 4, 3]", True),
    ("bag([1, 1, x]) - 1 == bag([1, x]) and bag([1]) + bag([1, x]) == bag([1, 1, 3])", True),
]
HEAD_TAIL = [
    # the first k elements of a list, and the last k: of [3, 1, 4], [3, 1] and [1, 4]
    ("head(2, [x, 1, 4]) == [3, 1] and tail(2, [x, 1, 4]) == [1, 4]", True),
    # past the length all of it, 0 or below none, as `head -n` and `tail -n` of lines
    ("head(x + 5, [1, 2]) == [1, 2] and tail(9, [1]) == [1] and head(-1, [1]) == [] and tail(0, [1, 2]) == []"
     " and tail(-2, [1, 2]) == []", True),
    # the top of a pile taken off: s sorted is [1, 4, 7]
    ("head(len(sorted(s)) - 1, sorted(s)) == [1, 4] and tail(1, sorted(s)) == [7]", True),
    ("head(1, [x]) == [4]", False),
]
CASES += HEAD_TAIL


@pytest.mark.parametrize("text, expected", CASES)
def test_an_expression_has_the_value_worked_out_by_hand(game, text, expected):
    [(_, fn)] = command_line_predicates(game, [text])
    assert fn(game.initial_state()) is expected


@pytest.mark.parametrize("text, expected", HEAD_TAIL)
def test_head_and_tail_run_as_closures_give_the_same_values(tmp_path, monkeypatch, text, expected):
    path = tmp_path / "gen.rules"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    monkeypatch.setattr(Compiler, "generate_python", False)
    game = load_game(str(path))
    [(_, fn)] = command_line_predicates(game, [text])
    assert fn(game.initial_state()) is expected


def test_an_argument_a_def_does_not_read_is_still_worked_out_as_for_any_call(game):
    # pick(1, table[5]) gives 1 without reading b, but a call works out its arguments first:
    # table has no entry 5, whether pick is called or written in place of the call
    [(_, fn)] = command_line_predicates(game, ["pick(1, table[5]) == 1"])
    with pytest.raises(RuleRuntimeError, match="no entry 5"):
        fn(game.initial_state())


def test_union_of_something_other_than_sets_is_a_type_mismatch_at_the_items(tmp_path):
    d, _ = first_diagnostic(tmp_path / "u.rules", "state { x: 0..3 = 0 }\nturn { x += len(union(v for v in [1, 2])) }\n"
                            "terminal x == 3\nscore x\n")
    assert (d.code, d.span.line, d.span.col) == ("type-mismatch", 2, 23)
    assert "union() needs sets, got int" in d.message


def test_a_failure_inside_a_def_inside_a_comprehension_is_reported_where_it_is(tmp_path, engine_cli):
    # x = 0: look(0) = 1, so x = 1; then look(0) + look(1) = 3, so x = 4; then look(2) has no entry
    f = tmp_path / "look.rules"
    f.write_text("const table: map<int, int> = {0: 1, 1: 2}\ndef look(k) = table[k]\nstate { x: 0..9 = 0 }\n"
                 "action go { x += sum(look(i) for i in 0..x) }\nturn { go }\nterminal x == 9\nscore x\n")
    r = engine_cli("validate", f)
    assert r.returncode == 1
    assert f"{f}:2:15: error[runtime]: no entry 2 in {{0: 1, 1: 2}}" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_label_is_the_text_worked_out_by_hand_and_a_failure_inside_one_is_reported_where_it_is(tmp_path,
                                                                                               engine_cli):
    # a label shows the state as its action left it: from x = 0, x = 1, look(1) = 2, 1 < 5 is
    # yes, the list [1, 2] between braces written as \{ and \}; from x = 1, look(2) has no entry
    f = tmp_path / "label.rules"
    f.write_text("const table: map<int, int> = {0: 1, 1: 2}\ndef look(k) = table[k]\nstate { x: 0..9 = 0 }\n"
                 r'action go "go {x}: {look(x)}, {x < 5} \{{[x, look(x)]}\}" { x += 1 }' "\n"
                 "turn { go }\nterminal x == 9\nscore x\n")
    game = load_game(str(f))
    assert [m.label for m in game.legal_moves(game.initial_state())] == ["go 1: 2, yes {[1, 2]}"]
    r = engine_cli("validate", f)
    assert r.returncode == 1
    assert f"{f}:2:15: error[runtime]: no entry 2 in {{0: 1, 1: 2}}" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_def_returning_its_parameter_gives_it_back_in_every_later_expression(tmp_path):
    # `same` returns `any`, so each expression that calls it checks its body again. A body
    # checked and compiled for some argument types (list<cell> here, from the first, refused,
    # expression) must read the slot that the calls of later expressions bind
    path = tmp_path / "same.rules"
    path.write_text("def same(p) = p\nstate { x: 0..3 = 0 }\naction go { x += 1 }\nturn { go }\n"
                    "terminal x == 3\nscore x\n", encoding="utf-8")
    game = load_game(str(path))
    with pytest.raises(RuleErrors):  # the layout of hex_grid must be written out
        command_line_predicates(game, ['len(hex_grid(same([cell(same(0), same(0))]), same("even-r"))) > 0'])
    for text in ['join(same("-"), same(["a", "b"])) == "a-b"', 'text(same([cell(same(1), same(2))])) == "[(1, 2)]"']:
        [(_, fn)] = command_line_predicates(game, [text])
        assert fn(game.initial_state()) is True, text


REMEMBERED = """
state { xs: list<int> = [1, 2]  seen: list<int> = []  n: 0..3 = 0 }
def total() = sum(x for x in xs)
def above(k) = count(x for x in xs where x > k)
action step "step" { seen += total()  seen += above(1)  xs += 5  seen += total()  seen += above(1)  n += 1 }
turn { step }
terminal n == 2
score sum(v for v in seen)
"""


def test_a_def_that_loops_gives_what_the_state_holds_when_it_is_called_even_in_one_move(tmp_path):
    # a def with a comprehension is remembered by its arguments and the fields it reads, so a field
    # set between two calls in one move must give the second call its new value. By hand:
    # move 1: total 3, above 1 (2), then xs [1, 2, 5]: total 8, above 2; move 2: 8, 2, then
    # xs [1, 2, 5, 5]: 13, 3. seen = [3, 1, 8, 2, 8, 2, 13, 3], sum 40
    path = tmp_path / "remembered.rules"
    path.write_text(REMEMBERED)
    game = load_game(str(path))
    s = game.initial_state()
    for _ in range(2):
        [m] = game.legal_moves(s)
        s = game.apply(s, m)
    assert game.is_terminal(s) and tuple(game.returns(s)) == (40,)
