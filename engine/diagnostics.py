"""Diagnostics: `file:line:col: error[code]: message`, the line, a caret, a hint."""
from __future__ import annotations

import difflib
from typing import Iterable, Optional

import attrs

from .model import Span


@attrs.frozen
class Diagnostic:
    """One finding about a rule file."""

    code: str
    message: str
    span: Span
    hint: Optional[str] = None
    severity: str = "error"

    def as_json(self) -> dict:
        """The diagnostic as --json gives it: where (1-based line and column, and where the text
        it points at ends), its severity, code, message and hint (null without one)."""
        s = self.span
        return {"file": s.file, "line": s.line, "col": s.col, "end_line": s.end_line, "end_col": s.end_col,
                "severity": self.severity, "code": self.code, "message": self.message, "hint": self.hint}

    def render(self, sources: dict[str, str]) -> str:
        """The diagnostic as the user sees it, with the source line and a caret."""
        head = f"{self.span}: {self.severity}[{self.code}]: {self.message}"
        lines = [head]
        text = sources.get(self.span.file)
        if text is not None and self.span.line > 0:
            all_lines = text.splitlines()
            src = all_lines[self.span.line - 1] if self.span.line <= len(all_lines) else ""
            num = str(self.span.line)
            start = 0  # a long line is shown around the column, cut at both ends
            if len(src) > LINE_SHOWN:
                start = max(0, min(self.span.col - 1 - LINE_SHOWN // 2, len(src) - LINE_SHOWN))
            shown = src[start:start + LINE_SHOWN]
            before = "..." if start else ""
            lines.append(f"  {num} | {before}{shown}{'...' if start + LINE_SHOWN < len(src) else ''}")
            width = 1
            if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                width = self.span.end_col - self.span.col
            width = max(1, min(width, max(1, start + len(shown) - self.span.col + 1)))
            pad = " " * len(before) + "".join("\t" if ch == "\t" else " " for ch in src[start: self.span.col - 1])
            lines.append(f"  {' ' * len(num)} | {pad}{'^' * width}")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


LINE_SHOWN = 160
"""The most characters of a source line a diagnostic shows: a longer line is shown around the
column, with ... where it is cut."""


class RuleErrors(Exception):
    """Raised when a rule file has errors; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic], sources: dict[str, str], title: Optional[str] = None):
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.span.file, d.span.line, d.span.col))
        self.sources = sources
        self.title = title  # the game's title, where the file could be read that far
        super().__init__(self.render())

    def __reduce__(self):  # rebuilt from its fields, so it crosses from a --jobs process intact
        return (RuleErrors, (self.diagnostics, self.sources, self.title))

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)


class RuleRuntimeError(Exception):
    """A rule failed while the game ran (e.g. max of an empty collection)."""

    def __init__(self, span: Span, message: str, hint: Optional[str] = None):
        self.span = span
        self.message = message
        self.hint = hint
        super().__init__(f"{span}: error[runtime]: {message}")

    def __reduce__(self):  # rebuilt from its fields, so it crosses from a --jobs process intact
        return (RuleRuntimeError, (self.span, self.message, self.hint), self.__dict__)


class UsageError(Exception):
    """A command-line mistake: exit status 2, one clear line."""


class Forbidden(UsageError):
    """Parameter settings that a `forbid` of the rule file rules out."""


def did_you_mean(name: str, candidates: Iterable[str]) -> Optional[str]:
    """The closest candidate to a misspelt name, if any is close."""
    found = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def similarity(a: str, b: str) -> float:
    """How alike two words are, from 0 to 1, as did_you_mean weighs them."""
    return difflib.SequenceMatcher(None, a, b).ratio()


def clip(text: str, n: int = 200) -> str:
    """At most n characters of text."""
    return text if len(text) <= n else text[: n - 3] + "..."


def counted(n: int, word: str) -> str:
    """'1 argument', '2 arguments': a number and its noun, plural unless the number is 1."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"
