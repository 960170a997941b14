"""`forbid` (parameter settings a game refuses), `merge equal moves`, `merge equal paths` and
`hex_grid` as the language sees them: each with the mistake a user can make in it."""
import pytest

from conftest import first_diagnostic, run_engine
from engine.diagnostics import UsageError
from engine.load import load_game

# Four moves from the start: add 1, 2, 1 or 3. Two of them lead to the same state.
GAME = """
game "small"
param side in {left, right} = left
param allow_right = no
forbid side == right and not allow_right "the right side needs --set allow_right=yes"
MERGE
state { n: int = 0 }
action add "add {k}" { choose k in [1, 2, 1, 3] n += k }
turn { add }
terminal n >= 2
score n
"""


def small(tmp_path, merge: bool, **settings):
    path = tmp_path / "small.rules"
    path.write_text(GAME.replace("MERGE", "merge equal moves" if merge else ""))
    return load_game(str(path), settings)


def test_merge_keeps_one_move_per_next_state_with_the_first_label(tmp_path):
    plain = small(tmp_path, False)
    labels = [m.label for m in plain.legal_moves(plain.initial_state())]
    # without the declaration the two ways to add 1 are two moves (the second labelled [2])
    assert labels == ["add 1", "add 2", "add 1 [2]", "add 3"]
    merged = small(tmp_path, True)
    assert [m.label for m in merged.legal_moves(merged.initial_state())] == ["add 1", "add 2", "add 3"]


PATHS = """
state { x: 0..9 = 0  y: 0..9 = 0 }
action add(k) "add {k}" { x += k }
action four "" { choose k in 1..3  add(k)  add(4 - k) }
turn {
    TOP
    MERGE
    choose j in 1..2
    y += USE
}
terminal x >= 4
score x + y
"""


def paths_game(tmp_path, merge: bool, top: str, use: str):
    path = tmp_path / "paths.rules"
    path.write_text(PATHS.replace("MERGE", "merge equal paths" if merge else "").replace("TOP", top)
                    .replace("USE", use))
    game = load_game(str(path))
    return [m.label for m in game.legal_moves(game.initial_state())]


def test_merge_equal_paths_lets_only_the_first_way_to_a_state_go_on(tmp_path):
    # k = 1, 2, 3 each add 4 in two steps, then j = 1 or 2: 3 x 2 = 6 moves, all with x = 4
    assert len(paths_game(tmp_path, False, "four", "j")) == 6
    # merged after the two steps: only k = 1 goes on, so 2 moves, labelled with its steps
    assert paths_game(tmp_path, True, "four", "j") == ["add 1 | add 3", "add 1 | add 3 [2]"]


def test_merge_equal_paths_in_an_if_of_the_turn_block_merges_there(tmp_path):
    assert paths_game(tmp_path, False, "if x == 0 { four  merge equal paths }", "j") == \
        ["add 1 | add 3", "add 1 | add 3 [2]"]


def test_merge_equal_paths_keeps_apart_paths_that_differ_in_a_name_visible_there(tmp_path):
    # k is chosen in the turn block itself, so it is visible at the merge: the paths stay apart
    # even though x = 4 on each, and y += k tells them apart later: 3 x 2 moves
    assert len(paths_game(tmp_path, True, "choose k in 1..3  add(k)  add(4 - k)", "k")) == 6


def test_merge_equal_paths_keeps_apart_paths_that_pass_the_turn_to_different_players(tmp_path):
    path = tmp_path / "again.rules"
    path.write_text("players A, B\nstate { x: int = 0  t: 0..2 = 0  got: map<player, int> = {A: 0, B: 0} }\n"
                    'action a "a" { x += 1 }\naction again "again" { x += 1  pass to current }\n'
                    "turn { either { a } or { again }  merge equal paths  got[current] += 1  t += 1 }\n"
                    "terminal t == 2\nscore for p: got[p]\n")
    game = load_game(str(path))
    # `a` and `again` both make x = 1, but after `again` A moves again: both moves stay
    assert [(m.label, m.next[-2]) for m in game.legal_moves(game.initial_state())] == [("a", 1), ("again", 0)]


LOOP = """
state { x: 0..9 = 0  y: 0..9 = 0 }
action step "+{k}" { choose k in 1..3  x += k }
turn {
    for d in [1, 1] {
        BODY
    }
    choose j in 1..2
    y += j
}
terminal x >= 1
score x + y
"""


def loop_moves(tmp_path, body: str, merge: bool) -> list:
    path = tmp_path / "loop.rules"
    path.write_text(LOOP.replace("BODY", body + ("  merge equal paths" if merge else "")))
    game = load_game(str(path))
    return [(m.label, m.next) for m in game.legal_moves(game.initial_state())]


def test_merge_equal_paths_in_a_loop_keeps_one_path_per_state_at_each_pass(tmp_path):
    # two steps of +1..+3: 9 paths, 3 x 3, then j = 1 or 2. Merged after each step, the second
    # pass goes on from x = 2, 3, 4, 5, 6 once each (by hand: 1+1, 1+2, 1+3, 2+3, 3+3 first)
    plain = loop_moves(tmp_path, "step", False)
    merged = loop_moves(tmp_path, "step", True)
    assert len(plain) == 18
    assert [label for label, _ in merged] == [f"+{a} | +{b}{j}" for a, b in
                                             [(1, 1), (1, 2), (1, 3), (2, 3), (3, 3)] for j in ("", " [2]")]
    assert {nxt for _, nxt in merged} == {nxt for _, nxt in plain}


def test_merge_equal_paths_in_a_loop_keeps_apart_equal_states_at_other_passes(tmp_path):
    # a step or none at each pass: x = 1 is reached after the first pass (+1) and after the
    # second (none, then +1), with d = 1 both times. Were they one, the path of none then +1
    # would end at the second pass, and so would +1 then none: no way to end with x = 1. Every x
    # from 0 to 6 is reached.
    merged = loop_moves(tmp_path, "optional { step }", True)
    plain = loop_moves(tmp_path, "optional { step }", False)
    assert {nxt for _, nxt in merged} == {nxt for _, nxt in plain}
    assert sorted({nxt[0] for _, nxt in merged}) == list(range(7))
    assert len(merged) == 7 * 2 < len(plain) == 16 * 2


def test_a_forbidden_setting_is_refused_with_the_files_message(tmp_path):
    with pytest.raises(UsageError) as info:
        small(tmp_path, False, side="right")
    text = str(info.value)
    assert text.startswith("--set side=right: the right side needs --set allow_right=yes")
    assert "small.rules:5" in text  # where the forbid is declared
    assert small(tmp_path, False, side="right", allow_right="yes").initial_state() == (0, 0, 0)


def test_a_forbidden_setting_exits_2_with_one_line_and_no_traceback(tmp_path):
    (tmp_path / "small.rules").write_text(GAME.replace("MERGE", ""))
    r = run_engine("validate", tmp_path / "small.rules", "--set", "side=right")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        f"error: --set side=right: the right side needs --set allow_right=yes (forbidden at "
        f"{tmp_path / 'small.rules'}:5)"]


TAIL = "turn { n += 1 }\nterminal n >= 2\nscore n\n"  # the rest of a game around each mistake


@pytest.mark.parametrize("text, code, line, col", [
    # a forbid reads parameters and constants, not the state
    ('state { n: int = 0 }\nforbid n > 1 "no"\n', "not-constant", 2, 8),
    ('state { n: int = 0 }\nparam p = 1\nforbid p + 1 "no"\n', "type-mismatch", 3, 8),
    ('state { n: int = 0 }\nmerge equal moves\nmerge equal moves\n', "duplicate", 3, 1),
    ('state { n: int = 0 }\naction a { merge equal paths }\nturn { a }\n', "misplaced", 2, 12),
    ('state { n: int = 0 }\nturn { try { merge equal paths } else { n += 1 } }\n', "misplaced", 2, 14),
    ('state { n: int = 0 }\nconst g = hex_grid([cell(0, 0)], "even")\n', "type-mismatch", 2, 34),
    ('state { n: int = 0 }\nconst g = hex_grid([1, 2], "even-r")\n', "type-mismatch", 2, 20),
], ids=["forbid-on-state", "forbid-not-bool", "merge-twice", "merge-paths-in-action",
                          "merge-paths-in-try", "hex-layout", "hex-not-cells"])
def test_mistakes_in_the_declarations_point_at_their_token(tmp_path, text, code, line, col):
    d, _ = first_diagnostic(tmp_path / "bad.rules", text + TAIL)
    assert (d.code, d.span.line, d.span.col) == (code, line, col)


HEX = """
game "hex"
# even-r: row 0 is shifted half a hex right, so (0, 0) touches (1, 0) and (1, 1) below it
const g = hex_grid([cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1), cell(1, 2), cell(2, 0)], "even-r")
state { n: int = 0 }
turn { n += 1 }
terminal n >= 1
score n
"""


def test_hex_neighbours_from_the_language(tmp_path):
    from engine.load import command_line_predicates
    path = tmp_path / "hex.rules"
    path.write_text(HEX)
    game = load_game(str(path))
    # drawn by hand (even rows shifted right):
    #    (0,0) (0,1)
    # (1,0) (1,1) (1,2)
    #    (2,0)
    # (0,0) touches (0,1) east, (1,0) south-west and (1,1) south-east. Row 1 is not shifted, so
    # (1,1) has (0,0) north-west, (0,1) north-east, (1,0) and (1,2) beside it and (2,0) south-west.
    # Three in a row: (1,0) (1,1) (1,2) across, and (0,1) (1,1) (2,0) going south-west.
    checks = [
        "set(neighbours(g, cell(0, 0))) == {cell(0, 1), cell(1, 1), cell(1, 0)}",
        "set(neighbours(g, cell(1, 1))) == {cell(0, 0), cell(0, 1), cell(1, 2), cell(2, 0), cell(1, 0)}",
        "set(neighbours(g, cell(2, 0))) == {cell(1, 0), cell(1, 1)}",
        "len(lines(g, 3)) == 2",
        "[cell(0, 1), cell(1, 1), cell(2, 0)] in lines(g, 3)",
    ]
    preds = command_line_predicates(game, checks)
    for text, (_, fn) in zip(checks, preds):
        assert fn(game.initial_state()), text


@pytest.mark.parametrize("grid, message", [
    ("square_grid(0, 3)", "square_grid(0, 3): a grid needs at least one row and one column"),
    ("square_grid(3, -1)", "square_grid(3, -1): a grid needs at least one row and one column"),
    ('hex_grid([c for c in [cell(0, 0)] where c.row > 0], "even-r")', "hex_grid() of no cells"),
], ids=["no-rows", "negative-cols", "hex-no-cells"])
def test_a_grid_without_cells_is_an_error_at_its_call(tmp_path, grid, message):
    path = tmp_path / "empty.rules"
    path.write_text(f'game "g"\nconst g = {grid}\nstate {{ n: int = 0 }}\n'
                    'turn { choose c in cells(g)\n n += 1 }\nterminal n >= 2\nscore n\n')
    r = run_engine("validate", path)
    assert r.returncode == 1
    assert f"empty.rules:2:11: error[runtime]: {message}" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("field, message", [
    ("n: 0..3 = 5", "initial value 5 of 'n' is outside 0..3"),
    ("n: list<1..6> = [2, 9]", "initial value of 'n' holds 9, outside the range 1..6 of its values"),
    ("n: bag<1..6> = bag([7, 1])", "initial value of 'n' holds 7, outside the range 1..6 of its values"),
    ("n: set<0..2> = {0, 3}", "initial value of 'n' holds 3, outside the range 0..2 of its values"),
    ("n: map<int, 0..9> = {1: 10}", "initial value of 'n' holds 10, outside the range 0..9 of its values"),
])
def test_an_initial_value_outside_the_range_of_its_field_is_an_error_at_the_value(tmp_path, field, message):
    # as --from refuses such a state: the range holds from the start, not only from the first store
    path = tmp_path / "start.rules"
    path.write_text(f"state {{ {field}  k: 0..1 = 0 }}\naction step {{ k += 1 }}\nturn {{ step }}\n"
                    "terminal k == 1\nscore k\n")
    r = run_engine("validate", path)
    col = 9 + field.index("= ") + 2
    assert r.returncode == 1 and f"{path}:1:{col}: error[out-of-range]: {message}\n" in r.stderr, r.stderr


def test_an_initial_value_outside_its_range_with_a_parameter_validate_tried_names_the_setting(tmp_path):
    # the default seeds = 2 fits 0..3; validate also sets the game up with seeds = 6, the greatest,
    # and the message says so, as one of a constant that cannot be worked out does
    path = tmp_path / "sow.rules"
    path.write_text("param seeds in 1..6 = 2\nstate { pits: list<0..3> = [seeds, seeds]  k: 0..1 = 0 }\n"
                    "action step { k += 1 }\nturn { step }\nterminal k == 1\nscore k + pits[0]\n")
    r = run_engine("validate", path)
    assert r.returncode == 1 and r.stderr.startswith(
        f"{path}:2:28: error[out-of-range]: initial value of 'pits' holds 6, outside the range 0..3 of its values "
        "(while setting up the game with --set seeds=6)\n"), r.stderr
    r = run_engine("solve", path, "--set", "seeds=4")
    assert "holds 4, outside the range 0..3 of its values (while setting up the game with --set seeds=4)\n" in r.stderr
    assert run_engine("solve", path).returncode == 0
