"""Warnings about a checked game: declarations nothing refers to, actions that never ran."""
from __future__ import annotations

from .check import Checker
from .diagnostics import Diagnostic

_WHAT = {"param": "parameter", "const": "constant", "def": "function", "action": "action", "record": "record",
         "type": "enum"}


def unused(ck: Checker) -> list:
    """A warning for each parameter, constant, function, action, record or enum that is never used."""
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


def unreached(ck: Checker, reached: set, playouts: int) -> list:
    """A warning for each action that something calls but that completed on no path of a move
    in the random playouts (`reached`: the names of those that did)."""
    called = {sym.name for sym in ck.syms.values() if sym.kind == "action"}
    return [Diagnostic("unreached", f"action '{sym.name}' never ran in {playouts} random playouts", sym.span,
                       "no path through it ended a move in the states they reached: a `require` on its way may "
                       "never hold with these parameter values", severity="warning")
            for sym in ck.globals.values()
            if sym.kind == "action" and sym.span.line and sym.name in called and sym.name not in reached]
