"""The checker's rules for expressions: the type of each one, the names it reads and the calls
it makes (built-ins, records, defs and comprehensions). `Checker` (check.py) takes them in; they
report through its `error` and look names up in its scopes."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Optional

from . import model as m
from . import runtime as rt
from . import types as T
from .diagnostics import counted, did_you_mean

if TYPE_CHECKING:
    from .check import Symbol

# name -> arity range (least, most arguments); their types are worked out in builtin_call
BUILTINS = {
    "len": (1, 1), "sum": (1, 1), "count": (1, 1), "min": (1, 9), "max": (1, 9),
    "any": (1, 1), "all": (1, 1), "sorted": (1, 1), "list": (1, 1), "set": (1, 1),
    "bag": (1, 1), "pairs": (1, 1), "up_to": (2, 2), "sub_bags": (1, 1), "combinations": (2, 2), "index": (2, 2),
    "head": (2, 2), "tail": (2, 2),
    "abs": (1, 1), "keys": (1, 1),
    "values": (1, 1), "get": (3, 3), "square_grid": (2, 2), "hex_grid": (2, 2), "cells": (1, 1),
    "lines": (2, 2), "neighbours": (2, 2), "components": (2, 2), "orientations": (1, 1), "rotations": (1, 1), "edges": (1, 1),
    "clashes": (3, 3), "matches": (3, 3), "places": (3, 3), "beside": (2, 2), "open_ends": (2, 2),
    "loose_ends": (2, 2),
    "networks": (1, 1), "longest_trail": (3, 3), "join": (2, 2), "chars": (1, 1), "union": (1, 1), "concat": (1, 1),
    "text": (1, 1), "graph": (1, 2), "nodes": (1, 1), "distance": (3, 3), "old": (1, 1),
    "next_player": (1, 1),
}
SIGNATURES = {
    "len": "c", "pairs": "c", "up_to": "k, c", "sub_bags": "c", "combinations": "k, c", "index": "xs, x",
    "head": "k, xs", "tail": "k, xs", "abs": "n",
    "keys": "m", "values": "m", "get": "m, k, d",
    "square_grid": "rows, cols", "hex_grid": "cells, layout", "cells": "g", "lines": "g, k", "neighbours": "g, c",
    "components": "g, cs", "orientations": "t", "rotations": "t", "edges": "t", "clashes": "b, c, t",
    "matches": "b, c, t", "places": "b, g, t", "beside": "c, s", "open_ends": "b, g", "loose_ends": "b, g",
    "networks": "b", "longest_trail": "b, g, label", "join": "sep, strs", "chars": "s", "text": "v",
    "graph": "edges, nodes", "nodes": "g", "distance": "g, a, b", "old": "e",
    "next_player": "p",
}
"""The parameters of the built-ins that are not aggregates, as the language reference names them."""
AGGREGATES = {"sum", "count", "min", "max", "any", "all", "sorted", "list", "set", "bag", "union", "concat"}

_HEURISTIC_IN_EXPR = ("'{0}' is a heuristic, which an expression cannot use; write its expression as a `def` "
                      "(def {0}_value() = ...) and use that in both")
KIND_WORDS = {"const": "constant", "enumval": "value", "def": "function", "builtin": "built-in function",
               "record": "record type", "type": "type", "local": "local name", "field": "state field",
               "param": "parameter", "current": "the current player"}


def a_kind(kind: str) -> str:
    """What a symbol of this kind is, with its article: `a constant`, `an action`."""
    word = KIND_WORDS.get(kind, kind)
    return word if word.startswith("the ") else f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


class ExpressionChecks:
    """The expression rules of `Checker`."""

    def expr(self, e, want: Optional[tuple] = None) -> tuple:
        t = getattr(self, "expr_" + type(e).__name__)(e, want)
        self.types[id(e)] = t
        return t

    def quoted_value_hint(self, e, other: tuple) -> Optional[str]:
        """A hint when e is a string naming a value of the type `other` it is compared with or
        must have: X for "X"."""
        sym = self.lookup(e.value) if isinstance(e, m.StrLit) else None
        if sym is None or sym.kind != "enumval" or sym.type != other:
            return None
        what = "a player" if other == T.PLAYER else f"a value of {T.show(other)}"
        return f"{e.value} is {what}: write it without quotes"

    def mismatch_hint(self, e, want: tuple, got: tuple) -> Optional[str]:
        """A hint when e, of type `got`, must be `want`: a value in quotes, or a collection of
        the right elements that another built-in makes of the right kind (bag(xs) for a list)."""
        kinds = ("list", "set", "bag")
        if want[0] in kinds and got[0] in kinds and T.fits(got[1], want[1]):
            return f"`{want[0]}(x)` makes a {want[0]} of the elements of x"
        if want == T.INT and got == T.BOOL:
            return "a yes or no is no number: `if COND then 1 else 0` counts it"
        if want == T.CELL and got[0] == "tuple" and len(got[1]) == 2:
            return "a tuple (row, col) is no cell: cell(row, col) makes one"
        return self.quoted_value_hint(e, want)

    def expr_IntLit(self, e, want):
        return T.INT

    def expr_StrLit(self, e, want):
        return T.STR

    def expr_Template(self, e: m.Template, want):
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part)
        return T.STR

    def expr_Name(self, e: m.Name, want):
        sym = self.lookup(e.id)
        if sym is None:
            self.unknown("name", e.id, e.span, self.visible_names() - set(BUILTINS))
            return T.ANY
        self.syms[id(e)] = sym
        if e.id == "players":
            self.players_uses.append(e.span)
        if e.id in self.duplicated and sym is self.globals.get(e.id):
            return T.ANY  # declared twice: which one is meant is unknown, and the duplicate is the error
        if sym.kind == "const":
            return self.const_type(sym)
        if sym.kind == "heuristic":
            self.error("not-a-value", _HEURISTIC_IN_EXPR.format(e.id), e.span)
            return T.ANY
        if sym.kind == "action":
            self.error("not-a-value", f"'{e.id}' is an action, not a value", e.span,
                       f"an action runs as a statement (`{e.id}`); `either {{ ... }} or {{ ... }}` offers a choice "
                       "of statements")
            return T.ANY
        if sym.kind in ("builtin", "def"):
            self.error("not-a-value", f"'{e.id}' is {a_kind(sym.kind)}; call it with (...)", e.span)
            return T.ANY
        if sym.kind == "type" and sym.type[0] == "enum":
            return T.list_of(sym.type)  # its values, in the order declared
        if sym.kind in ("type", "record"):
            self.error("not-a-value", f"'{e.id}' is a type, not a value", e.span)
            return T.ANY
        return sym.type

    def expr_Cond(self, e: m.Cond, want):
        self.expect(e.test, T.BOOL, "an `if` condition")
        a, b = self.expr(e.then, want), self.expr(e.orelse, want)
        j = T.join(a, b)
        if j is None:
            self.error("type-mismatch", f"both branches must have one type, got {T.show(a)} and {T.show(b)}", e.span)
            return T.ANY
        return j

    def expr_BinOp(self, e: m.BinOp, want):
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, T.BOOL, f"the left side of '{op}'")
            self.expect(e.right, T.BOOL, f"the right side of '{op}'")
            return T.BOOL
        if op in ("in", "not in"):
            it = self.expr(e.left)
            ct = self.expr(e.right)
            el = T.element(ct)
            if el is None:
                self.error("type-mismatch", f"'{op}' needs a collection on the right, got {T.show(ct)}", e.right.span)
            elif not T.fits(it, el):
                self.error("type-mismatch", f"{T.show(it)} can never be in {T.show(ct)}", e.span,
                           self.mismatch_hint(e.left, el, it))
            return T.BOOL
        lt = self.expr(e.left, want if op in ("+", "-") else None)
        rt = self.expr(e.right, lt if op in ("==", "!=") and lt != T.ANY else None)
        if op in ("==", "!="):
            if T.join(lt, rt) is None:
                empty = any(isinstance(x, m.EmptyLit) or isinstance(x, (m.ListLit, m.SetLit)) and not x.items
                            for x in (e.left, e.right))
                self.error("type-mismatch", f"cannot compare {T.show(lt)} with {T.show(rt)}", e.span,
                           self.quoted_value_hint(e.left, rt) or self.quoted_value_hint(e.right, lt)
                           or ("`len(x) == 0` tells whether a collection is empty" if empty else None))
            return T.BOOL
        if op in ("<", "<=", ">", ">="):
            if T.join(lt, rt) is None or not (T.is_ordered(lt) and self.sortable(lt)):
                self.error("type-mismatch", f"'{op}' needs two ordered values of one type, got {T.show(lt)} "
                           f"and {T.show(rt)}", e.span)
            return T.BOOL
        if lt == T.ANY and rt == T.ANY:
            return T.ANY
        if op in ("+", "-") and lt == T.ANY and rt[0] in T.COLLECTIONS:
            return rt  # an untyped def parameter, the collection on the right: the calls are checked with its type
        if op in ("+", "-") and lt != T.ANY and lt[0] in T.COLLECTIONS:
            if T.fits(rt, lt):
                return lt
            if lt[0] != "list" and T.fits(rt, lt[1]):
                return lt
            if lt[0] == "list":  # a list takes a whole list: an untyped def could not tell [1] + [2] apart
                self.error("type-mismatch", f"'{op}' on {T.show(lt)} needs {T.show(lt)}, got {T.show(rt)}",
                           e.right.span, None if not T.fits(rt, lt[1]) else
                           "`xs + [x]` adds one element (the statement `xs += x` appends it)" if op == "+" else
                           "`xs - [x]` takes every copy of x away (the statement `xs -= x` takes the first)")
                return lt
            self.error("type-mismatch", f"'{op}' on {T.show(lt)} needs {T.show(lt)} or {T.show(lt[1])}, "
                       f"got {T.show(rt)}", e.right.span)
            return lt
        if op in ("+", "-") and lt != T.ANY and lt[0] == "map":  # one error, not one per side and use
            self.error("type-mismatch", f"'{op}' does not take a map, got {T.show(lt)}", e.span,
                       "`m[k] = v` adds or changes an entry of a map field and `m -= k` takes one away; a "
                       "comprehension such as {k: m[k] for k in keys(m) where k != x} makes a map with fewer")
            return lt
        if op == "+" and T.STR in (lt, rt):  # one error for a + b + c, at the first '+'
            inner = isinstance(e.left, m.BinOp) and e.left.op == "+" and lt == T.STR
            if not inner:
                self.error("type-mismatch", f"'+' does not join strings, got {T.show(lt)} and {T.show(rt)}", e.span,
                           'a string fills in the values in its braces: "{a}-{b}"; join(sep, strings) joins a '
                           'list')
            return T.STR
        if op in ("+", "-") and T.CELL in (lt, rt):  # one error, and a cell on, so its uses are not errors too
            self.error("type-mismatch", f"'{op}' does not take a cell, got {T.show(lt)} and {T.show(rt)}", e.span,
                       f"a cell's parts are added one by one: cell(a.row {op} b.row, a.col {op} b.col); "
                       "neighbours(board, c) gives the cells next to c")
            return T.CELL
        if op == "*" and {lt[0], rt[0]} & {"list", "set", "bag"} and T.INT in (lt, rt):  # [x] * n, as Python
            coll = lt if rt == T.INT else rt
            self.error("type-mismatch", f"'*' does not repeat a {coll[0]}, got {T.show(lt)} and {T.show(rt)}",
                       e.span, f"'*' multiplies numbers; n copies of x are a comprehension, [x for _ in 1..n]"
                       + (", or bag(x for _ in 1..n)" if coll[0] == "bag" else ""))
            return coll
        for side, st in ((e.left, lt), (e.right, rt)):
            if not T.fits(st, T.INT):
                self.error("type-mismatch", f"'{op}' needs int, got {T.show(st)}", side.span)
        return T.INT

    def expr_Not(self, e, want):
        self.expect(e.operand, T.BOOL, "the operand of 'not'")
        return T.BOOL

    def expr_Neg(self, e, want):
        self.expect(e.operand, T.INT, "the operand of '-'")
        return T.INT

    def expr_RangeLit(self, e, want):
        self.expect(e.lo, T.INT, "a range bound")
        self.expect(e.hi, T.INT, "a range bound")
        return ("list", T.INT)

    def expr_Attr(self, e: m.Attr, want):
        if isinstance(e.obj, m.Name) and (sym := self.lookup(e.obj.id)) is not None and sym.kind == "type":
            values = self.enums.get(sym.name, ())
            self.syms[id(e.obj)] = sym
            if e.attr.name not in values:
                self.unknown(f"value of {sym.name}", e.attr.name, e.attr.span, values)
            self.types[id(e.obj)] = sym.type
            return sym.type
        t = self.expr(e.obj)
        if t == T.ANY:
            return T.ANY
        if t[0] == "tile":
            if e.attr.name != "name":
                self.unknown(f"field of {t[1]}", e.attr.name, e.attr.span, ["name"])
                return T.ANY
            return T.STR
        if t[0] == "record":
            fields = dict(self.records.get(t[1], ()))
            if e.attr.name not in fields:
                self.unknown(f"field of {t[1]}", e.attr.name, e.attr.span, fields)
                return T.ANY
            return fields[e.attr.name]
        self.error("type-mismatch", f"{T.show(t)} has no fields (looked for '{e.attr.name}')", e.attr.span,
                   "`len(x)` counts the elements of a collection" if e.attr.name in ("length", "size", "count")
                   and t[0] in ("list", "set", "bag", "map") else
                   "a tuple's parts are read by their place, t[0] and t[1] (or named: let a, b = t)"
                   if t[0] == "tuple" else None)
        return T.ANY

    def expr_Index(self, e: m.Index, want):
        t = self.expr(e.obj)
        kt = self.expr(e.key)
        if t == T.ANY:
            return T.ANY
        if t[0] == "map":
            if not T.fits(kt, t[1]):
                self.error("type-mismatch", f"the key must be {T.show(t[1])}, got {T.show(kt)}", e.key.span,
                           self.mismatch_hint(e.key, t[1], kt))
            return t[2]
        if t[0] == "list":
            if not T.fits(kt, T.INT):
                self.error("type-mismatch", f"a list index must be int, got {T.show(kt)}", e.key.span,
                           "there are no slices: a part of a list is a comprehension, [xs[i] for i in a..b]"
                           if kt[0] in ("list", "set") else None)
            return t[1]
        if t[0] == "tuple":
            if not isinstance(e.key, m.IntLit) or not 0 <= e.key.value < len(t[1]):
                written = isinstance(e.key, m.IntLit)
                self.error("type-mismatch", f"a tuple of {len(t[1])} needs a number 0..{len(t[1]) - 1} as index"
                           + ("" if written else ", written out"), e.key.span,
                           None if written else "the parts of a tuple may have types of their own, so its index is "
                           "a number written out, such as [0]; a list takes any index")
                return T.ANY
            return t[1][e.key.value]
        self.error("type-mismatch", f"cannot index {T.show(t)}", e.span,
                   "chars(s) is the list of a string's characters: chars(s)[k]" if t == T.STR else None)
        return T.ANY

    def expr_Call(self, e: m.Call, want):
        name = e.func.name
        sym = self.lookup(name)
        if sym is None:
            callables = [n for n, s in self.globals.items() if s.kind in ("builtin", "def", "record", "heuristic")]
            self.unknown("function", name, e.func.span, callables)
            for a in e.args:
                self.expr(a.value)
            return T.ANY
        self.syms[id(e.func)] = sym
        if sym.kind == "record":
            return self.record_call(e, sym)
        if sym.kind == "builtin" and name == "old":
            return self.old_call(e)
        if any(a.name is not None for a in e.args):
            self.error("named-argument", "only records take named arguments", next(a for a in e.args if a.name).span)
        argt = [self.expr(a.value) for a in e.args]
        if sym.kind == "builtin":
            lo, hi = BUILTINS[name]
            if not lo <= len(argt) <= hi:
                takes = counted(hi, "argument") if lo == hi else f"{lo} to {hi} arguments"
                self.error("arity", f"{name}() takes {takes}, got {len(argt)}", e.span,
                           f"the arguments are {name}({SIGNATURES[name]})" if name in SIGNATURES else None)
                return T.ANY
            return self.builtin_call(e, name, argt, want)
        if sym.kind == "def":
            want_n = len(sym.decl.params)
            if len(argt) != want_n:
                self.error("arity", f"'{name}' takes {counted(want_n, 'argument')}, got {len(argt)}", e.span)
            if self._current_action:
                self._call_graph.setdefault(self._current_action, set()).add(name)
            if sym.type == T.ANY and sym.decl is not None and self._current_action != name:
                saved_scopes, saved_action = self.scopes, self._current_action
                self.check_DefDecl(sym.decl)
                self.scopes, self._current_action = saved_scopes, saved_action
            if sym.decl is not None and len(argt) == want_n and any(t != T.ANY for t in argt):
                self._def_calls.append((sym.decl, tuple(argt), e.span))
            return sym.type
        if sym.kind == "heuristic":
            self.error("not-callable", _HEURISTIC_IN_EXPR.format(name), e.func.span)
            return T.ANY
        self.error("not-callable", f"'{name}' is {a_kind(sym.kind)}, it cannot be called",
                   e.func.span)
        return T.ANY

    def record_call(self, e: m.Call, sym: Symbol):
        fields = self.records.get(sym.name, ())
        names = [f for f, _ in fields]
        if len(e.args) != len(fields):
            self.error("arity", f"record {sym.name} has {counted(len(fields), 'field')} ({', '.join(names)}), "
                       f"got {counted(len(e.args), 'value')}", e.span)
        given = set()
        for i, a in enumerate(e.args):
            field = a.name.name if a.name is not None else (names[i] if i < len(names) else None)
            if field is not None and field in given:
                self.error("duplicate", f"field '{field}' of {sym.name} is given twice", (a.name or a).span)
                self.expr(a.value)
                continue
            given.add(field)
            if a.name is not None:
                if a.name.name not in names:
                    self.unknown(f"field of {sym.name}", a.name.name, a.name.span, names)
                    self.expr(a.value)
                    continue
                want = dict(fields)[a.name.name]
            else:
                want = fields[i][1] if i < len(fields) else T.ANY
            self.expect(a.value, want, f"field '{a.name.name if a.name else (names[i] if i < len(names) else '?')}'")
        return ("record", sym.name)

    def graph_type(self, edges: tuple, span) -> tuple:
        """graph<T> for a collection of pairs (T, T) or of sets {T, T}; an error for anything else."""
        el = T.element(edges) if edges[0] != "map" else None
        if el == T.ANY or edges == T.ANY:
            return ("graph", T.ANY)
        node = None
        if el is not None and el[0] == "tuple" and len(el[1]) == 2:
            node = T.join(*el[1])
        elif el is not None and el[0] == "set":
            node = el[1]
        if node is None:
            self.error("type-mismatch", f"graph() needs a list or set of edges, each a pair (a, b) or a set {{a, b}} "
                       f"of nodes of one type, got {T.show(edges)}", span)
            return ("graph", T.ANY)
        self.need_sortable(node, "graph()", span)
        return ("graph", node)

    def on_graph(self, name: str, node: tuple, argt: list, e) -> tuple:
        """The type of neighbours, components, nodes or distance on a graph<node>."""
        wanted = {"neighbours": [node], "distance": [node, node], "nodes": []}.get(name)
        if name == "components":
            if not T.fits(argt[1], ("list", node)) and not T.fits(argt[1], ("set", node)):
                self.error("type-mismatch", f"components() needs a list or set of {T.show(node)} second, got "
                           f"{T.show(argt[1])}", e.args[1].span)
            return ("list", ("set", node))
        for i, t in enumerate(wanted, 1):
            if not T.fits(argt[i], t):
                self.error("type-mismatch", f"{name}() on a graph<{T.show(node)}> needs a {T.show(node)}, got "
                           f"{T.show(argt[i])}", e.args[i].value.span, self.quoted_value_hint(e.args[i].value, node))
        return T.INT if name == "distance" else ("list", node)

    def builtin_call(self, e, name, argt, want):
        a0 = argt[0]
        el = T.element(a0)

        def need_coll():
            if el is None:
                self.error("type-mismatch", f"{name}() needs a collection, got {T.show(a0)}", e.args[0].span)
                return T.ANY
            return el

        if name in ("min", "max"):
            if len(argt) > 1:
                j = argt[0]
                for t, a in zip(argt[1:], e.args[1:]):
                    nj = T.join(j, t)
                    if nj is None:
                        self.error("type-mismatch", f"{name}() needs values of one type, got {T.show(j)} and "
                                   f"{T.show(t)}", a.value.span)
                    else:
                        j = nj
                self.need_sortable(j, f"{name}()", e.span)
                return j
            x = need_coll()
            self.need_sortable(x, f"{name}()", e.args[0].span)
            return x
        if name in ("len",):
            need_coll()
            return T.INT
        if name == "count":
            need_coll()
            return T.INT
        if name == "sum":
            x = need_coll()
            if not T.fits(x, T.INT):
                self.error("type-mismatch", f"sum() needs ints, got {T.show(x)}", e.args[0].span)
            return T.INT
        if name in ("any", "all"):
            x = need_coll()
            if not T.fits(x, T.BOOL):
                self.error("type-mismatch", f"{name}() needs bools, got {T.show(x)}", e.args[0].span)
            return T.BOOL
        if name in ("sorted", "list"):
            x = need_coll()
            if name == "sorted":
                self.need_sortable(x, "sorted()", e.args[0].span)
            return ("list", x)
        if name == "set":
            return ("set", need_coll())
        if name == "union":
            return self.sets_joined(need_coll(), e.args[0].span)
        if name == "concat":
            return self.lists_joined(need_coll(), e.args[0].span)
        if name == "bag":
            if a0 != T.ANY and a0[0] == "map":
                if not T.fits(a0[2], T.INT):
                    self.error("type-mismatch", f"bag() of a map needs int counts, got {T.show(a0[2])}", e.args[0].span)
                x = a0[1]
            else:
                x = need_coll()
            self.need_sortable(x, "bag()", e.args[0].span)
            return ("bag", x)
        if name == "pairs":
            x = need_coll()
            return ("list", ("tuple", (x, x)))
        if name == "index":
            el = T.element(a0) if a0 == T.ANY or a0[0] == "list" else None
            if el is None:
                self.error("type-mismatch", f"index() needs a list first, got {T.show(a0)}", e.args[0].span)
            elif T.join(el, argt[1]) is None:
                self.error("type-mismatch", f"index() looks for a value of type {T.show(el)} in a {T.show(a0)}, got "
                           f"{T.show(argt[1])}", e.args[1].span)
            return T.INT
        if name in ("head", "tail"):
            what = f"{name}(k, xs) is the {'first' if name == 'head' else 'last'} k elements of the list xs"
            if a0 != T.ANY and a0[0] == "list" and argt[1] == T.INT:  # head(xs, 2)
                self.error("type-mismatch", f"{name}() takes the number of elements first, then the list",
                           e.span, what)
                return a0
            if not T.fits(a0, T.INT):
                self.error("type-mismatch", f"{name}() needs an int first, got {T.show(a0)}", e.args[0].span, what)
            if argt[1] != T.ANY and argt[1][0] != "list":
                self.error("type-mismatch", f"{name}() needs a list second, got {T.show(argt[1])}", e.args[1].span,
                           "a list has an order to take its first or last elements in; sorted(c) is one of a set "
                           "or bag")
                return ("list", T.element(argt[1]) or T.ANY)
            return argt[1]
        if name == "sub_bags":
            x = need_coll()
            self.need_sortable(x, "sub_bags()", e.args[0].span)
            return ("list", ("bag", x))
        if name in ("up_to", "combinations"):
            if not T.fits(a0, T.INT):
                self.error("type-mismatch", f"{name}() needs an int first, got {T.show(a0)}", e.args[0].span)
            el2 = T.element(argt[1])
            if el2 is None:
                self.error("type-mismatch", f"{name}() needs a collection second, got {T.show(argt[1])}",
                           e.args[1].span)
                el2 = T.ANY
            return ("list", ("list", el2))
        if name == "next_player":
            if not T.fits(a0, T.PLAYER):
                self.error("type-mismatch", f"next_player() needs a player, got {T.show(a0)}", e.args[0].span)
            return T.PLAYER
        if name == "abs":
            if not T.fits(a0, T.INT):
                self.error("type-mismatch", f"abs() needs int, got {T.show(a0)}", e.args[0].span)
            return T.INT
        if name in ("keys", "values"):
            if a0 != T.ANY and a0[0] != "map":
                self.error("type-mismatch", f"{name}() needs a map, got {T.show(a0)}", e.args[0].span)
                return T.ANY
            return ("list", T.ANY if a0 == T.ANY else (a0[1] if name == "keys" else a0[2]))
        if name == "get":
            if a0 != T.ANY and a0[0] != "map":
                self.error("type-mismatch", f"get() needs a map, got {T.show(a0)}", e.args[0].span)
                return T.ANY
            if a0 == T.ANY:
                return T.ANY
            if not T.fits(argt[1], a0[1]):
                self.error("type-mismatch", f"get() needs a key of type {T.show(a0[1])}, got {T.show(argt[1])}",
                           e.args[1].span)
            empty = isinstance(e.args[2].value, m.EmptyLit) and a0[2][0] in ("map", "set", "bag")  # `{}` fits these
            if not empty and not T.fits(argt[2], a0[2]):
                self.error("type-mismatch", f"get() needs a default of type {T.show(a0[2])}, got {T.show(argt[2])}",
                           e.args[2].span)
            return a0[2]
        if name == "square_grid":
            for t, a in zip(argt, e.args):
                if not T.fits(t, T.INT):
                    self.error("type-mismatch", f"square_grid() needs ints, got {T.show(t)}", a.value.span)
            return T.GRID
        if name == "hex_grid":
            if not T.fits(a0, ("list", T.CELL)) and not T.fits(a0, ("set", T.CELL)):
                self.error("type-mismatch", f"hex_grid() needs a list or set of cells first, got {T.show(a0)}",
                           e.args[0].span)
            layout = e.args[1].value
            if not (isinstance(layout, m.StrLit) and layout.value in rt.HexGrid.LAYOUTS):
                near = did_you_mean(layout.value, rt.HexGrid.LAYOUTS) if isinstance(layout, m.StrLit) else None
                self.error("type-mismatch", "hex_grid() needs its layout second, written as one of "
                           + ", ".join(f'"{x}"' for x in rt.HexGrid.LAYOUTS), e.args[1].span,
                           hint=f'did you mean "{near}"?' if near else
                           '"even-r" and "odd-r": pointy-topped hexes, the even (or odd) rows shifted half a hex '
                           'right; "axial": each row shifted half a hex from the one above, a rhombus of hexes')
            return T.GRID
        if name == "graph":
            g = self.graph_type(a0, e.args[0].span)
            if len(argt) > 1:  # nodes besides those of the edges: of the edges' type
                el = T.element(argt[1])
                joined = None if el is None else T.join(g[1], el)
                if joined is None:
                    self.error("type-mismatch", f"graph() needs a collection of nodes second, of the edges' type "
                               f"{T.show(g[1])}, got {T.show(argt[1])}", e.args[1].span)
                else:
                    g = ("graph", joined)
            return g
        if a0[0] == "graph" and name in ("neighbours", "components", "nodes", "distance"):
            return self.on_graph(name, a0[1], argt, e)
        if a0 == T.ANY and name in ("nodes", "distance", "neighbours", "components"):  # an untyped def
            # parameter: a grid or a graph, of cells or of other nodes
            return {"distance": T.INT, "components": ("list", ("set", T.ANY))}.get(name, ("list", T.ANY))
        if name == "nodes":
            self.error("type-mismatch", f"nodes() needs a graph, got {T.show(a0)}", e.args[0].span,
                       "cells(g) gives the cells of a grid" if a0 == T.GRID else None)
            return ("list", T.ANY)
        if name == "distance":
            self.error("type-mismatch", f"distance() needs a graph first, got {T.show(a0)}", e.args[0].span,
                       "graph(edges) makes a graph of pairs of nodes" if a0 == T.GRID else None)
            return T.INT
        if name == "components":
            if not T.fits(a0, T.GRID):
                self.error("type-mismatch", f"components() needs a grid or a graph first, got {T.show(a0)}",
                           e.args[0].span)
            if not T.fits(argt[1], ("list", T.CELL)) and not T.fits(argt[1], ("set", T.CELL)):
                self.error("type-mismatch", f"components() needs a list or set of cells second, got "
                           f"{T.show(argt[1])}", e.args[1].span)
            return ("list", ("set", T.CELL))
        if name in ("cells", "lines", "neighbours"):
            if not T.fits(a0, T.GRID):
                self.error("type-mismatch", f"{name}() needs a grid, got {T.show(a0)}", e.args[0].span,
                           "nodes(g) gives the nodes of a graph" if a0[0] == "graph" and name == "cells" else None)
            second, what = {"lines": (T.INT, "an int"), "neighbours": (T.CELL, "a cell")}.get(name, (None, ""))
            if second is not None and not T.fits(argt[1], second):
                self.error("type-mismatch", f"{name}() needs {what} as its second argument, got {T.show(argt[1])}",
                           e.args[1].span)
            if name == "lines":
                return ("list", ("list", T.CELL))
            return ("list", T.CELL)
        if name == "text":
            return T.STR
        if name == "chars":
            if not T.fits(a0, T.STR):
                self.error("type-mismatch", f"chars() needs a str, got {T.show(a0)}", e.args[0].span)
            return ("list", T.STR)
        if name == "join":
            if not T.fits(a0, T.STR):
                self.error("type-mismatch", f"join() needs a str separator first, got {T.show(a0)}", e.args[0].span)
            if not T.fits(argt[1], ("list", T.STR)):
                self.error("type-mismatch", f"join() needs a list<str> second, got {T.show(argt[1])}", e.args[1].span)
            return T.STR
        if name in ("orientations", "rotations", "edges"):
            tt = self.need_tile(a0, name, e.args[0].span)
            if name == "edges":
                return ("map", ("enum", self.tilesets[tt[1]][0]), ("enum", self.tilesets[tt[1]][1])) if tt else T.ANY
            return ("list", tt or T.ANY)
        if name == "beside":
            if not T.fits(a0, T.CELL):
                self.error("type-mismatch", f"beside() needs a cell first, got {T.show(a0)}", e.args[0].span)
            side = argt[1]
            if side != T.ANY and not (side[0] == "enum" and len(self.enums.get(side[1], ())) == 4):
                self.error("type-mismatch", f"beside() needs a side of a square tile second (a value of an enum "
                           f"with 4 values, clockwise from the top), got {T.show(side)}", e.args[1].span)
            return T.CELL
        return self.board_call(e, name, argt)

    def need_tile(self, t, fn: str, span: m.Span, square: bool = False):
        """The tile type t, or None after an error if t is not one (or, asked for, not square)."""
        if t == T.ANY:
            return None
        if t[0] != "tile":
            cells = t[0] in ("set", "list") and t[1] == T.CELL  # a piece made of cells, a polyomino
            self.error("type-mismatch", f"{fn}() needs a tile, got {T.show(t)}", span,
                       "a tile is one square of a `tiles` set, a label on each side; a piece of cells turns "
                       "by its cells: `{cell(c.col, -c.row) for c in shape}` a quarter turn clockwise, "
                       "`{cell(c.row, -c.col) for c in shape}` its mirror image (then shift it back to row and "
                       "column 0)" if cells else None)
            return None
        if square and len(self.enums[self.tilesets[t[1]][0]]) != 4:
            self.error("type-mismatch", f"{fn}() needs square tiles (4 sides), {t[1]} has "
                       f"{len(self.enums[self.tilesets[t[1]][0]])}", span)
            return None
        return t

    def board_call(self, e, name, argt):
        """The built-ins on boards: maps from cells to square tiles."""
        b = argt[0]
        tt = None
        if b != T.ANY and not (b[0] == "map" and T.fits(b[1], T.CELL) and (b[2] == T.ANY or b[2][0] == "tile")):
            self.error("type-mismatch", f"{name}() needs a board (a map from cells to tiles), got {T.show(b)}",
                       e.args[0].span)
        elif b != T.ANY:
            tt = self.need_tile(b[2], name, e.args[0].span, square=True)
        wants = {"clashes": (T.CELL, tt), "matches": (T.CELL, tt), "places": (T.GRID, tt), "open_ends": (T.GRID,),
                 "loose_ends": (T.GRID,),
                 "networks": (),
                 "longest_trail": (T.GRID, ("enum", self.tilesets[tt[1]][1]) if tt else None)}[name]
        for want, t, a in zip(wants, argt[1:], e.args[1:]):
            if want is not None and not T.fits(t, want):
                self.error("type-mismatch", f"{name}() needs {T.show(want)} here, got {T.show(t)}", a.value.span)
        return {"networks": ("list", ("set", T.CELL)), "places": ("list", T.CELL)}.get(name, T.INT)

    def comp_scope(self, c: m.Comp) -> None:
        self.loop_scope(c.iter, c.targets)
        if c.cond is not None:
            self.expect(c.cond, T.BOOL, "a `where` condition")

    def comp(self, c: m.Comp, want=None) -> tuple:
        """The type of a comprehension's items (`want`: the type wanted of them, which an empty `{}`
        takes)."""
        self.comp_scope(c)
        t = self.expr(c.expr, want)
        self.scopes.pop()
        self.types[id(c)] = t
        return t

    def expr_CallComp(self, e: m.CallComp, want):
        name = e.func.name
        if name not in AGGREGATES:
            self.unknown("aggregate", name, e.func.span, AGGREGATES)
            self.comp(e.comp)
            return T.ANY
        t = self.comp(e.comp)
        self.syms[id(e.func)] = self.globals[name]
        if name in ("sum",) and not T.fits(t, T.INT):
            self.error("type-mismatch", f"sum() needs ints, got {T.show(t)}", e.comp.expr.span)
        if name in ("any", "all") and not T.fits(t, T.BOOL):
            self.error("type-mismatch", f"{name}() needs bools, got {T.show(t)}", e.comp.expr.span)
        if name in ("sorted", "min", "max", "bag"):
            self.need_sortable(t, f"{name}()", e.comp.expr.span)
        if name == "union":
            return self.sets_joined(t, e.comp.expr.span)
        if name == "concat":
            return self.lists_joined(t, e.comp.expr.span)
        return {"sum": T.INT, "count": T.INT, "min": t, "max": t, "any": T.BOOL, "all": T.BOOL,
                "sorted": ("list", t), "list": ("list", t), "set": ("set", t), "bag": ("bag", t)}[name]

    def sets_joined(self, t, span):
        """The type of union() of items of type t: t itself, which must be a set."""
        if t != T.ANY and t[0] != "set":
            self.error("type-mismatch", f"union() needs sets, got {T.show(t)}", span)
            return T.ANY
        return t

    def lists_joined(self, t, span):
        """The type of concat() of items of type t: t itself, which must be a list."""
        if t != T.ANY and t[0] != "list":
            self.error("type-mismatch", f"concat() needs lists, got {T.show(t)}", span)
            return T.ANY
        return t

    def expr_First(self, e: m.First, want):
        t = self.comp(e.comp)
        d = self.expr(e.default, t)
        j = T.join(t, d)
        if j is None:
            self.error("type-mismatch", f"the default after 'else' must be {T.show(t)}, got {T.show(d)}",
                       e.default.span)
            return t
        return j

    def _items(self, items, want_el):
        """The type of the elements of a literal, which must be one type: the wanted one, or else
        the one most of them have. One error, at the first element of another type."""
        types = [self.expr(i, want_el) for i in items]
        t = want_el or (Counter(types).most_common(1)[0][0] if types else T.ANY)  # ties: the first seen
        odd = []
        for i, it in zip(items, types):
            j = T.join(t, it)
            if j is None:
                odd.append((i, it))
            else:
                t = j
        if odd:
            i, it = odd[0]
            more = f" (and {len(odd) - 1} more)" if len(odd) > 1 else ""
            hint = "a range in brackets or braces is one element, a list of its numbers: the range alone is " \
                "that list, and set(a..b) the set of them" if isinstance(i, m.RangeLit) else None
            if want_el is not None and len(odd) == len(items):
                hint = hint or "none of them is: is the type declared where this value goes (a field, a " \
                    "constant, a `var`) the one meant?"
            self.error("type-mismatch", (f"all elements must have one type, {T.show(t)}" if want_el is None else
                                         f"the elements here must be {T.show(t)}, the type of where they go")
                       + f": this one is {T.show(it)}{more}", i.span, hint)
        return t

    def expr_TupleLit(self, e, want):
        return ("tuple", tuple(self.expr(i) for i in e.items))

    def expr_ListLit(self, e, want):
        return ("list", self._items(e.items, want[1] if want and want[0] == "list" else None))

    def expr_SetLit(self, e, want):
        return ("set", self._items(e.items, want[1] if want and want[0] == "set" else None))

    def expr_MapLit(self, e, want):
        kt, vt = (want[1], want[2]) if want and want[0] == "map" else (T.ANY, T.ANY)
        keys = [x.key.lo if isinstance(x.key, m.RangeLit) else x.key for x in e.entries]
        for x in e.entries:
            if isinstance(x.key, m.RangeLit):  # {12..14: 2} gives each of 12, 13, 14 the value 2
                self.expect(x.key.hi, T.INT, "a range bound")
        kt = self._items(keys, None if kt == T.ANY else kt)
        vt = self._items([x.value for x in e.entries], None if vt == T.ANY else vt)
        return ("map", kt, vt)

    def expr_EmptyLit(self, e, want):
        if want and want[0] in ("map", "set", "bag"):
            return want
        return ("map", T.ANY, T.ANY)

    def expr_ListComp(self, e, want):
        return ("list", self.comp(e.comp, want[1] if want and want[0] == "list" else None))

    def expr_SetComp(self, e, want):
        return ("set", self.comp(e.comp, want[1] if want and want[0] == "set" else None))

    def expr_MapComp(self, e: m.MapComp, want):
        self.comp_scope(m.Comp(e.key, e.targets, e.iter, e.cond, e.span))
        mapped = want is not None and want[0] == "map"
        kt, vt = self.expr(e.key, want[1] if mapped else None), self.expr(e.value, want[2] if mapped else None)
        self.scopes.pop()
        return ("map", kt, vt)
