"""Every rule file behaves as a forward model should (search/protocol.py)."""
import gc
import json
import pickle
import random

import pytest

from conftest import RULE_FILES, run_engine, suite_settings
from engine import load_game
from search.protocol import CHANCE


def playout(game, rng, steps=500):
    """A random line from the initial state: the list of states visited."""
    s = game.initial_state()
    seen = [s]
    for _ in range(steps):
        if game.is_terminal(s):
            break
        if game.current_player(s) == CHANCE:
            outcomes = game.chance_outcomes(s)
            s = game.apply(s, rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0])
            seen.append(s)
            continue
        moves = game.legal_moves(s)
        if not moves:
            break
        s = game.apply(s, rng.choice(moves))
        seen.append(s)
    return seen


@pytest.fixture(params=RULE_FILES, ids=lambda p: p.name)
def game(request):
    return load_game(str(request.param), suite_settings(request.param))


def test_random_playouts_reach_a_terminal_state(game):
    rng = random.Random(1)
    for _ in range(20):
        last = playout(game, rng)[-1]
        assert game.is_terminal(last)
        assert len(game.returns(last)) == game.num_players


def test_states_are_hashable_values_and_apply_leaves_its_input_alone(game):
    rng = random.Random(2)
    for s in playout(game, rng):
        copy = tuple(s)
        hash(s)
        for m in game.legal_moves(s):
            game.apply(s, m)
        assert s == copy


def test_equal_states_give_equal_moves_without_the_memo_tables(game):
    rng = random.Random(3)
    fresh = load_game(game.path, suite_settings(game.path))
    fresh.memo_limit = 0
    for s in playout(game, rng):
        assert [(m.label, m.next) for m in game.legal_moves(s)] == [(m.label, m.next) for m in fresh.legal_moves(s)]
        assert game.is_terminal(s) == fresh.is_terminal(s)


def test_states_pickle_and_the_game_plays_on_from_the_copy(game):
    rng = random.Random(4)
    for s in playout(game, rng, steps=60):
        back = pickle.loads(pickle.dumps(s))
        assert back == s and hash(back) == hash(s)
        assert [type(v) for v in back] == [type(v) for v in s]
        if game.current_player(s) != CHANCE:
            assert [(m.label, m.next) for m in game.legal_moves(back)] == [(m.label, m.next) for m in game.legal_moves(s)]


def test_the_forward_model_leaves_no_reference_cycles_behind(game):
    """Whatever listing, applying and scoring a state makes is freed as soon as it is dropped, not
    left to the collector: a turn's listed moves once stayed alive in a cycle until it ran."""
    gc.collect()
    gc.disable()
    try:
        for s in playout(game, random.Random(7), steps=60):
            if not game.is_terminal(s) and game.current_player(s) != CHANCE:
                [game.describe(m) for m in game.legal_moves(s)]
            game.evaluate(s)
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0


def test_moves_of_a_state_have_distinct_labels(game):
    rng = random.Random(4)
    for s in playout(game, rng):
        labels = [game.describe(m) for m in game.legal_moves(s)]
        assert len(labels) == len(set(labels))


def test_terminal_states_have_no_legal_moves(game):
    rng = random.Random(5)
    last = playout(game, rng)[-1]
    assert game.is_terminal(last)
    assert tuple(game.legal_moves(last)) == ()


def test_declared_invariants_hold_along_random_playouts(game):
    rng = random.Random(6)
    for _ in range(10):
        for s in playout(game, rng):
            assert game.broken_invariants(s) == []


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_validate_accepts_every_rule_file_without_warnings(path):
    # default settings: a shorter game would leave some actions unreached, which is a warning
    r = run_engine("validate", path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(")\n") and "warning" not in r.stdout + r.stderr


def test_validate_warns_about_a_constant_and_a_parameter_nothing_uses(tmp_path):
    f = tmp_path / "spare.rules"
    f.write_text("const spare = 3\nparam level in 1..3 = 2\nstate { x: 0..3 = 0 }\naction go { x += 1 }\n"
                 "turn { go }\nterminal x == 3\nscore x\ndef even() = x % 2 == 0\n")
    r = run_engine("validate", f)
    assert r.returncode == 0
    assert f"{f}:1:7: warning[unused]: constant 'spare' is never used" in r.stderr
    assert f"{f}:2:7: warning[unused]: parameter 'level' is never used" in r.stderr  # --set level=3 would do nothing
    # a def may be meant for --filter: the warning says so
    assert (f"{f}:8:5: warning[unused]: function 'even' is never used\n  8 | def even() = x % 2 == 0\n"
            "    |     ^^^^\nhint: a def kept for the command line (--filter, --measure, --invariant) is used only "
            "there\n") in r.stderr
    assert "3 warnings" in r.stdout


def test_validate_checks_every_file_after_one_missing_or_refusing_a_setting(tmp_path):
    missing = tmp_path / "nope.rules"
    r = run_engine("validate", missing, "rules/tictactoe.rules", "--playouts", "0")
    assert r.returncode == 2  # a usage error, and no file with errors
    assert r.stderr == f"error: {missing}: no such rule file\n"
    assert r.stdout == "rules/tictactoe.rules: ok (Tic-tac-toe)\n"
    broken = tmp_path / "broken.rules"
    broken.write_text("state { x: 0..3 = 0 }\naction go { x += 1 }\nturn { go }\nterminal x == 3\nscore y\n")
    r = run_engine("validate", "--set", "rounds=3", broken, "--playouts", "0", "rules/nidavellir.rules",
                   "rules/tictactoe.rules")  # files after an option are files too
    assert r.returncode == 1  # a file with errors: that outranks a setting one file does not take
    assert "error: rules/tictactoe.rules: --set rounds=3: no parameter 'rounds' (parameters: none)\n" in r.stderr
    assert f"{broken}:5:7: error[unknown-name]" in r.stderr
    assert r.stdout == "rules/nidavellir.rules: ok (Nidavellir: coin trades)\n"


def test_validate_reports_a_rule_that_fails_while_playing(tmp_path):
    f = tmp_path / "empty_max.rules"
    f.write_text("state { x: 0..3 = 0  s: set<int> = {} }\naction go { x += max(s) }\nturn { go }\n"
                 "terminal x == 3\nscore x\n")
    r = run_engine("validate", f)
    assert r.returncode == 1
    assert f"{f}:2:18: error[runtime]: max() of an empty collection" in r.stderr
    assert ("hint: make sure it has an element first: `require len(xs) > 0`, or `if len(xs) > 0 then max(xs) else 0`"
            in r.stderr)
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("text, expected", [
    # the checker sees `has` called with an int: the body, checked again so, is wrong at `p`
    ("def has(p) = 1 in p\nstate { x: 0..3 = 0 }\naction go { x += 1 }\nturn { go }\n"
     "terminal has(x) or x == 3\nscore x\n",
     ["{f}:1:19: error[type-mismatch]: 'in' needs a collection on the right, got int",
      "hint: with p: int, as called at {f}:5:10"]),
    # `same` returns whatever it is given, so the checker cannot know that `has` gets a number:
    # `1 in p` fails when the rule runs, a rule error at the terminal condition
    ("def same(p) = p\ndef has(p) = 1 in p\nstate { x: 0..3 = 0 }\naction go { x += 1 }\n"
     "turn { go }\nterminal has(same(x)) or x == 3\nscore x\n",
     ["{f}:6:1: error[runtime]: the terminal condition failed on a value of an unexpected type"]),
], ids=["checked", "at-run-time"])
def test_a_def_given_a_value_of_the_wrong_type_is_a_rule_error_not_a_traceback(tmp_path, text, expected):
    f = tmp_path / "untyped.rules"
    f.write_text(text)
    r = run_engine("validate", f)
    assert r.returncode == 1
    for line in expected:
        assert line.format(f=f) in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def checked_score_of_one_game(path, text) -> float:
    """Write text to path; it must validate; the score of one game of it."""
    path.write_text(text)
    assert run_engine("validate", path).returncode == 0
    r = run_engine("play", path, "--agents", "random", "--games", "1", "--json")
    return json.loads(r.stdout)["agents"][0]["mean"]


def errors_of(path, text) -> str:
    """Write text to path; validate must refuse it with rule errors and no traceback: its stderr."""
    path.write_text(text)
    r = run_engine("validate", path)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    return r.stderr


SEVERAL_TYPES = """game "g"
def size(c) = len(c)
def inner(t) = len(edges(t))
def outer(u) = inner(u)
state { l: list<int> = [1, 2]
        b: bag<int> = bag([1, 1, 2])
        n: 0..1 = 0 }
action go { n += 1 }
turn { go }
terminal n == 1
score size(l) * 10 + size(b)
"""


INDEX_UPDATES = """game "g"
state { tally: map<str, int> = {"a": 5}
        row: list<int> = [4, 5, 6]
        hands: map<int, bag<int>> = {1: bag([2])}
        n: 0..1 = 0 }
action go { tally["a"] += 2  row[2] -= 1  hands[1] += 7  hands[1] += bag([8, 8])  hands[1] -= 2  n += 1 }
turn { go }
terminal n == 1
score tally["a"] * 1000 + row[2] * 100 + sum(hands[1])
"""


def test_an_entry_of_a_map_or_list_field_is_updated_in_place_of_the_field(tmp_path):
    # tally a: 5 + 2 = 7; row[2]: 6 - 1 = 5; hands 1: [2] + 7 + [8, 8] - 2 = [7, 8, 8], sum 23
    assert checked_score_of_one_game(tmp_path / "entries.rules", INDEX_UPDATES) == 7523


@pytest.mark.parametrize("change, message, hint", [
    ('tally["b"] += 2', "no entry b in tally to change with `+=`; `tally[...] =` adds one", None),
    ("row[3] -= 1", "index 3 is outside a list of 3 elements",
     "a list's indexes run from 0 to len(row) - 1; `row += x` appends x"),
    ("row[3] = 1", "index 3 is outside a list of 3 elements",
     "a list's indexes run from 0 to len(row) - 1; `row += x` appends x"),
    ("hands[1] -= 3", "3 is not in bag[2]", "test with `x in xs` (and `require` it) before taking x away"),
    ('n += tally["b"]', "no entry b in {a: 5}",
     "`k in m` tells whether a map has the key k; get(m, k, d) reads it, or d when it is missing"),
    ("n += row[3]", "index 3 is outside a list of 3 elements: [4, 5, 6]",
     "a list's indexes run from 0 to len(row) - 1, and from -1 (the last) to -len(row) when reading"),
    ("n += [row[0]][-2]", "index -2 is outside a list of 1 element: [4]",
     "a list's indexes run from 0 to len(xs) - 1, and from -1 (the last) to -len(xs) when reading"),
    ("n += [x for x in row where x > 9][0]", "index 0 is outside an empty list: []",
     "a list's indexes run from 0 to len(xs) - 1, and from -1 (the last) to -len(xs) when reading"),
])
def test_an_update_of_an_entry_that_is_not_there_is_a_rule_error(tmp_path, change, message, hint):
    f = tmp_path / "entries.rules"
    stderr = errors_of(f, INDEX_UPDATES.replace("action go {", f"action go {{ {change}"))
    assert f"error[runtime]: {message} (in the initial state)" in stderr, stderr
    # the first move fails: no line of moves leads there, so no check command is pointed to
    assert (f"hint: {hint}\n" in stderr if hint else "hint:" not in stderr) and "engine check" not in stderr, stderr
    assert stderr.endswith(f"{f}: 1 error\n"), stderr


@pytest.mark.parametrize("turn, action, message", [
    # x = 2 on the third move: look(2) has no entry, called by put(2), called by the turn
    ("put(x)  x += 1", 'action put(i) "put {i}" { xs[i] = look(x) }',
     "2:15: error[runtime]: no entry 2 in {0: 1, 1: 2}; in look(2), called at line 4, column 35; in put(2), "
     "called at line 5, column 8 (in a random playout)"),
    # pick(2) chooses v = 2 and writes xs[4] inside the action, on the first move
    ("pick(2)", 'action pick(i) "pick {i}" { choose v in 1..2  xs[v * i] = 1  x += 1 }',
     "4:47: error[runtime]: index 4 is outside a list of 3 elements; in pick(2), called at line 5, column 8 (in the "
     "initial state)"),
    # after pick(2), in the turn: x = 4 is no index of xs, and the failure is no part of the call
    ("pick(2)  xs[x] = 1", 'action pick(i) "pick {i}" { choose v in 1..2  x += v * i }',
     "5:17: error[runtime]: index 4 is outside a list of 3 elements (in the initial state)"),
])
def test_a_failure_inside_a_call_with_arguments_names_the_call(tmp_path, turn, action, message):
    f = tmp_path / "calls.rules"
    stderr = errors_of(f, "const table: map<int, int> = {0: 1, 1: 2}\ndef look(k) = table[k]\n"
                          f"state {{ x: 0..9 = 0  xs: list<int> = [0, 0, 0] }}\n{action}\nturn {{ {turn} }}\n"
                          "terminal x >= 4\nscore x + sum(xs)\n")
    assert f"{f}:{message}" in stderr, stderr


@pytest.mark.parametrize("body, message", [
    # (a simple loop's pass: tests/test_generated_statements.py)
    # a pass that chooses: on the second move (x = 1), k = 1 and d = 2 give xs[3]
    ("for k in 0..1 { choose d in 1..2  xs[k * d + x] = 1 }  x += 1",
     "2:56: error[runtime]: index 3 is outside a list of 3 elements; on the pass of the `for` at line 2 where k = 1"),
    # after such a loop: the failure is no part of any pass
    ("for k in 0..1 { choose d in 1..2  x += 0 }  xs[x + 3] = 1  x += 1",
     "2:66: error[runtime]: index 3 is outside a list of 3 elements (in the initial state)"),
    # two names: the pair that fails, (2, 9)
    ("x += 1  for a, b in [(0, 1), (2, 9)] { xs[a] = xs[b] }",
     "2:69: error[runtime]: index 9 is outside a list of 3 elements: [0, 0, 0]; on the pass of the `for` at line 2 "
     "where a = 2, b = 9"),
])
def test_a_failure_inside_a_for_names_its_pass(tmp_path, body, message):
    f = tmp_path / "passes.rules"
    stderr = errors_of(f, f"state {{ x: 0..5 = 0  xs: list<int> = [0, 0, 0] }}\naction fill \"fill\" {{ {body} }}\n"
                          "turn { fill }\nterminal x == 5\nscore x + sum(xs)\n")
    assert f"{f}:{message}" in stderr, stderr


def test_a_long_list_read_outside_its_indexes_is_shown_cut_to_its_start(tmp_path):
    f = tmp_path / "entries.rules"
    stderr = errors_of(f, INDEX_UPDATES.replace("action go {", "const long = [x for x in 1..50]\naction go { n += long[99]"))
    # "[1, 2, ..., 50]" is 191 characters (9 + 82 digits, 49 ", ", 2 brackets); the message shows
    # its first 97 and "..."
    shown = "[" + ", ".join(map(str, range(1, 51))) + "]"
    assert len(shown) == 191
    assert f"error[runtime]: index 99 is outside a list of 50 elements: {shown[:97]}... (in the initial state)" \
        in stderr


def test_a_def_called_with_a_list_and_with_a_bag_checks_clean_and_runs(tmp_path):
    text = SEVERAL_TYPES.replace("def inner(t) = len(edges(t))\ndef outer(u) = inner(u)\n", "")
    assert checked_score_of_one_game(tmp_path / "several.rules", text) == 23  # 2 * 10 + 3, by hand


def test_an_error_found_through_a_call_in_another_def_names_that_call(tmp_path):
    # outer(n) calls inner(u) with u an int: edges() of an int, the caret on t (line 3, col 26
    # by hand); the hint names the call inner(u) in outer (line 4, col 16)
    f = tmp_path / "nested.rules"
    stderr = errors_of(f, SEVERAL_TYPES.replace("score size(l) * 10 + size(b)", "score outer(n)"))
    assert f"{f}:3:26: error[type-mismatch]: edges() needs a tile, got int" in stderr
    assert f"hint: with t: int, as called at {f}:4:16" in stderr


def test_a_checker_failure_in_the_second_look_at_a_def_leaves_the_first_check_as_it_was(tmp_path, monkeypatch):
    from collections import ChainMap

    from engine.check import Checker
    from engine.diagnostics import RuleErrors
    from engine.load import check_file

    first_expr = Checker.expr

    def expr(self, e, want=None):  # fails only in the checks of a def as called (syms is an overlay there)
        if isinstance(self.syms, ChainMap):
            raise RuntimeError("a checker bug")
        return first_expr(self, e, want)

    monkeypatch.setattr(Checker, "expr", expr)
    f = tmp_path / "nested.rules"
    f.write_text(SEVERAL_TYPES.replace("score size(l) * 10 + size(b)", "score outer(n) + nosuch"))
    with pytest.raises(RuleErrors) as info:
        check_file(str(f))
    assert [(d.code, d.span.line) for d in info.value.diagnostics] == [("unknown-name", 11)]


COLLECTION_DEFS = """game "g"
def grown(xs) = xs + [1]
def more(b) = b + bag([2, 2])
def fewer(s) = s - {1}
state { n: 0..1 = 0
        bank: bag<int> = bag([1, 2])
        seen: set<int> = {1, 3} }
action go { n += 1 }
turn { go }
terminal n == 1
score len(grown([5, 6])) * 100 + len(more(bank)) * 10 + len(fewer(seen))
"""


def test_a_def_adds_to_and_takes_from_a_parameter_as_the_collection_on_the_right(tmp_path):
    # by hand: [5, 6] + [1] has 3 items, bag {1, 2} + {2, 2} has 4, set {1, 3} - {1} has 1
    assert checked_score_of_one_game(tmp_path / "collections.rules", COLLECTION_DEFS) == 341


def test_a_def_taking_a_set_from_a_bag_is_an_error_with_the_call(tmp_path):
    f = tmp_path / "collections.rules"
    stderr = errors_of(f, COLLECTION_DEFS.replace("len(fewer(seen))", "len(fewer(bank))"))
    assert f"{f}:4:20: error[type-mismatch]: '-' on bag<int> needs bag<int> or int, got set<int>" in stderr
    assert f"hint: with s: bag<int>, as called at {f}:11:61" in stderr
    assert f"{f}: 1 error\n" in stderr  # the other defs check clean


UNTYPED_OPS = """game "g"
def twice(c) = c + c
def less(c, x) = c - x
state { n: 0..1 = 0
        bank: bag<int> = bag([1, 2])
        seen: set<int> = {1, 3}
        l: list<int> = [4, 5, 4]
        nest: set<set<int>> = {{1}} }
action go { n += 1 }
turn { go }
terminal n == 1
score len(twice(bank)) * 1000 + len(twice(seen)) * 100 + len(less(bank, 2)) * 10 + len(less(l, [4])) + twice(3)
"""


def test_plus_and_minus_between_two_def_parameters_follow_the_kind_of_the_left_value(tmp_path):
    # by hand: bag [1, 2] twice has 4 items, set {1, 3} twice 2, bag [1, 2] less 2 has 1,
    # [4, 5, 4] less [4] is [5], and 3 + 3 = 6: 4000 + 200 + 10 + 1 + 6
    assert checked_score_of_one_game(tmp_path / "untyped_ops.rules", UNTYPED_OPS) == 4217


def test_a_def_called_with_known_types_takes_an_element_out_of_a_set_of_sets(tmp_path):
    # less(nest, {1}) with c: set<set<int>> and x: set<int>: {1} is an element of {{1}}, as in
    # the typed language, so nothing is left (0), and the rest scores 4217 as above
    f = tmp_path / "untyped_ops.rules"
    text = UNTYPED_OPS.replace("score len(twice(bank))", "score len(less(nest, {1})) + len(twice(bank))")
    assert checked_score_of_one_game(f, text) == 4217


def test_an_element_or_a_whole_set_that_cannot_be_told_apart_in_a_def_is_a_rule_error(tmp_path):
    # through `same`, whose result has no known type, the body of `less` is compiled for any
    # values: {{1}} - {1}, take the set {1} out or take 1 out of it? `c - x` at 3:18
    f = tmp_path / "untyped_ops.rules"
    stderr = errors_of(f, UNTYPED_OPS.replace("score len(twice(bank))",
                                              "score len(less(same(nest), {1})) + len(twice(bank))")
                       + "def same(p) = p\n")
    assert (f"{f}:3:18: error[runtime]: '-' on {{{{1}}}} and {{1}}: one element or the whole set? "
            "A def's parameters carry no type") in stderr


CELL_PARTS = """game "g"
const grid = square_grid(2, 3)
def weight(c) = 10 * c.row + c.col
state { n: 0..1 = 0 }
action go { n += 1 }
turn { go }
terminal n == 1
score sum(weight(c) for c in cells(grid)) + cell(4, 7).col
"""


def test_a_cell_gives_its_row_and_column(tmp_path):
    # rows 0-1, columns 0-2: 10 * (0 + 0 + 0 + 1 + 1 + 1) + (0 + 1 + 2) * 2 = 36, then 7; by hand
    assert checked_score_of_one_game(tmp_path / "cells.rules", CELL_PARTS) == 43


UNTYPED_BUILTINS = """game "g"
enum Side { N, E, S, W }
enum Kind { road }
tiles Route: Side -> Kind {
    straight = (road, _, road, _)
}
def as_bag(m) = bag(m)
def name_of(t) = t.name
state { n: 0..1 = 0 }
action go { n += 1 }
turn { go }
terminal n == 1
score len(as_bag({5: 2, 7: 1})) * 100 + len(name_of(straight))
"""


def test_a_def_parameter_holding_a_map_or_a_tile_works_as_the_typed_value_would(tmp_path):
    # bag of a map: each key as many times as its count, 2 + 1 = 3 elements; "straight": 8 letters
    assert checked_score_of_one_game(tmp_path / "untyped.rules", UNTYPED_BUILTINS) == 308


DEF_CHAIN = """game "g"
def same(p) = p
def pick(xs, i) = same(xs)[i] + same(i)
def total(b) = sum(x for x in same(b)) + pick([5, 6, 7], 0)
state { n: 0..1 = 0 }
action go { n += 1 }
turn { go }
terminal n == 1
score pick([5, 6, 7], 1) * 100 + total(bag([2, 2, 3]))
"""


def test_defs_calling_defs_bind_their_arguments_alike_in_every_body(tmp_path):
    # pick([5, 6, 7], 1) = 6 + 1 = 7; total: 2 + 2 + 3 = 7, plus pick([5, 6, 7], 0) = 5 + 0,
    # so 12; 7 * 100 + 12 = 712, by hand
    assert checked_score_of_one_game(tmp_path / "chain.rules", DEF_CHAIN) == 712
