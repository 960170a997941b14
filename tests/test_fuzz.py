"""Fuzzing: whatever text a rule file holds, the tool answers with its own diagnostics.

Loading a rule file may succeed or raise `RuleErrors` / `UsageError`; playing a
loaded game may raise `RuleRuntimeError`. Anything else (a Python traceback)
is a bug in the engine. Three sources of input:

* whole files generated from the grammar (`hypothesis.extra.lark.from_lark`):
  they parse, and exercise the parser and the checker;
* a fixed game whose expressions, blocks and an extra declaration are generated
  from the grammar: these also get compiled and played;
* the real rule files with small mutations (a deleted span, a duplicated line,
  two swapped tokens, an inserted token, a name or number replaced by another),
  so they are nearly right.

All run derandomized, so CI sees the same examples on every run; inputs that
crashed the engine once (FOUND_BEFORE) are tried first.
"""
from __future__ import annotations

import functools
import random
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from engine import RuleErrors, RuleRuntimeError, UsageError, load_game
from engine.parse import GRAMMAR

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "rules").glob("*.rules"))}

# engine/game.py raises the recursion limit on purpose (deep continuations); Hypothesis warns about it
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

FUZZ = settings(derandomize=True, deadline=None, max_examples=100, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much, HealthCheck.large_base_example])

# ---------------- running one text ----------------


def play_a_little(game, seed: int, steps: int = 8, strict: bool = False) -> None:
    """A few random moves; only RuleRuntimeError may come out besides success (none if strict)."""
    rng = random.Random(seed)
    try:
        s = game.initial_state()
        for _ in range(steps):
            if game.is_terminal(s):
                game.returns(s)
                return
            moves = game.legal_moves(s)
            if not moves:
                return
            move = rng.choice(moves)
            game.describe(move)
            s = game.apply(s, move)
        game.returns(s)
    except RuleRuntimeError:
        if strict:
            raise


def load_and_play(text: str, seed: int = 0, values: dict | None = None) -> None:
    """Write the text to a fresh directory, load it and play a little; diagnostics are fine."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.rules"
        path.write_text(text, encoding="utf-8")
        try:
            game = load_game(str(path), values)
        except (RuleErrors, UsageError) as e:
            if isinstance(e, RuleErrors):
                assert e.diagnostics, "RuleErrors without a diagnostic"
                e.render()  # rendering must not fail either
            return
        play_a_little(game, seed)


# ---------------- texts from the grammar ----------------

KEYWORDS = {t.pattern.value for t in Lark(GRAMMAR.read_text(), parser="lalr", start="start").terminals
            if t.pattern.type == "str" and t.pattern.value.isidentifier()}

# names that mean something in SKELETON below or in the language, so generated games
# get past name resolution often enough to reach the compiler and the runtime
KNOWN_NAMES = ["moves", "total", "coins", "marks", "seen", "colour", "size", "start_coins", "board", "f",
               "bonus", "extra", "spare", "step", "other", "k", "x", "p", "c",
               "Coin", "value", "gold", "Colour", "red", "green", "X", "O",
               "len", "sum", "count", "min", "max", "any", "all", "abs", "sorted", "list", "set", "bag",
               "pairs", "up_to", "sub_bags", "combinations", "index", "keys", "values", "get", "square_grid", "cells",
               "lines", "neighbours",
               "int", "bool", "str", "map", "cell", "grid", "player", "yes", "no", "current"]

names = st.one_of(
    st.sampled_from(KNOWN_NAMES),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True).filter(lambda s: s not in KEYWORDS),
)


WEIGHT = 4
"""With `tame`, how many times over each rule's shortest alternatives are offered."""


@functools.cache
def grammar_texts(start: str = "start", tame: bool = False):
    """Texts drawn from the grammar rule `start`, each token padded with spaces so it lexes as drawn.

    With `tame`, names come from KNOWN_NAMES only and each rule mostly takes one of its
    shortest alternatives (see WEIGHT). Left alone, from_lark picks alternatives uniformly,
    and as most expression rules have more recursive alternatives than plain ones, most
    drawn expressions grow until Hypothesis gives up ("max depth exceeded").
    """
    lark = Lark(GRAMMAR.read_text(), parser="lalr", start="start", propagate_positions=True,
                maybe_placeholders=True)
    terminals, _, ignored = lark.grammar.compile([start], ())
    reachable = {t.name for t in terminals} | set(ignored)
    explicit = {t.name: st.just(f" {t.pattern.value} ") for t in lark.terminals if t.pattern.type == "str"}
    explicit.update({
        "NAME": (st.sampled_from(KNOWN_NAMES) if tame else names).map(lambda s: f" {s} "),
        "INT": st.integers(0, 12).map(lambda i: f" {i} "),
        "STRING": st.sampled_from(['"x"', '""', '"step {moves}"', '"{x} and {y}"', '"a \\"quote\\""',
                                   '"{"', '"}"', '"{1 +}"', '"{moves.value}"', '"\\\\"']).map(lambda s: f" {s} "),
        "UPDATE_OP": st.sampled_from([" += ", " -= "]),
        "COMMENT": st.just(" # note\n"),
        "__IGNORE_1": st.sampled_from([" ", "\n", "\t"]),
    })
    strategy = from_lark(lark, start=start, explicit={k: v for k, v in explicit.items() if k in reachable})
    if tame:
        # LarkStrategy keeps one sampled_from per rule, over its alternatives sorted by length
        # (Hypothesis internals: if they change, fall back to the plain, uniform strategy)
        inner = getattr(strategy, "wrapped_strategy", None)
        rules = getattr(inner, "nonterminal_strategies", None)
        if isinstance(rules, dict) and all(hasattr(v, "elements") for v in rules.values()):
            for name, alternatives in list(rules.items()):
                every = list(alternatives.elements)
                shortest = [a for a in every if len(a) == len(every[0])]
                # repeated rather than st.one_of: every nested strategy costs a level of Hypothesis's depth
                rules[name] = st.sampled_from(shortest * WEIGHT * len(every) + every)
    return strategy


GAME = """\
state {{ moves: 0..9 = 0 }}
action step {{ moves += 1 }}
turn {{ step }}
terminal moves == 9
score {score}
{extra}
"""

# inputs that once crashed the engine; Hypothesis tries them first on every run
FOUND_BEFORE = [
    # types.join gave list<int> and list<bool> the "common type" list<None>; showing it crashed the checker
    GAME.format(score="len(if moves > 1 then [1] else [yes])", extra=""),
    GAME.format(score="len(min([1], [yes]))", extra=""),
    # defs calling each other sent the checker into endless recursion
    GAME.format(score="moves", extra="def f(x) = g(x)\ndef g(x) = f(x)"),
    # a record field given twice passed the checker and crashed the compiler
    GAME.format(score="moves + Coin(1, value: 2).value", extra="record Coin { value: int, gold: bool }"),
    # an enum called `player` replaced the players and crashed the compiler
    GAME.format(score="moves", extra="enum player { a, b }"),
    GAME.format(score="moves", extra="param player in {a, b} = a"),
    # maps, grids and sets have no order, yet sorted/min/max/bags/'<' accepted them (TypeError in play)
    GAME.format(score="len(sorted([{1: 2}, {1: 3}]))", extra=""),
    GAME.format(score="len(bag([square_grid(1, 1), square_grid(2, 2)]))", extra=""),
    GAME.format(score="if (1, {1: 2}) < (1, {1: 3}) then 1 else 0", extra=""),
    # unchecked built-in arguments reached the runtime (TypeError in play)
    GAME.format(score="len(neighbours(square_grid(3, 3), 4))", extra=""),
    GAME.format(score='get({1: 2}, moves, "none") + 1', extra=""),
    # deep nesting overflowed Python's stack (RecursionError) in the parser's transformer
    GAME.format(score="1" + " + 1" * 600, extra=""),
    GAME.format(score="len(" + "[" * 600 + "]" * 600 + ")", extra=""),
    # a rule failing while the game is set up escaped load_game as RuleRuntimeError
    GAME.format(score="moves", extra="param bonus = 1 // 0"),
    GAME.format(score="moves", extra="param bonus in 1..max([x for x in 1..0]) = 1"),
]


def found_before(test):
    for text in FOUND_BEFORE:
        test = example(text=text, seed=0)(test)
    return test


@FUZZ
@found_before
@given(text=grammar_texts(), seed=st.integers(0, 2**16))
def test_texts_generated_from_the_grammar_load_or_give_diagnostics(text, seed):
    load_and_play(text, seed)


# A whole generated file almost never declares a state, a turn, a terminal and a
# score, so it stops at the checker. Here the grammar fills the holes of a game
# that has all of them, so a fair share of examples compile and get played. Holes
# sit inside `len([...])` where a type is needed, so any well-typed expression fits;
# the parameter, constant and initial-value holes are evaluated while loading.
SKELETON = """\
param size in 1..4 = 2
param bonus = len([{param_default}])
const extra = len([{const_value}])
record Coin {{ value: int, gold: bool }}
enum Colour {{ red, green }}
players X, O
const start_coins: list<Coin> = [Coin(1, no), Coin(2, yes)]
const board = square_grid(3, 3)
state {{
    moves: 0..9 = 0 clamp
    total: int = 0
    coins: list<Coin> = start_coins
    marks: map<cell, player> = {{}}
    seen: set<int> = {{}}
    colour: Colour = Colour.red
    spare: int = extra + len([{initial_value}])
}}
def f(x) = {def_body}
action step(k) {label} {{
    moves += 1
    {step_body}
}}
action other {other_body}
turn {{
    choose k in 1..size
    optional {{ other }}
    step(k)
}}
terminal moves >= 9 or len([{terminal}]) > 99
score for p: len([{score}])
{extra}
"""


LABELS = ['"step {k}"', '"{k} by {current}"', '""', '"{f(k)}"', '"{coins[0].value} {marks}"', '"\\{k\\}"',
          '"{seen} {colour}"', '"{k + moves}"', '"{moves"']


def inside_braces(block: str) -> str:
    """A block's statements without the braces (a comment may follow the closing one)."""
    return block[block.index("{") + 1:block.rindex("}")]


@st.composite
def games_with_generated_parts(draw):
    expr, block = grammar_texts("expr", tame=True), grammar_texts("block", tame=True)
    return SKELETON.format(
        param_default=draw(expr),
        const_value=draw(expr),
        initial_value=draw(expr),
        def_body=draw(expr),
        label=draw(st.sampled_from(LABELS)),
        step_body=inside_braces(draw(block)),
        other_body=draw(block),
        terminal=draw(expr),
        score=draw(expr),
        extra=draw(st.one_of(st.just(""), grammar_texts("_decl", tame=True))),
    )


@FUZZ
@given(text=games_with_generated_parts(), seed=st.integers(0, 2**16))
def test_games_with_generated_parts_load_or_give_diagnostics(text, seed):
    load_and_play(text, seed)


# ---------------- mutated copies of the real rule files ----------------

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*|\d+|\.\.|==|!=|<=|>=|\+=|-=|//|->|\S')
INSERTS = ["{", "}", "(", ")", "[", "]", "=", "==", ",", ":", ".", "..", "in", "for", "choose", "let", "if",
           "else", "then", "not", "and", "123", "0", "-1", '"x"', '"{', "yes", "pouch", "coin", "state",
           "action", "turn", "terminal", "score", "where", "clamp"]
NUMBERS = ["0", "1", "2", "9", "99"]


@st.composite
def mutated_rule_texts(draw):
    name = draw(st.sampled_from(sorted(RULE_FILES)))
    text = RULE_FILES[name]
    for _ in range(draw(st.integers(1, 3))):
        tokens = [(mt.start(), mt.end()) for mt in TOKEN.finditer(text)]
        kind = draw(st.sampled_from(["delete-span", "duplicate-line", "swap-tokens", "insert-token",
                                     "replace-name", "replace-number"]))
        if kind == "delete-span":
            start = draw(st.integers(0, max(0, len(text) - 1)))
            length = draw(st.integers(1, 40))
            text = text[:start] + text[start + length:]
        elif kind == "duplicate-line":
            lines = text.splitlines(keepends=True)
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i + 1, lines[i] if lines[i].endswith("\n") else lines[i] + "\n")
            text = "".join(lines)
        elif kind == "swap-tokens" and len(tokens) >= 2:
            i = draw(st.integers(0, len(tokens) - 2))
            j = draw(st.integers(i + 1, min(len(tokens) - 1, i + 30)))
            (a0, a1), (b0, b1) = tokens[i], tokens[j]
            text = text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
        elif kind == "insert-token":
            at = draw(st.sampled_from([s for s, _ in tokens] + [len(text)]))
            text = text[:at] + draw(st.sampled_from(INSERTS)) + " " + text[at:]
        elif kind in ("replace-name", "replace-number"):
            # these keep the syntax, so the checker and the game get to see the change
            kind_of = str.isidentifier if kind == "replace-name" else str.isdigit
            spans = [(a, b) for a, b in tokens if kind_of(text[a:b])]
            if spans:
                a, b = draw(st.sampled_from(spans))
                others = sorted({text[x:y] for x, y in spans}) if kind == "replace-name" else NUMBERS
                text = text[:a] + draw(st.sampled_from(others)) + text[b:]
    return text


PARAMETER_SETTINGS = [None, None, None, {"players": "4"}, {"variant": "blog"}, {"rounds": "2"},
                      {"players": "9"}, {"players": "many"}, {"variant": "blgo"}, {"nosuch": "1"}]


@settings(FUZZ, max_examples=300)  # cheap, and the likeliest to find something
@given(text=mutated_rule_texts(), seed=st.integers(0, 2**16), values=st.sampled_from(PARAMETER_SETTINGS))
def test_mutated_rule_files_load_or_give_diagnostics(text, seed, values):
    load_and_play(text, seed, values)


@settings(FUZZ, max_examples=20)
@given(seed=st.integers(0, 2**16), values=st.sampled_from(PARAMETER_SETTINGS))
def test_the_real_rule_files_play_without_errors(seed, values):
    for name, text in sorted(RULE_FILES.items()):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / name
            path.write_text(text, encoding="utf-8")
            try:
                game = load_game(str(path), values)
            except UsageError:
                continue
            play_a_little(game, seed, steps=12, strict=True)
