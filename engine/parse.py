"""Lark parse tree to model: one transformer method per grammar rule."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Optional

import attrs
import lark
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from . import model as m
from .diagnostics import Diagnostic, RuleErrors, did_you_mean

GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "rules.lark"

_parser: Optional[Lark] = None


def parser() -> Lark:
    """The LALR parser, built once per process."""
    global _parser
    if _parser is None:
        _parser = Lark(GRAMMAR.read_text(), parser="lalr", start=["start", "expr"],
                       propagate_positions=True, maybe_placeholders=True, cache=True)
    return _parser


WORDS = {"NAME": "a name", "INT": "a number", "STRING": "a string in double quotes",
         "$END": "the end of the file", "CLAMP": "'clamp'", "REJECT": "'reject'",
         "ONCE": "'once'", "UPDATE_OP": "'+=', '-=', '*='"}


def _word(term: str) -> str:
    if term in WORDS:
        return WORDS[term]
    for t in parser().terminals:
        if t.name == term and t.pattern.type == "str":
            return repr(t.pattern.value)
    return term.lower()


_CLOSERS = ("'}'", "')'", "']'")


def _expected(names) -> str:
    # closing brackets first: a missing one is the likeliest mistake and must survive the cut
    words = sorted({_word(n) for n in names}, key=lambda w: (w not in _CLOSERS, w.startswith("'"), w))
    if len(words) > 10:
        words = words[:10] + ["something else"]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _syntax_error(e: UnexpectedInput, path: str, text: str, whole_file: bool = True) -> Diagnostic:
    line, col = max(1, e.line if e.line and e.line > 0 else 1), max(1, e.column if e.column and e.column > 0 else 1)
    if isinstance(e, UnexpectedToken) and e.token.type == "$END":
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        got = "the end of the file"
    elif isinstance(e, UnexpectedToken):
        got = f"{_word(e.token.type)} {e.token.value!r}" if e.token.type in ("NAME", "INT", "STRING") else repr(e.token.value)
    elif isinstance(e, UnexpectedCharacters):
        got = repr(text[e.pos_in_stream]) if e.pos_in_stream < len(text) else "the end of the file"
    else:
        got = "the end of the file"
    expected = getattr(e, "expected", None) or getattr(e, "allowed", None) or ()
    if getattr(e, "interactive_parser", None) is not None:
        # LALR merges states, so e.expected holds what may come here in any of them: the parser
        # fed each in turn keeps those that may come after what was read
        expected = sorted(e.interactive_parser.accepts()) or expected
    at = len(text) if isinstance(e, UnexpectedToken) and e.token.type == "$END" else \
        e.token.start_pos if isinstance(e, UnexpectedToken) else getattr(e, "pos_in_stream", None)
    if at is not None:  # LALR merges states: only the bracket open here can close here
        closer = {"(": "')'", "[": "']'", "{": "'}'"}.get(_inside(text, at))
        expected = [n for n in expected if _word(n) not in _CLOSERS or _word(n) == closer] or expected
    words = {_word(n) for n in expected}
    msg = f"expected {_expected(expected)}, got {got}" if expected else \
        f"expected the end of the expression, got {got}" if not whole_file else f"did not expect {got} here"
    # between declarations (and nothing else may come): name what may, not ten words of it
    top_level = _TOP_LEVEL <= words <= _TOP_LEVEL | {"'source'", _word("$END")}
    if top_level:
        msg = f"expected a declaration{' or the end of the file' if '$END' in expected else ''}, got {got}"
    if isinstance(e, UnexpectedCharacters) and not expected:
        msg = f"unexpected character {got}"
    hint = None
    if whole_file and isinstance(e, UnexpectedToken) and e.token.type == "$END" and (
            brace := _open_bracket(text, len(text))) is not None:
        hint = _still_open(text, brace, len(text))
    elif isinstance(e, UnexpectedToken) and e.token.type != "$END" and (
            brace := _open_before_declaration(text, e.token.start_pos)) is not None:
        hint = _still_open(text, brace, e.token.start_pos)
    elif isinstance(e, UnexpectedToken) and e.token.type != "$END" and (
            dangling := _dangling_operator(text, e.token.start_pos)) is not None:
        op, where, into = dangling
        msg = f"the expression ends with '{op}' and goes on into {into} on line {line}"
        line, col = _line_col(text, where)
        hint = f"finish the expression after '{op}', or take the '{op}' away"
    elif isinstance(e, UnexpectedToken) and e.token.type != "$END" and (either := _after_either(text, e.token)):
        hint, where = either
        if where is not None:  # point at the word to change, not at what came after it
            msg = f"expected 'or' and a block, got {text[where:where + 4]!r}"
            line, col = _line_col(text, where)
    elif isinstance(e, UnexpectedToken) and "'='" in words and (
            field := _field_without_value(text, e.token.start_pos)):
        name, kind, where = field
        msg = f"state field '{name}' has no initial value"
        line, col = _line_col(text, where)
        hint = f"a state field starts with a value: {name}: {kind} = VALUE"
        if e.token.value == "in":  # `n: int in 0..5 = 0`: the range is the type
            span = re.match(r"in\s+([^\s=]+)", text[e.token.start_pos:])
            msg = f"state field '{name}': expected '=' and its initial value, got 'in'"
            line, col = _line_col(text, e.token.start_pos)
            hint = f"a range is the field's type: {name}: {span.group(1) if span else 'LO..HI'} = VALUE"
    elif isinstance(e, UnexpectedToken) and "'{'" in words and (where := _choose_if(text, at)) is not None:
        msg = "a filter of `choose` is written with `where`, not `if`"
        line, col = _line_col(text, where)
        hint = _WHERE_HINT.format("choose x in xs where COND")
    elif isinstance(e, UnexpectedToken) and (where := _draw_where(text, at)) is not None:
        msg = "a draw takes no `where`"
        line, col = _line_col(text, where)
        hint = _draw_where_hint(text, where)
    elif isinstance(e, UnexpectedToken) and (word := _condition_word(text, at)):
        declaration, where = word
        msg = f"`{declaration}` takes its condition without `{text[where:where + 5].split()[0]}`"
        line, col = _line_col(text, where)
        hint = _CONDITION_HINT.format(declaration, f"`{text[where:where + 5].split()[0]}`")
    elif isinstance(e, UnexpectedToken) and e.token.value.isdigit() and (
            number := re.search(r"\b\d+\.$", text[:e.token.start_pos])):
        msg = f"a number with a fraction, {number.group()}{e.token.value}: numbers in rules are whole"
        line, col = _line_col(text, number.start())
        hint = f"for {number.group()}{e.token.value} scale the values (tenths, say) and divide with //"
    elif isinstance(e, UnexpectedToken) and (where := _elif_before(text, e.token.start_pos)) is not None:
        msg = "expected 'else if', got 'elif'"
        line, col = _line_col(text, where)
        hint = _HABITS["elif"]
    elif isinstance(e, UnexpectedToken) and e.token.value == "elif" and "'else'" in words:  # on a line of its own
        msg = "expected 'else if', got 'elif'"
        hint = _HABITS["elif"]
    elif isinstance(e, UnexpectedToken) and "'else'" in words and (missing := _missing_else(text, at)):
        # `first(...)` or `if COND then A` without its `else`: the `else` belongs where the text before ends
        line, col = _line_col(text, len(text[:at].rstrip()))
        if missing == "first":
            msg = "expected 'else' and a default after first(...)"
            hint = "first(...) gives the first item that matches, or the value after `else` when none does: " \
                   "first(x for x in xs where COND) else DEFAULT"
        else:
            msg = "expected 'else' and a value: `if COND then A` in an expression needs `else B`"
            hint = "`if COND then A else B` gives one of two values; a statement that only sometimes runs is " \
                   "`if COND { ... }`"
    elif isinstance(e, UnexpectedToken) and e.token.value == "," and "'='" in words:
        hint = ("an assignment sets one field: `a, b = x, y` is two statements, a value the first changes kept "
                "with `let` before it (`let t = xs[i]  xs[i] = xs[j]  xs[j] = t`)")
    elif isinstance(e, UnexpectedToken) and e.token.value == "," and _inside(text, at) == "{" and \
            re.search(r"\bstate\s*\{[^{}]*$", text[:at]):
        hint = "the fields of a state stand apart without commas, on lines of their own or after spaces: " \
               "state { a: 0..9 = 0  b: int = 1 }"
    elif isinstance(e, UnexpectedToken) and e.token.value == "=":
        bracket = _inside(text, e.token.start_pos)
        before = text[:e.token.start_pos]
        if (turned := text[e.token.start_pos + 1:e.token.start_pos + 2]) in ("<", ">"):
            hint = f"write `{turned}=`"
        elif _trigger_in_a_block(text, e.token.start_pos):
            hint = _TRIGGER_HINT
        elif scored := re.search(r"(?:^|\n)\s*score\s+for\s+(\w+)\s*$", before):
            hint = f"each player's score follows a colon: score for {scored.group(1)}: EXPR"
        elif bracket == "{" and words == {"':'"} and re.search(r"\bstate\s*\{[^{}]*$", before):
            name = re.search(r"(\w+)\s*$", before)
            hint = f"a state field has a type before its value: {name.group(1) if name else 'NAME'}: TYPE = VALUE " \
                   "(such as 0..9, int or list<int> for TYPE)"
        elif bracket == "(" and (named := re.search(r"[(,]\s*(\w+)\s*$", text[:e.token.start_pos])):
            hint = f"a named argument is written {named.group(1)}: VALUE"
        elif bracket == "{" and "':'" in words:
            hint = "a map is written {KEY: VALUE, ...}"
        elif text[e.token.start_pos - 1:e.token.start_pos] == "=":
            hint = "to assign write a single '='; '==' compares two values"
        elif typed := re.search(r"(?:^|\n|[{,])\s*(\w+)\s*:\s*\([^()]*\)\s*$", text[:e.token.start_pos]):
            hint = f"a type has no tuple form: '{typed.group(1)}' can be a record " \
                   "(record NAME { a: int, b: int }), a cell (cell(row, col)), or two fields"
        elif defined := re.search(r"(?:^|\n)\s*def\s+(\w+)\s*$", text[:e.token.start_pos]):
            name = defined.group(1)
            hint = f"a def lists its parameters in brackets, none as def {name}() = ...; a value that never " \
                   f"changes is a const: const {name} = ..."
        else:
            hint = "to compare two values write '=='; a single '=' assigns"
    elif isinstance(e, UnexpectedCharacters) and text[e.pos_in_stream:e.pos_in_stream + 1] == '"':
        hint = "a string must end with '\"' on the line where it starts"
    elif isinstance(e, UnexpectedCharacters) or isinstance(e, UnexpectedToken) and e.token.type != "$END":
        at = e.token.start_pos if isinstance(e, UnexpectedToken) else e.pos_in_stream
        hint = _habit_hint(text, at, e.token.value if isinstance(e, UnexpectedToken) else text[at:at + 1], words)
        if hint is None and isinstance(e, UnexpectedToken):
            hint, word = _misspelt_keyword(text, e.token, [w[1:-1] for w in words if re.fullmatch(r"'[a-z_]+'", w)])
            if not whole_file:  # an expression alone has no statement to begin with a keyword
                hint, word = (None, None) if word is not None else (hint, word)
            if word is not None:  # the statement's first word: the error is there, not where parsing gave up
                msg = f"expected a statement, got '{text[word:word + len(text[word:].split(None, 1)[0])]}'"
                line, col = _line_col(text, word)
    if top_level and isinstance(e, UnexpectedToken) and e.token.type == "NAME":
        hint = _ENDS_HINT if e.token.value.lower() in _ENDING_WORDS else hint or DECLARATIONS_HINT
    return Diagnostic("syntax", msg, m.Span(path, line, col, line, col + 1), hint)


def _line_col(text: str, at: int) -> tuple:
    """The 1-based line and column of offset `at` in text."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def _field_without_value(text: str, at: int) -> Optional[tuple]:
    """(name, type, where its value should go) when the text before `at` ends with a field
    `NAME: TYPE` of a `state` block that is still open: its initial value is missing."""
    before = _blanked(text[:at])
    field = re.search(r"(?:^|[{\s])(\w+)\s*:\s*([^:={}]*?[^\s:={}])(\s*)$", before)
    opened = list(re.finditer(r"\bstate\s*\{", before))
    if not field or not opened:
        return None
    inside = before[opened[-1].end():field.start(1)]
    if inside.count("{") != inside.count("}"):
        return None
    return field.group(1), " ".join(field.group(2).split()), field.start(3)


STATEMENT_WORDS = ("let", "var", "choose", "require", "if", "for", "optional", "either", "try", "replace", "draw",
                   "merge", "pass")
"""The keywords a statement begins with: misspelt, one reads as a name (the call of an action)."""


def misspelt_statement_word(name: str) -> Optional[str]:
    """The statement keyword `name` looks like a misspelling of, if any (not one it extends:
    `draws` is a name of its own, not `draw` misspelt)."""
    near = did_you_mean(name, STATEMENT_WORDS) if name not in STATEMENT_WORDS + DECLARATION_WORDS else None
    return near if near and not name.startswith(near) else None


def _elif_before(text: str, at: int) -> Optional[int]:
    """Where an `elif` begins the statement (after a brace, or its line) in which `at` lies."""
    start = text.rfind("\n", 0, at) + 1
    found = re.search(r"(?:^|\})[ \t]*(elif)\b[^{}]*$", text[start:at])
    return start + found.start(1) if found else None


def _misspelt_keyword(text: str, token: Token, expected: list) -> tuple:
    """(hint, None) when the unexpected token is a misspelt keyword the parser expected there;
    (hint, its offset) when the statement it is in begins (on its line, or after a brace there)
    with a misspelt one; (None, None) otherwise."""
    if token.type == "NAME" and (near := did_you_mean(token.value, expected)):
        return f"did you mean the keyword '{near}'?", None
    start = text.rfind("\n", 0, token.start_pos) + 1
    first = re.search(r"(?:^|[{}])[ \t]*(\w+)[^{}]*$", text[start:token.start_pos])
    if first and first.group(1) in _HABITS:  # `elif` beginning a statement
        return _HABITS[first.group(1)], None
    if first and (near := misspelt_statement_word(first.group(1))):
        return f"did you mean the keyword '{near}' for '{first.group(1)}'?", start + first.start(1)
    return None, None


_HABITS = {"&": "write `and` for both",
           "|": "write `or` for either of two conditions, and `either { A } or { B }` for a choice of steps",
           "!": "write `not` to negate",
           ";": "no ';' is needed: a statement ends where the next one begins, also on the same line",
           "'": "strings are written in double quotes: \"...\"", "elif": "write `else if`",
           "/": "numbers in rules are whole: `a // b` divides and rounds down", "≤": "write `<=`", "≥": "write `>=`",
           "≠": "write `!=`", "?": "write `if COND then A else B`",
           "^": "there is no `^`: a power is a product (x * x), and an element toggled in a set is "
                "`if x in s { s -= x } else { s += x }`",
           "\u00a0": "a no-break space (U+00A0), as pasted from a web page: write a plain space",
           "\u200b": "a zero-width space (U+200B), as pasted from a web page: delete it",
           "\u2212": "a minus sign (U+2212): write `-`", "×": "write `*`",
           "“": 'curly quotes: write straight ones, "..."', "”": 'curly quotes: write straight ones, "..."',
           "‘": 'curly quotes: strings are written in straight double quotes, "..."',
           "’": 'curly quotes: strings are written in straight double quotes, "..."'}

DECLARATION_WORDS = ("game", "use", "param", "enum", "record", "table", "const", "def", "players", "state",
                     "action", "turn", "when", "chance", "terminal", "score", "heuristic", "invariant", "agent",
                     "tiles", "view", "forbid", "merge", "dead")
"""The keywords a declaration begins with, at the start of a line."""

_TOP_LEVEL = {f"'{w}'" for w in DECLARATION_WORDS}
_ENDING_WORDS = {"end", "ends", "over", "gameover", "game_over", "finish", "finished", "until", "stop", "done", "goal"}
DECLARATIONS_HINT = "a declaration begins with " + ", ".join(DECLARATION_WORDS[:-1]) + " or dead ends"
_ENDS_HINT = "a game ends where its condition holds: terminal COND (such as terminal pile == 0)"

_WHERE_HINT = "a filter is written with `where`: {}"


def _blanked(text: str) -> str:
    """text with its strings and comments blanked out, every offset kept."""
    return re.sub(r'"[^"\n]*"|#[^\n]*', lambda c: " " * len(c.group()), text)


def _open_before_declaration(text: str, at: int) -> Optional[int]:
    """Where a bracket still open at `at` begins, when `at` is on a line that begins (unindented)
    with a declaration's keyword below that bracket: a block or a bracket above was not closed
    (the one open where the line begins: `(` of `all(` on the line itself is not it)."""
    start = text.rfind("\n", 0, at) + 1
    word = re.match(r"[a-z]+\b", text[start:])
    brace = _open_bracket(text, start)
    if word and word.group() in DECLARATION_WORDS and brace is not None and brace < start:
        return brace
    return None


_STATEMENT_START = re.compile(r"\s+(?:(let|var|choose|draw|require|if|for|optional|either|try|pass|replace)\b"
                              r"|(\w+)\s*(?:\[[^\]\n]*\])?\s*(?:[-+*]?=(?!=)))")
"""The start of a line of a block that begins a statement: a keyword, or an assignment."""


def _dangling_operator(text: str, at: int) -> Optional[tuple]:
    """(the operator, where it is, what it went on into) when `at` is on a line that begins
    (unindented) with a declaration's keyword, or (indented) with a statement, and the last line
    before it with anything on it ends with an operator: the expression there went on into the
    declaration (`terminal done and`) or the next statement of its block (`where k <= r and`)."""
    start = text.rfind("\n", 0, at) + 1
    word = re.match(r"[a-z]+\b", text[start:])
    statement = _STATEMENT_START.match(text, start)
    if word and word.group() in DECLARATION_WORDS:
        into = f"the `{word.group()}` declaration"
    elif statement:
        into = f"the `{statement.group(1)}` statement" if statement.group(1) else \
            f"the assignment to `{statement.group(2)}`"
    else:
        return None
    before = _blanked(text[:start]).rstrip()
    op = re.search(r"(\band|\bor|\bnot|\bin|\bthen|\belse|//|==|!=|<=|>=|[-+*%<>])$", before)
    return None if op is None else (op.group(), op.start(), into)


_CLOSING = {"(": ")", "[": "]", "{": "}"}


def _still_open(text: str, brace: int, at: int) -> str:
    """The hint for a bracket at `brace` still open at `at`. For a '{', counting pairs the braces in
    between innermost first, so a '}' left out inside takes the outer block's '}': where a '}' that
    begins a line is indented otherwise than the line of the '{' it closes, that '{' is the one left
    open."""
    if text[brace] != "{":
        return "is a '{}' missing? The '{}' at line {}, column {} is still open".format(
            _CLOSING[text[brace]], text[brace], *_line_col(text, brace))
    plain, opened = _blanked(text[:at]), []
    for i in range(brace + 1, at):
        if plain[i] == "{":
            opened.append(i)
        elif plain[i] == "}" and opened:
            o = opened.pop()
            start = plain.rfind("\n", 0, i) + 1
            if not plain[start:i].strip() and i - start != len(_indent(plain, o)):
                brace = o
                break
    return "is a '}}' missing? The '{{' at line {}, column {} is still open".format(*_line_col(text, brace))


def _indent(text: str, at: int) -> str:
    """The spaces that begin the line of offset `at`."""
    start = text.rfind("\n", 0, at) + 1
    return re.match(r"[ \t]*", text[start:]).group()


def _open_bracket(text: str, at: int) -> Optional[int]:
    """Where the innermost bracket, '(', '[' or '{', still open at `at` begins (None at the top
    level)."""
    depth = {")": 0, "]": 0, "}": 0}
    pairs = {"(": ")", "[": "]", "{": "}"}
    plain = _blanked(text[:at])
    for i in range(len(plain) - 1, -1, -1):
        ch = plain[i]
        if ch in depth:
            depth[ch] += 1
        elif ch in pairs:
            if depth[pairs[ch]] == 0:
                return i
            depth[pairs[ch]] -= 1
    return None


def _inside(text: str, at: int) -> Optional[str]:
    """The innermost bracket, '(', '[' or '{', still open at `at` (None at the top level)."""
    where = _open_bracket(text, at)
    return None if where is None else text[where]


_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")

_ONE_EXPRESSION = ("def", "const", "terminal", "score", "heuristic", "invariant", "view")
"""Declarations whose body is one expression."""


def _declaration_word(text: str, at: int) -> Optional[str]:
    """The first word of the last unindented line at or before `at`: the declaration `at` is in."""
    found = None
    for found in re.finditer(r"^[a-z]+\b", _blanked(text[:at]), re.M):
        pass
    return found and found.group()


_ADDS = {"append", "add", "push", "insert", "extend", "update"}
_TAKES_AWAY = {"remove", "discard", "pop", "delete"}


def _method_hint(field: str, method: str) -> str:
    """A hint for a statement written as a method call on a field, `field.method(...)`."""
    if method in _ADDS:
        return f"values have no methods: `{field} += x` adds an element to a list, set or bag field " \
               f"(`{field} += c` a whole collection), `{field}[k] = v` sets an entry of a map"
    if method in _TAKES_AWAY:
        return f"values have no methods: `{field} -= x` takes an element away from a list, set or bag field"
    return "values have no methods: change a field by assigning it, `+=` or `-=`"


def _habit_hint(text: str, at: int, got: str, words: set) -> Optional[str]:
    """A hint for a habit from other languages, or for an `if` or `score` left unfinished."""
    line_before = text[text.rfind("\n", 0, at) + 1:at]
    # the word, or the word and a name (`draw n`), just before: on this line or an earlier one
    if (word := re.search(rf"(?:^|[{{}};\s])({'|'.join(STATEMENT_WORDS)})(?:\s+\w+)?\s*$", _blanked(text[:at]))) and \
            (action := re.search(rf"^[ \t]*action\s+({word.group(1)})\b", text, re.M)):
        return f"`{word.group(1)}` begins a statement, so the action `{word.group(1)}` (line " \
               f"{_line_col(text, action.start(1))[0]}) cannot be called by its name; give the action another name"
    if (verb := re.fullmatch(r"(?:.*[{}])?\s*([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s+in\s*", line_before)) and \
            verb.group(1) not in STATEMENT_WORDS:  # `roll d in 1..6`
        name = verb.group(2)
        return f"`{verb.group(1)} {name} in ...` is no statement: `draw {name} in C` draws in a chance block, " \
               f"`choose {name} in C` in an action, and `for {name} in C {{ ... }}` repeats a block"
    if got != "(" and re.search(r"\bfirst\s*$", _blanked(text[:at])):  # `first` read as a name
        bound = re.search(r"\b(?:choose|let|var|for|draw)\s+(?:\w+\s*,\s*)*(first)\b", _blanked(text[:at]))
        return "`first` is a keyword, read here as `first(EXPR for x in xs where COND) else DEFAULT`" + (
            f"; the name bound at line {_line_col(text, bound.start(1))[0]} needs another word" if bound else "")
    if got == "&" and text[at + 1:at + 2] != "&":  # one `&`: both conditions, or two sets' common elements
        return "write `and` for both of two conditions; the elements two sets share are {x for x in a where x in b}"
    if got in _HABITS:
        return _HABITS[got]
    if re.fullmatch(r"\s*when\s+once\s*", line_before):
        return "`once` goes after the condition: when COND once { ... }"
    if _trigger_in_a_block(text, at):
        return _TRIGGER_HINT
    opening = re.split(r"[{}]", _blanked(line_before))[-1]  # since the last brace: the block not yet open
    if got == ":" and "'{'" in words and (block := re.findall(rf"\b(?:{'|'.join(_BLOCKS)})\b", opening)):
        return f"a block goes in braces, not after a colon: {_BLOCKS[block[-1]]}"
    if got == ":" and re.search(r"(?:^|[{}\s])(choose|draw)\s+[\w\s,]+\bin\b[^{}:]*$", line_before):
        return "a choose or draw takes no colon: the statements after it go on in the same block"
    if got == ":" and (word := re.fullmatch(r"\s*(terminal|invariant)\s*", line_before)):
        return _CONDITION_HINT.format(word.group(1), "a colon")
    if got == ":" and re.fullmatch(r"\s*score\s*", line_before):
        return "`score EXPR` scores the game, `score for p: EXPR` each player"
    if got != ":" and (scored := re.fullmatch(r"\s*score\s+for\s+(\w+)\s*", line_before)):
        return f"each player's score follows a colon: score for {scored.group(1)}: EXPR"
    if got == ":" and re.fullmatch(r"\s*players\s*", line_before):
        return "the players follow the word without a colon: players A, B"
    if re.fullmatch(r"\s*players\s+\w+(?:\s*,\s*\w+)*\s+", line_before) and re.fullmatch(r"\w+", got):
        return "players are separated by commas: players A, B"
    if re.fullmatch(r"\s*game\s*", line_before) and "a string in double quotes" in words:
        title = text[at:text.find("\n", at) if "\n" in text[at:] else len(text)].split("#")[0].strip()
        return 'the title is a string: game "' + (title if re.fullmatch(r"[\w ]+", title) else "TITLE") + '"'
    if "'to'" in words and re.search(r"(?:^|[{}\s])pass\s*$", _blanked(text[:at])):
        return "`pass to PLAYER` names who moves next; a step that does nothing is an empty block: { }"
    # a misspelt `where` after `choose k in ...`, or `for` after `score`: the parser stops a word later
    for near, after in (("where", r"\b(?:choose|for|draw)\s[^\n]*?\bin\b"), ("for", r"^\s*score\b")):
        if start := re.search(after, line_before):
            for w in re.finditer(r"[A-Za-z_]\w*", line_before[start.end():]):
                if w.group() != near and did_you_mean(w.group(), [near]) == near:
                    return f"`{w.group()}` (column {start.end() + w.start() + 1}) may be `{near}`"
    if _declaration_word(text, at) == "tiles":
        if got == "," and re.search(r"[)}]\s*$", line_before):
            return "a tiles declaration takes one entry a line, without commas between them"
        if got == "{" and (word := re.search(r"\)\s*(\w+)\s*$", line_before)):
            return f"`{word.group(1)}` may be `groups`: name = (label, ...) groups {{side, ...}}, {{side, ...}}"
    if len(got) == 1 and not got.isascii() and got.isalnum():  # Ä, or a Cyrillic о that looks like an o
        return (f"names are written with the letters a-z and A-Z, digits and _; this is "
                f"{unicodedata.name(got, 'U+%04X' % ord(got)).lower()}")
    if re.search(r"\bdraw\b.*\bweights\b", line_before):
        return "a weighted draw draws from a bag: draw x in bag({2: 9, 4: 1}) gives 2 nine times in ten"
    if got == ":" and (opened := _open_bracket(text, at)) is not None and text[opened] == "[" and \
            re.search(r"[\w)\]]\s*$", text[:opened]):
        return "there are no slices: a part of a list is a comprehension, [xs[i] for i in a..b], and the list " \
               "reversed [xs[len(xs) - 1 - i] for i in 0..len(xs) - 1]"
    if got == ">" and line_before.endswith("<"):
        return "write `!=`"
    if re.search(r"\w\s*<[^<>]*\([^()]*\)\s*$", line_before):  # list<(int, int)>
        return "there is no tuple type: a pair can be a record (`record Edge { a: int, b: int }`, " \
               "list<Edge>) or a set of two (list<set<int>>)"
    if got == "*" and line_before.endswith("*"):
        return "there is no power operator: multiply (x * x)"
    if got == "(" and re.search(r"\.\s*\w+\s*$", line_before):
        return "values have no methods: a function takes the value as an argument, as in len(x)"
    if re.search(r"\blet\s*$", line_before) and (word := _declaration_word(text, at)) in _ONE_EXPRESSION:
        return f"`let` names a value inside a block of statements; what follows `{word}` is one expression " \
               "(a `def` can name a part of it)"
    if got == "." and (field := re.search(r"(?:^|[{}\s])(\w+)\s*$", line_before)) and \
            (method := re.match(r"\.\s*(\w+)\s*\(", text[at:])):
        return _method_hint(field.group(1), method.group(1))
    if got == "." and (record := re.search(r"(?:^|[{}\s])(\w+(?:\[[^\]\n]*\])?)\s*$", line_before)) and \
            re.match(r"\.\s*\w+\s*(?:[-+*]?=)(?!=)", text[at:]):
        return f"a record's field cannot be assigned: store a new record whole, `{record.group(1)} = " \
               "RECORD(...)` with the fields it keeps and the one that changes"
    if got == "[" and (outer := re.search(r"(?:^|[{}\s])(\w+)\s*\[([^\[\]]*)\]\s*$", line_before)) and \
            (inner := re.match(r"\[([^\[\]]*)\]\s*(?:[-+]?=)(?!=)", text[at:])):
        whole, j = f"{outer.group(1)}[{outer.group(2).strip()}]", inner.group(1).strip()
        return f"only one index can be assigned: store the inner list or map whole, as for a list `{whole} = " \
               f"[if j == {j} then NEW else {whole}[j] for j in 0..len({whole}) - 1]`"
    if got == "else" and words == {"'or'"}:
        return _EITHER_ELSE
    if got != "{" and (word := re.search(r"(?:^|[{}\s])(optional|either)\s*$", _blanked(text[:at]))):
        return f"`{word.group(1)}` takes a block in braces: {word.group(1)} {{ ... }}"
    if got == "then" and re.match(r"\s*(when|chance\s+when)\b", line_before):
        return "a block follows the condition without `then`: " + \
            ("chance when COND { ... }" if "chance" in line_before else "when COND { ... }")
    ifs = list(re.finditer(r"\bif\b", line_before))
    if ifs and re.search(r"(?:==|!=|<=|>=|<|>|\+|-|\*|%|//|\band|\bor|\bnot)\s*$", line_before[:ifs[-1].start()]):
        return "an `if` inside a larger expression goes in brackets: x + (if COND then A else B)"
    if got == "then" and "'{'" in words:
        return "as a statement, `if` takes a block: if COND { ... } (`then` belongs to the expression " \
               "if COND then A else B)"
    if got == "{" and re.fullmatch(r"\s*chance\s*", line_before):
        return "a chance block says when it runs: chance when COND { ... }"
    if got in ("from", "of") and (names := re.search(r"\b(choose|for|draw)\s+(\w+(?:\s*,\s*\w+)*)\s*$", line_before)):
        return f"write `in`: {names.group(1)} {names.group(2)} in ..."
    if got == ".." and re.search(r"\bin\s+[\w.()\[\]+\-* ]+$", line_before):
        return "a range after `in` goes in brackets: x in (1..5)"
    if got in _COMPARISONS and re.search(r"(?:<=|>=|<|>|==|!=)\s*[\w.]+(?:\s*[-+*%]\s*[\w.]+)*\s*$", line_before):
        return "comparisons do not chain: write `a < b and b < c`"
    if re.search(r'"[^"\n]*\{[^"}\n]*"\s*$', line_before):  # "{if c then "a" else "b"}": the quote ended it
        return _IN_BRACES
    if got == "+" and re.search(r'^\s*action\s+\w+\s*(?:\([^()]*\))?\s*"[^"\n]*"\s*$', line_before):
        return 'a label is one string, with values in braces: "trade {a} for {b}"'
    if got == ":" and (header := re.search(r"\b(action|def)\s+(\w+)\s*\([^()]*$", line_before)):
        return f"parameters are names without types (the checker works them out): {header.group(1)} " \
               f"{header.group(2)}(a, b)"
    if got == "if":  # in the middle of an expression: a filter, or Python's `A if C else B`
        if re.search(r"(?:^|[{}])\s*for\s+[\w\s,]+\bin\b", line_before):
            return _WHERE_HINT.format("for x in xs where COND { ... }")
        if re.search(r"\bfor\s+[\w\s,]+\bin\b", line_before):
            return _WHERE_HINT.format("[x for x in xs where COND]")
        return "`if` comes first in an expression: if COND then A else B"
    if re.search(r"(?:^|[{}])\s*while\b", line_before):
        return ("there is no `while`: `for x in xs { ... }` runs a block for each value, `for i in 1..n` n times, "
                "and `for i in 1..n where COND { ... }` on each of the n passes where COND holds: a `while COND` "
                "of at most n passes, once nothing makes COND true again (a `var` carries what the passes change)")
    if got in ("+", "-") and text[at + 1:at + 2] == got and (name := re.search(r"(\w+)\s*$", line_before)):
        return f"write `{name.group(1)} {got}= 1`"
    if got == "(" and (word := re.search(r"\b(let|choose|draw|for)\s*$", line_before)):
        return f"the names to take a tuple apart are written without brackets: {word.group(1)} a, b ..."
    if re.search(r"^\s*score\s+\w+\s*$", line_before) and got == ":":
        return "`score for p: EXPR` scores each player"
    opened = list(re.finditer(r"\bif\b", line_before))
    if opened and not re.search(r"\bthen\b|\{", line_before[opened[-1].end():]) and got not in ("then", "{"):
        return "`if` reads `if COND then A else B` in an expression, `if COND { ... }` as a statement"
    return None


_BLOCKS = {"for": "for x in xs { ... }", "if": "if COND { ... }", "else": "else { ... }", "when": "when COND { ... }",
           "either": "either { ... } or { ... }", "optional": "optional { ... }", "try": "try { ... }",
           "turn": "turn { ... }", "state": "state { ... }", "action": 'action NAME "LABEL" { ... }'}
"""The forms of the blocks a statement or declaration takes, for a colon written before one."""

_TRIGGER_HINT = "a trigger, `when COND { ... }`, is a declaration of its own, outside the turn and the actions"


def _trigger_in_a_block(text: str, at: int) -> bool:
    """Whether the line before `at` begins a `when` (before its block) inside a block: a trigger
    written in the turn or an action, where the parser takes `when` for a name."""
    line_before = text[text.rfind("\n", 0, at) + 1:at]
    return bool(re.search(r"(?:^|[{}])\s*when\b[^{}]*$", line_before)) and _inside(text, at) == "{"


_CONDITION_HINT = "`{0}` is followed by the condition itself, without {1}: {0} COND (such as {0} pile == 0)"


def _condition_word(text: str, at: int) -> Optional[tuple]:
    """(the declaration, where its word is) when the `terminal` or `invariant` declaration `at` is
    in begins `terminal when` (or if, where): the parser reads the word as a name, or an `if`
    as an expression's, and stops later."""
    starts = [d.start() for d in re.finditer(r"^\S", _blanked(text[:at]), re.M)]
    start = starts[-1] if starts else 0
    if start == at:  # the next declaration: the mistake is in the one before
        start = starts[-2] if len(starts) > 1 else 0
    found = re.match(r"(terminal|invariant)\s+(when|where|if)\b", text[start:at])
    if not found or found.group(2) == "if" and re.search(r"\bthen\b", text[start:at]):
        return None
    return found.group(1), start + found.start(2)


def _draw_where_hint(text: str, where: int) -> str:
    """The hint for a `draw x in D where C` whose `where` is at `where`: the draw from a
    comprehension, written with the file's name, domain and (where the line ends with it) condition."""
    start = text.rfind("\n", 0, where) + 1
    end = text.find("\n", where)
    found = re.search(r"\bdraw\s+(\w+)\s+in\s+(.*?)\s*$", text[start:where])
    if found is None:
        return "draw from the values allowed instead: draw d in [d for d in 1..6 where d != 1]"
    x, domain = found.groups()
    cond = text[where + len("where"):len(text) if end < 0 else end].strip()
    if not cond or "{" in cond or "}" in cond:
        cond = "..."
    return f"draw from the values allowed instead: draw {x} in [{x} for {x} in {domain} where {cond}]"


def _choose_if(text: str, at: int) -> Optional[int]:
    """Where the `if` of a `choose x in xs if COND` before `at` is (the parser, taking it for a
    statement `if`, then asks for its block); else None."""
    opened = list(re.finditer(r"\bif\b", _blanked(text[:at])))
    if not opened:
        return None
    start = text.rfind("\n", 0, opened[-1].start()) + 1
    chosen = list(re.finditer(r"(?:^|[{}])\s*choose\s+[\w\s,]+\bin\b", text[start:opened[-1].start()]))
    # the `if` must follow the domain itself: not a `where` or another statement after the choose
    between = text[start + chosen[-1].end():opened[-1].start()] if chosen else ""
    return opened[-1].start() if chosen and not re.search(
        rf"\bwhere\b|=|\b(?:{'|'.join(STATEMENT_WORDS)})\b", between) else None


def _draw_where(text: str, at: int) -> Optional[int]:
    """Where the `where` of a `draw ... in ... where` on the line before `at` is; else None."""
    start = text.rfind("\n", 0, at) + 1
    found = re.search(r"\bdraw\s+[\w\s,]+\bin\b[^{}\[\]]*?\b(where)\b", text[start:at])
    return None if found is None else start + found.start(1)


def _missing_else(text: str, at: int) -> Optional[str]:
    """"first" when the text before `at` ends with a call of first(...), "if" when it ends an
    `if COND then A` (its `then` on the line where the text ends, no `else` after it), and the token
    at `at` is on a later line (or the end): what lacks the `else` the parser expected; else None."""
    before = text[:at].rstrip()
    if not before or ("\n" not in text[len(before):at] and at < len(text)):
        return None
    if _first_without_else(text, at):
        return "first"
    last = _blanked(before)[before.rfind("\n") + 1:]
    then = list(re.finditer(r"\bthen\b", last))
    return "if" if then and re.search(r"\bif\b", last[:then[-1].start()]) and \
        not re.search(r"\belse\b", last[then[-1].end():]) else None


def _first_without_else(text: str, at: int) -> bool:
    """Whether what comes before `at` ends with a call of `first(...)`."""
    before = text[:at].rstrip()
    if not before.endswith(")"):
        return False
    i = _opening(before, "()")
    return i > 0 and re.search(r"\bfirst\s*$", before[:i]) is not None


def _opening(text: str, pair: str) -> int:
    """The index of the bracket pair[0] that the last character of text (pair[1]) closes; -1 when
    none does."""
    depth, i = 0, len(text) - 1
    while i >= 0:
        depth += {pair[1]: 1, pair[0]: -1}.get(text[i], 0)
        if depth == 0:
            return i
        i -= 1
    return -1


_EITHER_ELSE = "`either` takes `or` before each block after its first: either { ... } or { ... } or { ... }"
_EITHER_BRACES = "each choice of `either` is a block in braces: or { ... }"
_EITHER_OR = "`either` takes `or` between its blocks: either { ... } or { ... }"


def _after_either(text: str, token: Token) -> Optional[tuple]:
    """(hint, position of the word to point at or None) when the unexpected token comes after the
    blocks of an `either`: an `else` in place of `or`, `or` without a block, or no `or` at all."""
    before = text[:token.start_pos].rstrip()
    word = re.search(r"\b(else|or)$", before)
    if word and word.group(1) == "else" and token.value == "{":
        hint, where = _EITHER_ELSE, word.start()
    elif word and word.group(1) == "or" and token.value != "{":
        hint, where = _EITHER_BRACES, None
    elif not word and token.value == "{":
        hint, where = _EITHER_OR, None
    else:
        return None
    end = (before[:word.start()] if word else before).rstrip()
    return (hint, where) if _closes_either_blocks(end) else None


def _closes_either_blocks(text: str) -> bool:
    """Whether text ends with the last block of `either { ... } or { ... }`."""
    while text.endswith("}"):
        i = _opening(text, "{}")
        if i < 0:
            return False
        text = text[:i].rstrip()
        if re.search(r"\beither$", text):
            return True
        if not re.search(r"\bor$", text):
            return False
        text = text[:-2].rstrip()
    return False


MAX_DEPTH = 100
"""How deeply the rules may nest: the transformer, checker and compiler all recurse over the tree."""


def _check_depth(tree, path: str, sources: dict, line_offset: int = 0, col_offset: int = 0) -> None:
    """Raise RuleErrors at the first node found deeper than MAX_DEPTH (walked without recursion)."""
    stack = [(tree, 0)]
    while stack:
        t, depth = stack.pop()
        if depth > MAX_DEPTH:
            line, col = t.meta.line, t.meta.column + (col_offset if t.meta.line == 1 else 0)
            raise RuleErrors([Diagnostic("too-deep", f"the rules nest more than {MAX_DEPTH} levels deep here",
                                         m.Span(path, line + line_offset, col, line + line_offset, col + 1),
                                         "split the expression with `let`, `const` or `def` (a chain such as "
                                         "a + b + c counts a level for each operator: `sum([...])` adds a list "
                                         "of any length)")], sources)
        stack.extend((c, depth + 1) for c in reversed(t.children) if isinstance(c, lark.Tree))


class _ToModel(Transformer):
    """Builds model nodes; every method is named after its grammar rule."""

    def __init__(self, path: str, line_offset: int = 0, col_offset: int = 0):
        super().__init__()
        self.path = path
        self.line_offset = line_offset
        self.col_offset = col_offset

    def _span(self, meta_or_tok) -> m.Span:
        o = meta_or_tok
        if isinstance(o, Token):
            line, col, el, ec = o.line, o.column, o.end_line, o.end_column
        elif getattr(o, "empty", False):
            return m.Span(self.path, 0, 0, 0, 0)
        else:
            line, col, el, ec = o.line, o.column, o.end_line, o.end_column
        if line == 1:
            col += self.col_offset
        if el == 1:
            ec += self.col_offset
        return m.Span(self.path, line + self.line_offset, col, el + self.line_offset, ec)

    def _ident(self, tok: Token) -> m.Ident:
        return m.Ident(str(tok), self._span(tok))

    def _note(self, items):
        return items[-1] if items and isinstance(items[-1], _Note) else None

    # --- declarations ---
    def start(self, items):
        return tuple(items)

    @v_args(inline=True)
    def note(self, s):
        return _Note(_unquote(s))

    @v_args(meta=True)
    def game(self, meta, items):
        return m.Game(_unquote(items[0]), _n(items), self._span(meta))

    @v_args(meta=True)
    def use(self, meta, items):
        return m.Use(_unquote(items[0]), _n(items), self._span(meta))

    @v_args(meta=True)
    def param(self, meta, items):
        name, rest = items[0], [i for i in items[1:] if not isinstance(i, _Note)]
        domain = rest[0].children[0] if len(rest) == 2 else None
        return m.Param(self._ident(name), domain, rest[-1], _n(items), self._span(meta))

    @v_args(meta=True)
    def enum_decl(self, meta, items):
        toks = [t for t in items if isinstance(t, Token)]
        return m.EnumDecl(self._ident(toks[0]), tuple(self._ident(t) for t in toks[1:]), _n(items), self._span(meta))

    @v_args(meta=True)
    def field(self, meta, items):
        return m.Field(self._ident(items[0]), items[1], self._span(meta))

    @v_args(meta=True)
    def record_decl(self, meta, items):
        fields = tuple(i for i in items[1:] if isinstance(i, m.Field))
        return m.RecordDecl(self._ident(items[0]), fields, _n(items), self._span(meta))

    @v_args(meta=True)
    def table_decl(self, meta, items):
        entries = tuple(i for i in items[3:] if isinstance(i, m.Entry))
        return m.TableDecl(self._ident(items[0]), items[1], items[2], entries, _n(items), self._span(meta))

    @v_args(meta=True)
    def const_decl(self, meta, items):
        rest = [i for i in items[1:] if not isinstance(i, _Note)]
        typ = rest[0] if len(rest) == 2 else None
        return m.ConstDecl(self._ident(items[0]), typ, rest[-1], _n(items), self._span(meta))

    @v_args(meta=True)
    def def_decl(self, meta, items):
        params = tuple(self._ident(t) for t in items[1:-1] if isinstance(t, Token))
        body = [i for i in items[1:] if not isinstance(i, (Token, _Note, type(None)))][-1]
        return m.DefDecl(self._ident(items[0]), params, body, _n(items), self._span(meta))

    @v_args(meta=True)
    def players_decl(self, meta, items):
        first = next((i for i in items if not isinstance(i, (Token, _Note, type(None)))), None)
        return m.PlayersDecl(tuple(self._ident(t) for t in items if isinstance(t, Token)), _n(items), self._span(meta),
                             first)

    @v_args(meta=True)
    def state_field(self, meta, items):
        bound = next((i for i in items[3:] if isinstance(i, _Bound)), None)
        scored = any(isinstance(i, Token) and i.type == "SCORED" for i in items[3:])
        return m.StateField(self._ident(items[0]), items[1], items[2], bound.value if bound else None,
                            _n(items), self._span(meta), scored)

    @v_args(inline=True)
    def bound(self, tok):
        return _Bound(str(tok))

    @v_args(meta=True)
    def state_decl(self, meta, items):
        return m.StateDecl(tuple(i for i in items if isinstance(i, m.StateField)), _n(items), self._span(meta))

    @v_args(meta=True)
    def action_decl(self, meta, items):
        name = items[0]
        params = tuple(self._ident(t) for t in items[1:] if isinstance(t, Token) and t.type == "NAME")
        label_tok = next((t for t in items[1:] if isinstance(t, Token) and t.type == "STRING"), None)
        block = next(i for i in items if isinstance(i, m.Block))
        label = _template(label_tok, self.path, self.line_offset) if label_tok is not None else None
        return m.ActionDecl(self._ident(name), params, label, block, _n(items), self._span(meta))

    @v_args(meta=True)
    def turn_decl(self, meta, items):
        return m.TurnDecl(items[0], _n(items), self._span(meta))

    @v_args(meta=True)
    def trigger_decl(self, meta, items):
        once = any(isinstance(t, Token) and t.type == "ONCE" for t in items)
        block = next(i for i in items if isinstance(i, m.Block))
        return m.TriggerDecl(items[0], once, block, _n(items), self._span(meta))

    @v_args(meta=True)
    def terminal_decl(self, meta, items):
        return m.TerminalDecl(items[0], _n(items), self._span(meta))

    @v_args(meta=True)
    def score_decl(self, meta, items):
        rest = [i for i in items if not isinstance(i, _Note)]
        player = self._ident(rest[0]) if len(rest) == 2 else None
        return m.ScoreDecl(player, rest[-1], _n(items), self._span(meta))

    @v_args(meta=True)
    def heuristic_decl(self, meta, items):
        rest = [i for i in items if not isinstance(i, _Note)]
        player = self._ident(rest[1]) if len(rest) == 3 else None
        return m.HeuristicDecl(self._ident(rest[0]), player, rest[-1], _n(items), self._span(meta))

    @v_args(meta=True)
    def invariant_decl(self, meta, items):
        return m.InvariantDecl(items[0], _n(items), self._span(meta))

    @v_args(meta=True)
    def agent_decl(self, meta, items):
        options = tuple(i for i in items[1:] if isinstance(i, m.AgentOption))
        return m.AgentDecl(items[0], options, _n(items), self._span(meta))

    @v_args(meta=True)
    def tiles_decl(self, meta, items):
        toks = [self._ident(t) for t in items[:3]]
        entries = tuple(i for i in items[3:] if isinstance(i, m.TileEntry))
        return m.TilesDecl(*toks, entries, _n(items), self._span(meta))

    @v_args(meta=True)
    def tile_entry(self, meta, items):
        groups = tuple(i for i in items if isinstance(i, m.TileGroup)) or None
        labels = tuple(self._ident(t) for t in items[1:] if isinstance(t, Token))
        return m.TileEntry(self._ident(items[0]), labels, groups, self._span(meta))

    @v_args(meta=True)
    def tile_group(self, meta, items):
        return m.TileGroup(tuple(self._ident(t) for t in items), self._span(meta))

    @v_args(meta=True)
    def view_decl(self, meta, items):
        return m.ViewDecl(items[0], _n(items), self._span(meta))

    @v_args(meta=True)
    def forbid_decl(self, meta, items):
        return m.ForbidDecl(items[0], _unquote(items[1]), _n(items), self._span(meta))

    @v_args(meta=True)
    def merge_decl(self, meta, items):
        return m.MergeDecl(_n(items), self._span(meta))

    @v_args(meta=True)
    def dead_ends_decl(self, meta, items):
        return m.DeadEndsDecl(_n(items), self._span(meta))

    @v_args(meta=True)
    def agent_name(self, meta, items):
        return m.Ident("-".join(str(t) for t in items), self._span(meta))

    @v_args(meta=True)
    def agent_option(self, meta, items):
        kind = items[1].type
        value = int(items[1]) if kind == "INT" else float(items[1]) if kind == "DECIMAL" else self._ident(items[1])
        return m.AgentOption(self._ident(items[0]), value, self._span(meta))

    @v_args(meta=True)
    def agent_option_negative(self, meta, items):
        """`depth = -1`: a number the checker then finds out of range (a clearer message than a
        syntax error at the sign)."""
        o = self.agent_option(meta, items)
        return m.AgentOption(o.name, -o.value, o.span)

    # --- types ---
    @v_args(meta=True)
    def named_type(self, meta, items):
        return m.NamedType(self._ident(items[0]), self._span(meta))

    @v_args(meta=True)
    def generic_type(self, meta, items):
        return m.GenericType(self._ident(items[0]), tuple(items[1:]), self._span(meta))

    @v_args(meta=True)
    def range_type(self, meta, items):
        return m.RangeType(items[0], items[1], self._span(meta))

    # --- statements ---
    @v_args(meta=True)
    def block(self, meta, items):
        return m.Block(tuple(items), self._span(meta))

    def targets(self, items):
        return tuple(self._ident(t) for t in items)

    @v_args(meta=True)
    def let(self, meta, items):
        return m.Let(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def var(self, meta, items):
        bound = items.pop() if isinstance(items[-1], _Bound) else None
        return m.Var(self._ident(items[0]), items[1] if len(items) == 3 else None, items[-1], self._span(meta),
                     bound and bound.value)

    @v_args(meta=True)
    def choose(self, meta, items):
        return m.Choose(items[0], items[1], items[2] if len(items) > 2 else None, self._span(meta))

    @v_args(meta=True)
    def draw(self, meta, items):
        return m.Draw(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def chance_decl(self, meta, items):
        return m.ChanceDecl(items[0], items[1], _n(items), self._span(meta))

    @v_args(meta=True)
    def require(self, meta, items):
        return m.Require(items[0], self._span(meta))

    @v_args(meta=True)
    def assign(self, meta, items):
        return m.Assign(self._ident(items[0]), items[1], self._span(meta))

    @v_args(meta=True)
    def update(self, meta, items):
        return m.Update(self._ident(items[0]), str(items[1]), items[2], self._span(meta))

    @v_args(meta=True)
    def index_assign(self, meta, items):
        return m.IndexAssign(self._ident(items[0]), items[1], items[2], self._span(meta))

    @v_args(meta=True)
    def index_update(self, meta, items):
        return m.IndexUpdate(self._ident(items[0]), items[1], str(items[2]), items[3], self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, items):
        return m.IfStmt(items[0], items[1], items[2] if len(items) > 2 else None, self._span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, items):
        return m.ForStmt(items[0], items[1], items[2] if len(items) > 3 else None, items[-1], self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, items):
        args = tuple(a for a in items[1:] if a is not None)
        return m.CallStmt(self._ident(items[0]), args, self._span(meta))

    @v_args(meta=True)
    def merge_stmt(self, meta, items):
        return m.MergeStmt(self._span(meta))

    @v_args(meta=True)
    def optional(self, meta, items):
        return m.OptionalStmt(items[0], self._span(meta))

    @v_args(meta=True)
    def either_stmt(self, meta, items):
        return m.EitherStmt(tuple(items), self._span(meta))

    @v_args(meta=True)
    def try_stmt(self, meta, items):
        return m.TryStmt(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def pass_to(self, meta, items):
        return m.PassTo(items[0], self._span(meta))

    @v_args(meta=True)
    def replace(self, meta, items):
        return m.Replace(items[0], self._ident(items[1]), items[2], self._span(meta))

    # --- expressions ---
    @v_args(meta=True)
    def cond(self, meta, items):
        return m.Cond(items[0], items[1], items[2], self._span(meta))

    def _binop(op):
        @v_args(meta=True)
        def build(self, meta, items):
            return m.BinOp(op, items[0], items[1], self._span(meta))
        return build

    or_op, and_op, in_op, not_in = _binop("or"), _binop("and"), _binop("in"), _binop("not in")
    eq, ne, lt, le, gt, ge = _binop("=="), _binop("!="), _binop("<"), _binop("<="), _binop(">"), _binop(">=")
    add, sub, mul, floordiv, mod = _binop("+"), _binop("-"), _binop("*"), _binop("//"), _binop("%")

    @v_args(meta=True)
    def not_op(self, meta, items):
        return m.Not(items[0], self._span(meta))

    @v_args(meta=True)
    def neg(self, meta, items):
        return m.Neg(items[0], self._span(meta))

    @v_args(meta=True)
    def range_lit(self, meta, items):
        return m.RangeLit(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def attr(self, meta, items):
        return m.Attr(items[0], self._ident(items[1]), self._span(meta))

    @v_args(meta=True)
    def index(self, meta, items):
        return m.Index(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def call(self, meta, items):
        args = tuple(a if isinstance(a, m.Arg) else m.Arg(None, a, a.span) for a in items[1:] if a is not None)
        return m.Call(self._ident(items[0]), args, self._span(meta))

    @v_args(meta=True)
    def arg(self, meta, items):
        return m.Arg(None, items[0], self._span(meta))

    @v_args(meta=True)
    def named_arg(self, meta, items):
        return m.Arg(self._ident(items[0]), items[1], self._span(meta))

    @v_args(meta=True)
    def call_comp(self, meta, items):
        return m.CallComp(self._ident(items[0]), items[1], self._span(meta))

    @v_args(meta=True)
    def first(self, meta, items):
        return m.First(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def comp_for(self, meta, items):
        return _For(items[0], items[1], items[2] if len(items) > 2 else None, self._span(meta))

    @v_args(meta=True)
    def comp(self, meta, items):
        expr, clauses, span = items[0], items[1:], self._span(meta)
        if len(clauses) == 1:
            c = clauses[0]
            return m.Comp(expr, c.targets, c.iter, c.cond, span)
        return m.Comp(m.Name(ITEM, span), (m.Ident(ITEM, span),), _flattened(expr, clauses, span), None, span)

    @v_args(meta=True)
    def int_lit(self, meta, items):
        return m.IntLit(int(items[0]), self._span(meta))

    @v_args(meta=True)
    def str_lit(self, meta, items):
        template = _template(items[0], self.path, self.line_offset, "string")
        if any(not isinstance(p, str) for p in template.parts):  # "total {total}": filled in where it runs
            return m.Template(template.parts, self._span(meta))
        return m.StrLit(_unquote(items[0]), self._span(meta))

    @v_args(meta=True)
    def name(self, meta, items):
        return m.Name(str(items[0]), self._span(meta))

    @v_args(meta=True)
    def tuple_lit(self, meta, items):
        return m.TupleLit(tuple(i for i in items if i is not None), self._span(meta))

    @v_args(meta=True)
    def list_lit(self, meta, items):
        return m.ListLit(tuple(i for i in items if i is not None), self._span(meta))

    @v_args(meta=True)
    def set_lit(self, meta, items):
        return m.SetLit(tuple(items), self._span(meta))

    @v_args(meta=True)
    def entry(self, meta, items):
        return m.Entry(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def map_lit(self, meta, items):
        return m.MapLit(tuple(items), self._span(meta))

    @v_args(meta=True)
    def empty_lit(self, meta, items):
        return m.EmptyLit(self._span(meta))

    @v_args(meta=True)
    def list_comp(self, meta, items):
        return m.ListComp(items[0], self._span(meta))

    @v_args(meta=True)
    def set_comp(self, meta, items):
        return m.SetComp(items[0], self._span(meta))

    @v_args(meta=True)
    def map_comp(self, meta, items):
        key, value, clauses, span = items[0], items[1], items[2:], self._span(meta)
        if len(clauses) == 1:
            c = clauses[0]
            return m.MapComp(key, value, c.targets, c.iter, c.cond, span)
        pairs = _flattened(m.TupleLit((key, value), span), clauses, span)
        return m.MapComp(m.Name(ITEM, span), m.Name(ITEM2, span), (m.Ident(ITEM, span), m.Ident(ITEM2, span)), pairs,
                         None, span)


@attrs.frozen
class _For:
    """One `for NAMES in COLLECTION where COND` of a comprehension."""

    targets: tuple
    iter: object
    cond: object
    span: m.Span


ITEM, ITEM2 = "item·", "value·"
"""The names a comprehension of several `for`s binds to the items it goes over once they are
made into one list: no name in a rule file has a `·`."""


def _flattened(expr, clauses: list, span: m.Span):
    """[EXPR for A ... for B ...] as one list: concat([EXPR for B ...] for A ...), the first `for`
    outermost, as in Python."""
    last = clauses[-1]
    items = m.ListComp(m.Comp(expr, last.targets, last.iter, last.cond, span), span)
    for c in reversed(clauses[:-1]):
        items = m.CallComp(m.Ident("concat", span), m.Comp(items, c.targets, c.iter, c.cond, span), span)
    return items


class _Note(str):
    pass


class _Bound(str):
    @property
    def value(self):
        return str(self)


def _n(items) -> Optional[str]:
    return str(items[-1]) if items and isinstance(items[-1], _Note) else None


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "{": "{{", "}": "}}"}


def _unquote(tok) -> str:
    body = str(tok)[1:-1]
    return re.sub(r"\\(.)", lambda mt: _ESCAPES.get(mt.group(1), mt.group(1)).replace("{{", "{").replace("}}", "}"), body)


_IN_BRACES = "a string cannot hold another in its braces: name the text (a `let` in the action, a `const` or " \
    "a `def`) and put that name in braces"


def _template(tok: Token, path: str, line_offset: int, what: str = "label") -> m.Template:
    """Split a label or string into text and `{expr}` parts, each expression parsed in place."""
    raw = str(tok)[1:-1]
    base = m.Span(path, tok.line + line_offset, tok.column, tok.end_line + line_offset, tok.end_column)
    parts: list = []
    i = 0
    text = ""
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            text += {"n": "\n", "t": "\t"}.get(raw[i + 1], raw[i + 1])
            i += 2
        elif ch == "{":
            j = raw.find("}", i)
            if j < 0:
                # a quote in the braces ended the string: what is left wants something after it
                cut = re.search(r"([(,\[+=<>]|\b(?:else|then|and|or|not|in))$", raw[i + 1:].rstrip()) is not None
                raise RuleErrors([Diagnostic("syntax", f"{what} has '{{' without a closing '}}'",
                                             m.Span(path, base.line, base.col + 1 + i, base.line, base.col + 2 + i),
                                             _IN_BRACES if cut else "text in braces is an expression to fill in; "
                                             "write \\{ for a brace itself")], {})
            if text:
                parts.append(text)
                text = ""
            col0 = base.col + 1 + i + 1
            if raw[i + 1:i + 2] == "{":  # Python's {{ for a brace
                raise RuleErrors([Diagnostic("syntax", "'{{' is no escape: braces in a " + what + " hold an expression "
                                             "to fill in", m.Span(path, base.line, col0 - 1, base.line, col0 + 1),
                                             "write \\{ and \\} for braces themselves")], {})
            try:
                parts.append(parse_expr(raw[i + 1:j], path, base.line - 1, col0 - 1))
            except RuleErrors as e:
                if '\\"' not in raw[i + 1:j]:  # braces meant as text ("{E: road}"), or a slip in an expression
                    raise RuleErrors([d if d.hint else attrs.evolve(
                        d, hint=f"braces in a {what} hold an expression to fill in; write \\{{ and \\}} for braces "
                        "themselves") for d in e.diagnostics], {}) from None
                raise RuleErrors([attrs.evolve(d, hint=_IN_BRACES) for d in e.diagnostics], {}) from None
            i = j + 1
        else:
            text += ch
            i += 1
    if text:
        parts.append(text)
    return m.Template(tuple(parts), base)


def _keyword_as_name(e: UnexpectedInput) -> bool:
    """Read a keyword as the name it is spelt like where only a name fits, and go on parsing.

    LALR merges the states after a statement, so the contextual lexer may offer a keyword
    there that the parser then refuses: a state field named `turn` at the start of a
    statement. Any other error stays an error."""
    if not isinstance(e, UnexpectedToken) or e.token.type in ("NAME", "$END") or "NAME" not in e.expected:
        return False
    if not e.token.value.isidentifier():
        return False
    e.interactive_parser.feed_token(Token.new_borrow_pos("NAME", e.token.value, e.token))
    return True


def parse_expr(text: str, path: str, line_offset: int = 0, col_offset: int = 0):
    """Parse one expression (labels, `--invariant`), positions shifted into place."""
    try:
        tree = parser().parse(text, start="expr", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        d = _syntax_error(e, path, text, whole_file=False)
        s = d.span
        msg = d.message.replace("the end of the file", "the end of the expression")
        raise RuleErrors([Diagnostic(d.code, msg, m.Span(path, s.line + line_offset, s.col + col_offset,
                                                               s.line + line_offset, s.col + col_offset + 1),
                                     d.hint)], {})
    _check_depth(tree, path, {}, line_offset, col_offset)
    return _ToModel(path, line_offset, col_offset).transform(tree)


def parse_text(text: str, path: str) -> m.RuleFile:
    """Parse a rule file's text; raises RuleErrors on a syntax error."""
    try:
        tree = parser().parse(text, start="start", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        raise RuleErrors([_syntax_error(e, path, text)], {path: text})
    _check_depth(tree, path, {path: text})
    try:
        decls = _ToModel(path).transform(tree)
    except lark.exceptions.VisitError as e:
        if isinstance(e.orig_exc, RuleErrors):
            raise RuleErrors(e.orig_exc.diagnostics, {path: text})
        raise
    return m.RuleFile(path, text, decls)
