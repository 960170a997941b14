"""Warnings about a checked game: declarations nothing refers to."""
from __future__ import annotations

from .check import Checker
from .diagnostics import Diagnostic

_WHAT = {"const": "constant", "def": "function", "action": "action", "record": "record", "type": "enum"}


def unused(ck: Checker) -> list:
    """A warning for each constant, function, action, record or enum that is never used."""
    used = {id(sym) for sym in ck.syms.values()}
    for sym in list(ck.syms.values()):  # an enum or tile type whose values are used is used
        if sym.kind in ("enumval", "const") and sym.type[0] in ("enum", "tile") and sym.type[1] in ck.globals:
            used.add(id(ck.globals[sym.type[1]]))
    out = []
    for sym in ck.globals.values():
        if sym.kind in _WHAT and sym.span.line and id(sym) not in used:
            what = "tile type" if sym.type[0] == "tile" and sym.kind == "type" else _WHAT[sym.kind]
            out.append(Diagnostic("unused", f"{what} '{sym.name}' is never used", sym.span,
                                  severity="warning"))
    return out
