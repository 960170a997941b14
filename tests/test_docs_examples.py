"""The tables of aggregates and built-in functions in docs/language.md: each example gives the
value written beside it, and gives it too when its arguments pass through a def parameter (whose
type the checker does not know, so the engine must tell the kind of value as the rule runs)."""
import re

import pytest

from conftest import ROOT
from engine import RuleErrors, load_game
from engine import types as T
from engine.load import _command_line_expressions
from engine.runtime import format_value

GAME = """game "examples"
enum Side { N, E, S, W }
enum Kind { road, rail }
tiles Route: Side -> Kind {
    curve_highway = (_, road, road, _)
    overpass = (road, rail, road, rail) groups {N, S}, {E, W}
}
def same(p) = p
state { n: 0..1 = 0 }
action go { n += 1 }
turn { go }
terminal n == 1
score n
"""


def table_rows() -> list:
    """(example, value) of the rows of the tables headed `| ... | gives | example | value |`; a
    value that is prose rather than one written value is None."""
    rows, in_table = [], False
    for line in (ROOT / "docs" / "language.md").read_text(encoding="utf-8").splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|"):
            in_table = False
        elif cols[1:] == ["gives", "example", "value"]:
            in_table = True
        elif in_table and not set(cols[0]) <= {"-"}:
            value = re.fullmatch(r"`([^`]*)`", cols[3])
            rows.append((cols[2].strip("`"), value.group(1) if value else None))
    return rows


ROWS = table_rows()


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("examples") / "examples.rules"
    path.write_text(GAME, encoding="utf-8")
    return load_game(str(path))


def value_of(game, text: str, want=T.ANY):
    [(_, fn)] = _command_line_expressions(game, [text], "example", want)
    return fn(game.initial_state())


def test_the_tables_are_found():
    assert len(ROWS) >= 25
    assert sum(value is not None for _, value in ROWS) >= 23


@pytest.mark.parametrize("example, value", [r for r in ROWS if r[1] is not None], ids=[r[0] for r in ROWS
                                                                                     if r[1] is not None])
def test_an_example_gives_the_value_written_beside_it(game, example, value):
    try:  # the value as an expression of the language: "a-b", ["a", "b"], {E: road, S: road}
        assert value_of(game, f"({example}) == ({value})", T.BOOL) is True
    except RuleErrors:  # written as values print: bag[5, 5, 7], (0, 1) for a cell
        assert format_value(value_of(game, example)) == value


def outside_strings(text: str, start: int = 0):
    """(index, character, bracket depth after it) of each character outside string literals."""
    depth, quoted = 0, False
    for i in range(start, len(text)):
        ch = text[i]
        if quoted or ch == '"':
            quoted = not quoted if ch == '"' else quoted
            continue
        depth += (ch in "([{") - (ch in ")]}")
        yield i, ch, depth


def split_arguments(text: str) -> list:
    """The arguments of a call, split at the commas outside brackets and strings."""
    cuts = [i for i, ch, depth in outside_strings(text) if ch == "," and depth == 0]
    return [text[a + 1:b].strip() for a, b in zip([-1] + cuts, cuts + [len(text)])]


def through_same(text: str) -> str:
    """Every argument of every call passed through `same` (a comprehension stays as it is)."""
    out, i = "", 0
    while i < len(text):
        call = re.match(r"[A-Za-z_]\w*\(", text[i:]) if i == 0 or not re.match(r"\w", text[i - 1]) else None
        if call is None:
            out, i = out + text[i], i + 1
            continue
        start = i + call.end()
        end = next(j for j, _, depth in outside_strings(text, start) if depth < 0)  # the closing parenthesis
        args = split_arguments(text[start:end])
        if len(args) == 1 and re.search(r"\bfor\b", args[0]):
            inner = through_same(args[0])
        else:
            inner = ", ".join(f"same({through_same(a)})" for a in args)
        out, i = out + call.group() + inner + ")", end + 1
    return out


def test_through_same_wraps_each_argument_and_leaves_comprehensions():
    assert through_same("len(f(a, [1, 2]))") == "len(same(f(same(a), same([1, 2]))))"
    assert through_same('g("x, y")') == 'g(same("x, y"))'
    assert through_same("sum(x for x in h(1))") == "sum(x for x in h(same(1)))"


@pytest.mark.parametrize("example", [r[0] for r in ROWS])
def test_an_example_gives_the_same_value_with_its_arguments_passed_through_a_def(game, example):
    wrapped = through_same(example)
    try:
        same = value_of(game, f"({example}) == ({wrapped})", T.BOOL)
    except RuleErrors as e:  # the one argument the checker must see written out, and old() of an invariant
        assert "hex_grid() needs its layout second, written as one of" in str(e) or \
            example.startswith("n >= old(") and "old(...) outside an invariant" in str(e), str(e)
        return
    assert same is True, wrapped
