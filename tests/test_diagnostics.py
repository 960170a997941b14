"""Broken rule files: each one must give a diagnostic at the right place, never a traceback.

Every snippet below is a small but otherwise complete game (a `state`, a `turn`,
an action, `terminal` and `score`) with exactly one mistake. Most are variations
of this game:

    state { moves: 0..9 = 0 }
    action step { moves += 1 }
    turn { step }
    terminal moves == 9
    score moves

Each row gives the line and column (1-based) of the offending token, counted by
hand. As a check on the counting, every snippet also carries the marker ‸
immediately before the offending token; the marker is removed before the
snippet is written to disk, and the test first checks that the marker sits at
the row's line and column. A mistake in the table therefore shows up as a
failing marker check, not as a wrong expectation about the engine.
"""
from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import pytest

from engine import RuleErrors, UsageError, load_game
from engine.check_expr import BUILTINS, SIGNATURES
from engine.load import check_file

from conftest import run_engine

ROOT = Path(__file__).resolve().parent.parent
MARK = "‸"


def snippet(text: str) -> str:
    """A snippet as written in the table: dedented, without its leading newline."""
    return textwrap.dedent(text).lstrip("\n")


def unmark(text: str) -> tuple[str, int, int]:
    """The text without the marker, and the 1-based line and column of the marker."""
    assert text.count(MARK) == 1, "each snippet has exactly one marker"
    at = text.index(MARK)
    before = text[:at]
    line = before.count("\n") + 1
    col = at - (before.rfind("\n") + 1) + 1
    return text.replace(MARK, ""), line, col


# (id, rule text, code, line, column)
BROKEN = [
    # ---------------- unknown names ----------------
    ("misspelt-name", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal ‸movs == 9
        score moves
        """), "unknown-name", 4, 10),
    ("misspelt-record-field", snippet("""
        record Coin { value: int, gold: bool }
        state {
            moves: 0..9 = 0
            coin: Coin = Coin(1, no)
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score coin.‸valeu
        """), "unknown-name", 9, 12),
    ("misspelt-type", snippet("""
        state {
            moves: 0..9 = 0
            done: ‸boool = no
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "unknown-name", 3, 11),
    ("misspelt-action-in-turn", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { ‸stpe }
        terminal moves == 9
        score moves
        """), "unknown-name", 3, 8),
    ("misspelt-builtin", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score ‸abss(moves)
        """), "unknown-name", 5, 7),
    ("misspelt-enum-value", snippet("""
        enum Colour { red, green }
        state {
            moves: 0..9 = 0
            colour: Colour = Colour.‸gren
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "unknown-name", 4, 29),
    ("misspelt-name-in-label", snippet("""
        state { moves: 0..9 = 0 }
        action step "step {‸movs}" { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "unknown-name", 2, 20),

    # ---------------- type mismatches ----------------
    ("bool-score", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score ‸moves > 3
        """), "type-mismatch", 5, 7),
    ("bool-added-to-int-field", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += ‸yes }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 2, 24),
    ("int-compared-with-record", snippet("""
        record Coin { value: int, gold: bool }
        state {
            moves: 0..9 = 0
            coin: Coin = Coin(1, no)
        }
        action step { moves += 1 }
        turn { step }
        terminal ‸moves == coin
        score moves
        """), "type-mismatch", 8, 10),
    ("int-plus-bool", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves + ‸yes
        """), "type-mismatch", 5, 15),
    ("string-assigned-to-int-field", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves = ‸"many" }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 2, 23),
    ("sum-of-bools", snippet("""
        state {
            moves: 0..9 = 0
            flags: list<bool> = [yes, no]
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score sum(‸flags)
        """), "type-mismatch", 8, 11),
    ("choose-from-an-int", snippet("""
        state { moves: 0..9 = 0 }
        action step {
            choose k in ‸moves
            moves += k
        }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 3, 17),
    ("int-as-require-condition", snippet("""
        state { moves: 0..9 = 0 }
        action step {
            require ‸moves
            moves += 1
        }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 3, 13),
    ("branches-with-different-list-types", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score len(‸if moves > 1 then [1] else [yes])
        """), "type-mismatch", 5, 11),
    ("list-of-bools-compared-with-list-of-ints", snippet("""
        state {
            moves: 0..9 = 0
            flags: list<bool> = [yes]
            counts: list<int> = [1]
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9 or ‸flags == counts
        score moves
        """), "type-mismatch", 8, 24),
    ("sorting-maps", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score len(sorted(‸[{1: 2}, {1: 3}]))
        """), "type-mismatch", 5, 18),
    ("bag-of-maps", snippet("""
        state {
            moves: 0..9 = 0
            seen: ‸bag<map<int, int>> = bag([])
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 3, 11),
    ("tuples-holding-maps-compared-with-less-than", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score if ‸(1, {1: 2}) < (1, {1: 3}) then 1 else 0
        """), "type-mismatch", 5, 10),
    ("neighbours-of-a-number", snippet("""
        const board = square_grid(3, 3)
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score len(neighbours(board, ‸4))
        """), "type-mismatch", 6, 29),
    ("lines-of-a-string-length", snippet("""
        const board = square_grid(3, 3)
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score len(lines(board, ‸"three"))
        """), "type-mismatch", 6, 24),
    ("get-with-a-default-of-another-type", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score get({1: 2}, moves, ‸"none") + 1
        """), "type-mismatch", 5, 26),
    ("bool-as-initial-int", snippet("""
        state { moves: 0..9 = ‸no }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 1, 23),

    # ---------------- duplicates ----------------
    ("duplicate-param", snippet("""
        param size = 3
        param ‸size = 4
        state { moves: 0..9 = 0 }
        action step { moves += size }
        turn { step }
        terminal moves >= 9
        score moves
        """), "duplicate", 2, 7),
    ("duplicate-state-field", snippet("""
        state {
            moves: 0..9 = 0
            ‸moves: 0..9 = 0
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "duplicate", 3, 5),
    ("duplicate-enum-value", snippet("""
        enum Colour { red, green, ‸red }
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "duplicate", 1, 27),
    ("duplicate-record-field", snippet("""
        record Coin { value: int, ‸value: bool }
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "duplicate", 1, 27),
    ("duplicate-action", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        action ‸step { moves += 2 }
        turn { step }
        terminal moves >= 9
        score moves
        """), "duplicate", 3, 8),
    ("two-terminals", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        ‸terminal moves == 8
        score moves
        """), "duplicate", 5, 1),
    ("two-scores", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        ‸score 2 * moves
        """), "duplicate", 6, 1),
    ("duplicate-def-parameter", snippet("""
        def total(a, ‸a) = a + a
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score total(moves, 1)
        """), "duplicate", 1, 14),

    ("record-field-given-twice", snippet("""
        record Coin { value: int, gold: bool }
        state {
            moves: 0..9 = 0
            coin: Coin = Coin(1, ‸value: 2)
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "duplicate", 4, 26),
    ("enum-named-like-a-built-in-type", snippet("""
        enum ‸player { north, south }
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "duplicate", 1, 6),
    ("record-named-like-a-built-in-type", snippet("""
        record ‸cell { a: int }
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "duplicate", 1, 8),

    # ---------------- arity ----------------
    ("record-constructor-arity", snippet("""
        record Coin { value: int, gold: bool }
        state {
            moves: 0..9 = 0
            coin: Coin = ‸Coin(1)
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "arity", 4, 18),
    ("builtin-arity", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score ‸abs(moves, 1)
        """), "arity", 5, 7),
    ("def-arity", snippet("""
        def twice(x) = 2 * x
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score ‸twice(moves, 1)
        """), "arity", 6, 7),
    ("action-arity", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { ‸step(1) }
        terminal moves == 9
        score moves
        """), "arity", 3, 8),
    ("generic-type-arity", snippet("""
        state {
            moves: 0..9 = 0
            seen: ‸list<int, int> = []
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "arity", 3, 11),

    # ---------------- parameter domains ----------------
    ("default-outside-range", snippet("""
        param size in 2..5 = ‸7
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == size
        score moves
        """), "out-of-domain", 1, 22),
    ("default-outside-set", snippet("""
        param size in {2, 4} = ‸3
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == size
        score moves
        """), "out-of-domain", 1, 24),
    ("empty-domain", snippet("""
        param x in ‸5..1 = 5
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == x
        score moves
        """), "empty-domain", 1, 12),
    ("domain-neither-range-nor-set", snippet("""
        param size in ‸3 = 3
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == size
        score moves
        """), "bad-domain", 1, 15),

    # ---------------- missing declarations ----------------
    ("no-terminal", snippet("""
        ‸state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        score moves
        """), "missing-terminal", 1, 1),
    ("no-score", snippet("""
        ‸state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        """), "missing-score", 1, 1),
    ("no-turn", snippet("""
        ‸state { moves: 0..9 = 0 }
        action step { moves += 1 }
        terminal moves == 9
        score moves
        """), "missing-turn", 1, 1),
    ("no-state", snippet("""
        ‸action wait { require yes }
        turn { wait }
        terminal yes
        score 0
        """), "missing-state", 1, 1),

    # ---------------- assignments ----------------
    ("assign-to-param", snippet("""
        param size = 3
        state { moves: 0..9 = 0 }
        action step {
            moves += 1
            ‸size = 4
        }
        turn { step }
        terminal moves == 9
        score moves
        """), "not-assignable", 5, 5),
    ("assign-to-let-name", snippet("""
        state { moves: 0..9 = 0 }
        action step {
            let next = moves + 1
            ‸next += 1
            moves = next
        }
        turn { step }
        terminal moves >= 8
        score moves
        """), "not-assignable", 4, 5),

    # ---------------- recursion, bounds, constants ----------------
    ("actions-calling-each-other", snippet("""
        state { moves: 0..9 = 0 }
        action ‸step {
            moves += 1
            again
        }
        action again { step }
        turn { step }
        terminal moves == 9
        score moves
        """), "recursion", 2, 8),
    ("defs-calling-each-other", snippet("""
        def ‸twice(x) = half(x) * 2
        def half(x) = twice(x) // 2
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score twice(moves)
        """), "recursion", 1, 5),
    ("clamp-on-unranged-field", snippet("""
        state { ‸moves: int = 0 clamp }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "bad-bound", 1, 9),
    ("state-dependent-constant", snippet("""
        const limit = ‸moves
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "not-constant", 1, 15),
    ("state-dependent-range-bound", snippet("""
        state {
            moves: 0..9 = 0
            best: 0..‸moves = 0
        }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "not-constant", 3, 14),
    ("table-entry-reading-the-state", snippet("""
        state { moves: 0..9 = 0 }
        table bonus: int -> int { 0: ‸moves, 1: 10 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves + bonus[0]
        """), "not-constant", 2, 30),
    ("constants-defined-in-a-circle", snippet("""
        const ‸low = high - 1
        const high = low + 1
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == high
        score moves
        """), "cycle", 1, 7),

    # ---------------- names used as the wrong kind of thing ----------------
    ("field-called-like-a-function", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score ‸moves(1)
        """), "not-callable", 5, 7),
    ("field-used-as-an-action", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { ‸moves }
        terminal moves == 9
        score moves
        """), "not-an-action", 3, 8),
    ("builtin-used-as-a-value", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score ‸abs
        """), "not-a-value", 5, 7),
    ("heuristic-used-in-an-expression", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        heuristic twice = 2 * moves
        heuristic more = ‸twice + 1
        """), "not-a-value", 7, 18),
    ("named-argument-to-a-builtin", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score abs(‸x: moves)
        """), "named-argument", 5, 11),

    # ---------------- files ----------------
    ("use-of-a-missing-file", snippet("""
        ‸use "nosuch.rules"
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "missing-file", 1, 1),
    ("file-using-itself", snippet("""
        ‸use "game.rules"
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "cycle", 1, 1),

    # the file is level 0 and `score` level 1, so the 100th minus sign is the first node past 100 levels
    ("expression-nested-too-deeply", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score """ + "-" * 99 + "‸" + "-" * 400 + """moves
        """), "too-deep", 5, 106),

    # ---------------- syntax ----------------
    ("missing-closing-brace", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        terminal moves == 9
        score moves
        turn { step‸
        """), "syntax", 5, 12),
    ("stray-token", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves ‸)
        """), "syntax", 5, 13),
    ("unterminated-string", snippet("""
        state { moves: 0..9 = 0 }
        action step ‸"one more { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "syntax", 2, 13),
    ("string-brace-unclosed", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        view "moves: ‸{moves"
        """), "syntax", 6, 14),
    ("strings-joined-with-plus", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        view ‸"moves: " + text(moves) + "."
        """), "type-mismatch", 6, 6),
    ("single-equals-in-terminal", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves ‸= 9
        score moves
        """), "syntax", 4, 16),
    ("single-equals-in-require", snippet("""
        state { moves: 0..9 = 0 }
        action step {
            require moves ‸= 3
            moves += 1
        }
        turn { step }
        terminal moves == 9
        score moves
        """), "syntax", 3, 19),
    ("score-without-a-value", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score‸
        """), "syntax", 5, 6),
    ("label-without-closing-brace", snippet("""
        state { moves: 0..9 = 0 }
        action step "step ‸{moves" { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "syntax", 2, 19),
    ("either-with-else", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        action rest { }
        turn { either { step } or { rest } ‸else { step } }
        terminal moves == 9
        score moves
        """), "syntax", 4, 36),
    ("either-choice-without-braces", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        action rest { }
        turn { either { step } or ‸rest }
        terminal moves == 9
        score moves
        """), "syntax", 4, 27),
    ("either-blocks-without-or", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        action rest { }
        turn { either { step } ‸{ rest } }
        terminal moves == 9
        score moves
        """), "syntax", 4, 24),
    ("components-of-a-number", snippet("""
        const g = square_grid(3, 3)
        state { moves: 0..9 = 0 }
        action step { moves += len(components(g, ‸moves)) }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 3, 42),
    ("action-as-a-value", snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        action rest { }
        turn { choose a in [‸step, rest] }
        terminal moves == 9
        score moves
        """), "not-a-value", 4, 21),
    ("index-update-of-a-number", snippet("""
        state { moves: 0..9 = 0 }
        action step { ‸moves[1] += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 2, 15),
    ("index-update-with-the-wrong-value", snippet("""
        state { moves: 0..9 = 0  tally: map<int, int> = {1: 0} }
        action step { moves += 1  tally[1] += ‸"one" }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 2, 39),
    ("index-update-with-the-wrong-key", snippet("""
        state { moves: 0..9 = 0  tally: map<int, int> = {1: 0} }
        action step { moves += 1  tally[‸yes] += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), "type-mismatch", 2, 33),
]

ROWS = {row[0]: row for row in BROKEN}

# rows whose hint must suggest the declared name
SUGGESTIONS = {
    "misspelt-name": "moves",
    "misspelt-record-field": "value",
    "misspelt-type": "bool",
    "misspelt-action-in-turn": "step",
    "misspelt-builtin": "abs",
    "misspelt-enum-value": "green",
    "misspelt-name-in-label": "moves",
}

RAW_TERMINAL_NAMES = re.compile(r"RBRACE|LBRACE|RPAR|LPAR|__ANON|\$END|_NL|NAME\b|INT\b|STRING\b|[A-Z]{4,}")


def every_diagnostic(tmp_path: Path, text: str):
    """(code, message, line, column, hint) of each diagnostic of `text`, and the RuleErrors."""
    _, errors = first_diagnostic(tmp_path, text)
    return [(d.code, d.message, d.span.line, d.span.col, d.hint) for d in errors.diagnostics], errors


def first_diagnostic(tmp_path: Path, text: str):
    """Write `text` as game.rules, check it, and return (path, RuleErrors); fails if it checks clean."""
    path = tmp_path / "game.rules"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        check_file(str(path))
    assert info.value.diagnostics, "RuleErrors carries at least one diagnostic"
    return str(path), info.value


def first_at_marker(tmp_path: Path, marked: str):
    """The first diagnostic of the marked text (see unmark), the marker's (line, column), and the
    RuleErrors (for a failure message)."""
    clean, line, col = unmark(marked)
    _, errors = first_diagnostic(tmp_path, clean)
    return errors.diagnostics[0], (line, col), errors


def test_the_table_has_at_least_35_distinct_mistakes():
    assert len(BROKEN) >= 35
    assert len(ROWS) == len(BROKEN), "row ids are unique"


@pytest.mark.parametrize("row_id, text, code, line, col", BROKEN, ids=[row[0] for row in BROKEN])
def test_each_broken_game_reports_its_mistake_first_at_the_offending_token(tmp_path, row_id, text, code, line, col):
    clean, mark_line, mark_col = unmark(text)
    assert (mark_line, mark_col) == (line, col), f"the table's position for {row_id} disagrees with its marker"
    path, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert (d.code, d.span.file, d.span.line, d.span.col) == (code, path, line, col), errors.render()


@pytest.mark.parametrize("row_id", sorted(SUGGESTIONS))
def test_a_misspelt_name_suggests_the_declared_one(tmp_path, row_id):
    clean, _, _ = unmark(ROWS[row_id][1])
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert d.code == "unknown-name"
    assert d.hint is not None and f"did you mean '{SUGGESTIONS[row_id]}'" in d.hint, d.hint


def test_unknown_field_suggests_the_declared_one(tmp_path):
    clean, _, _ = unmark(ROWS["misspelt-record-field"][1])
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert "valeu" in d.message and "Coin" in d.message
    assert "did you mean 'value'" in errors.render()


def test_an_action_used_as_a_value_points_to_either(tmp_path):
    clean, _, _ = unmark(ROWS["action-as-a-value"][1])
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert d.message == "'step' is an action, not a value"
    assert d.hint == "an action runs as a statement (`step`); `either { ... } or { ... }` offers a choice of statements"


@pytest.mark.parametrize("row_id, hint", [
    ("either-with-else", "`either` takes `or` before each block after its first: either { ... } or { ... } or { ... }"),
    ("either-choice-without-braces", "each choice of `either` is a block in braces: or { ... }"),
    ("either-blocks-without-or", "`either` takes `or` between its blocks: either { ... } or { ... }"),
])
def test_a_mistake_after_the_blocks_of_either_hints_at_or(tmp_path, row_id, hint):
    clean, _, _ = unmark(ROWS[row_id][1])
    _, errors = first_diagnostic(tmp_path, clean)
    assert errors.diagnostics[0].hint == hint, errors.render()


def test_else_after_an_if_inside_either_is_no_mistake(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { either { if moves < 5 { step } else { step  step } } or { step } }
        terminal moves >= 8
        score moves
        """))
    game = load_game(str(path))
    assert len(game.legal_moves(game.initial_state())) == 2


# A habit from another language, or an `if` or `score` left unfinished: (what the line says,
# where the caret goes, the hint). Each line replaces the action's line in HABIT_GAME.
HABIT_GAME = """
    state { moves: 0..9 = 0  done: bool = no }
    action step { LINE }
    turn { step }
    terminal moves == 9
    score moves
    """


OR_HINT = "write `or` for either of two conditions, and `either { A } or { B }` for a choice of steps"
IF_HINT = "`if` reads `if COND then A else B` in an expression, `if COND { ... }` as a statement"


@pytest.mark.parametrize("line, hint", [
    ("moves += 1  done = moves == 9 ‸&& yes", "write `and` for both"),
    ("moves += 1  done = moves == 9 ‸& yes", "write `and` for both of two conditions; the elements two sets share "
                                            "are {x for x in a where x in b}"),
    ("moves += 1  done = moves == 9 ‸|| no", OR_HINT),
    ("moves += 1  done = ‸!done", "write `not` to negate"),
    ("moves += 1‸;", "no ';' is needed: a statement ends where the next one begins, also on the same line"),
    ("moves += 1  done = moves == 9 or done == ‸'yes'", 'strings are written in double quotes: "..."'),
    ("moves += if moves < 5 then 1 ‸elif moves < 8 then 2 else 0", "write `else if`"),
    ("moves += 1  done =‸= moves == 9", "to assign write a single '='; '==' compares two values"),
    ("moves += if moves < 5 ‸1 else 2", IF_HINT),
    ("if moves < 5 ‸moves += 1", IF_HINT),
    ("moves‸++", "write `moves += 1`"),
    ("moves += max(1, min(a: 2, b ‸= 3))", "a named argument is written b: VALUE"),
    ("moves += len({1: 2, 3 ‸= 4})", "a map is written {KEY: VALUE, ...}"),
    ("choose ‸(a, b) in [(1, 2)]  moves += a", "the names to take a tuple apart are written without brackets: "
                                               "choose a, b ..."),
    ("let ‸(a, b) = (1, 2)  moves += a",
     "the names to take a tuple apart are written without brackets: let a, b ..."),
    ("moves += 9 ‸/ 2", "numbers in rules are whole: `a // b` divides and rounds down"),
    ("moves += 2 *‸* 3", "there is no power operator: multiply (x * x)"),
    ("moves += 2 ‸^ 3", "there is no `^`: a power is a product (x * x), and an element toggled in a set is "
                        "`if x in s { s -= x } else { s += x }`"),
    ("moves += len([1, 2, 3][1‸:])", "there are no slices: a part of a list is a comprehension, [xs[i] for i in "
                                     "a..b], and the list reversed [xs[len(xs) - 1 - i] for i in 0..len(xs) - 1]"),
    ("moves += 1  done = done.negate‸()",
     "values have no methods: a function takes the value as an argument, as in len(x)"),
    ("moves += count(x for x in 1..3 ‸if x > 1)", "a filter is written with `where`: [x for x in xs where COND]"),
    ("for x in 1..3 ‸if x > moves { moves += 1 }",
     "a filter is written with `where`: for x in xs where COND { ... }"),
    ("choose x in 1..3 ‸if x > moves\n        moves += x",
     "a filter is written with `where`: choose x in xs where COND"),
    ("while moves ‸< 9 { moves += 1 }",
     "there is no `while`: `for x in xs { ... }` runs a block for each value, `for i in 1..n` n times, and "
     "`for i in 1..n where COND { ... }` on each of the n passes where COND holds: a `while COND` of at most n "
     "passes, once nothing makes COND true again (a `var` carries what the passes change)"),
    ("moves‸.last = 1", "a record's field cannot be assigned: store a new record whole, `moves = RECORD(...)` "
                       "with the fields it keeps and the one that changes"),
    ("moves[0]‸[1] = 2", "only one index can be assigned: store the inner list or map whole, as for a list "
                        "`moves[0] = [if j == 1 then NEW else moves[0][j] for j in 0..len(moves[0]) - 1]`"),
    ("require moves ‸≤ 8  moves += 1", "write `<=`"),
    ("require moves <‸> 8  moves += 1", "write `!=`"),
    ("require moves ‸=< 8  moves += 1", "write `<=`"),
    ("require moves ‸=> 8  moves += 1", "write `>=`"),
    ("moves += done ‸? 1 : 2", "write `if COND then A else B`"),
    ("moves‸.append(1)", "values have no methods: `moves += x` adds an element to a list, set or bag field "
                         "(`moves += c` a whole collection), `moves[k] = v` sets an entry of a map"),
    ("moves += 1  moves‸.remove(1)", "values have no methods: `moves -= x` takes an element away from a list, "
                                    "set or bag field"),
    ("moves‸.clear()", "values have no methods: change a field by assigning it, `+=` or `-=`"),
    ("choose x ‸from 1..3  moves += x", "write `in`: choose x in ..."),
    ("moves += count(x for x ‸of 1..3)", "write `in`: for x in ..."),
    ("require 0 < moves ‸< 9  moves += 1", "comparisons do not chain: write `a < b and b < c`"),
    ("require 0 < moves + 1 ‸<= 9  moves += 1", "comparisons do not chain: write `a < b and b < c`"),
    ("choose k in 1..3 wher moves ‸+ k <= 9  moves += k", "`wher` (column 32) may be `where`"),
    ("if done { moves += 2 } ‸elif moves < 3 { moves += 1 }", "write `else if`"),
    ("if done { moves += 2 } ‸elif moves == 3 { moves += 1 }", "write `else if`"),  # not the `==` hint
    ("if done { either { moves += 1 } ‸else { moves += 2 } }",
     "`either` takes `or` before each block after its first: either { ... } or { ... } or { ... }"),
    ("either ‸moves += 2", "`either` takes a block in braces: either { ... }"),
    ("moves += 1  optional ‸done = yes", "`optional` takes a block in braces: optional { ... }"),
    ("moves += 1 + if done then ‸1 else 0",
     "an `if` inside a larger expression goes in brackets: x + (if COND then A else B)"),
    ("require moves in 0‸..8  moves += 1", "a range after `in` goes in brackets: x in (1..5)"),
    ("moves += count(x for x in 1..9 where x in 1‸..moves)", "a range after `in` goes in brackets: x in (1..5)"),
    ("if moves < 5 ‸then moves += 1", "as a statement, `if` takes a block: if COND { ... } (`then` belongs to "
                                     "the expression if COND then A else B)"),
    # a choose filtered with `where`, then a statement `if`: the mistake is the if's own
    ("choose x in 1..3 where x > moves  moves += x  if moves < 5 ‸then done = yes",
     "as a statement, `if` takes a block: if COND { ... } (`then` belongs to the expression if COND then A else B)"),
    ("choose x in 1..3 where x > moves  moves += x  if moves < 5‸: done = yes",
     "a block goes in braces, not after a colon: if COND { ... }"),
    ("for x in 1..3‸: moves += x", "a block goes in braces, not after a colon: for x in xs { ... }"),
    ("if done { moves += 1 } else‸: { moves += 2 }", "a block goes in braces, not after a colon: else { ... }"),
    ("choose x in 1..3‸:  moves += x", "a choose or draw takes no colon: the statements after it go on in the same "
                                      "block"),
    ("moves += 1\n        when moves =‸= 3 { done = yes }",
     "a trigger, `when COND { ... }`, is a declaration of its own, outside the turn and the actions"),
    ("optional\n        ‸}", "`optional` takes a block in braces: optional { ... }"),
    ("choose first in 1..3  moves += first  ‸done = yes", "`first` is a keyword, read here as `first(EXPR for x in xs "
                                                         "where COND) else DEFAULT`; the name bound at line 2 needs "
                                                         "another word"),
    ("moves += if moves < 5 then 1\n        ‸elif moves < 8 then 2 else 0", "write `else if`"),  # on its own line
    ("roll k in ‸1..3  moves += k", "`roll k in ...` is no statement: `draw k in C` draws in a chance block, "
                                   "`choose k in C` in an action, and `for k in C { ... }` repeats a block"),
    ("moves‸, done = 1, yes", "an assignment sets one field: `a, b = x, y` is two statements, a value the first "
                             "changes kept with `let` before it (`let t = xs[i]  xs[i] = xs[j]  xs[j] = t`)"),
])
def test_a_habit_from_another_language_gets_a_hint(tmp_path, line, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(HABIT_GAME.replace("LINE", line)))
    assert (d.code, d.span.line, d.span.col, d.hint) == ("syntax", at_line, at_col, hint), errors.render()


def test_state_fields_between_commas_get_a_hint(tmp_path):
    game = HABIT_GAME.replace("moves: 0..9 = 0  done", "moves: 0..9 = 0‸, done").replace("LINE", "moves += 1")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(game))
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, "the fields of a state stand apart without commas, "
                                                 "on lines of their own or after spaces: state { a: 0..9 = 0  b: int "
                                                 "= 1 }"), errors.render()


@pytest.mark.parametrize("line, message, hint", [
    ("moves += len([moves] + ‸1)", "'+' on list<int> needs list<int>, got int",
     "`xs + [x]` adds one element (the statement `xs += x` appends it)"),
    ("moves += len([moves] - ‸1)", "'-' on list<int> needs list<int>, got int",
     "`xs - [x]` takes every copy of x away (the statement `xs -= x` takes the first)"),
    ('moves += len([moves] + ‸"a")', "'+' on list<int> needs list<int>, got str", None),
])
def test_a_list_and_one_element_is_a_type_mismatch_that_says_how_to_add_it(tmp_path, line, message, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(HABIT_GAME.replace("LINE", line)))
    assert (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "type-mismatch", at_line, at_col, message, hint), errors.render()


def test_an_enum_named_as_a_domain_hints_at_its_values_in_braces(tmp_path):
    game = 'enum Piece { F, I, L }\nparam piece in ‸Piece = L\n' + HABIT_GAME.replace("LINE", "moves += 1")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(game))
    assert (d.code, d.span.line, d.span.col, d.hint) == (
        "bad-domain", at_line, at_col, "the values of the enum Piece are a set in braces: "
        "`param piece in {F, I, L}`"), errors.render()


ORIENTATIONS_HINT = ("a tile is one square of a `tiles` set, a label on each side; a piece of cells turns by its "
                     "cells: `{cell(c.col, -c.row) for c in shape}` a quarter turn clockwise, `{cell(c.row, -c.col) "
                     "for c in shape}` its mirror image (then shift it back to row and column 0)")


def test_orientations_of_a_set_of_cells_hints_at_turning_the_cells(tmp_path):
    game = "const shape = {cell(0, 0), cell(0, 1)}\nconst ways = orientations(‸shape)\n" + \
        HABIT_GAME.replace("LINE", "moves += len(ways)")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(game))
    assert (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "type-mismatch", at_line, at_col, "orientations() needs a tile, got set<cell>", ORIENTATIONS_HINT)


@pytest.mark.parametrize("piece, count", [
    # by hand: the L-tromino's mirror image is one of its turns: 4; the L-tetromino's is not: 8; a
    # square tetromino has one; a straight one two
    ("{cell(0, 0), cell(1, 0), cell(1, 1)}", 4),
    ("{cell(0, 0), cell(1, 0), cell(2, 0), cell(2, 1)}", 8),
    ("{cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1)}", 1),
    ("{cell(0, 0), cell(0, 1), cell(0, 2), cell(0, 3)}", 2),
])
def test_the_turns_the_orientations_hint_writes_give_a_pieces_orientations(tmp_path, piece, count):
    path = tmp_path / "piece.rules"
    path.write_text(f"""game "piece"
const piece = {piece}
def turned(s) = {{cell(c.col, -c.row) for c in s}}
def mirrored(s) = {{cell(c.row, -c.col) for c in s}}
def home(s) = {{cell(c.row - min(d.row for d in s), c.col - min(d.col for d in s)) for c in s}}
def turns(s) = [home(s), home(turned(s)), home(turned(turned(s))), home(turned(turned(turned(s))))]
const ways = set(turns(piece) + turns(mirrored(piece)))
state {{ n: 0..9 = 0 }}
action go {{ n = len(ways) }}
turn {{ go }}
terminal n > 0
score n
""")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["value"] == [count]


def test_a_number_with_a_fraction_is_named_whole_where_it_begins(tmp_path):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(HABIT_GAME.replace("LINE", "moves += ‸1.5")))
    assert (d.span.line, d.span.col, d.message, d.hint) == (
        at_line, at_col, "a number with a fraction, 1.5: numbers in rules are whole",
        "for 1.5 scale the values (tenths, say) and divide with //"), errors.render()
    r = run_engine("check", "rules/tictactoe.rules", "--invariant", "len(marks) < 9.75")
    assert (r.returncode, r.stderr.splitlines()[0]) == (
        2, "--invariant:1:14: error[syntax]: a number with a fraction, 9.75: numbers in rules are whole")


def test_an_expression_on_the_command_line_expects_only_what_may_follow_in_an_expression():
    # the parser's tables merge states of declarations and expressions: what may come after the
    # `0` of `x in 0` in an expression alone is an operator or the end, no declaration word
    r = run_engine("check", "rules/tictactoe.rules", "--invariant", "len(marks) in 0..9")
    assert r.returncode == 2
    assert r.stderr.splitlines()[0] == "--invariant:1:16: error[syntax]: expected the end of the expression, '+', " \
        "'-', 'and' or 'or', got '..'"
    assert "hint: a range after `in` goes in brackets: x in (1..5)" in r.stderr


@pytest.mark.parametrize("text, message", [
    ("len(marks) len(marks)", "--invariant:1:12: error[syntax]: expected the end of the expression, got a name "
                              "'len'"),
    ("len(marks) , 3", "--invariant:1:12: error[syntax]: expected the end of the expression, got ','"),
    ("len(marks) / 2 > 1", "--invariant:1:12: error[syntax]: expected the end of the expression, '!=', '%', '*', "
                           "'+', '-', '.', '..', '//', '<' or something else, got '/'"),
])
def test_an_expression_followed_by_more_says_its_end_was_expected_not_a_statement(text, message):
    r = run_engine("check", "rules/tictactoe.rules", "--invariant", text)
    assert (r.returncode, r.stderr.splitlines()[0]) == (2, message), r.stderr
    assert "statement" not in r.stderr and "keyword" not in r.stderr, r.stderr


@pytest.mark.parametrize("turn, code, hint", [
    ("turn { step ‸| step }", "syntax", OR_HINT),
    ("turn { step ‸or step }", "unknown-name", "a choice of steps is written `either { A } or { B }`; steps one "
                                              "after another need no word between them"),
])
def test_a_choice_of_steps_written_as_a_condition_hints_at_either(tmp_path, turn, code, hint):
    marked = snippet(HABIT_GAME.replace("LINE", "moves += 1").replace("turn { step }", turn))
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.hint) == (code, at_line, at_col, hint), errors.render()


@pytest.mark.parametrize("word", ["draw", "require", "let", "choose", "pass", "either", "optional", "for"])
def test_an_action_named_as_a_statement_begins_cannot_be_called_and_the_hint_says_so(tmp_path, word):
    marked = snippet(HABIT_GAME.replace("action step", f"action {word}").replace("LINE", "moves += 1")
                     .replace("turn { step }", f"turn {{ {word} ‸}}"))
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.hint) == (
        "syntax", at_line, at_col, f"`{word}` begins a statement, so the action `{word}` (line 2) cannot be called "
        "by its name; give the action another name"), errors.render()


def test_a_def_without_brackets_hints_at_empty_brackets_or_a_const(tmp_path):
    marked = snippet(HABIT_GAME.replace("LINE", "moves += bonus()") + "def bonus ‸= 1\n")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.hint) == (
        "syntax", at_line, at_col, "a def lists its parameters in brackets, none as def bonus() = ...; a value "
        "that never changes is a const: const bonus = ..."), errors.render()


@pytest.mark.parametrize("tail", ["", "\naction other { moves += 1 }"])
def test_first_without_else_points_after_its_brackets_not_at_what_follows(tmp_path, tail):
    marked = snippet(HABIT_GAME.replace("LINE", "moves += next_step()")
                     + "def next_step() = first(k for k in 1..3 where moves + k <= 9)‸" + tail + "\n")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.message, d.span.line, d.span.col, d.hint) == (
        "expected 'else' and a default after first(...)", at_line, at_col,
        "first(...) gives the first item that matches, or the value after `else` when none does: "
        "first(x for x in xs where COND) else DEFAULT"), errors.render()


def test_a_conditional_written_as_python_writes_it_hints_that_if_comes_first(tmp_path):
    marked = snippet(HABIT_GAME.replace("LINE", "moves += 1").replace("score moves", "score 1 ‸if done else 0"))
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, "`if` comes first in an expression: "
                                                 "if COND then A else B"), errors.render()


@pytest.mark.parametrize("header, hint", [
    ("action step(n‸: int) { moves += n }", "action step(a, b)"),
    ("def twice(n‸: int) = 2 * n\naction step { moves += twice(1) }", "def twice(a, b)"),
])
def test_a_parameter_written_with_its_type_hints_that_parameters_have_none(tmp_path, header, hint):
    marked = snippet(HABIT_GAME).replace("action step { LINE }", header).replace(
        "turn { step }", "turn { step(1) }" if "step(" in header else "turn { step }")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, f"parameters are names without types (the checker works them out): {hint}"), errors.render()


@pytest.mark.parametrize("const, message", [
    # the first element is the odd one: one error there, not one at each of the others
    ('[‸"0", 0, 4, 8]', "all elements must have one type, int: this one is str"),
    ('[1, ‸"x", 2, "y", 3]', "all elements must have one type, int: this one is str (and 1 more)"),
    ('{1: "a", 2: ‸3}', "all elements must have one type, str: this one is int"),
])
def test_a_literal_with_an_element_of_another_type_is_one_error_at_that_element(tmp_path, const, message):
    clean, at_line, at_col = unmark(snippet(NAMES_GAME.replace("WHAT", "len(xs)")) + f"const xs = {const}\n")
    _, errors = first_diagnostic(tmp_path, clean)
    assert [(d.span.line, d.span.col, d.message) for d in errors.diagnostics] == [
        (at_line, at_col, message)], errors.render()


@pytest.mark.parametrize("field, value, hint", [
    ("bag<int>", "[1, 2]", "`bag(x)` makes a bag of the elements of x"),
    ("set<int>", "[1, 2]", "`set(x)` makes a set of the elements of x"),
    ("list<int>", "{1, 2}", "`list(x)` makes a list of the elements of x"),
    ("bag<int>", '["a"]', None),  # other elements: no such hint
])
def test_a_collection_of_another_kind_hints_at_the_built_in_that_makes_the_kind_wanted(tmp_path, field, value, hint):
    empty = "[]" if field.startswith("list") else "{}"
    text = NAMES_GAME.replace("seen: map<int, int> = {}", f"xs: {field} = {empty}").replace(
        "seen[moves] = WHAT", f"xs = ‸{value}")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(text))
    assert (d.span.line, d.span.col, d.code, d.hint) == (at_line, at_col, "type-mismatch", hint), errors.render()


@pytest.mark.parametrize("block, hint", [
    ("when moves == 3 ‸then { moves += 1 }", "a block follows the condition without `then`: when COND { ... }"),
    ("chance when moves == 3 ‸then { draw d in [1, 2] }",
     "a block follows the condition without `then`: chance when COND { ... }"),
])
def test_then_after_the_condition_of_a_block_gets_a_hint(tmp_path, block, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(NAMES_GAME.replace("WHAT", "1")) + block + "\n")
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, hint), errors.render()


@pytest.mark.parametrize("text, hint", [
    ("chance when moves == 3 { draw d in 1..6 ‸where d > 1  moves += d }",
     "draw from the values allowed instead: draw d in [d for d in 1..6 where ...]"),
    ("chance when moves == 3 {\n draw roll in 2..2 * moves ‸where roll % 2 == 0\n moves += roll }",
     "draw from the values allowed instead: draw roll in [roll for roll in 2..2 * moves where roll % 2 == 0]"),
    ("table edges: bool -> list<(int, int)‸> { yes: [(0, 1)], no: [(1, 2)] }",
     "there is no tuple type: a pair can be a record (`record Edge { a: int, b: int }`, list<Edge>) or a set of "
     "two (list<set<int>>)"),
])
def test_a_filtered_draw_and_a_tuple_type_get_a_hint(tmp_path, text, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(NAMES_GAME.replace("WHAT", "1")) + text + "\n")
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, hint), errors.render()


def test_a_chance_block_without_when_hints_at_when(tmp_path):
    marked = snippet(NAMES_GAME.replace("WHAT", "1")) + "chance ‸{ draw d in [1, 2] }\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, "a chance block says when it runs: chance when COND { ... }"), errors.render()


def test_a_name_bound_by_let_changed_hints_at_var(tmp_path):
    clean, _, _ = unmark(ROWS["assign-to-let-name"][1])
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert (d.message, d.hint) == (
        "'next' is a local name, only state fields and names declared with `var` can be assigned",
        "`var next = ...` in place of `let` declares a name that `=`, `+=` and `-=` change"), errors.render()


def test_a_label_built_with_plus_hints_that_values_go_in_braces(tmp_path):
    marked = snippet(HABIT_GAME.replace('action step { LINE }', 'action step "moves " ‸+ moves { moves += 1 }'))
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, 'a label is one string, with values in braces: "trade {a} for {b}"'), errors.render()


@pytest.mark.parametrize("text", [
    "state { moves: 0..9 = 0 }\naction step {\n    moves += 1\nturn ‸{ step }\nterminal moves == 9\nscore moves\n",
    "state { moves: 0..9 = 0 }\naction step {\n    moves += 1\ndef f(x) ‸= x\nturn { step }\nterminal moves == 9\n"
    "score moves\n",
])
def test_a_declaration_inside_a_block_left_open_names_the_open_brace(tmp_path, text):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, "is a '}' missing? The '{' at line 2, column 13 is still open"), errors.render()


@pytest.mark.parametrize("text, hint", [
    ("state { moves: 0..9 = 0 }\nconst far = [1, 2\n‸action step { moves += 1 }\nturn { step }\nterminal moves == 9\n"
     "score moves\n", "is a ']' missing? The '[' at line 2, column 13 is still open"),
    ("state { moves: 0..9 = 0 }\ndef f(x) = all(x > k\n    for k in 0..3\n‸action step { moves += 1 }\n"
     "turn { step }\nterminal moves == 9\nscore moves\n",
     "is a ')' missing? The '(' at line 2, column 15 is still open"),
    ("state { moves: 0..9 = 0 }\naction step { moves += 1 }\nturn { step }\nscore moves\nterminal (moves == 9‸",
     "is a ')' missing? The '(' at line 5, column 10 is still open"),
    # the error inside a bracket of the declaration's own line: the one open where the line begins
    ("state { moves: 0..9 = 0 }\naction step { moves += 1 }\nturn { step\nterminal all(m > 0 ‸for m in [moves])\n"
     "score moves\n", "is a '}' missing? The '{' at line 3, column 6 is still open"),
])
def test_a_bracket_left_open_names_where_it_opened(tmp_path, text, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, hint), errors.render()


def test_a_block_left_open_at_the_end_of_the_file_names_the_open_brace(tmp_path):
    text = "state { moves: 0..9 = 0 }\naction step { moves += 1 }\nterminal moves == 9\nscore moves\nturn {\n    step‸"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, "is a '}' missing? The '{' at line 5, column 6 is still open"), errors.render()


@pytest.mark.parametrize("text, line, col", [
    # the `if`'s '}' left out: counting gives the action's '}' to the `if`, but it is indented as the action
    ("state { moves: 0..9 = 0 }\naction step {\n    moves += 1\n    if moves > 3 { moves += 1\n}\n"
     "turn ‸{ step }\nterminal moves == 9\nscore moves\n", 4, 18),
    # the same at the end of the file
    ("state { moves: 0..9 = 0 }\nterminal moves == 9\nscore moves\nturn {\n    if moves > 3 { step\n}‸", 5, 18),
    # the blocks inside are closed as indented: the outer block is the one left open
    ("state { moves: 0..9 = 0 }\naction step {\n    if moves > 3 {\n        moves += 1\n    }\n"
     "turn ‸{ step }\nterminal moves == 9\nscore moves\n", 2, 13),
])
def test_a_brace_left_open_inside_a_block_is_found_by_the_indentation_of_the_closing_one(tmp_path, text, line, col):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, f"is a '}}' missing? The '{{' at line {line}, column {col} is still open"), errors.render()


def test_a_syntax_error_outside_any_bracket_expects_no_closing_bracket(tmp_path):
    text = "state { moves: 0..9 = 0 }\naction step { moves += 1 }\nturn { step }\nterminal moves == 9\nscore moves\n" \
           "invariant moves in 0‸..9\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.span.line, d.span.col) == (at_line, at_col)
    assert d.message.startswith("expected ") and not any(c in d.message for c in ("')'", "']'", "'}'")), d.message
    # inside brackets, the one open there is expected
    text = text.replace("invariant moves in 0‸..9", "invariant (moves in 0‸..9)")
    d, _, errors = first_at_marker(tmp_path, text)
    assert "')'" in d.message and "']'" not in d.message and "'}'" not in d.message, d.message


def test_a_statement_word_indented_inside_a_block_is_not_taken_for_a_declaration(tmp_path):
    # `score` is a field here: an unindented line is what names the open brace
    clean, _, _ = unmark(snippet("""
        state { score: 0..9 = 0 }
        action step {
            score ‸== 1
        }
        turn { step }
        terminal score == 9
        score score
        """))
    _, errors = first_diagnostic(tmp_path, clean)
    assert "missing" not in (errors.diagnostics[0].hint or ""), errors.render()


@pytest.mark.parametrize("word, hint", [
    ("return", "an action has no `return`: its path ends with its block, and `require COND` drops the path where "
               "COND is false"),
    ("break", "a `for` runs its block for every value: `for x in xs where COND` keeps only some"),
    ("print(moves)", "rules print nothing: `play --show` prints final states through the file's `view`"),
])
def test_a_statement_from_another_language_gets_a_hint_not_a_misspelt_keyword(tmp_path, word, hint):
    clean, at_line, at_col = unmark(snippet(HABIT_GAME.replace("LINE", f"moves += 1  ‸{word}")))
    _, errors = first_diagnostic(tmp_path, clean)
    name = word.split("(")[0]
    assert [(x.code, x.message, x.span.line, x.span.col, x.hint) for x in errors.diagnostics] == [
        ("unknown-name", f"unknown action '{name}'", at_line, at_col, hint)], errors.render()


@pytest.mark.parametrize("text, hint", [
    ("state { moves: 0..9 = 0 }\n‸sorce \"a book\"\nLINE", "did you mean the keyword 'source'?"),
    ("‸acton go { moves += 1 }\nLINE", "did you mean the keyword 'action'?"),
    ("state { moves: 0..9 = 0 }\naction go {\n    ‸requre moves < 5\n}\nLINE",
     "did you mean the keyword 'require' for 'requre'?"),
    ("state { moves: 0..9 = 0 }\naction go { ‸optinal { moves += 1 } }\nLINE",
     "did you mean the keyword 'optional' for 'optinal'?"),
])
def test_a_misspelt_keyword_gets_a_hint_with_the_keyword(tmp_path, text, hint):
    # a statement keyword misspelt is pointed at, not the later token where parsing gave up
    tail = "action step { moves += 1 }\nturn { step }\nterminal moves == 9\nscore moves\n"
    clean, at_line, at_col = unmark(text.replace("LINE", tail))
    if "state {" not in clean:
        clean, at_line = "state { moves: 0..9 = 0 }\n" + clean, at_line + 1
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert (d.code, d.span.line, d.span.col, d.hint) == ("syntax", at_line, at_col, hint), errors.render()


def test_a_misspelt_statement_keyword_is_one_error_on_its_first_word(tmp_path):
    # `chose m in steps` reads as four calls of actions, and m as unbound below: only the first
    # word is the mistake
    clean, at_line, at_col = unmark(snippet("""
        const steps = [1, 2]
        state { moves: 0..9 = 0 }
        action step {
            ‸chose m in steps
            moves += m
        }
        turn { step }
        terminal moves >= 8
        score moves
        """))
    found, errors = every_diagnostic(tmp_path, clean)
    assert found == [("unknown-name", "unknown action 'chose'", at_line, at_col,
                      "did you mean the keyword 'choose'?")], errors.render()


def test_a_value_assigned_without_let_hints_at_let_and_its_uses_are_not_errors_of_their_own(tmp_path):
    clean, at_line, at_col = unmark(snippet("""
        state { banked: 0..99 = 0  pot: 0..9 = 3  turns: 0..9 = 0 }
        action hold "holds {kept}" {
            ‸kept = pot
            banked += kept
            turns += 1
        }
        turn { hold }
        terminal turns == 3
        score banked
        """))
    found, errors = every_diagnostic(tmp_path, clean)
    assert found == [("unknown-name", "unknown state field 'kept'", at_line, at_col,
                      "to name a value from here on, write `let kept = ...` (`var kept = ...` to change it later; "
                      "a `var` is gone after the block it is declared in)")], errors.render()


def test_an_assignment_to_a_misspelt_field_still_suggests_the_field(tmp_path):
    clean, at_line, at_col = unmark(snippet("""
        state { banked: 0..99 = 0  turns: 0..9 = 0 }
        action hold { ‸bankd = 3  turns += 1 }
        turn { hold }
        terminal turns == 3
        score banked
        """))
    path, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, f"did you mean 'banked'? (declared at {path}:1:9)"), \
        errors.render()


def test_a_name_that_extends_a_keyword_is_not_taken_for_it_misspelt(tmp_path):
    clean, _, _ = unmark(snippet("""
        state { draws: 0..9 = 0 }
        action step { draws ‸+ 1 }
        turn { step }
        terminal draws == 9
        score draws
        """))
    _, errors = first_diagnostic(tmp_path, clean)
    assert "keyword" not in (errors.diagnostics[0].hint or ""), errors.render()


# A state field written without its initial value: (the field's line, with the caret where the
# value should go, and the hint). Each replaces FIELD in FIELD_GAME.
FIELD_GAME = """
    state {
        moves: 0..9 = 0
        FIELD
    }
    action step { moves += 1 }
    turn { step }
    terminal moves == 9
    score moves
    """


@pytest.mark.parametrize("field, hint", [
    ("done: bool‸", "done: bool = VALUE"),
    ("seen: map<int,   int>‸   # by move", "seen: map<int, int> = VALUE"),  # the next line is '}'
    ("done: bool‸  left: 0..9 = 9", "done: bool = VALUE"),
    ("left: 0..9 = 9  done: bool‸", "done: bool = VALUE"),
])
def test_a_state_field_without_an_initial_value_is_named_where_the_value_goes(tmp_path, field, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(FIELD_GAME.replace("FIELD", field)))
    name = hint.split(":")[0]
    assert (d.code, d.message, d.span.line, d.span.col, d.hint) == (
        "syntax", f"state field '{name}' has no initial value", at_line, at_col,
        f"a state field starts with a value: {hint}"), errors.render()


def test_a_record_field_needs_no_initial_value_so_gets_no_such_hint(tmp_path):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet("""
        record Coin { value: int  ‸= 3 }
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """))
    assert (d.span.line, d.span.col) == (at_line, at_col) and "initial value" not in d.message + (d.hint or "")


NAMES_GAME = """
    state { moves: 0..9 = 0  seen: map<int, int> = {} }
    action step { moves += 1  seen[moves] = WHAT }
    turn { step }
    terminal moves == 9
    score moves
    """


@pytest.mark.parametrize("what, message, hint", [
    ("‸size(seen)", "unknown function 'size'", "`len(x)` counts the elements of a collection"),
    ("seen.‸length", "map<int, int> has no fields (looked for 'length')",
     "`len(x)` counts the elements of a collection"),
    ("sum(‸range(3))", "unknown function 'range'", "`a..b` is the whole numbers from a to b, both included"),
    ("if seen[1] == ‸None then 0 else 1", "unknown name 'None'",
     "there is no empty value: `k in m` tells whether a map has the key k"),
    ("len(‸shuffle(keys(seen)))", "unknown function 'shuffle'",
     "a shuffled deck is dealt a card at a time as chance's: a `chance` block draws one (`draw c in deck`) and "
     "takes it out (`deck -= c`)"),
    ("‸randint(1, 6)", "unknown function 'randint'",
     "chance moves in a `chance when COND { ... }` block, which draws its outcomes (`draw d in 1..6`, then "
     "`roll = d`)"),
])
def test_a_name_from_another_language_gets_a_hint(tmp_path, what, message, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(NAMES_GAME.replace("WHAT", what)))
    assert (d.span.line, d.span.col, d.message, d.hint) == (at_line, at_col, message, hint), errors.render()


@pytest.mark.parametrize("what, message, hint", [
    ("moves += 1  seen = ‸seen + {moves: 1}", "'+' does not take a map, got map<int, int>",
     "`m[k] = v` adds or changes an entry of a map field and `m -= k` takes one away; a comprehension such as "
     "{k: m[k] for k in keys(m) where k != x} makes a map with fewer"),
    ("moves += 1  ‸seen += {moves: 1}", "'+=' needs an int, a list, a set or a bag, 'seen' is map<int, int>",
     "`seen[k] = v` adds or changes an entry, and `seen -= k` takes one away"),
])
def test_adding_to_a_map_is_one_error_that_shows_how_to_add_an_entry(tmp_path, what, message, hint):
    clean, at_line, at_col = unmark(snippet(NAMES_GAME.replace("moves += 1  seen[moves] = WHAT", what)))
    _, errors = first_diagnostic(tmp_path, clean)
    assert [(d.span.line, d.span.col, d.message, d.hint) for d in errors.diagnostics] == [
        (at_line, at_col, message, hint)], errors.render()


CELLS_GAME = """
    const board = square_grid(3, 3)
    state { at: cell = cell(0, 0)  seen: set<cell> = {} }
    action step { LINE }
    turn { step }
    terminal len(seen) == 3
    score len(seen)
    """


def test_adding_cells_is_one_error_that_shows_how_to_add_their_parts(tmp_path):
    line = "let to = ‸at + cell(0, 1)  require to in cells(board)  seen += {to}  at = to"
    clean, at_line, at_col = unmark(snippet(CELLS_GAME.replace("LINE", line)))
    _, errors = first_diagnostic(tmp_path, clean)
    assert [(d.span.line, d.span.col, d.message, d.hint) for d in errors.diagnostics] == [
        (at_line, at_col, "'+' does not take a cell, got cell and cell",
         "a cell's parts are added one by one: cell(a.row + b.row, a.col + b.col); neighbours(board, c) gives "
         "the cells next to c")], errors.render()


def test_a_count_of_arguments_is_written_as_words_are(tmp_path):
    clean, _, _ = unmark(snippet(NAMES_GAME.replace("WHAT", "‸len(seen, 1)")))
    _, errors = first_diagnostic(tmp_path, clean)
    assert errors.diagnostics[0].message == "len() takes 1 argument, got 2"


def test_a_built_in_given_too_few_arguments_shows_its_parameters_as_the_reference_names_them(tmp_path):
    clean, _, _ = unmark(snippet(NAMES_GAME.replace("WHAT", "‸get(seen, 1)")))
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert (d.message, d.hint) == ("get() takes 3 arguments, got 2", "the arguments are get(m, k, d)")


def test_the_parameters_of_the_built_ins_are_those_of_the_language_reference():
    # each built-in's row in docs/language.md begins | `name(parameters)` |; one with parameters
    # that may be left out has a row for each way it is called (graph(edges), graph(edges, nodes))
    rows: dict = {}
    for name, parameters in re.findall(r"^\| `(\w+)\(([^`]*)\)` \|",
                                       (ROOT / "docs" / "language.md").read_text(encoding="utf-8"), re.M):
        rows.setdefault(name, []).append(parameters)
    for name, parameters in SIGNATURES.items():
        assert rows.get(name, [])[-1:] == [parameters], name  # the signature is the longest way
        counts = [p.count(",") + 1 for p in rows[name]]
        assert BUILTINS[name] == (min(counts), max(counts)), name


QUOTED_GAME = """
    players A, B
    enum Colour { red, blue }
    state { last: player = A  paint: map<player, Colour> = {}  n: 0..9 = 0 }
    action step { LINE  n += 1 }
    turn { step }
    terminal n == 9
    score for p: n
    """


@pytest.mark.parametrize("line, message, hint", [
    ('require ‸last == "B"', "cannot compare player with str", "B is a player: write it without quotes"),
    ('require ‸"red" != paint[current]', "cannot compare str with Colour",
     "red is a value of Colour: write it without quotes"),
    ('paint[current] = ‸"blue"', "the value must be Colour, got str",
     "blue is a value of Colour: write it without quotes"),
    ('paint[‸"A"] = red', "the key must be player, got str", "A is a player: write it without quotes"),
    ('require paint[‸"A"] == red', "the key must be player, got str", "A is a player: write it without quotes"),
    ('last = ‸"A"', "'last' is player, got str", "A is a player: write it without quotes"),
    ('require ‸last == "C"', "cannot compare player with str", None),  # no player C
    ("require ‸keys(paint) == {}", "cannot compare list<player> with map<any, any>",
     "`len(x) == 0` tells whether a collection is empty"),
    ("require ‸player == A", "unknown name 'player'",
     "the player whose turn it is is `current`; `score for p: EXPR` names each player in turn"),
])
def test_a_value_of_another_type_or_a_name_from_elsewhere_gets_a_hint(tmp_path, line, message, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(QUOTED_GAME.replace("LINE", line)))
    assert (d.span.line, d.span.col, d.message, d.hint) == (at_line, at_col, message, hint), errors.render()


def test_an_initial_value_of_another_kind_of_collection_and_a_tuple_read_by_a_field_get_hints(tmp_path):
    game = "state { open: set<1..9> = ‸1..9  n: 0..3 = 0 }\naction a { n += 1 }\nturn { a }\n" \
           "terminal n == 3\nscore n\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, game)
    assert (d.span.line, d.span.col, d.message, d.hint) == (
        at_line, at_col, "field 'open' is set<int>, its initial value is list<int>",
        "`set(x)` makes a set of the elements of x"), errors.render()
    game = "state { n: 0..3 = 0 }\naction a { let d = (1, 2)  n += d.‸row }\nturn { a }\nterminal n == 3\nscore n\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, game)
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, "a tuple's parts are read by their place, t[0] and t[1] (or named: let a, b = t)"), \
        errors.render()


@pytest.mark.parametrize("line", ["xs[‸cell(0, 0)] = 1", "xs[‸cell(0, 0)] += 1", "require xs[‸cell(0, 0)] == 1"])
def test_a_list_indexed_by_another_type_says_its_index_must_be_int(tmp_path, line):
    game = "state { xs: list<0..3> = [0, 0]  n: 0..9 = 0 }\naction step { LINE  n += 1 }\nturn { step }\n" \
           "terminal n == 9\nscore n\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, game.replace("LINE", line))
    assert (d.span.line, d.span.col, d.message) == (at_line, at_col, "a list index must be int, got cell"), \
        errors.render()


@pytest.mark.parametrize("declaration, hint", [
    ("score ‸p", "`score for p: EXPR` names each player in turn"),
    ("score n\nheuristic h = n - ‸q", "`heuristic h for q = EXPR` names each player in turn"),
    ("score for q: n + ‸p", "a score names its player q here (score for q: ...): write q, or score for p: ..."),
    ("score n\nheuristic h for q = n - ‸p",
     "a heuristic names its player q here (heuristic h for q = ...): write q, or heuristic h for p = ..."),
])
def test_a_player_named_in_a_score_without_for_gets_a_hint(tmp_path, declaration, hint):
    marked = snippet(QUOTED_GAME.replace("LINE", "require yes").replace("score for p: n", declaration))
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.span.line, d.span.col, d.code, d.hint) == (at_line, at_col, "unknown-name", hint), errors.render()


def test_a_misspelt_name_in_a_score_without_for_is_still_taken_for_a_misspelling(tmp_path):
    clean, _, _ = unmark(snippet(QUOTED_GAME.replace("LINE", "require yes").replace("score for p: n", "score ‸nn")))
    _, errors = first_diagnostic(tmp_path, clean)
    assert errors.diagnostics[0].hint.startswith("did you mean 'n'?"), errors.render()


@pytest.mark.parametrize("text", [
    "def twice(x) = let y = x\n    2 * y",
    "def twice(x) =\n    let y = x\n    2 * y",
])
def test_let_in_a_def_hints_that_a_def_is_one_expression(tmp_path, text):
    _, errors = first_diagnostic(tmp_path, snippet(NAMES_GAME.replace("WHAT", "twice(1)")) + text + "\n")
    d = errors.diagnostics[0]
    assert (d.span.line, d.span.col) == ((6, 20) if "= let" in text else (7, 9)), errors.render()  # at `y`
    assert d.hint == ("`let` names a value inside a block of statements; what follows `def` is one expression "
                      "(a `def` can name a part of it)"), errors.render()


def test_score_with_a_player_but_without_for_hints_at_for(tmp_path):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet("""
        players A, B
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score p‸: moves
        """))
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, "`score for p: EXPR` scores each player")


SYNTAX_ROWS = [row[0] for row in BROKEN if row[2] == "syntax"]


@pytest.mark.parametrize("row_id", SYNTAX_ROWS)
def test_syntax_errors_are_described_in_words(tmp_path, row_id):
    clean, _, _ = unmark(ROWS[row_id][1])
    _, errors = first_diagnostic(tmp_path, clean)
    message = errors.diagnostics[0].message
    if row_id not in ("label-without-closing-brace", "string-brace-unclosed"):  # these name the missing "}"
        assert "expected" in message, message
    assert not RAW_TERMINAL_NAMES.search(message), message


def test_a_missing_closing_brace_is_reported_at_the_end_of_the_file(tmp_path):
    clean, _, _ = unmark(ROWS["missing-closing-brace"][1])
    _, errors = first_diagnostic(tmp_path, clean)
    message = errors.diagnostics[0].message
    assert "'}'" in message and "end of the file" in message, message


def test_a_field_named_like_a_keyword_may_begin_any_statement(tmp_path):
    # `turn` is a keyword (the turn declaration) and a field here; after `moves += 1` the lexer
    # offered the keyword, which the parser refused. The game plays 2 turns: moves == turn == 2.
    path = tmp_path / "game.rules"
    path.write_text(snippet("""
        state { moves: 0..2 = 0  turn: 0..2 = 0 }
        action step {
            moves += 1
            turn += 1
        }
        turn { step }
        terminal turn == 2
        score moves
        """))
    game = load_game(str(path))
    s = game.initial_state()
    while not game.is_terminal(s):
        s = game.apply(s, game.legal_moves(s)[0])
    assert tuple(game.returns(s)) == (2,)


def test_a_keyword_misused_as_a_value_is_reported_at_the_keyword(tmp_path):
    # after `+=` only a value fits: `state` is read as a name, and no such name is declared
    clean = snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += state }
        turn { step }
        terminal moves == 9
        score moves
        """)
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert (d.code, d.span.line, d.span.col) == ("unknown-name", 2, 24), errors.render()


def test_a_mistake_inside_a_def_is_reported_once_however_often_the_def_is_called(tmp_path):
    clean, _, _ = unmark(ROWS["duplicate-def-parameter"][1])
    clean = clean.replace("score total(moves, 1)", "score total(moves, 1) + total(1, moves)")
    _, errors = first_diagnostic(tmp_path, clean)
    assert [(d.code, d.span.line, d.span.col) for d in errors.diagnostics] == [("duplicate", 1, 14)]


@pytest.mark.parametrize("row_id, message, hint", [
    ("no-terminal", "the game needs a `terminal` condition", "add a `terminal` condition declaration"),
    ("no-score", "the game needs a `score`", "add a `score` declaration"),
    ("no-turn", "the game needs a `turn`", "add a `turn` declaration"),
    ("no-state", "the game needs a `state`", "add a `state` declaration"),
])
def test_a_missing_declaration_is_named_in_a_plain_sentence(tmp_path, row_id, message, hint):
    clean, _, _ = unmark(ROWS[row_id][1])
    _, errors = first_diagnostic(tmp_path, clean)
    d = errors.diagnostics[0]
    assert (d.message, d.hint) == (message, hint)


@pytest.mark.parametrize("row_id", ["single-equals-in-terminal", "single-equals-in-require"])
def test_a_single_equals_in_a_condition_hints_at_double_equals(tmp_path, row_id):
    clean, _, _ = unmark(ROWS[row_id][1])
    _, errors = first_diagnostic(tmp_path, clean)
    assert "'=='" in (errors.diagnostics[0].hint or ""), errors.render()


def test_an_unterminated_string_hints_at_the_missing_quote(tmp_path):
    clean, _, _ = unmark(ROWS["unterminated-string"][1])
    _, errors = first_diagnostic(tmp_path, clean)
    assert "must end with '\"'" in (errors.diagnostics[0].hint or ""), errors.render()


# Rules that check but cannot be computed while the game is set up; load_game must
# report them like any other mistake (they once escaped as RuleRuntimeError).
FAILING_SETUP = [
    ("parameter-default-divides-by-zero", snippet("""
        param bonus = 1 // ‸0
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves + bonus
        """), 1, 20),
    ("parameter-domain-of-an-empty-max", snippet("""
        param bonus in 1..‸max([x for x in 1..0]) = 1
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves + bonus
        """), 1, 19),
    ("constant-divides-by-zero", snippet("""
        const start = 9 % ‸0
        state { moves: 0..9 = start }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), 1, 19),
    ("table-entry-divides-by-zero", snippet("""
        table start: int -> int { 1: 0, 2: 1 // ‸0 }
        state { moves: 0..9 = start[2] }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), 1, 41),
    ("initial-value-past-the-end-of-a-list", snippet("""
        state { moves: 0..9 = ‸[1, 2][5] }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), 1, 23),
    ("range-bound-divides-by-zero", snippet("""
        state { moves: 0..(9 // ‸0) = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """), 1, 25),
]


@pytest.mark.parametrize("row_id, text, line, col", FAILING_SETUP, ids=[row[0] for row in FAILING_SETUP])
def test_a_rule_that_fails_while_the_game_is_set_up_is_a_diagnostic(tmp_path, row_id, text, line, col):
    clean, mark_line, mark_col = unmark(text)
    assert (mark_line, mark_col) == (line, col), f"the table's position for {row_id} disagrees with its marker"
    path = tmp_path / "game.rules"
    path.write_text(clean, encoding="utf-8")
    check_file(str(path))  # the checker has nothing against it
    with pytest.raises(RuleErrors) as info:
        load_game(str(path))
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.col) == ("runtime", line, col), info.value.render()
    assert f"  {line} | " in info.value.render(), "the source line is shown"


def test_defs_that_are_deep_together_are_too_deep_not_a_crash(tmp_path, engine_cli):
    # each def is 90 levels deep, under the limit for one expression, but every
    # call descends into the next def: checked in one go they would overflow Python's stack
    defs = [f"def d{i}(x) = " + "-" * 90 + (f"d{i + 1}(x)" if i < 7 else "x") for i in range(8)]
    text = "state { moves: 0..9 = 0 }\naction step { moves += 1 }\nturn { step }\nterminal moves == 9\n" \
           + "\n".join(defs) + "\nscore d0(moves)\n"
    path = tmp_path / "game.rules"
    path.write_text(text, encoding="utf-8")
    result = engine_cli("validate", str(path))  # a fresh process: the default recursion limit
    assert result.returncode == 1, result.stderr
    assert f"{path}:1:1: error[too-deep]" in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_three_independent_mistakes_are_all_reported_in_one_run_sorted_by_position(tmp_path):
    text = snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += yes }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score movs
        """)
    # the checker finds the duplicate first (while it declares names), then the
    # type mismatch, then the unknown name; the report is by position
    _, errors = first_diagnostic(tmp_path, text)
    found = [(d.code, d.span.line, d.span.col) for d in errors.diagnostics]
    assert found == [("type-mismatch", 2, 24), ("duplicate", 3, 8), ("unknown-name", 6, 7)]


def test_mistakes_are_sorted_by_position_even_when_found_in_another_order(tmp_path):
    text = snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        score moves + yes
        terminal movs == 9
        """)
    _, errors = first_diagnostic(tmp_path, text)
    found = [(d.code, d.span.line, d.span.col) for d in errors.diagnostics]
    assert found == [("missing-turn", 1, 1), ("type-mismatch", 3, 15), ("unknown-name", 4, 10)]


def test_the_rendered_diagnostic_shows_the_source_line_and_a_caret_under_the_token(tmp_path):
    clean, line, col = unmark(ROWS["int-plus-bool"][1])
    path, errors = first_diagnostic(tmp_path, clean)
    rendered = errors.render().splitlines()
    assert rendered[0].startswith(f"{path}:{line}:{col}: error[type-mismatch]: ")
    source_line = clean.splitlines()[line - 1]
    assert rendered[1] == f"  {line} | {source_line}"
    gutter = f"  {' ' * len(str(line))} | "
    assert rendered[2].startswith(gutter)
    caret_row = rendered[2][len(gutter):]
    assert caret_row.index("^") == col - 1
    assert caret_row.strip() == "^^^", "the caret covers the whole token 'yes'"


def test_the_caret_stays_under_the_token_on_a_tab_indented_line(tmp_path):
    text = ("state { moves: 0..9 = 0 }\naction step {\n\tmoves += yes\n}\n"
            "turn { step }\nterminal moves == 9\nscore moves\n")
    path, errors = first_diagnostic(tmp_path, text)
    d = errors.diagnostics[0]
    assert (d.code, d.span.line, d.span.col) == ("type-mismatch", 3, 11)
    rendered = errors.render().splitlines()
    assert rendered[1] == "  3 | \tmoves += yes"
    assert rendered[2] == "    | \t         ^^^"


def test_the_rendered_hint_follows_the_caret(tmp_path):
    clean, _, _ = unmark(ROWS["misspelt-action-in-turn"][1])
    _, errors = first_diagnostic(tmp_path, clean)
    rendered = errors.render().splitlines()
    assert rendered[3].startswith("hint: did you mean 'step'?")


# ---------------- the command line (engine_cli: tests/conftest.py) ----------------

def test_validate_on_a_broken_file_exits_1_with_a_positioned_error_and_no_traceback(tmp_path, engine_cli):
    clean, line, col = unmark(ROWS["misspelt-name"][1])
    path = tmp_path / "broken.rules"
    path.write_text(clean, encoding="utf-8")
    result = engine_cli("validate", str(path))
    assert result.returncode == 1, result.stderr
    assert f"{path}:{line}:{col}: error[" in result.stderr
    assert "Traceback" not in result.stderr


def test_validate_on_a_missing_file_exits_2_with_one_line(tmp_path, engine_cli):
    result = engine_cli("validate", str(tmp_path / "nosuch.rules"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "nosuch.rules" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("extra, line, col", [
    ('view if 100 // (3 - x) > 10 then "low" else "high"\n', 7, 17),  # fails at x == 3, the last state, at 3 - x
    ('heuristic near = 100 // (3 - x)\n', 7, 26),
], ids=["view", "heuristic"])
def test_validate_runs_the_view_and_the_heuristics_on_every_state_it_reaches(tmp_path, engine_cli, extra, line, col):
    path = tmp_path / "late.rules"
    path.write_text('game "g"\nstate { x: 0..3 = 0 }\naction a { x += 1 }\nturn { a }\nterminal x == 3\n'
                    "score x\n" + extra, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "1")
    assert result.returncode == 1, result.stderr
    assert f"{path}:{line}:{col}: error[runtime]: division by zero (in a random playout)" in result.stderr
    assert "Traceback" not in result.stderr


def test_setting_an_unknown_parameter_exits_2_naming_it(engine_cli):
    result = engine_cli("validate", "rules/nidavellir.rules", "--playouts", "1", "--set", "nosuch=1")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'nosuch'" in lines[0], result.stderr


def test_setting_a_parameter_outside_its_domain_exits_2_naming_the_domain(engine_cli):
    result = engine_cli("validate", "rules/nidavellir.rules", "--playouts", "1", "--set", "players=9")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "players" in lines[0] and "2..5" in lines[0], lines[0]


def test_a_misspelt_variant_lists_or_suggests_the_intended_value(engine_cli):
    result = engine_cli("validate", "rules/nidavellir.rules", "--playouts", "1", "--set", "variant=blgo")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "variant" in lines[0] and "blog" in lines[0], result.stderr
    assert lines[0] == "error: --set variant=blgo: did you mean blog? 'variant' takes one of official, blog"


def test_a_parameter_of_a_set_of_strings_is_set_without_quotes_and_swept(tmp_path, engine_cli):
    path = tmp_path / "walk.rules"
    path.write_text('param goal in {"near", "far"} = "near"\nconst steps = {"near": 2, "far": 5}\n'
                    'state { x: 0..9 = 0 }\naction go "go" { x += 1 }\nturn { go }\nterminal x == steps[goal]\n'
                    "score x\n")
    r = engine_cli("solve", path, "--set", "goal=far", "--json")
    assert (r.returncode, json.loads(r.stdout)["best_score"]) == (0, 5), r.stderr
    r = engine_cli("solve", path, "--set", "goal=nowhere")
    assert (r.returncode, r.stderr) == (2, "error: --set goal=nowhere: 'goal' must be one of far, near\n")
    r = engine_cli("solve", path, "--set", 'goal="far"')  # the quotes of the rule file's string
    assert (r.returncode, r.stderr) == (2, "error: --set goal=\"far\": 'goal' must be one of far, near; without the "
                                           "quotes: --set goal=far\n")
    runs = json.loads(engine_cli("solve", path, "--sweep", "goal", "--json").stdout)["runs"]
    assert [(run["swept"], run["best_score"]) for run in runs] == [("far", 5), ("near", 2)]


def test_a_parameter_set_twice_to_two_values_exits_2_and_the_same_value_twice_is_fine(engine_cli):
    result = engine_cli("validate", "rules/nidavellir.rules", "--playouts", "1", "--set", "variant=blog",
                        "--set", "variant=official")
    assert (result.returncode, result.stderr) == (
        2, "error: --set variant=official: variant is already set to blog by an earlier --set\n")
    result = engine_cli("validate", "rules/nidavellir.rules", "--playouts", "1", "--set", "variant=blog",
                        "--set", "variant=blog")
    assert result.returncode == 0, result.stderr


def test_an_empty_file_names_what_a_game_needs_in_the_order_a_file_has_it(tmp_path):
    path = tmp_path / "empty.rules"
    path.write_text("")
    with pytest.raises(RuleErrors) as info:
        check_file(str(path))
    assert [d.code for d in info.value.diagnostics] == ["missing-state", "missing-turn", "missing-terminal",
                                                        "missing-score"]


def test_the_real_rule_files_check_clean():
    for name in ("nidavellir.rules", "tictactoe.rules"):
        check_file(str(ROOT / "rules" / name))


def test_checking_a_missing_file_is_a_usage_error_not_a_rule_error(tmp_path):
    with pytest.raises(UsageError):
        check_file(str(tmp_path / "nosuch.rules"))


@pytest.mark.parametrize("chance, hint", [
    ("", "add a `turn` declaration"),
    ("chance when n < 3 { draw k in [1, 2]  n = if n + k > 3 then 3 else n + k }\n",
     "add a `turn` declaration (`turn { }` where only chance steps move)"),
])
def test_a_game_without_a_turn_where_chance_moves_hears_of_the_empty_turn(tmp_path, chance, hint):
    path = tmp_path / "dice.rules"
    path.write_text("state { n: 0..3 = 0 }\n" + chance + "terminal n == 3\nscore n\n")
    with pytest.raises(RuleErrors) as info:
        check_file(str(path))
    assert [(d.code, d.hint) for d in info.value.diagnostics] == [("missing-turn", hint)]


@pytest.mark.parametrize("use, code", [("twice", "not-a-value"), ("twice()", "not-callable")])
def test_a_heuristic_inside_an_expression_points_to_a_def_not_to_a_call(tmp_path, use, code):
    clean, _, _ = unmark(ROWS["heuristic-used-in-an-expression"][1])
    _, errors = first_diagnostic(tmp_path, clean.replace("= twice + 1", f"= {use} + 1"))
    d = errors.diagnostics[0]
    assert d.code == code and (d.span.line, d.span.col) == (7, 18)
    assert "def" in d.message and "call it" not in d.message and "cannot be called" not in d.message, d.message


def test_a_brace_left_open_in_a_string_hints_at_the_escape(tmp_path):
    _, errors = first_diagnostic(tmp_path, unmark(ROWS["string-brace-unclosed"][1])[0])
    assert errors.diagnostics[0].hint == "text in braces is an expression to fill in; write \\{ for a brace itself"


def test_a_string_in_the_braces_of_a_string_is_named_as_what_ended_it(tmp_path):
    # the quote before - ends the view's string, leaving `{if ... else ` without its brace
    _, errors = first_diagnostic(tmp_path, "state { have: bool = no  n: 0..1 = 0 }\naction go { n += 1 }\n"
                                 "turn { go }\nterminal n == 1\nscore n\n"
                                 'view "hand: {if have then text(n) else "-"}"\n')
    d = errors.diagnostics[0]
    assert (d.message, d.span.line, d.span.col) == ("string has '{' without a closing '}'", 6, 13)
    assert d.hint == "a string cannot hold another in its braces: name the text (a `let` in the action, a `const` " \
        "or a `def`) and put that name in braces"


@pytest.mark.parametrize("view, message, hint", [
    ('"n is ‸{{moves}}"', "'{{' is no escape: braces in a string hold an expression to fill in",
     "write \\{ and \\} for braces themselves"),
    ('"n is {if moves > 1 then "‸big" else "small"}"', None,
     "a string cannot hold another in its braces: name the text (a `let` in the action, a `const` or a `def`) and "
     "put that name in braces"),
    ('"n is ‸{join("-", [text(moves)])}"', "string has '{' without a closing '}'",
     "a string cannot hold another in its braces: name the text (a `let` in the action, a `const` or a `def`) and "
     "put that name in braces"),
    ('"n is {join(‸\\"-\\", [text(moves)])}"', None,
     "a string cannot hold another in its braces: name the text (a `let` in the action, a `const` or a `def`) and "
     "put that name in braces"),
])
def test_a_python_habit_in_a_string_gets_a_hint(tmp_path, view, message, hint):
    marked = snippet("""
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        view VIEW
        """).replace("VIEW", view)
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.hint) == ("syntax", at_line, at_col, hint), errors.render()
    assert message is None or d.message == message


def test_strings_joined_with_plus_are_one_error_that_points_to_braces_and_join(tmp_path):
    _, errors = first_diagnostic(tmp_path, unmark(ROWS["strings-joined-with-plus"][1])[0])
    [d] = errors.diagnostics
    assert d.message == "'+' does not join strings, got str and str"
    assert d.hint == 'a string fills in the values in its braces: "{a}-{b}"; join(sep, strings) joins a list'


def test_a_constant_that_cannot_be_worked_out_is_an_error_at_its_line_even_if_nothing_uses_it(tmp_path):
    marked = snippet("""
        const spare = ‸[1, 2, 3][5]
        state { moves: 0..9 = 0 }
        action step { moves += 1 }
        turn { step }
        terminal moves == 9
        score moves
        """)
    clean, line, col = unmark(marked)
    path = tmp_path / "game.rules"
    path.write_text(clean, encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        load_game(str(path))
    [d] = info.value.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("runtime", line, col)
    assert d.message.endswith("(while setting up the game)"), d.message


def test_a_directory_given_for_a_rule_file_is_named_as_such(tmp_path, engine_cli):
    r = engine_cli("validate", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr == (f"error: {tmp_path}: a directory, not a rule file "
                        f"(expected a file such as {tmp_path}/NAME.rules)\n")


def test_a_device_given_for_a_rule_file_is_not_called_missing(tmp_path, engine_cli):
    r = engine_cli("validate", os.devnull)
    assert r.returncode == 2
    assert r.stderr == (f"error: {os.devnull}: not a regular file (a device or a pipe?); "
                        "give the path of a rule file\n")
    assert engine_cli("validate", str(tmp_path / "gone.rules")).stderr == f"error: {tmp_path}/gone.rules: no such rule file\n"


def test_another_file_given_for_a_rule_file_gets_a_hint_at_its_first_syntax_error(tmp_path, engine_cli):
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nSome words.\n", encoding="utf-8")
    r = engine_cli("validate", str(notes))
    assert r.returncode == 1
    assert f"{notes}:3:1: error[syntax]:" in r.stderr
    assert "hint: notes.md is not named NAME.rules: is it a rule file?\n" in r.stderr
    # the same text in a file named .rules is a rule file with a mistake: no such hint
    rules = tmp_path / "notes.rules"
    rules.write_text(notes.read_text(encoding="utf-8"), encoding="utf-8")
    assert "is it a rule file" not in engine_cli("validate", str(rules)).stderr


def test_a_file_that_is_not_utf8_is_refused_at_its_first_bad_byte(tmp_path, engine_cli):
    path = tmp_path / "latin1.rules"
    path.write_bytes('game "g"\n# café\n'.encode("latin-1"))  # é is the byte 0xe9, column 6 of line 2
    r = engine_cli("validate", str(path))
    assert r.returncode == 2
    assert r.stderr.startswith(f"error: {path}:2:6: not UTF-8 text (byte 0xe9)")
    assert "Traceback" not in r.stderr


REACH = """game "g"
param extra = no
state { x: 0..5 = 0  rolled: bool = no }
chance when not rolled { draw d in [1, 2]  rolled = yes }
action step "step" { x += 1 }
action jump "jump" { require x > 9  x += 2 }
action bonus "bonus" { x += 0 }
action never "never" { x += 1 }
turn { choose k in [1, 2] if k == 1 { step } else if extra { jump } else { step } }
when x == 2 once { bonus }
terminal x >= 5
score x
"""


def test_validate_warns_of_an_action_that_never_ran_in_its_playouts(tmp_path, engine_cli):
    path = tmp_path / "reach.rules"
    path.write_text(REACH, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "3")
    assert result.returncode == 0, result.stderr
    # jump is called only with extra = yes, and its require never holds (x stays below 6) ...
    assert f"{path}:6:8: warning[unreached]: action 'jump' never ran in 3 random playouts" in result.stderr
    # ... `never` is called by nothing, which is the unused warning alone; the action called by a
    # trigger ran
    assert f"{path}:8:8: warning[unused]: action 'never' is never used" in result.stderr
    for name in ("never", "bonus", "step"):
        assert f"action '{name}' never ran" not in result.stderr
    assert result.stdout == f"{path}: ok (g, 2 warnings)\n"
    # validate also played with the other value of `extra`, where jump is called but still never runs
    assert "nor with another value of extra: a `require` on its way may never hold\n" in result.stderr


def test_an_action_that_never_ran_as_the_game_ends_where_it_begins_is_told_so(tmp_path, engine_cli):
    path = tmp_path / "over.rules"
    path.write_text("state { n: 0..3 = 3 }\naction take \"take\" { n -= 1 }\nturn { take }\nterminal n >= 3\n"
                    "score n\n", encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 0, result.stderr
    assert f"{path}:2:8: warning[unreached]: action 'take' never ran in 2 random playouts\n" in result.stderr
    assert "hint: the initial state is already an end: `terminal` holds there with these parameter values, so no " \
           "move or chance step is ever made\n" in result.stderr, result.stderr
    # with a value given under which it would run, that comes first, after the initial state being an end
    path.write_text("param full in 2..3 = 3\nstate { n: 0..3 = full }\nchance when n == 2 { draw k in 0..1  n -= k }\n"
                    "action take \"take\" { n -= 1 }\nturn { take }\nterminal n >= 3 or n == 0\nscore n\n",
                    encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2", "--set", "full=3")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("hint: the initial state is already an end: `terminal` holds there with these "
                               "parameter values, so no move or chance step is ever made (it ran with --set full=2 "
                               "instead of full=3)\n") == 1, result.stderr
    assert result.stderr.count("(it applied with --set full=2 instead of full=3)\n") == 1, result.stderr
    out = run_engine("solve", path, "--set", "full=3").stdout
    assert "  the initial state is already an end: `terminal` holds there, so no move is made\n" in out, out


def test_an_action_that_never_ran_is_told_where_its_ways_were_dropped(tmp_path, engine_cli):
    # each of the 2 playouts reaches x = 0, 1, 2, 3 and 4 by step; in each of these 10 states the
    # way through jump is dropped at its require (line 3, column 22), which needs x > 20
    path = tmp_path / "jump.rules"
    path.write_text('state { x: 0..9 = 0 }\naction step "step" { x += 1 }\n'
                    'action jump "jump" { require x > 20  x += 2 }\n'
                    'turn { either { step } or { jump } }\nterminal x >= 5\nscore x\n', encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 0, result.stderr
    assert f"{path}:3:8: warning[unreached]: action 'jump' never ran in 2 random playouts\n" in result.stderr
    assert ("hint: no path through it ended a move in the states they reached: 10 ways through it were dropped at "
            "line 3, column 22, where the `require` did not hold\n") in result.stderr, result.stderr


def test_an_invariant_broken_in_a_random_playout_hints_at_check(tmp_path, engine_cli):
    path = tmp_path / "inv.rules"
    path.write_text('state { n: 0..9 = 0 }\naction step(k) "step {k}" { n += k }\nturn { choose k in 1..2 step(k) }\n'
                    'terminal n >= 6\nscore n\ninvariant n != 5\n', encoding="utf-8")
    result = engine_cli("validate", str(path))
    assert result.returncode == 1
    assert f"{path}:6:1: error[invariant]: invariant does not hold after " in result.stderr
    assert (f"hint: `python -m engine check {path}` looks among random lines of play for a short one that leads "
            "here (`--examples 1000` looks at more)\n") in result.stderr
    assert result.stderr.endswith(f"{path}: 1 error\n")


def test_validate_warns_when_no_random_playout_ends(tmp_path, engine_cli):
    path = tmp_path / "endless.rules"
    path.write_text('state { n: int = 0 }\naction step "step" { n += 1 }\nturn { step }\n'
                    'terminal n < 0\nscore n\n', encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2", "--steps", "50")
    assert result.returncode == 0, result.stderr
    assert f"{path}:4:1: warning[no-end]: none of 2 random playouts ended within 50 moves" in result.stderr
    assert "or random play rarely reaches it (a puzzle, say: `solve` finds whether it can)" in result.stderr
    assert result.stdout == f"{path}: ok (endless, 1 warning)\n"
    # a game whose playouts end (here at n == 3) draws no such warning
    path.write_text(path.read_text().replace("terminal n < 0", "terminal n == 3"), encoding="utf-8")
    assert "no-end" not in engine_cli("validate", str(path), "--playouts", "2", "--steps", "50").stderr


def test_validate_warns_when_random_playouts_stop_where_no_move_is_legal(tmp_path, engine_cli):
    # n goes 0, 2, 4, 6, 8; 10 is out of n's range 0..9, so the one move is dropped at 8 (after 4
    # moves) and the game, whose end is n == 9, is not over
    path = tmp_path / "stuck.rules"
    path.write_text('state { n: 0..9 = 0 }\naction step "step" { n += 2 }\nturn { step }\n'
                    'terminal n == 9\nscore n\n', encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "3")
    assert result.returncode == 0, result.stderr
    assert f"{path}:4:1: warning[dead-end]: all of 3 random playouts stopped where no move is legal and the game " \
           "is not over (the first after 4 moves)" in result.stderr
    # validate lists the moves of the first such state again, counting why each way was dropped:
    # here the one way, where n += 2 (line 2, column 22) would make n 10
    assert ("hint: if the game ends there, say so in `terminal` (or declare `dead ends are ends`); if not: at the "
            "first of them, 1 way through the turn was dropped at line 2, column 22, where 'n' would leave its range "
            "0..9 (unless the field says `clamp`)\n") in result.stderr
    assert result.stdout == f"{path}: ok (stuck, 1 warning)\n"
    # the same game, its dead ends declared meant: no warning, and solve says they are ends
    meant = path.read_text(encoding="utf-8") + "dead ends are ends\n"
    path.write_text(meant, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "3")
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{path}: ok (stuck)\n", "")
    solved = engine_cli("solve", str(path)).stdout
    assert "  dead ends: 1 state where no move is legal, each an end (`dead ends are ends`)\n" in solved
    assert "best score: 8\n" in solved  # by hand: stuck at 8, valued by the score there
    # a require that fails on both ways through the turn, counted at its place
    path.write_text('state { n: 0..9 = 0 }\naction step(k) "step {k}" { require n < 4  n += k }\n'
                    'turn { choose k in 1..2 step(k) }\nterminal n == 9\nscore n\n', encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert ("if not: at the first of them, 2 ways through the turn were dropped at line 2, column 29, where the "
            "`require` did not hold\n") in result.stderr, result.stderr
    # a `choose` whose `where` leaves no value (from n = 4 on, none of 1..2 keeps n below 6)
    path.write_text('state { n: 0..9 = 0 }\naction step "step {k}" { choose k in 1..2 where n + k < 6  n += k }\n'
                    'turn { step }\nterminal n == 9\nscore n\n', encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert ("if not: at the first of them, 1 way through the turn was dropped at line 2, column 26, where the "
            "`choose` had no value to take\n") in result.stderr, result.stderr
    path.write_text('state { n: 0..9 = 0 }\naction step "step" { n += 2 }\nturn { step }\n'
                    'terminal n == 9\nscore n\n', encoding="utf-8")
    # the same game ending at n == 8 draws no such warning
    path.write_text(path.read_text().replace("terminal n == 9", "terminal n == 8"), encoding="utf-8")
    assert "dead-end" not in engine_cli("validate", str(path), "--playouts", "3").stderr


def test_validate_with_no_playouts_checks_the_file_and_warns_of_nothing_the_playouts_would_find(tmp_path, engine_cli):
    path = tmp_path / "reach.rules"
    path.write_text(REACH, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "0")
    # the unused action is still named; the unreached one and a game that never ends are not
    # (it warned of every action, "never ran in 0 random playouts", and played with other settings)
    assert (result.returncode, result.stdout) == (0, f"{path}: ok (g, 1 warning)\n"), result.stderr
    assert "unreached" not in result.stderr and "warning[unused]: action 'never'" in result.stderr


def test_validate_counts_one_playout_and_one_move_in_the_singular(tmp_path, engine_cli):
    path = tmp_path / "endless.rules"
    path.write_text('state { n: int = 0 }\naction step "step" { n += 1 }\naction skip "skip" { require n < 0 }\n'
                    'turn { either { step } or { skip } }\nterminal n < 0\nscore n\n', encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "1", "--steps", "1")
    assert "warning[no-end]: the random playout did not end within 1 move\n" in result.stderr
    assert "warning[unreached]: action 'skip' never ran in 1 random playout\n" in result.stderr


@pytest.mark.parametrize("flag, value, message", [
    ("--playouts", "-1", "--playouts -1: expected 0 or more (0: no random playouts)"),
    ("--steps", "0", "--steps 0: expected a positive number"),
])
def test_validate_refuses_a_count_out_of_range(engine_cli, flag, value, message):
    result = engine_cli("validate", str(ROOT / "rules" / "tictactoe.rules"), flag, value)
    assert (result.returncode, result.stdout) == (2, "") and message in result.stderr


POT = """game "pot"
state { banked: 0..30 = 0  pot: 0..30 = 0  rounds: 0..9 = 0 }
action add(k) "add {k}, {pot} in the pot" { pot += k }
action hold "hold {pot}" { banked += pot  pot = 0  rounds += 1 }
action count_round "round {rounds}" { rounds += 1 }
turn { either { add(1) } or { add(2) } or { hold } or { count_round } }
terminal rounds >= 3
score banked
"""


TABLE = """game "t"
enum Colour { red, green, blue, white, black }
table cost: Colour -> int { ENTRIES }
state { n: 0..99 = 0 }
action paint(c) "paint {c}" { n += cost[c] }
turn { choose c in [red, green] paint(c) }
terminal n >= 9
score n
"""


@pytest.mark.parametrize("entries, warning", [
    # 4 of 5 values: meant to cover them all, so black is a warning
    ("red: 1, green: 2, blue: 3, white: 4",
     "3:7: warning[partial-table]: table 'cost' has no entry for black"),
    ("red: 1, green: 2, blue: 3", "3:7: warning[partial-table]: table 'cost' has no entry for white and black"),
    ("red: 1, green: 2", None),  # 2 of 5: partial on purpose
    ("red: 1, green: 2, blue: 3, white: 4, black: 5", None),
])
def test_validate_warns_of_a_table_keyed_by_an_enum_that_misses_a_few_values(tmp_path, engine_cli, entries, warning):
    path = tmp_path / "table.rules"
    path.write_text(TABLE.replace("ENTRIES", entries), encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 0, result.stderr
    if warning is None:
        assert "partial-table" not in result.stderr, result.stderr
    else:
        assert f"{path}:{warning}\n" in result.stderr, result.stderr
        assert "get(cost, k, d) reads d where there is no entry" in result.stderr


def test_a_misspelt_record_field_is_not_said_to_be_declared_where_a_global_of_that_name_is(tmp_path):
    # `power` is both a record field and a state field; the hint must not point at the state field
    text = snippet("""
        record Unit { power: int }
        state { power: 0..9 = 0 }
        action step { power += Unit(‸powr: 1).power }
        turn { step }
        terminal power == 9
        score power
        """)
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.span.line, d.span.col, d.message, d.hint) == (at_line, at_col, "unknown field of Unit 'powr'",
                                                             "did you mean 'power'?"), errors.render()


def test_validate_warns_of_a_label_that_shows_a_field_its_action_resets(tmp_path, engine_cli):
    # hold's label reads pot after `pot = 0`, so every hold would read "hold 0"; add's label shows
    # the pot it made and count_round the round it counted, both on purpose, and draw no warning
    path = tmp_path / "pot.rules"
    path.write_text(POT, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("warning[") == 1, result.stderr
    assert (f"{path}:4:13: warning[stale-label]: the label of 'hold' always shows the value the action gives 'pot' "
            "at line 4: a label is written when its action is done\n") in result.stderr
    assert "hint: to show the value before the change, `let` a copy first (let was = pot) and write {was} in the " \
           "label\n" in result.stderr
    fixed = POT.replace('action hold "hold {pot}" { banked += pot',
                        'action hold "hold {was}" { let was = pot  banked += was')
    path.write_text(fixed, encoding="utf-8")
    assert "stale-label" not in engine_cli("validate", str(path), "--playouts", "2").stderr


@pytest.mark.parametrize("after", ["if k == 1 { n += 2 }", "optional { n += 2 }", "for i in 1..k { n += 2 }",
                                   "add_two", "n = 0"])
def test_a_label_is_not_stale_when_a_later_statement_may_change_the_field(tmp_path, engine_cli, after):
    # n = 0, then maybe n += 2: the label reads 0 or 2 (by hand); `n = 0` again would read 0 always
    path = tmp_path / "pick.rules"
    path.write_text(f"""state {{ n: 0..5 = 1  done: bool = no }}
action add_two {{ n += 2 }}
action pick "n is {{n}}" {{
    choose k in 0..1
    n = 0
    {after}
    done = yes
}}
turn {{ pick }}
terminal done
score n
""", encoding="utf-8")
    stderr = engine_cli("validate", str(path), "--playouts", "2").stderr
    assert ("warning[stale-label]" in stderr) == (after == "n = 0"), stderr


SETTINGS = """game "g"
param mode in {walking, crawling, flying} = walking
param steps in 1..3 = 1
forbid mode == flying and steps == 1 "flying takes more than one step"
state { x: 0..9 = 0 }
action walk "walk" { x += steps }
action crawl "crawl" { x += 1 }
action fly "fly" { x += [1, 2][steps] }
turn { if mode == walking { walk } else if mode == crawling { crawl } else { fly } }
terminal x >= 9
score x
"""


def test_validate_plays_other_parameter_values_for_an_action_the_given_ones_never_run(tmp_path, engine_cli):
    path = tmp_path / "settings.rules"
    path.write_text(SETTINGS, encoding="utf-8")
    # crawl runs with mode=crawling, so it is no warning; fly runs only with mode=flying and steps=2 or 3,
    # two parameters changed at once, which validate does not try (mode=flying alone is forbidden)
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 0, result.stderr
    assert "action 'crawl'" not in result.stderr
    assert f"{path}:8:8: warning[unreached]: action 'fly' never ran in 2 random playouts" in result.stderr
    assert ("nor with another value of mode or steps: a `require` on its way may never hold"
            in result.stderr)
    # values given with --set are kept: with steps=2, mode=flying runs, and `[1, 2][steps]` fails there, on the
    # second move (a failure of the first has no line of moves for check to find)
    path.write_text(SETTINGS.replace("x += [1, 2][steps]", "x += if x > 0 then [1, 2][steps] else 1"))
    result = engine_cli("validate", str(path), "--playouts", "2", "--set", "steps=2")
    assert result.returncode == 1
    assert (f"{path}:8:39: error[runtime]: index 2 is outside a list of 2 elements: [1, 2] (in a random playout with "
            "--set mode=flying)" in result.stderr)
    # the check command in the hint plays with both values
    assert f"`python -m engine check {path} --set steps=2 --set mode=flying` looks among random" in result.stderr
    assert result.stderr.endswith(f"{path}: 1 error\n")
    # with mode given, crawl is still a warning, whose hint says where it runs; fly runs with no
    # other value of mode (flying is forbidden with steps=1) nor of steps
    result = engine_cli("validate", str(path), "--playouts", "2", "--set", "mode=walking")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("warning[unreached]") == 2, result.stderr
    assert (f"{path}:7:8: warning[unreached]: action 'crawl' never ran in 2 random playouts\n"
            in result.stderr)
    assert ("hint: it ran with --set mode=crawling instead of mode=walking, so it may be meant for other values "
            "of mode; if it should run with mode=walking, a `require` on its way may never hold\n") in result.stderr
    assert "action 'fly' never ran in 2 random playouts" in result.stderr
    assert "nor with another value of steps: a `require`" in result.stderr
    assert "value of mode:" not in result.stderr


def test_validate_reports_a_constant_that_fails_with_the_other_value_it_tries(tmp_path, engine_cli):
    path = tmp_path / "settings.rules"
    # fly reads a constant that cannot be worked out with steps=3: [1, 2, 3] has no index 3
    path.write_text(SETTINGS.replace("x += [1, 2][steps]", "x += far").replace(
        "state {", "const far = [1, 2, 3][2 * steps - 3]\nstate {"), encoding="utf-8")
    # fly never runs with mode=walking: validate tries mode=crawling, then (flying being forbidden with steps=1)
    # the other values of steps, which is not given
    result = engine_cli("validate", str(path), "--playouts", "2", "--set", "mode=walking")
    assert result.returncode == 1, result.stderr
    assert (f"{path}:5:13: error[runtime]: index 3 is outside a list of 3 elements: [1, 2, 3] (while setting up the "
            "game with --set mode=walking --set steps=3)") in result.stderr


@pytest.mark.parametrize("line", ["choose k in ‸moves  moves = k", "for k in ‸moves { moves += 1 }"])
def test_a_number_where_a_collection_is_wanted_hints_at_a_range(tmp_path, line):
    marked = snippet(HABIT_GAME.replace("LINE", line))
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.hint) == (
        "type-mismatch", at_line, at_col,
        "a number is no collection: the numbers from 0 to n are the range `0..n` (both ends included)"), errors.render()


def test_a_second_state_block_is_one_error_and_its_fields_are_known(tmp_path):
    text = snippet("""
        state { x: int = 0 }
        state { n: 0..3 = 0  done: bool = no }
        action step { n += 1  done = n == 3 }
        turn { step }
        terminal done
        score n + x
        """)
    path, errors = first_diagnostic(tmp_path, text)
    assert [(d.code, d.span.line, d.message, d.hint) for d in errors.diagnostics] == [
        ("duplicate", 2, "the state is already declared",
         f"first declared at {path}:1:1; a game has one `state` block, with all its fields")]


SHADOWED_CHANCE = """param dice in 1..2 = 2
state { rolled: bool = no  total: 0..12 = 0  rolls: 0..3 = 0 }
chance when not rolled {
    draw a in 1..6
    total = a
    rolled = yes
}
chance when not rolled and dice == 2 {
    draw a in 1..6
    draw b in 1..6
    total = a + b
    rolled = yes
}
action keep { rolls += 1  rolled = no }
turn { keep }
terminal rolls == 3
score total
"""


def test_validate_warns_of_a_chance_block_that_never_applied(tmp_path, engine_cli):
    # the first block's condition holds wherever the second's does, so the second never applies
    path = tmp_path / "dice.rules"
    path.write_text(SHADOWED_CHANCE, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 0, result.stderr
    assert (f"{path}:8:1: warning[unreached]: the chance block never applied in 2 random playouts\n"
            in result.stderr)
    assert ("hint: its condition held in none of the states they reached, nor with another value of dice, or an "
            "earlier chance block's held there too (line 3): the first chance block whose condition holds applies\n"
            in result.stderr)
    # in the right order, the two-dice block applies with dice=2 and the one-die block with dice=1
    fixed = SHADOWED_CHANCE.replace("chance when not rolled {", "chance when not rolled and dice == 1 {")
    path.write_text(fixed, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    result = engine_cli("validate", str(path), "--playouts", "2", "--set", "dice=1")
    assert (f"{path}:8:1: warning[unreached]: the chance block never applied in 2 random playouts\nhint: it "
            "applied with --set dice=2 instead of dice=1, so it may be meant for other values of dice\n"
            in result.stderr.replace("  8 | chance when not rolled and dice == 2 {\n    | ^\n", ""))


BONUS = """game "bonus"
param goal in 1..3 = 3
state { n: 0..9 = 0  bonus: 0..1 = 0 }
action step "step" { n += 1 }
turn { step }
terminal n >= 2
when n == goal once { bonus = 1 }
score n + bonus
"""


def test_validate_warns_of_a_trigger_that_never_fired(tmp_path, engine_cli):
    # every game ends at n = 2 (by hand), so with goal 3 the trigger's condition never holds; with
    # goal 1 or 2 it does
    path = tmp_path / "bonus.rules"
    path.write_text(BONUS, encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2", "--set", "goal=3")
    assert result.returncode == 0, result.stderr
    assert (f"{path}:7:1: warning[unreached]: the trigger never fired in 2 random playouts\n  7 | when n == goal "
            "once { bonus = 1 }\n    | " + "^" * 33 + "\nhint: it fired with --set goal=1 instead of goal=3, so it may be "
            "meant for "
            "other values of goal\n") in result.stderr, result.stderr
    path.write_text(BONUS.replace("n == goal", "n == goal + 5"), encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert ("warning[unreached]: the trigger never fired in 2 random playouts\n" in result.stderr
            and "hint: its condition held after none of the moves they made, nor with another value of goal\n"
            in result.stderr), result.stderr
    path.write_text(BONUS, encoding="utf-8")  # goal 3 by default: it fires with goal 1 or 2, not set
    assert engine_cli("validate", str(path), "--playouts", "2").stderr == ""


def test_validate_sets_the_game_up_with_the_ends_of_a_wide_parameter_range(tmp_path, engine_cli):
    # ten values are more than validate plays with one by one, but the greatest, 10, reads past the
    # end of a list of ten (indexes 0..9); with --set n=4 given, n is not changed
    path = tmp_path / "ends.rules"
    path.write_text("param n in 1..10 = 1\nconst xs = [2 * i for i in 0..9]\nstate { x: int = xs[n] }\n"
                    "action grow { x += 1 }\nturn { grow }\nterminal x >= 20\nscore x\n", encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 1
    assert (f"{path}:3:18: error[runtime]: index 10 is outside a list of 10 elements: "
            "[0, 2, 4, 6, 8, 10, 12, 14, 16, 18] (while setting up the game with --set n=10)\n") in result.stderr
    assert "; validate tries the least and the greatest value of each parameter not given with --set: n=10 is the " \
        "greatest of 1..10\n" in result.stderr, result.stderr
    numbers = tmp_path / "numbers.rules"  # a parameter of a set of numbers: its least and greatest too
    numbers.write_text(path.read_text().replace("param n in 1..10 = 1", "param n in {1, 4, 10} = 1"))
    result = engine_cli("validate", str(numbers), "--playouts", "2")
    assert result.returncode == 1 and "index 10 is outside a list of 10 elements" in result.stderr
    assert "n=10 is the greatest of 1, 4, 10\n" in result.stderr, result.stderr
    assert engine_cli("validate", str(path), "--playouts", "2", "--set", "n=4").returncode == 0
    assert engine_cli("validate", str(path), "--playouts", "0").returncode == 0  # the file alone
    result = engine_cli("solve", str(path), "--set", "n=10")  # a value given: named as given
    assert result.returncode == 1 and result.stderr.startswith(
        f"{path}:3:18: error[runtime]: index 10 is outside a list of 10 elements: "
        "[0, 2, 4, 6, 8, 10, 12, 14, 16, 18] (while setting up the game with --set n=10)\n"), result.stderr


def test_a_chance_block_that_never_turns_its_condition_off_stops_validate_with_a_warning(tmp_path, engine_cli):
    # the roll adds a die to the bag but leaves `to_roll` at 1, so chance moves at every step and the
    # player never does: validate stops after 200 chance steps in a row, at the block's line
    path = tmp_path / "reroll.rules"
    path.write_text("state { dice: bag<1..6> = {}  to_roll: 0..1 = 1  kept: bool = no }\n"
                    "chance when to_roll > 0 { draw d in 1..6  dice += d }\n"
                    "action keep { kept = yes }\nturn { keep }\nterminal kept\nscore sum(dice)\n", encoding="utf-8")
    result = engine_cli("validate", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(f"{path}:2:1: warning[chance-run]: chance moved 200 times in a row and no player "
                                    "moved (random playout 1, after 200 steps); validate stopped there\n"), \
        result.stderr
    assert "unreached" not in result.stderr and "engine check" not in result.stderr, result.stderr
    fixed = tmp_path / "roll.rules"  # the roll sets what is left to roll to 0: no warning
    fixed.write_text(path.read_text().replace("dice += d }", "dice += d  to_roll = 0 }"), encoding="utf-8")
    assert engine_cli("validate", str(fixed)).stderr == ""
    race = tmp_path / "race.rules"  # a game only chance moves in: 250 to 500 rolls of 1 or 2, no warning
    race.write_text("state { x: 0..500 = 0 }\nchance when x < 500 { draw d in 1..2  x = min(500, x + d) }\n"
                    "turn { }\nterminal x >= 500\nscore x\n", encoding="utf-8")
    assert engine_cli("validate", str(race), "--playouts", "2").stderr == ""


def test_validate_plays_the_ends_of_a_parameter_range_it_was_not_given(tmp_path, engine_cli):
    # a die of 6 faces rolls past the field's 0..3, which holds the rolls of the default 3 faces; every
    # action runs with the default, so no unreached action leads validate to other values
    path = tmp_path / "die.rules"
    path.write_text("param faces in 1..6 = 3\nstate { roll: 0..3 = 1  turns: 0..5 = 0 }\n"
                    "chance when roll == 0 { draw d in 1..faces  roll = d }\naction throw { roll = 0  turns += 1 }\n"
                    "turn { throw }\nterminal turns == 5\nscore turns\n", encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "2")
    assert result.returncode == 1, result.stderr
    assert "error[runtime]: the outcomes of the chance block weigh 1/2 in all: expected 1 (in a random " \
        "playout with --set faces=6)" in result.stderr, result.stderr
    assert engine_cli("validate", str(path), "--playouts", "2", "--set", "faces=2").returncode == 0  # given: kept


@pytest.mark.parametrize("default, needs, warned", [(0, "h > 0", False), (10, "h == 0", False), (10, "h == 20", False),
                                                   (10, "h == 11", False), (0, "h == 7", True)])
def test_validate_plays_a_wide_range_with_the_numbers_next_to_its_value_its_ends_and_its_middle(
        tmp_path, engine_cli, default, needs, warned):
    # 21 values are more than validate plays one by one: it tries h - 1 and h + 1, 0, 10 and 20
    path = tmp_path / "wide.rules"
    path.write_text(f"param h in 0..20 = {default}\nstate {{ x: 0..3 = 0 }}\naction step {{ x += 1 }}\n"
                    f"action bonus {{ require {needs}  x = 3 }}\nturn {{ either {{ step }} or {{ bonus }} }}\n"
                    "terminal x == 3\nscore x\n", encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "3")
    assert result.returncode == 0, result.stderr
    assert ("warning[unreached]: action 'bonus' never ran" in result.stderr) == warned, result.stderr
    assert ("nor with another value of h (1, 10, 20 of 0..20): " in result.stderr) == warned, result.stderr


COLLECTION_GAME = """state { open: set<int> = set(1..4)  moves: 0..9 = 0 }
action step { moves += 1 }
turn { step }
terminal moves == 9
score moves
"""


@pytest.mark.parametrize("old, new, message, col, hint", [
    ("set(1..4)", "{1..4}", "the elements here must be int, the type of where they go: this one is list<int>", 27,
     "a range in brackets or braces is one element, a list of its numbers: the range alone is that list, and "
     "set(a..b) the set of them"),
    ("moves += 1", "open -= [1, 2]", "'open -=' needs int or set<int>, got list<int>", 23,
     "set(...) makes set<int> of it"),
    ("moves += 1", "moves += (1, 2)[moves - moves]", "a tuple of 2 needs a number 0..1 as index, written out", 31,
     "the parts of a tuple may have types of their own, so its index is a number written out, such as [0]; a "
     "list takes any index"),
], ids=["range-in-braces", "list-taken-from-a-set", "tuple-index-worked-out"])
def test_a_collection_of_the_wrong_kind_hints_at_the_one_wanted(tmp_path, old, new, message, col, hint):
    text = COLLECTION_GAME.replace(old, new, 1)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if new in x)
    found, errors = every_diagnostic(tmp_path, text)
    assert found == [("type-mismatch", message, line, col, hint)], errors.render()


def test_a_list_none_of_whose_elements_fits_its_declared_type_asks_whether_that_type_is_meant(tmp_path):
    # list<list<int>> written where list<int> was meant: every element is an int, not a list
    found, errors = every_diagnostic(tmp_path, "const start: list<list<int>> = [4, 5, 0]\n"
                                     "state { board: list<list<int>> = start }\nturn { board = board }\n"
                                     "terminal len(board) > 0\nscore 0\n")
    assert found == [("type-mismatch", "the elements here must be list<int>, the type of where they go: this one is "
                      "int (and 2 more)", 1, 33, "none of them is: is the type declared where this value goes (a "
                      "field, a constant, a `var`) the one meant?")], errors.render()


def test_an_invariant_broken_in_the_initial_state_shows_that_state_and_no_line_to_look_for(tmp_path, engine_cli):
    path = tmp_path / "start.rules"
    path.write_text("state { xs: list<int> = [1, 2, 3] }\naction grow { xs += 4 }\nturn { grow }\n"
                    "terminal len(xs) >= 5\nscore len(xs)\ninvariant sum(xs) == 0\n", encoding="utf-8")
    result = engine_cli("validate", str(path))
    assert result.returncode == 1
    assert (f"{path}:6:1: error[invariant]: invariant does not hold in the initial state\n" in result.stderr)
    assert 'hint: the state as it starts: {"xs": [1, 2, 3]}\n' in result.stderr
    assert "looks among random lines" not in result.stderr


def test_a_field_named_like_an_enum_value_is_one_error_not_one_for_each_use(tmp_path):
    # before, each use of `red` was checked as the enum value: 4 more errors, each about a type
    text = snippet("""
        enum color { red, blue }
        state { red: 0..5 = 0  pick: color = blue }
        action add { require red < 5  red += 1  pick = red }
        turn { add }
        terminal red == 5
        score red
        """)
    path, errors = first_diagnostic(tmp_path, text)
    assert [(d.code, d.span.line, d.span.col, d.message, d.hint) for d in errors.diagnostics] == [
        ("duplicate", 2, 9, "'red' is already declared",
         f"first declared at {path}:1:14, as a value of enum color; one of the two needs another name")]


def test_a_range_written_after_in_is_pointed_at_with_the_range_as_the_type(tmp_path):
    marked = snippet("""
        state { n: int ‸in 0..5 = 0 }
        action step { n += 1 }
        turn { step }
        terminal n == 5
        score n
        """)
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "syntax", at_line, at_col, "state field 'n': expected '=' and its initial value, got 'in'",
        "a range is the field's type: n: 0..5 = VALUE"), errors.render()


def test_a_draw_with_weights_or_from_a_map_hints_at_a_bag(tmp_path):
    weighted = "draw draws from a bag: draw x in bag({2: 9, 4: 1}) gives 2 nine times in ten"
    game = """state { v: 0..4 = 0  done: bool = no }
chance when not done { DRAW  v = x  done = yes }
action stop { require done }
turn { stop }
terminal done
score v
"""
    for draw, code, hint in [("draw x in [2, 4] weights [9‸, 1]", "syntax", "a weighted " + weighted),
                             ("draw x in ‸{2: 9, 4: 1}", "type-mismatch", "bag(...) of a map draws each key with "
                                                                         "its value as its weight: draw x in bag({2: "
                                                                         "9, 4: 1}) gives 2 nine times in ten")]:
        d, (at_line, at_col), errors = first_at_marker(tmp_path, game.replace("DRAW", draw))
        assert (d.code, d.span.line, d.span.col, d.hint) == (code, at_line, at_col, hint), errors.render()


def test_a_let_inside_a_loop_that_nothing_reads_is_a_warning_and_a_read_one_is_not(tmp_path, engine_cli):
    # the loop's `let acc = acc + x` names a new acc for each pass: the total after it stays 0
    path = tmp_path / "total.rules"
    path.write_text(snippet("""
        state { xs: list<int> = [2, 2, 4, 0]  total: int = 0  done: bool = no }
        action go {
            let acc = 0
            for x in xs { let acc = acc + x }
            let _spare, used = (1, 2)
            total = acc + used
            done = yes
        }
        turn { go }
        terminal done
        score total
        """), encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "0")
    assert result.returncode == 0
    # not the first acc, read after the loop; not _spare; the acc in the loop is told of once, as made anew
    # for each pass of the loop
    assert result.stderr.count("warning[") == 1, result.stderr
    assert f"{path}:4:23: warning[loop-let]: this `let` makes a new 'acc' for one pass of the `for`: the next pass " \
           "starts again from the 'acc' of line 3" in result.stderr
    assert "hint: `var acc = ...` before the loop and `acc = ...` in it carry a value from one pass to the next; a " \
           "total over the loop is a comprehension (`sum(f(x) for x in xs)`)" in result.stderr


def test_validate_warns_of_a_state_field_nothing_reads(tmp_path, engine_cli):
    # built is changed but read nowhere; moves only by its own += and the end; shown only by the view
    path = tmp_path / "fields.rules"
    path.write_text(textwrap.dedent("""\
        state { moves: 0..3 = 0  built: 0..3 = 0  shown: 0..3 = 0  kept: list<int> = [] }
        action go { moves += 1  built += 1  shown = moves  kept = kept + [moves] }
        turn { go }
        terminal moves == 3
        score 1
        view "{shown}"
        """), encoding="utf-8")
    result = engine_cli("validate", str(path), "--playouts", "0")
    assert result.returncode == 0
    # built, and kept, read only by its own change; shown is read, by the view alone (a warning of its own)
    assert result.stderr.count("warning[") == 3, result.stderr
    assert result.stderr.startswith(f"{path}:1:26: warning[unused]: state field 'built' is never read\n")
    assert f"{path}:1:43: warning[view-only]: state field 'shown' is read by the view alone\n" in result.stderr
    assert f"{path}:1:60: warning[unused]: state field 'kept' is never read\n" in result.stderr
    assert "hint: its changes still make states of their own (solve holds each, searches tell them apart); " \
           "without it the game has fewer states (a range that drops moves" in result.stderr


def test_a_field_whose_range_drops_moves_in_the_playouts_is_read_by_it(tmp_path, engine_cli):
    # building costs 3 wood: `wood -= 3` in 0..9 drops the move while there are fewer, so wood decides
    # which moves there are, though no expression reads it
    path = tmp_path / "wood.rules"
    path.write_text("state { wood: 0..9 = 0  houses: 0..3 = 0 }\naction gather { wood += 2 }\n"
                    "action build { wood -= 3  houses += 1 }\nturn { either { gather } or { build } }\n"
                    "terminal houses == 3\nscore houses\n", encoding="utf-8")
    result = engine_cli("validate", str(path))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    # without playouts no move was seen dropped: the warning stands, its hint says why it may be wrong
    result = engine_cli("validate", str(path), "--playouts", "0")
    assert f"{path}:1:9: warning[unused]: state field 'wood' is never read\n" in result.stderr, result.stderr


@pytest.mark.parametrize("text, hint", [
    ("score ‸done", "a yes or no is no number: `if COND then 1 else 0` counts it"),
    ("score moves\ndef f(xs) = ‸enumerate(xs)",
     "go over the indices for an index beside each item: `for i in 0..len(xs) - 1` reads xs[i]"),
    ("score moves\nconst part = [1, 2, 3][‸0..1]",
     "there are no slices: a part of a list is a comprehension, [xs[i] for i in a..b]"),
    ("score moves\ndef f(m) = len(‸items(m))", "go over a map's keys: `for k in keys(m)` reads each value as m[k] "
                                                "(values(m) lists the values alone)"),
])
def test_a_bool_for_a_number_enumerate_and_items_get_hints(tmp_path, text, hint):
    game = "state { moves: 0..9 = 0  done: bool = no }\naction step { moves += 1  done = moves == 9 }\n" \
           "turn { step }\nterminal done\n" + text + "\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, game)
    assert (d.span.line, d.span.col, d.hint) == (at_line, at_col, hint), errors.render()


def test_index_of_a_value_not_in_the_list_is_a_runtime_error_at_the_call_and_a_wrong_type_a_check_error(
        tmp_path, engine_cli):
    path = tmp_path / "index.rules"
    game = "state { n: 0..9 = 0 }\naction step { n += index([1, 2], X) }\nturn { step }\nterminal n >= 1\nscore n\n"
    path.write_text(game.replace("X", "3"), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "1")
    assert r.returncode == 1
    assert r.stderr.startswith(f"{path}:2:20: error[runtime]: 3 is not in the list [1, 2] (in the initial state)\n")
    assert "hint: `x in xs` tells whether it is there first" in r.stderr
    path.write_text(game.replace("X", '"a"'), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "0")
    assert f"{path}:2:34: error[type-mismatch]: index() looks for a value of type int in a list<int>, got str" \
        in r.stderr, r.stderr


@pytest.mark.parametrize("params", ["param p = p", "param p = q\nparam q = p + 1"])
def test_a_parameter_whose_default_reads_itself_is_a_cycle_not_a_hang(tmp_path, engine_cli, params):
    path = tmp_path / "cycle.rules"
    path.write_text(params + "\nstate { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 3\n"
                    "score n + p\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "0")
    assert r.returncode == 1
    assert r.stderr.startswith(f"{path}:1:11: error[cycle]: 'p' is defined in terms of itself\n"), r.stderr


def test_a_chain_of_uses_too_long_to_read_is_an_error_at_the_use_that_goes_too_far(tmp_path, engine_cli):
    # main.rules uses u1.rules, which uses u2.rules, ... u149.rules: 150 files each using the next
    (tmp_path / "main.rules").write_text('use "u1.rules"\nstate { n: 0..3 = 0 }\naction step { n += 1 }\n'
                                         'turn { step }\nterminal n == 3\nscore n + k\n', encoding="utf-8")
    for i in range(1, 149):
        (tmp_path / f"u{i}.rules").write_text(f'use "u{i + 1}.rules"\n', encoding="utf-8")
    (tmp_path / "u149.rules").write_text("const k = 1\n", encoding="utf-8")
    r = engine_cli("validate", str(tmp_path / "main.rules"), "--playouts", "0")
    assert r.returncode == 1
    assert r.stderr.startswith(f"{tmp_path / 'u99.rules'}:1:1: error[too-deep]: 'u100.rules' would make a chain of "
                               "101 files each using the next; at most 100 may\n"), r.stderr
    assert "Traceback" not in r.stderr


def test_a_shared_file_checked_alone_says_it_is_no_game_and_its_users_are_not_warned_of_its_other_parts(
        tmp_path, engine_cli):
    (tmp_path / "shared.rules").write_text("const k = 1\nconst m = 2\n", encoding="utf-8")
    (tmp_path / "main.rules").write_text('use "shared.rules"\nconst own = 3\nstate { n: 0..3 = 0 }\n'
                                         'action step { n += 1 }\nturn { step }\nterminal n == 3\nscore n + k\n',
                                         encoding="utf-8")
    r = engine_cli("validate", str(tmp_path / "shared.rules"))
    assert (r.returncode, r.stderr) == (1, (
        f"{tmp_path / 'shared.rules'}:1:1: error[not-a-game]: the file has no `state`, `turn`, `terminal` or "
        "`score`, so it is no game\n  1 | const k = 1\n    | ^\n"
        "hint: a file of declarations that games share is checked through a game that uses it: write use "
        f"\"shared.rules\" in the game's file, and validate that\n{tmp_path / 'shared.rules'}: 1 error\n"))
    # m, which main.rules does not use, may be another game's; main.rules' own `own` is its to use
    r = engine_cli("validate", str(tmp_path / "main.rules"))
    assert r.returncode == 0 and "'m'" not in r.stderr, r.stderr
    assert f"{tmp_path / 'main.rules'}:2:7: warning[unused]: constant 'own' is never used" in r.stderr, r.stderr


@pytest.mark.parametrize("deal, warned", [
    ("var rest = deck  for k in 1..3 { ‸draw c in rest  hand += c }", True),  # a loop, rest never changed
    ("var rest = deck  ‸draw a in rest  draw b in rest  hand += a  hand += b", True),  # twice, unchanged
    ("var rest = deck  for k in 1..3 { draw c in rest  rest -= c  hand += c }", False),  # each card taken out
    ("for k in 1..3 { draw c in deck  hand += c }", False),  # a constant: a die's faces, say
    ("var rest = deck  draw c in rest  hand += c", False)])  # drawn once
def test_a_deck_drawn_from_again_without_taking_out_what_was_drawn_is_a_warning(tmp_path, engine_cli, deal, warned):
    text = f"const deck = [1, 2, 3, 4]\nstate {{ hand: list<int> = []  done: bool = no }}\n" \
           f"chance when len(hand) == 0 {{ {deal} }}\naction stop {{ done = yes }}\nturn {{ stop }}\n" \
           "terminal done\nscore sum(hand)\n"
    path = tmp_path / "deal.rules"
    clean, line, col = unmark(text) if "‸" in text else (text, 0, 0)
    path.write_text(clean, encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "2")
    assert r.returncode == 0, r.stderr
    assert (f"deal.rules:{line}:{col}: warning[draw-put-back]: each draw from 'rest' is from all of it: nothing in "
            "this chance block takes out what was drawn, so it draws again as if each were put back\n"
            in r.stderr) == warned and r.stderr.count("warning[") == warned, r.stderr


def test_a_parameter_set_of_names_some_already_declared_says_which_and_what_they_are(tmp_path):
    # a set of names declares an enum only where all are new: `largest` is a def and `count` a built-in
    text = "param objective in ‸{largest, count} = largest\ndef largest() = 3\nstate { n: 0..3 = 0 }\n" \
           "action a { n += 1 }\nturn { a }\nterminal n == 3\nscore n\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert len(errors.diagnostics) == 1 and (d.code, d.span.line, d.span.col, d.message) == (
        "duplicate", at_line, at_col, "the values of 'objective' are names of its own only where all are new: "
        "'largest' is a def (line 2); 'count' is a built-in function"), errors.render()
    d, _, errors = first_at_marker(tmp_path, text.replace("{largest, count} = largest", "{yes, no} = yes"))
    assert d.hint == "a parameter of yes or no is declared by its default alone: param objective = yes", \
        errors.render()


@pytest.mark.parametrize("text, code, hint", [
    # a name an action binds, read in a def it calls: passed to the def
    ("def far(i) = i + ‸k\nstate { n: 0..9 = 0 }\naction a { choose k in 1..2  n = min(9, far(n)) }\n",
     "unknown-name", "a name bound in a block is seen in that block only, not in a def it calls; pass it as an "
     "argument (`def far(i, k) = ...`, called with it)"),
    # a field of a record in a list assigned on its own: the whole record gets a new value
    ("state { at: list<cell> = [cell(0, 0)]  n: 0..9 = 0 }\naction a { at[0]‸.row += 1 }\n", "syntax",
     "a record's field cannot be assigned: store a new record whole, `at[0] = RECORD(...)` with the fields it keeps "
     "and the one that changes"),
    # an unknown field with none near it: the fields there are
    ("state { at: cell = cell(0, 0)  n: 0..9 = 0 }\naction a { at = cell(at.‸x + 1, at.col) }\n", "unknown-name",
     "its fields: row, col")])
def test_a_name_or_field_used_where_it_is_not_gets_a_hint_that_says_what_is_there(tmp_path, text, code, hint):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text + "turn { a }\nterminal n >= 5\nscore n\n")
    assert (d.code, d.span.line, d.span.col) == (code, at_line, at_col), errors.render()
    assert d.hint.endswith(hint), d.hint


def test_a_shared_file_validated_with_a_game_that_uses_it_is_a_part_of_that_game(tmp_path, engine_cli):
    # `validate *.rules` in a folder of games and the file they share: the shared file is checked through them
    (tmp_path / "shared.rules").write_text("action go { n += 1 }\n", encoding="utf-8")
    (tmp_path / "main.rules").write_text('use "shared.rules"\nstate { n: 0..3 = 0 }\nturn { go }\nterminal n == 3\n'
                                         "score n\n", encoding="utf-8")
    (tmp_path / "other.rules").write_text("state { n: 0..3 = 0 }\naction a { n += 1 }\nturn { a }\nterminal n == 3\n"
                                          "score n\n", encoding="utf-8")
    shared, main, other = (str(tmp_path / f"{n}.rules") for n in ("shared", "main", "other"))
    r = engine_cli("validate", shared, main, other, "--playouts", "2")
    assert (r.returncode, r.stdout) == (0, f"{shared}: no game, a part of {main}: checked with it\n"
                                           f"{main}: ok (main)\n{other}: ok (other)\n"), r.stderr
    out = json.loads(engine_cli("validate", shared, main, "--playouts", "2", "--json").stdout)
    assert out["files"][0] == {"file": shared, "game": None, "ok": True, "part_of": [main], "errors": [],
                               "warnings": []}
    # a game that uses it and does not parse still names it: the syntax error is the game's, and the part is as
    # sound as the game
    broken = tmp_path / "broken.rules"
    broken.write_text('use "shared.rules"\nstate { n: 0..3 = 0 }\nturn { go }\nterminal n ==\nscore n\n')
    r = engine_cli("validate", shared, str(broken), "--playouts", "2", "--json")
    files = json.loads(r.stdout)["files"]
    assert r.returncode == 1 and (files[0]["ok"], files[0]["part_of"]) == (False, [str(broken)]), r.stdout
    assert "not-a-game" not in r.stderr and f"{broken}:4:12: error[syntax]" in r.stderr, r.stderr
    # without a game that uses it, it is no game, as alone
    r = engine_cli("validate", shared, other, "--playouts", "2")
    assert r.returncode == 1 and f"{shared}:1:1: error[not-a-game]" in r.stderr, r.stderr


@pytest.mark.parametrize("call, col, made", [
    ("up_to(15, 1..40)", 21, "up_to(15, 40 elements) makes 84,585,398,828 selections"),  # sum of C(40, i), i <= 15
    ("combinations(6, 1..60)", 21, "combinations(6, 60 elements) makes 50,063,860 selections"),  # C(60, 6)
    ("pairs(1..2000)", 21, "pairs(2,000 elements) makes 1,999,000 selections"),  # 2000 * 1999 / 2
    ("sub_bags(bag(0..20))", 21, "sub_bags(21 elements) makes 2,097,152 selections"),  # 2 ** 21
    # 1,000,000 selections (one per count of copies, 0..999,999), the largest of 999,999 elements
    ("sub_bags(bag({1: 999999}))", 21, "sub_bags(999,999 elements) makes 1,000,000 selections of up to 999,999 "
                                       "elements, more than the 50,000,000 elements in all it may make"),
])
def test_a_selection_too_large_to_make_is_a_runtime_error_not_a_hang(tmp_path, engine_cli, call, col, made):
    path = tmp_path / "many.rules"
    path.write_text(f"state {{ n: int = 0  done: bool = no }}\naction go {{\n    choose picks in {call}\n"
                    "    n += 1\n    done = yes\n}\nturn { go }\nterminal done\nscore n\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "1")
    assert r.returncode == 1
    more = "" if "in all" in made else ", more than the 1,000,000 it may make"
    assert r.stderr.startswith(f"{path}:3:{col}: error[runtime]: {made}{more}"), r.stderr


def test_a_score_too_large_for_a_float_is_a_runtime_error_at_the_score(tmp_path, engine_cli):
    # 10 ** 200 squared is 10 ** 400, past the largest float (about 1.8e308)
    path = tmp_path / "huge.rules"
    path.write_text(f"state {{ n: int = 1{'0' * 200}  done: bool = no }}\naction step {{ done = yes }}\n"
                    "turn { step }\nterminal done\nscore n * n\n", encoding="utf-8")
    r = engine_cli("solve", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{path}:5:1: error[runtime]: the score gave a number too large to work with "
                               "(more than about 1e308)\n"), r.stderr


def test_a_record_may_hold_one_declared_after_it_but_not_itself(tmp_path, engine_cli):
    rest = "state { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 3\n"
    path = tmp_path / "records.rules"
    path.write_text("record A { b: B, v: int }\nrecord B { w: int }\n" + rest + "score n + A(B(1), 2).b.w\n",
                    encoding="utf-8")
    r = engine_cli("solve", str(path))
    assert r.returncode == 0 and "best score: 4\n" in r.stdout, r.stderr  # 3 + 1, by hand
    path.write_text("record A { b: B }\nrecord B { a: A, n: int }\nrecord T { kids: list<T>, v: int }\n" + rest
                    + "score n + len(T([], 1).kids)\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "0")
    assert r.returncode == 1 and r.stderr.count("error[") == 1, r.stderr  # a list<T> in T may be empty: no loop
    assert r.stderr.startswith(f"{path}:1:15: error[cycle]: record A holds itself (A -> B (field b) -> A (field a)), "
                               "so no value of it ends\n"), r.stderr


def test_an_action_that_never_ran_because_chance_always_applies_says_so(tmp_path, engine_cli):
    # `chance when yes` applies in every state, before any player moves, so stop never runs
    path = tmp_path / "always.rules"
    path.write_text("state { r: 0..6 = 0  done: bool = no }\nchance when yes { draw d in 1..6  r = d }\n"
                    'action stop "stop" { done = yes }\nturn { stop }\nterminal done\nscore r\n', encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "2", "--steps", "20")
    assert "warning[unreached]: action 'stop' never ran in 2 random playouts" in r.stderr
    assert "hint: no player moved in them: a chance block applied in every state they reached" in r.stderr
    assert "; in a game where only chance moves, `turn { }` needs no action" in r.stderr
    assert "`require`" not in r.stderr
    # as the hint says: a game where only chance moves, with no action, plays without a warning
    path.write_text("state { r: 0..6 = 0  n: 0..3 = 0 }\nchance when n < 3 { draw d in 1..6  r = d  n += 1 }\n"
                    "turn { }\nterminal n == 3\nscore r\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "2")
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_an_action_that_never_ran_because_each_playout_stopped_at_a_dead_end_says_so(tmp_path, engine_cli):
    # a roll, then `stop` requires a roll of 7, which never comes: every playout stops where no move
    # is legal after the chance step alone, which chance applying everywhere did not cause
    path = tmp_path / "stuck.rules"
    text = ("state { r: 0..6 = 0  done: bool = no }\nchance when r == 0 { draw d in 1..6  r = d }\n"
            'action stop "stop" { require r == 7  done = yes }\nturn { stop }\nterminal done\nscore r\n')
    path.write_text(text, encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "2")
    assert "warning[unreached]: action 'stop' never ran in 2 random playouts" in r.stderr
    assert "hint: no player moved in them: each stopped where no move was legal, after chance steps alone (the " \
           "dead-end warning says why no move was)\n" in r.stderr, r.stderr
    assert "warning[dead-end]: all of 2 random playouts stopped where no move is legal" in r.stderr
    path.write_text("dead ends are ends\n" + text, encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "2")
    assert "hint: no player moved in them: each stopped where no move was legal, after chance steps alone, which " \
           "the file declares ends (`dead ends are ends`)\n" in r.stderr, r.stderr


DOMINOES = """players V, H
const board = square_grid(3, 3)
state { covered: set<cell> = EXITS }
def fits(c) = c.row + 1 < 3 and c not in covered and cell(c.row + 1, c.col) not in covered
action place "{current} at {c}" {
    choose c in cells(board) where fits(c)
    covered += {c, cell(c.row + 1, c.col)}
}
turn { place }
terminal not any(fits(c) for c in cells(board))
score for p: if p == current then -1 else 1
"""


def test_a_cell_a_move_puts_off_every_grid_is_a_warning_at_its_field(tmp_path, engine_cli):
    # without `c.row + 1 < 3` a domino on the last row covers a cell of row 3, off the 3 x 3 board
    path = tmp_path / "dominoes.rules"
    path.write_text(DOMINOES.replace("EXITS", "{}").replace("c.row + 1 < 3 and ", ""), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "20")
    assert r.returncode == 0
    assert re.search(r"dominoes.rules:3:9: warning\[off-board\]: state field 'covered' held the cell \(3, \d\) "
                     r"after \d+ random moves?, a cell of no grid of the file \(board\)\n", r.stderr), r.stderr
    assert "hint: cell(r, c) makes any cell, on a board or not: a neighbour worked out by hand needs a " \
        "bound" in r.stderr
    # with the bound no cell leaves the board; cells off it from the start (exits round it) are meant
    path.write_text(DOMINOES.replace("EXITS", "{cell(-1, 0), cell(3, 2)}"), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "20")
    assert r.returncode == 0 and "off-board" not in r.stderr, r.stderr


RACE = """players A, B
state { n: 0..6 = 0  winner: 0..2 = 0 }
action add "add {k}" { choose k in 1..2  n += k  if n >= 5 { winner = if current == A then 1 else 2 } }
turn { add }
terminal winner > 0
score for p: SCORE
"""


def test_a_score_whose_returns_add_up_otherwise_before_the_end_is_a_warning(tmp_path, engine_cli):
    # at an end one player has 1 and the other -1 (0 in all); before it, no winner: -1 each, -2
    path = tmp_path / "race.rules"
    path.write_text(RACE.replace("SCORE", "if winner == (if p == A then 1 else 2) then 1 else -1"), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "5")
    assert r.returncode == 0
    assert "race.rules:6:1: warning[score-before-end]: the returns add up to 0 at every end the random playouts " \
           "reached, but to -2 in the initial state (A -1, B -1)\n" in r.stderr, r.stderr
    # 0 for both before the end, as at a tie: no warning; nor with a heuristic the agents take instead
    path.write_text(RACE.replace("SCORE", "if winner == 0 then 0 else if winner == (if p == A then 1 else 2) then 1 "
                                 "else -1"), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "5")
    assert r.returncode == 0 and "score-before-end" not in r.stderr, r.stderr
    path.write_text(RACE.replace("SCORE", "if winner == (if p == A then 1 else 2) then 1 else -1")
                    + "heuristic lead for p = 0\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "5")
    assert r.returncode == 0 and "score-before-end" not in r.stderr, r.stderr


def test_a_negative_count_in_a_bag_of_counts_is_an_error_at_it(tmp_path, engine_cli):
    path = tmp_path / "negative.rules"
    path.write_text("const b = bag({1: -1, 2: 2})\nstate { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\n"
                    "terminal n == 3\nscore n + len(b)\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "0")
    assert r.returncode == 1
    assert r.stderr.startswith(f"{path}:1:11: error[runtime]: bag() of a map of counts: 1 is counted -1, below 0"), \
        r.stderr


@pytest.mark.parametrize("text, hint", [
    ("n\u00a01", "a no-break space (U+00A0), as pasted from a web page: write a plain space"),
    ("n \u2212 1", "a minus sign (U+2212): write `-`"),
    ("n + \u200b1", "a zero-width space (U+200B), as pasted from a web page: delete it"),
    ("n + \u00c4", "names are written with the letters a-z and A-Z, digits and _; this is latin capital letter a "
                   "with diaeresis"),
    ("t\u043etal", "names are written with the letters a-z and A-Z, digits and _; this is cyrillic small letter o"),
])
def test_a_character_pasted_from_elsewhere_is_named_in_the_hint(tmp_path, engine_cli, text, hint):
    path = tmp_path / "pasted.rules"
    path.write_text("state { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 3\n"
                    f"score {text}\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "0")
    assert r.returncode == 1 and f"\nhint: {hint}\n" in r.stderr, r.stderr


def test_a_misspelt_for_after_score_is_named_in_the_hint(tmp_path, engine_cli):
    path = tmp_path / "four.rules"
    path.write_text("players A, B\nstate { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 3\n"
                    "score four p: n\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "0")
    assert r.returncode == 1 and "\nhint: `four` (column 7) may be `for`\n" in r.stderr, r.stderr


def test_a_flat_sum_of_many_terms_is_too_deep_and_the_hint_says_why_and_what_adds_a_list(tmp_path, engine_cli):
    path = tmp_path / "sum.rules"
    path.write_text("state { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 3\n"
                    "score n" + " + 0" * 150 + "\n", encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "0")
    assert r.returncode == 1 and "error[too-deep]" in r.stderr
    assert "a chain such as a + b + c counts a level for each operator: `sum([...])` adds a list" in r.stderr


@pytest.mark.parametrize("col", [5, 30_000, 59_990])
def test_a_long_line_is_shown_around_the_column_with_the_caret_under_it(col):
    from engine.diagnostics import LINE_SHOWN, Diagnostic
    from engine.model import Span
    src = "".join(chr(ord("a") + i % 26) for i in range(60_000))  # one line of 60,000 characters
    text = Diagnostic("syntax", "here", Span("f.rules", 1, col, 1, col + 3)).render({"f.rules": src})
    _, shown, caret = text.splitlines()
    assert len(shown) <= len("  1 | ") + 3 + LINE_SHOWN + 3  # a window, with ... where it is cut
    at = caret.index("^")
    assert caret[at:] == "^^^"
    assert shown[at:at + 3] == src[col - 1:col + 2]  # the caret under the characters it marks
    assert shown.startswith("  1 | ...") == (col > LINE_SHOWN // 2)


@pytest.mark.parametrize("target, code, message", [
    ("folder.rules", "unreadable", "{dir}/folder.rules: a directory, not a rule file"),
    ("binary.rules", "unreadable", "{dir}/binary.rules:1:1: not UTF-8 text (byte 0xff)"),
    ("/no/such/dir/x.rules", "missing-file", "no rule file '/no/such/dir/x.rules'\n"),
    ("nope.rules", "missing-file", "no rule file 'nope.rules' next to {dir}/main.rules\n"),
    # a name unlike any but for the `.rules` every file has: no file is named as meant
    ("pieces.rules", "missing-file", "no rule file 'pieces.rules' next to {dir}/main.rules\n"
                                     "  1 | use \"pieces.rules\"\n    | ^^^^^^^^^^^^^^^^^^\n{dir}/main.rules: 1 error"),
    ("data/card.rules", "missing-file", "no rule file 'data/card.rules' next to {dir}/main.rules\n  1 | "
                                        "use \"data/card.rules\"\n    | ^^^^^^^^^^^^^^^^^^^^^\nhint: did you mean "
                                        "'data/cards.rules'?\n"),
])
def test_a_use_of_what_is_no_rule_file_says_what_it_is(tmp_path, engine_cli, target, code, message):
    (tmp_path / "folder.rules").mkdir()
    (tmp_path / "binary.rules").write_bytes(b"\xff\xfe")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cards.rules").write_text("const cards = 3\n")  # the file meant by data/card.rules
    (tmp_path / "e5_eqstmt.rules").write_text("const e = 5\n")
    main = tmp_path / "main.rules"
    main.write_text(f'use "{target}"\nstate {{ n: 0..1 = 0 }}\naction a {{ n += 1 }}\nturn {{ a }}\nterminal n == 1\n'
                    "score n\n", encoding="utf-8")
    r = engine_cli("validate", str(main), "--playouts", "0")
    assert r.returncode == 1
    assert r.stderr.startswith(f"{main}:1:1: error[{code}]: {message.format(dir=tmp_path)}"), r.stderr


def test_a_used_file_missing_from_its_folder_is_looked_for_in_the_folder_above(tmp_path, engine_cli):
    # main.rules in sub/ uses "mm_commn.rules": the file meant is ../mm_common.rules, closer than
    # sub/pow_common.rules; where sub/ holds an mm_common.rules too, that one is named
    (tmp_path / "mm_common.rules").write_text("const c = 3\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pow_common.rules").write_text("const c = 3\n")
    main = tmp_path / "sub" / "main.rules"
    main.write_text('use "mm_commn.rules"\nstate { n: 0..3 = 0 }\naction a { n += 1 }\nturn { a }\nterminal n == c\n'
                    "score n\n", encoding="utf-8")
    assert "hint: did you mean '../mm_common.rules'?\n" in engine_cli("validate", str(main)).stderr
    (tmp_path / "sub" / "mm_common.rules").write_text("const c = 3\n")
    assert "hint: did you mean 'mm_common.rules'?\n" in engine_cli("validate", str(main)).stderr


def test_a_range_written_with_its_numbers_the_wrong_way_round_is_a_warning(tmp_path, engine_cli):
    # 5..3 and -1..-3 are empty, 1..1 is not (no warning): the bag holds 1 and 2, the counts are 0 and 1,
    # and the score 1 + 2 + 0 + 1 = 4 (by hand)
    path = tmp_path / "reversed.rules"
    path.write_text('const bank: bag<int> = bag({1..2: 1, 5..3: 1})\nstate { done: bool = no }\n'
                    'action stop "stop" { done = yes }\nturn { stop }\nterminal done\n'
                    "score sum(bank) + count(x for x in -1..-3) + count(x for x in 1..1)\n", encoding="utf-8")
    r = engine_cli("validate", str(path))
    assert r.returncode == 0 and r.stdout.endswith("(reversed, 2 warnings)\n"), r.stdout + r.stderr
    assert f"{path}:1:38: warning[empty-range]: the range 5..3 is empty: its first number is above its last\n" \
        in r.stderr and "hint: from the least: 3..5\n" in r.stderr
    assert f"{path}:6:36: warning[empty-range]: the range -1..-3 is empty" in r.stderr
    assert "best score: 4\n" in engine_cli("solve", str(path)).stdout


def test_a_range_inside_a_type_that_keeps_no_value_in_it_is_a_warning(tmp_path, engine_cli):
    # the table's list<0..5> holds a 9 all the same; the field's list<0..5> keeps its values (no warning)
    path = tmp_path / "caps.rules"
    path.write_text("table cap: bool -> list<0..5> { yes: [1, 9], no: [2] }\n"
                    "state { xs: list<0..5> = []  t: 0..3 = 0 }\n"
                    'action add "add {v}" { choose v in cap[t == 0]  xs += v  t += 1 }\nturn { add }\n'
                    "terminal t == 2\nscore sum(xs)\n", encoding="utf-8")
    r = engine_cli("validate", str(path))
    assert r.returncode == 0 and r.stdout.endswith("(caps, 1 warning)\n"), r.stdout + r.stderr
    assert r.stderr.startswith(f"{path}:1:25: warning[unchecked-range]: a range inside list<...> here is not "
                               "checked: its values may be any whole number\n")
    assert "best score: 3\n" in engine_cli("solve", str(path)).stdout  # add 1 (9 would leave 0..5), add 2


def test_a_name_declared_twice_is_an_error_at_its_second_place_in_the_file_whatever_the_kinds(tmp_path):
    # fields are declared after heuristics: the error still goes to the heuristic, which comes later
    text = ("state { points: 0..9 = 0 }\naction add \"add {k}\" { choose k in 1..2  points += k }\nturn { add }\n"
            "terminal points >= 5\nscore points\nheuristic points = points\n")
    path, errors = first_diagnostic(tmp_path, text)
    assert [(d.code, d.message, d.span.line, d.span.col, d.hint) for d in errors.diagnostics] == [(
        "duplicate", "'points' is already declared", 6, 11,
        f"first declared at {path}:1:9, as a state field; one of the two needs another name")], errors.render()


def test_a_field_named_as_a_built_in_is_one_error_at_its_declaration_not_one_per_use(tmp_path):
    found, errors = every_diagnostic(tmp_path, "state { count: int = 0 }\naction go { count += 1 }\nturn { go }\n"
                                               "terminal count == 3\nscore count * 2\n")
    assert found == [("duplicate", "'count' is a built-in name", 1, 9,
                      "give this one another name (language.md lists the built-in functions in section 6)")], \
        errors.render()


def test_a_constant_declared_with_another_type_than_its_value_is_one_error_not_one_per_use(tmp_path):
    # declared a graph of ints, made of cells: each use as cells would be an error against the
    # declared type, and each use as ints one against the value
    text = ("const board: graph<int> = graph([(cell(0, 0), cell(0, 1))])\n"
            "state { n: 0..2 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 2\n"
            "score len(components(board, [c for c in nodes(board) where c.row == 0]))\n")
    found, errors = every_diagnostic(tmp_path, text)
    assert found == [("type-mismatch", "'board' is declared graph<int>, got graph<cell>", 1, 27, None)], \
        errors.render()


def test_a_name_bound_in_the_caller_is_unknown_in_the_action_it_calls_and_the_hint_says_where_it_is(tmp_path):
    # `go` binds x; `bump`, which it calls, sees none of its names: to read x it takes it as an
    # argument, to change it the value lives in a state field
    game = 'state { n: 0..10 = 0 }\naction bump { BODY }\naction go {\n    var x = 0\n    bump\n    n = x\n}\n' \
           "turn { go }\nterminal n >= 1\nscore n\n"
    found, errors = every_diagnostic(tmp_path, game.replace("BODY", "x += 1"))
    assert found == [("unknown-name", "unknown state field 'x'", 2, 15,
                      f"'x' is bound at {tmp_path / 'game.rules'}:4:9, in action 'go': a name bound in a block is "
                      "seen in that block only, not in an action it calls; to change it there, keep it in a state "
                      "field")], errors.render()
    found, errors = every_diagnostic(tmp_path, game.replace("BODY", "n = x"))
    assert found[0][1:] == ("unknown name 'x'", 2, 19,
                            f"'x' is bound at {tmp_path / 'game.rules'}:4:9, in action 'go': a name bound in a block "
                            "is seen in that block only, not in an action it calls; pass it as an argument "
                            "(`action NAME(x)`)"), errors.render()
    unrelated = game.replace("    bump\n", "").replace("turn { go }", "turn { go  bump }")  # go calls bump no more
    found, errors = every_diagnostic(tmp_path, unrelated.replace("BODY", "n = x"))
    assert found[0][1:] == ("unknown name 'x'", 2, 19,
                            f"'x' is bound at {tmp_path / 'game.rules'}:4:9, in action 'go': a name bound in a block "
                            "is seen in that block only, not in action 'bump'"), errors.render()


def test_a_name_bound_in_an_if_of_an_action_is_unknown_in_its_label_and_the_hint_says_var(tmp_path):
    game = ('state { x: 0..9 = 0 }\naction step "step {d} {b}" {\n    choose d in 1..2\n'
            "    if d == 1 { let b = 5  x += 1 } else { x += 2 }\n}\nturn { step }\nterminal x >= 3\nscore x\n")
    found, errors = every_diagnostic(tmp_path, game)
    assert found == [("unknown-name", "unknown name 'b'", 2, 24,
                      f"'b' is bound at {tmp_path / 'game.rules'}:4:21, inside a block of action 'step' (an `if`, a "
                      "`for`, a branch), and seen in that block only; the label and the steps after the block see "
                      "the names bound outside it: `var b = ...` before the block, set with `b = ...` inside it")], \
        errors.render()
    # as the hint says: a var before the block, set inside it, is seen by the label (by hand: from
    # 0, the moves are step 1 5 and step 2 0)
    fixed = tmp_path / "fixed.rules"
    fixed.write_text(game.replace("    choose d in 1..2\n", "    choose d in 1..2\n    var b = 0\n")
                     .replace("let b = 5", "b = 5"))
    out = json.loads(run_engine("solve", fixed, "--moves", "--json").stdout)
    assert [m["move"] for m in out["first_moves"]] == ["step 1 5", "step 2 0"]


def test_a_tuple_type_and_a_tuple_for_a_cell_are_told_what_to_write_instead(tmp_path):
    found, errors = every_diagnostic(tmp_path, "state { last: (int, int) = (0, 0) }\nturn { last = last }\n"
                                     "terminal yes\nscore 0\n")
    assert found[0][4] == "a type has no tuple form: 'last' can be a record (record NAME { a: int, b: int }), a " \
        "cell (cell(row, col)), or two fields", errors.render()
    found, errors = every_diagnostic(tmp_path, "const g = square_grid(2, 2)\nstate { seen: set<cell> = {} }\n"
                                     "def at(r, c) = (r, c)\naction mark { choose r in 0..1  seen += at(r, r) }\n"
                                     "turn { mark }\nterminal len(seen) > 0 or at(0, 0) in cells(g)\nscore 0\n")
    assert [(d[2], d[4]) for d in found] == [(4, "a tuple (row, col) is no cell: cell(row, col) makes one"),
                                             (6, "a tuple (row, col) is no cell: cell(row, col) makes one")], \
        errors.render()


@pytest.mark.parametrize("layout, hint", [
    ("axail", 'did you mean "axial"?'),
    ("square", '"even-r" and "odd-r": pointy-topped hexes, the even (or odd) rows shifted half a hex right; "axial": '
               'each row shifted half a hex from the one above, a rhombus of hexes'),
])
def test_a_hex_layout_misspelt_is_told_the_one_meant(tmp_path, layout, hint):
    marked = snippet(f'const board = hex_grid([cell(0, 0), cell(0, 1)], ‸"{layout}")\n'
                     + HABIT_GAME.replace("LINE", "moves += len(neighbours(board, cell(0, 0)))"))
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.hint) == ("type-mismatch", at_line, at_col, hint), errors.render()


@pytest.mark.parametrize("field, alone", [("list<int> = []", "[d]"), ("set<int> = {}", "{d}"),
                                          ("bag<int> = bag([])", "bag([d])")])
def test_an_element_assigned_to_a_collection_is_told_how_to_add_it(tmp_path, field, alone):
    kind = field.split("<")[0]
    marked = snippet(f"state {{ got: {field}  n: 0..2 = 0 }}\n"
                     "chance when n < 2 { draw d in 1..6  got = ‸d  n += 1 }\n"
                     "turn { }\nterminal n == 2\nscore len(got)\n")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.code, d.span.line, d.span.col, d.hint) == (
        "type-mismatch", at_line, at_col,
        f"`got += d` adds an element to the {kind}; `got = {alone}` makes it hold d alone"), errors.render()


@pytest.mark.parametrize("tail", ["", "\ndef other_bonus() = 2"])
def test_an_if_expression_without_else_points_where_the_else_belongs(tmp_path, tail):
    marked = snippet(HABIT_GAME.replace("LINE", "moves += bonus()") + "def bonus() = if moves < 5 then 2‸"
                     + tail + "\n")
    d, (at_line, at_col), errors = first_at_marker(tmp_path, marked)
    assert (d.message, d.span.line, d.span.col, d.hint) == (
        "expected 'else' and a value: `if COND then A` in an expression needs `else B`", at_line, at_col,
        "`if COND then A else B` gives one of two values; a statement that only sometimes runs is "
        "`if COND { ... }`"), errors.render()


END_GAME = """
    state { moves: 0..9 = 0 }
    action step { moves += 1 }
    turn { step }
    LINE
    score moves
    """


@pytest.mark.parametrize("line", ["‸end when moves == 9", "‸ends when moves == 9", "‸over: moves == 9",
                                  "‸game_over moves == 9"])
def test_a_game_ended_with_another_word_is_told_of_terminal(tmp_path, line):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(END_GAME.replace("LINE", line)))
    word = line[1:].split()[0].rstrip(":")
    assert (d.message, d.span.line, d.span.col, d.hint) == (
        f"expected a declaration or the end of the file, got a name '{word}'", at_line, at_col,
        "a game ends where its condition holds: terminal COND (such as terminal pile == 0)"), errors.render()


@pytest.mark.parametrize("line", ["terminal ‸when moves == 9", "terminal ‸if moves == 9", "terminal ‸where moves == 9",
                                  "terminal moves == 9\ninvariant ‸when moves <= 9"])
def test_terminal_or_invariant_written_with_a_word_before_its_condition_points_at_the_word(tmp_path, line):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(END_GAME.replace("LINE", line)))
    declaration, word = re.search(r"(\w+) ‸(\w+)", line).groups()
    assert (d.message, d.span.line, d.span.col, d.hint) == (
        f"`{declaration}` takes its condition without `{word}`", at_line, at_col,
        f"`{declaration}` is followed by the condition itself, without `{word}`: {declaration} COND "
        f"(such as {declaration} pile == 0)"), errors.render()


def test_terminal_with_a_colon_is_told_to_drop_it(tmp_path):
    d, (at_line, at_col), errors = first_at_marker(tmp_path, snippet(END_GAME.replace("LINE", "terminal‸: moves == 9")))
    assert (d.span.line, d.span.col, d.hint) == (
        at_line, at_col, "`terminal` is followed by the condition itself, without a colon: terminal COND "
        "(such as terminal pile == 0)"), errors.render()


def test_an_unknown_word_between_declarations_is_told_what_begins_one_not_a_statement_word(tmp_path):
    # `terminal` is a declaration, not a misspelt `optional`; nor is the word after its condition
    d, (at_line, at_col), errors = first_at_marker(
        tmp_path, snippet(END_GAME.replace("LINE", "terminal moves == 9 ‸at_last")))
    assert (d.message, d.span.line, d.span.col) == (
        "expected a declaration or the end of the file, got a name 'at_last'", at_line, at_col), errors.render()
    assert "optional" not in d.hint and all(w in d.hint for w in ("state", "action", "turn", "terminal", "score"))


STARS = """
    game "Stars"
    players A, B
    state { pile: 0..5 = 5  stars: map<player, int> = {A: 0, B: 0} }
    action take "{current} takes {n}" { choose n in 1..2 where n <= pile  pile -= n  stars[current] += n }
    turn { take }
    terminal pile == 0
    score for p: stars[p]
    """


@pytest.mark.parametrize("was, mistake, hint", [
    ("score for p: stars[p]", "score for p ‸= stars[p]", "each player's score follows a colon: score for p: EXPR"),
    ("score for p: stars[p]", "score for p ‸stars[p]", "each player's score follows a colon: score for p: EXPR"),
    ('game "Stars"', "game ‸Take the stars", 'the title is a string: game "Take the stars"'),
    ("pile: 0..5 = 5", "pile ‸= 5",
     "a state field has a type before its value: pile: TYPE = VALUE (such as 0..9, int or list<int> for TYPE)"),
    ("{A: 0, B: 0}", "{A ‸= 0, B: 0}", "a map is written {KEY: VALUE, ...}"),
    ("players A, B", "players‸: A, B", "the players follow the word without a colon: players A, B"),
    ("players A, B", "players A ‸B", "players are separated by commas: players A, B"),
    ('game "Stars"', "game ‸Stars", 'the title is a string: game "Stars"'),
    ("turn { take }", "action skip { pass ‸}\nturn { take }",
     "`pass to PLAYER` names who moves next; a step that does nothing is an empty block: { }"),
    ("turn { take }", "turn‸: take", "a block goes in braces, not after a colon: turn { ... }"),
    ("turn { take }", "turn { take }\nwhen once ‸pile == 2 { pile -= 0 }",
     "`once` goes after the condition: when COND once { ... }"),
    ("turn { take }", 'action pass "pass" { }\nturn {\n    either { take } or {\n        pass\n    ‸}\n}',
     "`pass` begins a statement, so the action `pass` (line 5) cannot be called by its name; give the action "
     "another name"),
    ("turn { take }", 'action draw "draw" { }\nturn { draw\n    pile ‸-= 0 }',
     "`draw` begins a statement, so the action `draw` (line 5) cannot be called by its name; give the action "
     "another name"),
    ('action take "{current} takes {n}" {', 'action take "{current} takes {n}"‸: {',
     'a block goes in braces, not after a colon: action NAME "LABEL" { ... }'),
])
def test_a_declaration_written_as_another_language_would_gets_its_form_in_the_hint(tmp_path, was, mistake, hint):
    text = snippet(STARS)
    assert was in text
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text.replace(was, mistake, 1))
    assert (d.code, d.span.line, d.span.col, d.hint) == ("syntax", at_line, at_col, hint), errors.render()


@pytest.mark.parametrize("players", ["", "players A, B\n"])
def test_score_for_p_without_players_is_a_warning_that_the_game_has_one_player(tmp_path, engine_cli, players):
    # without `players` the game has one player (docs/language.md), so `p == current` below is always true
    path = tmp_path / "lone.rules"
    path.write_text(players + "state { n: 0..3 = 0 }\naction go { n += 1 }\nturn { go }\nterminal n == 3\n"
                    "score for p: if p == current then 1 else -1\n")
    r = engine_cli("validate", str(path), "--playouts", "2")
    assert r.returncode == 0, r.stderr
    line = 6 if players else 5
    assert (f"{path}:{line}:11: warning[one-player]: `score for p` in a game of one player: the file declares no "
            "`players`, so p is always the one player" in r.stderr) == (not players), r.stderr


@pytest.mark.parametrize("score, read", [
    ("if current == A then -1 else 1", "current"), ("if won == A then 1 else -1", "A"),
    ("if won == A then 1 else 0", "A"), ("pts[A] + pts[B]", None), ("sum(pts[q] for q in players)", None),
    ("for p: if won == p then 1 else -1", None)])
def test_a_score_shared_by_several_players_that_reads_one_of_them_is_a_warning(tmp_path, engine_cli, score, read):
    # `score EXPR` gives every player the same int (docs/language.md): reading one player there (or the one to
    # move) treats a return all share as one player's; the players' points added up is a score meant as shared
    path = tmp_path / "shared.rules"
    path.write_text("players A, B\nstate { n: 0..3 = 0  won: player = A  pts: map<player, int> = {A: 0, B: 0} }\n"
                    "action go { n += 1  won = current  pts[current] += 1 }\nturn { go }\nterminal n == 3\n"
                    f"score {score}\n")
    r = engine_cli("validate", str(path), "--playouts", "2")
    assert r.returncode == 0, r.stderr
    warned = re.findall(r":6:(\d+): warning\[shared-score\]: `score` without `for p` gives the 2 players one and the "
                        r"same return, and this one reads '(\w+)' as if it were one player's score", r.stderr)
    assert warned == ([] if read is None else [(str(7 + score.index(read)), read)]), r.stderr


@pytest.mark.parametrize("view, warned", [('view "{n} after {last}"', True), ('view "{n}"', False),
                                          ('def shown() = last\nview "{shown()}"', False)])
def test_a_field_only_the_view_reads_is_a_warning(tmp_path, engine_cli, view, warned):
    # `last` changes with every step but only the view reads it (through a def, the def counts as a read)
    path = tmp_path / "shown.rules"
    path.write_text("state { n: 0..3 = 0  last: int = 0 }\naction go \"go {k}\" { choose k in 1..2  n = min(3, n + k)"
                    "  last = k }\nturn { go }\nterminal n == 3\nscore n\n" + view + "\n")
    r = engine_cli("validate", str(path), "--playouts", "2")
    assert r.returncode == 0, r.stderr
    assert (f"{path}:1:22: warning[view-only]: state field 'last' is read by the view alone" in r.stderr) == warned, \
        r.stderr


SOWING = """players A
state {
    hand: 0..9 = 0
    pits: list<0..9> = [3, 1, 2]
    at: 0..2 = 0
    turns: 0..2 = 0
}
action sow "sow from {p}" {
    choose p in 0..2 where pits[p] > 0
    hand = pits[p]
    pits[p] = 0
    at = p
    LOOP
    hand = 0
    turns += 1
}
turn { sow }
terminal turns == 2
score sum(pits)
"""
WHERE_LOOP = "for k in 1..BOUND where hand > 0 { at = (at + 1) % 3  pits[at] += 1  hand -= 1 }"
IF_LOOP = "for k in 1..BOUND { if hand > 0 { choose d in [1]  at = (at + d) % 3  pits[at] += d  hand -= d } }"


@pytest.mark.parametrize("loop", [WHERE_LOOP, IF_LOOP])
def test_a_loop_that_repeats_steps_cut_short_by_its_range_is_a_warning_at_its_condition(tmp_path, engine_cli, loop):
    # a hand of 3 (the first pit) sown one stone a pass needs 3 passes: a range of 2 ends with a stone in hand
    path = tmp_path / "sow.rules"
    path.write_text(SOWING.replace("LOOP", loop.replace("BOUND", "2")), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "5")
    assert r.returncode == 0
    col = 4 + loop.replace("BOUND", "2").index("hand > 0") + 1  # the loop is indented by 4
    assert re.search(rf"sow.rules:13:{col}: warning\[loop-cut\]: this `for` came to the end of its range with its "
                     r"condition still holding in \d+ runs? of \d+ in the random playouts", r.stderr), r.stderr
    path.write_text(SOWING.replace("LOOP", loop.replace("BOUND", "9")), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "5")
    assert r.returncode == 0 and "loop-cut" not in r.stderr, r.stderr


def test_a_loop_over_values_it_reads_is_no_repeat_to_warn_of(tmp_path, engine_cli):
    # k is read: the range is what the loop goes over, not a bound on repeats
    path = tmp_path / "sow.rules"
    loop = "for k in 1..2 where hand > 0 { at = (at + k) % 3  pits[at] += 1  hand -= 1 }"
    path.write_text(SOWING.replace("LOOP", loop), encoding="utf-8")
    r = engine_cli("validate", str(path), "--playouts", "5")
    assert r.returncode == 0 and "loop-cut" not in r.stderr, r.stderr


@pytest.mark.parametrize("op, then", [("and", "score n"), ("or", "score for p: n"), ("+", "action b { n += 1 }")])
def test_an_expression_left_hanging_after_an_operator_is_an_error_at_the_operator(tmp_path, op, then):
    # the `terminal` line ends with an operator: the parser reads on into the next declaration
    text = f"players A, B\nstate {{ n: 0..3 = 0 }}\naction a {{ n += 1 }}\nturn {{ a }}\n" \
           f"terminal n == 3 {op}\n\n{then}\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text.replace(f" {op}\n", f" ‸{op}\n", 1))
    word = then.split()[0]
    assert (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "syntax", at_line, at_col, f"the expression ends with '{op}' and goes on into the `{word}` declaration on "
        f"line 7", f"finish the expression after '{op}', or take the '{op}' away"), errors.render()


@pytest.mark.parametrize("call, message, hint", [
    ("head(‸pile, 2)", "head() takes the number of elements first, then the list",
     "head(k, xs) is the first k elements of the list xs"),
    ("tail(1, ‸{2, 3})", "tail() needs a list second, got set<int>",
     "a list has an order to take its first or last elements in; sorted(c) is one of a set or bag"),
    ("tail(‸yes, pile)", "tail() needs an int first, got bool", "tail(k, xs) is the last k elements of the list xs")])
def test_head_and_tail_given_the_wrong_arguments_say_which(tmp_path, call, message, hint):
    text = f"state {{ pile: list<int> = [1, 2] }}\naction a {{ pile = [len({call})] }}\nturn {{ a }}\n" \
           "terminal len(pile) < 2\nscore 0\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text.replace("head(‸", "‸head(", 1))
    assert (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "type-mismatch", at_line, at_col, message, hint), errors.render()


@pytest.mark.parametrize("value, message, hint", [
    ("‸[n] * 3", "'*' does not repeat a list, got list<int> and int",
     "'*' multiplies numbers; n copies of x are a comprehension, [x for _ in 1..n]"),
    ("‸2 * bag([n])", "'*' does not repeat a bag, got int and bag<int>",
     "'*' multiplies numbers; n copies of x are a comprehension, [x for _ in 1..n], or bag(x for _ in 1..n)")])
def test_a_collection_times_a_number_is_one_error_with_the_comprehension_that_repeats(tmp_path, value, message,
                                                                                      hint):
    kind = "bag" if "bag" in value else "list"
    text = f"const n = 2\nstate {{ xs: {kind}<int> = {value} }}\naction a {{ xs += 1 }}\nturn {{ a }}\n" \
           "terminal len(xs) > 5\nscore 0\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert len(errors.diagnostics) == 1 and (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "type-mismatch", at_line, at_col, message, hint), errors.render()


def test_a_constant_declared_a_bag_given_a_list_is_told_what_makes_a_bag(tmp_path):
    text = "const deck: bag<int> = ‸[1, 2, 2]\nstate { n: 0..3 = 0 }\naction a { n += 1 }\nturn { a }\n" \
           "terminal n == 3\nscore len(deck)\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "type-mismatch", at_line, at_col, "'deck' is declared bag<int>, got list<int>",
        "`bag(x)` makes a bag of the elements of x"), errors.render()


@pytest.mark.parametrize("label", ['"shows {N‸: 1, E: 2}"', '"cost {n +‸}"'])
def test_braces_of_a_label_that_do_not_parse_hint_at_how_a_brace_itself_is_written(tmp_path, label):
    text = f"enum S {{ N, E }}\nstate {{ n: 0..3 = 0 }}\naction a {label} {{ n += 1 }}\nturn {{ a }}\n" \
           "terminal n == 3\nscore n + len([N, E])\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.code, d.span.line, d.span.col, d.hint) == (
        "syntax", at_line, at_col, "braces in a label hold an expression to fill in; write \\{ and \\} for braces "
        "themselves"), errors.render()


def test_an_initial_number_outside_its_range_is_told_with_the_other_errors_of_the_file(tmp_path):
    # n's 5 is outside 0..3 and m's yes is no int: one run tells both (the range was told only once
    # the file had no other error, when the game was set up)
    text = "state { n: 0..3 = ‸5  m: int = yes }\naction a { n += 1 }\nturn { a }\nterminal n == 3\nscore n\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert [(x.code, x.span.line, x.span.col) for x in errors.diagnostics] == [
        ("out-of-range", at_line, at_col), ("type-mismatch", 1, 31)], errors.render()
    assert d.message == "initial value 5 of 'n' is outside 0..3", errors.render()


@pytest.mark.parametrize("written, values", [("1..20", "1..20"), ("{3, 5}", "{3, 5}"), ("1..k", "LO..HI")])
def test_a_parameter_given_its_values_after_the_equals_sign_is_told_where_they_go(tmp_path, written, values):
    text = f"const k = 4\nparam n = ‸{written}\nstate {{ x: int = n }}\naction a {{ x += 1 }}\nturn {{ a }}\n" \
           "terminal x > 30\nscore x\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    # one error: n is read as one of its values from there on (`x: int = n` is no second error)
    assert len(errors.diagnostics) == 1 and (d.code, d.span.line, d.span.col, d.hint) == (
        "type-mismatch", at_line, at_col, f"a parameter's values follow `in` and its default follows '=': "
        f"`param n in {values} = VALUE`"), errors.render()


@pytest.mark.parametrize("line, then, into", [
    ("choose k in 1..2 where k <= n and", "choose j in 0..1", "the `choose` statement"),
    ("let b = n - 1 -", "n -= b", "the assignment to `n`"),
    ("require n < 3 or", "if n == 1 { n += 1 }", "the `if` statement")])
def test_an_expression_left_hanging_at_the_end_of_a_line_of_a_block_is_an_error_at_the_operator(tmp_path, line, then,
                                                                                                 into):
    # the parser reads on into the next statement and stumbles there, past the line to mend
    op = line.split()[-1]
    text = f"players A, B\nstate {{ n: 0..3 = 0 }}\naction a {{\n    {line[:-len(op)]}‸{op}\n    {then}\n" \
           "    n += 1\n}\nturn { a }\nterminal n == 3\nscore for p: n\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, text)
    assert (d.code, d.span.line, d.span.col, d.message, d.hint) == (
        "syntax", at_line, at_col, f"the expression ends with '{op}' and goes on into {into} on line 5",
        f"finish the expression after '{op}', or take the '{op}' away"), errors.render()


def test_a_name_read_in_a_comprehension_before_the_for_that_binds_it_gets_a_hint(tmp_path):
    game = "state { n: 0..3 = 0 }\naction a { n += 1 }\nturn { a }\nterminal n == 3\n" \
           "score sum(x * k for k in 1..‸x for x in 1..2)\n"
    d, (at_line, at_col), errors = first_at_marker(tmp_path, game)
    assert (d.code, d.span.line, d.span.col, d.hint) == (
        "unknown-name", at_line, at_col, "'x' is bound by a `for` after it, at line 5, column 35: the `for`s of a "
        "comprehension bind their names from left to right, so `for x in ...` goes first"), errors.render()


def test_an_action_called_only_after_a_try_that_always_has_a_way_says_so(tmp_path, engine_cli):
    # `give_up` runs only where `step` has no way through, and step always has one before the end
    path = tmp_path / "try.rules"
    path.write_text("state { n: 0..3 = 0  quit: bool = no }\naction step { require n < 3  n += 1 }\n"
                    "action give_up { quit = yes }\nturn { try { step } else { give_up } }\n"
                    "terminal n == 3 or quit\nscore n\n", encoding="utf-8")
    r = engine_cli("validate", str(path))
    assert r.returncode == 0
    assert f"{path}:3:8: warning[unreached]: action 'give_up' never ran in 20 random playouts\n" in r.stderr, r.stderr
    assert "hint: it is called only in the `else` of the `try` at line 4, which runs where the `try`'s block has no " \
           "way through: the block had one in every state they reached\n" in r.stderr, r.stderr
