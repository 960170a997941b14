"""`scored` state fields: running totals that only the score reads.

A field declared `points: int = 0 scored` changes only by `+=` and `-=`, and nothing that
decides how the game goes reads it: not a condition, not another field's change, not the end.
The score adds it (`score points + EXPR`; with a map of the players' totals, `score for p:
points[p] + EXPR`). So two states that differ only in it have the same moves, the same future
changes of it and the same rest of the score, and an exhaustive solve values them once: what
is still to come is the same, and the total so far is added back (`CompiledGame.future_key`
and `banked`). That holds for one player, and where no invariant reads the total (see
`CompiledGame.split_scored`): with several, who leads picks among moves as good.
"""
from __future__ import annotations

from typing import Optional

from . import model as m
from . import types as T
from .diagnostics import Diagnostic

READERS = (m.ViewDecl, m.HeuristicDecl, m.InvariantDecl, m.AgentDecl)
"""Declarations that may read a scored field: they look at a state without deciding the game
(the score, and the labels of actions, are looked at separately)."""

WHERE = ("a scored field is read only by the score (which adds it), the view, labels, heuristics and invariants: "
         "solve values the states that differ only in it once, so nothing that decides the game may read it")


def scored_field(ck) -> Optional[object]:
    """The symbol of the file's scored field, or None."""
    return next((sym for sym in ck.fields if getattr(sym.decl, "scored", False)), None)


def reads_scored(ck, invariants: list) -> bool:
    """Whether any of the (declaration, function) pairs `invariants` reads the scored field,
    through the defs it calls too."""
    sym = scored_field(ck)
    return sym is not None and any(ck.syms.get(id(n)) is sym for n in _names_read(ck, [d for d, _ in invariants]))


def check_scored(ck) -> list:
    """The errors of the file's scored fields: at most one, an int or a map from players to ints,
    without a range or a bound, changed only by += and -=, read by nothing that decides the game,
    and added by the score."""
    fields = [sym for sym in ck.fields if getattr(sym.decl, "scored", False)]
    if not fields:
        return []
    out = [Diagnostic("scored", "a game has one scored field", sym.span,
                      f"'{fields[0].name}' is scored already; add the totals up in it") for sym in fields[1:]]
    sym = fields[0]
    decl = sym.decl
    is_map = sym.type[0] == "map"
    if not (_plain_int(decl.type) or (is_map and sym.type[1] == T.PLAYER and _plain_int(decl.type.args[1]))) \
            or decl.bound is not None:
        out.append(Diagnostic("scored", "a scored field is declared `int` or `map<player, int>`, without a range "
                              "or a bound", decl.span,
                              "a range would make a move that leaves it illegal, so the game would depend on it"))
    out += _changes(ck, sym)
    out += _reads(ck, sym)
    out += _score(ck, sym, is_map)
    return out


def could_be_scored(ck, name: str) -> bool:
    """Whether the field `name`, an int, could be declared `scored`: changed only by += and -=, and
    read by nothing that decides the game."""
    sym = next((f for f in ck.fields if f.name == name), None)
    return sym is not None and _plain_int(sym.decl.type) and sym.decl.bound is None and \
        not _changes(ck, sym) and not _reads(ck, sym)


def _plain_int(t) -> bool:
    return isinstance(t, m.NamedType) and t.name.name == "int"


def _changes(ck, sym) -> list:
    """Each statement that sets the field other than by += or -=."""
    out = []
    for kind in (m.Assign, m.IndexAssign, m.Replace, m.Update, m.IndexUpdate):
        for st in _nodes(ck.decls, kind):
            target = ck.syms.get(id(getattr(st, "target", None)))
            if target is not sym:
                continue
            if getattr(st, "op", "*=") != "*=" and (isinstance(st, m.IndexUpdate) or sym.type[0] != "map"):
                continue  # `m -= k` on a map takes the entry away
            entry = " on an entry (`points[p] += N`)" if sym.type[0] == "map" else ""
            out.append(Diagnostic("scored", f"scored field '{sym.name}' changes only by += and -={entry}", st.span,
                                  "the totals so far are set aside while the rest of the game is solved, so a "
                                  "change may add to it or take from it, not set it"))
    return out


def _reads(ck, sym) -> list:
    """Each read of the field by something that decides the game: the turn, actions (but their
    labels), triggers, chance blocks, the end, other fields' starting values, constants, and the
    defs they call."""
    deciding: list = []
    for d in ck.decls:
        if isinstance(d, READERS + (m.ScoreDecl,)):
            continue
        if isinstance(d, m.ActionDecl):
            deciding += [d.params, d.body]
        elif isinstance(d, m.DefDecl):
            continue  # looked at where it is called from
        else:
            deciding.append(d)
    return [Diagnostic("scored", f"scored field '{sym.name}' is read here", n.span, WHERE)
            for n in _names_read(ck, deciding) if ck.syms.get(id(n)) is sym]


def _names_read(ck, roots: list) -> list:
    """The names in roots and in the bodies of the defs they call, and those those call."""
    out, seen_defs, todo = [], set(), list(roots)
    while todo:
        root = todo.pop(0)  # in the file's order, the defs after
        out += _nodes(root, m.Name)
        for c in _nodes(root, m.Call):
            s = ck.syms.get(id(c.func))
            if s is not None and s.kind == "def" and id(s.decl) not in seen_defs:
                seen_defs.add(id(s.decl))
                todo.append(s.decl.body)
    return out


def _score(ck, sym, is_map: bool) -> list:
    """The score must add the field: `F + EXPR` or `F - EXPR` (or `F`), with a map `F[p] + EXPR`
    where p is the player the score is for, and EXPR must not read it."""
    score = next((d for d in ck.decls if isinstance(d, m.ScoreDecl)), None)
    if score is None:
        return []
    player = score.player.name if score.player is not None else None
    terms = _added(score.value)
    total = next((t for t, plus in terms if plus and _is_total(ck, sym, t, is_map, player)), None)
    rest = [t for t, _ in terms if t is not total]
    if total is None:
        shown = f"{sym.name}[{player or 'p'}]" if is_map else sym.name
        taken = any(not plus and _is_total(ck, sym, t, is_map, player) for t, plus in terms)
        scaled = next((side for t, _ in terms if isinstance(t, m.BinOp) and t.op == "*"
                       for side, other in ((t.left, t.right), (t.right, t.left))
                       if _is_total(ck, sym, other, is_map, player)), None)  # `2 * sq`: the 2
        fixed = isinstance(scaled, m.Name) and getattr(ck.syms.get(id(scaled)), "kind", None) in ("const", "param")
        k = scaled.value if isinstance(scaled, m.IntLit) else scaled.id if fixed else None  # a number the game keeps
        scaled = scaled if k is not None else None
        return [Diagnostic("scored", f"the score must add the scored field '{sym.name}': score "
                           + (f"for {player or 'p'}: " if is_map else "") + f"{shown} + ...", score.span,
                           (f"to score the total taken away, count it down: `{shown} -= ...` where it grows, "
                            f"and the score adds it" if taken else
                            f"to score it {k} times, add {k} times as much to it (`{shown} += {k} * ...` where it "
                            f"grows), and the score adds it once" if scaled is not None else
                            "solve adds the total so far to the value of what is still to come")
                           + ("; with a map of the players' totals the score is `for p`" if is_map and not player
                              else ""))]
    return [Diagnostic("scored", f"scored field '{sym.name}' is read here", n.span,
                       f"the score adds '{sym.name}' once; the rest of it may not read it, nor the defs it calls")
            for n in _names_read(ck, rest) if ck.syms.get(id(n)) is sym]


def _added(e, plus: bool = True) -> list:
    """(term, whether it is added) for each term of a chain of `+` and `-` (`a + b - c`, however
    bracketed, `-a` too), or e alone."""
    if isinstance(e, m.BinOp) and e.op in ("+", "-"):
        return _added(e.left, plus) + _added(e.right, plus == (e.op == "+"))
    if isinstance(e, m.Neg):
        return _added(e.operand, not plus)
    return [(e, plus)]


def _is_total(ck, sym, e, is_map: bool, player: Optional[str]) -> bool:
    """Whether e is the field itself (an int), or the field at the score's player (a map)."""
    if not is_map:
        return isinstance(e, m.Name) and ck.syms.get(id(e)) is sym
    return (isinstance(e, m.Index) and isinstance(e.obj, m.Name) and ck.syms.get(id(e.obj)) is sym
            and isinstance(e.key, m.Name) and e.key.id == player)


def _nodes(root, kind):
    from .check import nodes_in
    return nodes_in(root, kind)
