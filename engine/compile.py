"""Compiles the checked model into Python closures; no rule text is ever eval'd.

Expressions become `f(env) -> value`, where env is a list of slots: the state
fields, the current player, the fired triggers, the move's labels, then one
slot per local name. `expr` generates them as Python built from the model
(pysource.py); the `x_*` closures here cover the rest and report errors.
Statements become either simple steps `f(env) -> bool` (False prunes the
branch) or forks `g(env, k)` that call the continuation k once per way the
program can go on (`choose`, `optional`); each run of simple steps is one
generated function (stmtsource.py), its closures the fallback.
"""
from __future__ import annotations

import operator
from collections import Counter
from itertools import chain
from typing import Optional

from . import model as m
from . import runtime as rt
from . import tiles
from . import types as T
from .check import ALL_PLAYERS, Checker, Symbol, bounded_collection, repeat_condition
from .diagnostics import RuleRuntimeError, clip
from .pysource import PySource, env_before
from .stmtsource import StmtSource

SIMPLE, FORK = "simple", "fork"


def _edges(edges, span):
    """The edges of graph(edges), each checked to join two nodes."""
    for e in edges:
        if len(e) != 2:
            _fail(span, f"an edge joins two nodes, got {rt.format_value(e)}",
                  "a set {a, b} of one node is {a}: write each edge between two different nodes")
        if isinstance(e, tuple) and e[0] == e[1]:
            _fail(span, f"an edge joins two different nodes, got ({rt.format_value(e[0])}, {rt.format_value(e[1])})",
                  "a graph has no edge from a node to itself; graph(edges, nodes) adds nodes with no edges")
    return edges


def _fail(span, msg, hint=None):
    raise RuleRuntimeError(span, msg, hint)


def _add_to(err: RuleRuntimeError, text: str) -> None:
    """Add text to the message of a rule error (and to what str() of it says)."""
    err.message += text
    err.args = (f"{err.span}: error[runtime]: {err.message}",)


def _on_pass(err: RuleRuntimeError, names: list, value, span) -> None:
    """Add to a rule error raised inside a `for` (at span) which pass it was:
    `; on the pass of the for at line 5 where k = 3`."""
    values = [value] if len(names) == 1 else list(value)
    bound = ", ".join(f"{n} = {clip(rt.format_value(v), 40)}" for n, v in zip(names, values))
    where = f"line {span.line}" if span.file == err.span.file else str(span)
    _add_to(err, f"; on the pass of the `for` at {where} where {bound}")


def _called(err: RuleRuntimeError, name: str, values: list, span) -> None:
    """Add to a rule error raised inside a call with arguments which call it was, and where:
    `; in look(2), called at line 4, column 21` (the innermost first)."""
    args = ", ".join(clip(rt.format_value(v), 40) for v in values)
    where = f"line {span.line}, column {span.col}" if span.file == err.span.file else str(span)
    _add_to(err, f"; in {name}({args}), called at {where}")


def _past(err: RuleRuntimeError, this: object) -> None:
    """Mark a rule error raised in the continuation of a fork (`this`, one run of a loop or a call):
    it happened after it, so it is no part of it."""
    err.__dict__.setdefault("past", set()).add(this)


def _first_from(err: RuleRuntimeError, this: object) -> bool:
    """Whether a rule error came from inside fork run `this` and was not told of it yet (then
    marked as told)."""
    past = err.__dict__.setdefault("past", set())
    if this in past:
        return False
    past.add(this)
    return True


def _few_enough(span, name: str, items, k: int = 0):
    """The items, if the built-in `name` makes at most rt.SELECTIONS_MOST selections of them."""
    n = rt.selections(name, items, k)
    size = 2 if name == "pairs" else len(items) if name == "sub_bags" else max(0, min(k, len(items)))
    of = f"{k}, {len(items):,} elements" if name in ("up_to", "combinations") else f"{len(items):,} elements"
    hint = "choose from fewer elements, or make the selection in steps (one choose per element)"
    if n > rt.SELECTIONS_MOST:
        _fail(span, f"{name}({of}) makes {n:,} selections, more than the {rt.SELECTIONS_MOST:,} it may make", hint)
    if n * size > rt.SELECTED_MOST:  # few selections of many elements each take as much room
        _fail(span, f"{name}({of}) makes {n:,} selections of up to {size:,} elements, more than the "
              f"{rt.SELECTED_MOST:,} elements in all it may make", hint)
    return items


def _dropped(drops: Counter, why: tuple) -> bool:
    """Count a path dropped for a reason; False, as the step that dropped it returns."""
    drops[why] += 1
    return False


_MISSING_KEY = "`k in m` tells whether a map has the key k; get(m, k, d) reads it, or d when it is missing"
_OUTSIDE = "a list's indexes run from 0 to len(xs) - 1, and from -1 (the last) to -len(xs) when reading"
_OUTSIDE_SET = "a list's indexes run from 0 to len(xs) - 1; `xs += x` appends x"
_ABSENT = "test with `x in xs` (and `require` it) before taking x away"
_EMPTY = "make sure it has an element first: `require len(xs) > 0`, or `if len(xs) > 0 then {0}(xs) else 0`"


def _elements(n: int) -> str:
    """"a list of 3 elements", "a list of 1 element", "an empty list"."""
    return "an empty list" if n == 0 else f"a list of {n} element{'' if n == 1 else 's'}"


def _named(hint: str, e) -> str:
    """A hint about a list `xs`, written with the list's own name where e, the list, is a name."""
    name = e.id if isinstance(e, m.Name) else e.name if isinstance(e, m.Ident) else None
    return hint if name is None else hint.replace("xs", name)


class Compiler(PySource, StmtSource):
    """Turns checked declarations into closures, given the parameter values."""

    def __init__(self, checker: Checker, params: dict, drops: Optional[Counter] = None):
        self.ck = checker
        self.params = params
        # for validate to explain moves that never happen: (span, why) -> how many paths a `require`
        # or a field's range dropped; None (no counting) elsewhere
        self.drops = drops
        # for validate too: the condition span of each `for` that repeats steps (its names unread)
        # -> [runs that ended, runs that ended with the condition still holding: cut by the range]
        self.loop_cuts: Optional[dict] = None if drops is None else {}
        self.nfields = len(checker.fields)
        (self.CUR, self.FIRED, self.LABELS, self.WEIGHT, self.SAMPLER, self.MERGED, self.PICK, self.CALLED,
         self.PASSED) = (self.nfields + i for i in range(9))
        self.enum_values = {}
        for enum, names in checker.enums.items():
            for i, n in enumerate(names):
                self.enum_values[(enum, n)] = rt.EnumValue(enum, n, i)
        self.players = tuple(self.enum_values[("player", n)] for n in checker.players)
        self.record_classes = {name: (rt.Cell if name == "cell" else rt.record_class(name, [f for f, _ in fields]))
                               for name, fields in checker.records.items()}
        self.consts: dict = {}
        self._busy: set = set()
        self.defs: dict = {}
        self.actions: dict = {}
        self.init_source(_in_order)

    def seat_players(self) -> None:
        """Keep the first n players of `players A, B, C, D first n`, the parameters known."""
        d = next((d for d in self.ck.decls if isinstance(d, m.PlayersDecl)), None)
        if d is None or d.first is None:
            return
        n = self.expr(d.first)(self.blank_env())
        if not 1 <= n <= len(self.players):
            _fail(d.first.span, f"{n} players, of the {len(self.players)} that `players` names: expected 1 to "
                                f"{len(self.players)}", "name as many players as the most that may play")
        self.players = self.players[:n]

    # ---------------- constants ----------------
    def blank_env(self):
        return [None] * self.ck.nslots

    def const_value(self, sym: Symbol):
        if sym.name in self.consts:
            return self.consts[sym.name]
        d = sym.decl
        if sym.kind == "param":
            if sym.name not in self.params:  # a default may use a parameter declared later
                self.params[sym.name] = self.expr(d.default)(self.blank_env())
            v = self.params[sym.name]
        elif isinstance(d, m.TableDecl):
            env = self.blank_env()
            v = rt.FrozenMap((self.expr(e.key)(env), self.expr(e.value)(env)) for e in d.entries)
        elif isinstance(d, m.ConstDecl):
            v = self.expr(d.value)(self.blank_env())
        elif isinstance(d, tuple) and isinstance(d[1], m.TileEntry):
            v = self.tile(*d)
        elif d is ALL_PLAYERS:
            v = self.players
        else:
            v = d
        self.consts[sym.name] = v
        return v

    def tile(self, d: m.TilesDecl, entry: m.TileEntry):
        sides = tuple(self.enum_values[(d.sides.name, n)] for n in self.ck.enums[d.sides.name])
        labels = tuple(None if x.name == "_" else self.enum_values[(d.labels.name, x.name)] for x in entry.labels)
        index = {n: i for i, n in enumerate(self.ck.enums[d.sides.name])}
        if entry.groups is None:
            groups = [[k for k, x in enumerate(labels) if x is not None]]
        else:
            groups = [[index[s.name] for s in g.sides] for g in entry.groups]
            grouped = {k for g in groups for k in g}
            groups += [[k] for k, x in enumerate(labels) if x is not None and k not in grouped]
        return tiles.Tile(entry.name.name, sides, labels, [g for g in groups if g])

    # ---------------- expressions (closures; pysource.py generates the fast path) ----------------
    def type_of(self, e):
        return self.ck.types.get(id(e), T.ANY)

    def iterate(self, e):
        """An iterable for loops and choices: sets and map keys in sorted order, so that
        equal states give the same moves in the same order in every process."""
        f = self.expr(e)
        t = self.type_of(e)
        if t != T.ANY and t[0] not in ("set", "map"):
            return f
        return lambda env: _in_order(f(env))

    def x_IntLit(self, e):
        v = e.value
        return lambda env: v

    def x_StrLit(self, e):
        v = e.value
        return lambda env: v

    def x_Name(self, e: m.Name):
        sym = self.ck.syms[id(e)]
        if sym.kind in ("field", "local"):
            i = sym.slot
            return lambda env: env[i]
        if sym.kind == "current":
            players, cur = self.players, self.CUR
            return lambda env: players[env[cur]]
        if sym.kind == "enumval":
            v = self.enum_values[(sym.type[1], sym.name)]
        elif sym.kind == "type":  # an enum: its values, in the order declared
            v = tuple(self.enum_values[(sym.name, n)] for n in self.ck.enums[sym.name])
        else:
            v = self.const_value(sym)
        return lambda env: v

    def x_Cond(self, e):
        t, a, b = self.expr(e.test), self.expr(e.then), self.expr(e.orelse)
        return lambda env: a(env) if t(env) else b(env)

    def x_BinOp(self, e: m.BinOp):
        op = e.op
        f, g = self.expr(e.left), self.expr(e.right)
        if op == "and":
            return lambda env: f(env) and g(env)
        if op == "or":
            return lambda env: f(env) or g(env)
        if op == "in":
            return lambda env: f(env) in g(env)
        if op == "not in":
            return lambda env: f(env) not in g(env)
        lt, rt = self.type_of(e.left), self.type_of(e.right)
        if op in ("+", "-") and lt == T.ANY and rt != T.ANY and rt[0] in T.COLLECTIONS:
            lt = rt  # an untyped def parameter: the checker takes it for the collection on the right
        if op in ("+", "-") and lt != T.ANY and lt[0] in T.COLLECTIONS:
            whole = T.fits(rt, lt)
            combine = _collection_op(lt[0], op, whole, e.span)
            return lambda env: combine(f(env), g(env))
        if op in ("+", "-") and lt == T.ANY and rt == T.ANY:
            combine = untyped_op(op, e.span)
            return lambda env: combine(f(env), g(env))
        if op == "//":  # the error at the divisor
            return lambda env: (f(env) // d) if (d := g(env)) else _fail(e.right.span, "division by zero")
        if op == "%":
            return lambda env: (f(env) % d) if (d := g(env)) else _fail(e.right.span, "division by zero")
        fn = _OPS[op]
        return lambda env: fn(f(env), g(env))

    def x_Not(self, e):
        f = self.expr(e.operand)
        return lambda env: not f(env)

    def x_Neg(self, e):
        f = self.expr(e.operand)
        return lambda env: -f(env)

    def x_RangeLit(self, e):
        lo, hi, span = self.expr(e.lo), self.expr(e.hi), e.span

        def numbers(env):
            a, b = lo(env), hi(env)
            if b - a >= rt.RANGE_MOST:
                _fail(span, f"the range {a}..{b} holds {b - a + 1:,} numbers, more than the {rt.RANGE_MOST:,} a "
                      "range may hold")
            return tuple(range(a, b + 1))
        return numbers

    def x_Attr(self, e: m.Attr):
        sym = self.ck.syms.get(id(e.obj))
        if sym is not None and sym.kind == "type":
            v = self.enum_values[(sym.name, e.attr.name)]
            return lambda env: v
        t = self.type_of(e.obj)
        f = self.expr(e.obj)
        if t != T.ANY and t[0] == "tile":
            return lambda env: f(env).name
        fields = [n for n, _ in self.ck.records.get(t[1], ())] if t != T.ANY and t[0] == "record" else []
        if e.attr.name in fields:
            i = fields.index(e.attr.name)
            return lambda env: f(env)[i]
        name = e.attr.name
        return lambda env: _dyn_attr(f(env), name, e.span)

    def x_Index(self, e: m.Index):
        f, g = self.expr(e.obj), self.expr(e.key)
        span, outside = e.span, _named(_OUTSIDE, e.obj)

        def index(env):
            obj, key = f(env), g(env)
            try:
                return obj[key]
            except (KeyError, IndexError, TypeError):
                if isinstance(obj, tuple) and type(key) is int:
                    _fail(span, f"index {key} is outside {_elements(len(obj))}: {clip(rt.format_value(obj), 100)}",
                          outside)
                _fail(span, f"no entry {rt.format_value(key)} in {clip(rt.format_value(obj))}",
                      outside if isinstance(obj, tuple) else _MISSING_KEY if isinstance(obj, rt.FrozenMap) else None)
        return index

    def x_Call(self, e: m.Call):
        sym = self.ck.syms[id(e.func)]
        if sym.kind == "record":
            return self.record_call(e, sym)
        args = [self.expr(a.value) for a in e.args]
        if sym.kind == "def":
            return self.def_call(sym, args, self.def_context(sym.decl, [a.value for a in e.args]), e.span)
        return self.builtin(e, sym.name, args)

    def record_call(self, e, sym):
        cls = self.record_classes[sym.name]
        names = [f for f, _ in self.ck.records[sym.name]]
        order = [names.index(a.name.name) if a.name else i for i, a in enumerate(e.args)]
        fns = [None] * len(names)
        for pos, a in zip(order, e.args):
            fns[pos] = self.expr(a.value)
        return lambda env: cls([f(env) for f in fns])

    def def_call(self, sym, args, context, span):
        """A call of a def at span, its body compiled in `context` (see def_context)."""
        d = sym.decl
        slots = [self.param_symbol(p).slot for p in d.params]
        key = (d.name.name, context)
        body = self.defs.get(key)
        if body is None:
            cell = []
            self.defs[key] = lambda env: cell[0](env)
            cell.append(self.under(context, lambda: self.expr(d.body)))
            body = self.defs[key]
        pairs = list(zip(slots, args))
        if not pairs:
            return body

        def call(env):
            vals = [a(env) for _, a in pairs]
            for (s, _), v in zip(pairs, vals):
                env[s] = v
            try:
                return body(env)
            except RuleRuntimeError as err:
                _called(err, d.name.name, vals, span)
                raise
        return call

    def builtin(self, e, name, args):
        span = e.span
        a = args[0] if args else None
        if name == "old":  # the argument read with the state before the step in place of this one
            before, n = self.ck.before_slot, self.nfields + 2
            return lambda env: a(env_before(env, before, n))
        if name in ("min", "max") and len(args) > 1:
            fn = min if name == "min" else max
            return lambda env: fn(x(env) for x in args)
        if name in ("min", "max"):
            fn = min if name == "min" else max
            return lambda env: fn(c) if (c := a(env)) else _fail(span, f"{name}() of an empty collection",
                                                                 _EMPTY.format(name))
        simple = {"len": len, "sum": sum, "count": len, "any": any, "all": all, "sorted": lambda c: tuple(sorted(c)),
                  "list": tuple, "set": frozenset, "abs": abs,
                  "union": lambda c: frozenset().union(*c), "concat": lambda c: tuple(chain.from_iterable(c)),
                  "keys": lambda mp: tuple(_in_order(mp)), "values": lambda mp: tuple(mp[k] for k in _in_order(mp)),
                  "cells": lambda g: g.cells, "text": rt.format_value, "chars": tuple}
        if name in simple:
            fn = simple[name]
            return lambda env: fn(a(env))
        if name == "bag":
            t = self.type_of(e.args[0].value)
            if t != T.ANY and t[0] == "map":
                return lambda env: rt.Bag(_expand_counts(a(env), span))
            if t == T.ANY:  # a def parameter: a map gives its counts, as where the type is known
                return lambda env: rt.Bag(_expand_counts(v, span) if isinstance(v := a(env), dict) else v)
            return lambda env: rt.Bag(a(env))
        if name in ("pairs", "sub_bags"):
            fn = rt.pairs if name == "pairs" else rt.sub_bags
            return lambda env: fn(_few_enough(span, name, a(env)))
        if name in ("up_to", "combinations"):
            b, fn = args[1], rt.up_to if name == "up_to" else rt.combos

            def choices(env):
                k = a(env)
                return fn(k, _few_enough(span, name, b(env), k))
            return choices
        if name == "get":
            b, c = args[1], args[2]
            return lambda env: a(env).get(b(env), c(env))
        if name == "square_grid":
            b = args[1]

            def square_grid(env):
                rows, cols = a(env), b(env)
                if rows < 1 or cols < 1:
                    _fail(span, f"square_grid({rows}, {cols}): a grid needs at least one row and one column")
                return rt.Grid(rows, cols)
            return square_grid
        if name == "hex_grid":
            b = args[1]
            return lambda env: rt.HexGrid(c, b(env)) if (c := a(env)) else _fail(span, "hex_grid() of no cells")
        if name == "lines":
            b = args[1]
            return lambda env: a(env).lines(b(env))
        if name == "neighbours":
            b = args[1]
            return lambda env: a(env).neighbours(b(env))
        if name == "components":
            b = args[1]
            return lambda env: rt.components(a(env), b(env))
        if name == "graph":
            if len(args) > 1:
                b = args[1]
                return lambda env: rt.Graph(_edges(a(env), span), b(env))
            return lambda env: rt.Graph(_edges(a(env), span))
        if name == "nodes":
            return lambda env: a(env).nodes
        if name == "next_player":  # the player after p in turn order, the first after the last
            after = {p: self.players[(i + 1) % len(self.players)] for i, p in enumerate(self.players)}
            return lambda env: after[a(env)]
        if name == "head":  # the first k elements (all of them past the end, none for k <= 0)
            b = args[1]
            return lambda env: b(env)[:max(0, a(env))]
        if name == "tail":  # the last k
            b = args[1]
            return lambda env: rt.tail(a(env), b(env))
        if name == "index":
            b = args[1]

            def index(env):
                xs, x = a(env), b(env)
                try:
                    return xs.index(x)
                except ValueError:
                    _fail(span, f"{rt.format_value(x)} is not in the list {clip(rt.format_value(xs), 80)}",
                          "`x in xs` tells whether it is there first")
            return index
        if name == "distance":
            b, c = args[1], args[2]

            def distance(env):
                g, x, y = a(env), b(env), c(env)
                d = g.distance(x, y)
                if d is None:
                    missing = next((v for v in (x, y) if not g.contains(v)), None)
                    _fail(span, f"{rt.format_value(missing)} is not a node of the graph" if missing is not None
                          else f"no path from {rt.format_value(x)} to {rt.format_value(y)}",
                          "nodes(g) gives the nodes of the graph" if missing is not None
                          else "components(g, nodes(g)) gives the groups of nodes that paths join")
                return d
            return distance
        if name == "join":
            b = args[1]
            return lambda env: a(env).join(b(env))
        if name in ("orientations", "rotations"):
            return lambda env: getattr(a(env), name)()
        if name == "beside":
            b, steps = args[1], tiles.STEPS

            def beside(env):
                (r, c), (dr, dc) = a(env), steps[b(env).index]
                return rt.Cell((r + dr, c + dc))
            return beside
        if name == "edges":
            return lambda env: a(env).edges
        fn = {"clashes": tiles.clashes, "matches": tiles.matches, "places": tiles.places, "open_ends": tiles.open_ends,
              "loose_ends": tiles.loose_ends,
              "networks": tiles.networks, "longest_trail": tiles.longest_trail}[name]
        if len(args) == 1:
            return lambda env: fn(a(env))
        if len(args) == 2:
            b = args[1]
            return lambda env: fn(a(env), b(env))
        b, c = args[1], args[2]
        return lambda env: fn(a(env), b(env), c(env))

    def loop(self, c: m.Comp):
        """(iterate(env) -> yields after binding targets, or filtering by cond)."""
        it = self.iterate(c.iter)
        slots = [self.ck.syms[id(t)].slot for t in c.targets]
        cond = self.expr(c.cond) if c.cond is not None else None
        if len(slots) == 1:
            s = slots[0]
            if cond is None:
                def gen(env):
                    for v in it(env):
                        env[s] = v
                        yield
            else:
                def gen(env):
                    for v in it(env):
                        env[s] = v
                        if cond(env):
                            yield
        else:
            def gen(env):
                for v in it(env):
                    for s, x in zip(slots, v):
                        env[s] = x
                    if cond is None or cond(env):
                        yield
        return gen

    def x_CallComp(self, e: m.CallComp):
        name, c = e.func.name, e.comp
        gen, body = self.loop(c), self.expr(c.expr)
        span = e.span
        if name in ("any", "all") and len(c.targets) == 1:
            return self.quantifier(c, body, name == "any")
        if name == "count":
            return lambda env: sum(1 for _ in gen(env))
        if name in ("min", "max"):
            fn = min if name == "min" else max
            return lambda env: fn(xs) if (xs := [body(env) for _ in gen(env)]) else _fail(
                span, f"{name}() of an empty collection", _EMPTY.format(name))
        wrap = {"sum": sum, "any": any, "all": all, "sorted": lambda xs: tuple(sorted(xs)), "list": tuple,
                "set": frozenset, "bag": rt.Bag, "union": lambda xs: frozenset().union(*xs),
                "concat": lambda xs: tuple(chain.from_iterable(xs))}[name]
        if name in ("any", "all"):
            return lambda env: wrap(body(env) for _ in gen(env))
        return lambda env: wrap([body(env) for _ in gen(env)])

    def quantifier(self, c: m.Comp, body, is_any: bool):
        """any/all over one loop variable as a plain loop that stops early (a hot path)."""
        it = self.iterate(c.iter)
        s = self.ck.syms[id(c.targets[0])].slot
        cond = self.expr(c.cond) if c.cond is not None else None
        if cond is None and is_any:
            def run(env):
                for v in it(env):
                    env[s] = v
                    if body(env):
                        return True
                return False
        elif cond is None:
            def run(env):
                for v in it(env):
                    env[s] = v
                    if not body(env):
                        return False
                return True
        else:
            def run(env):
                for v in it(env):
                    env[s] = v
                    if cond(env) and bool(body(env)) is is_any:
                        return is_any
                return not is_any
        return run

    def x_First(self, e: m.First):
        gen, body, default = self.loop(e.comp), self.expr(e.comp.expr), self.expr(e.default)

        def first(env):
            for _ in gen(env):
                return body(env)
            return default(env)
        return first

    def x_TupleLit(self, e):
        fs = [self.expr(i) for i in e.items]
        return lambda env: tuple(f(env) for f in fs)

    def x_ListLit(self, e):
        fs = [self.expr(i) for i in e.items]
        return lambda env: tuple(f(env) for f in fs)

    def x_SetLit(self, e):
        fs = [self.expr(i) for i in e.items]
        return lambda env: frozenset(f(env) for f in fs)

    def x_MapLit(self, e):
        fs = [(self.expr(x.key), self.expr(x.value), isinstance(x.key, m.RangeLit)) for x in e.entries]

        def build(env):
            out = {}
            for k, v, spread in fs:
                val = v(env)
                for key in (k(env) if spread else (k(env),)):
                    out[key] = val
            return rt.FrozenMap(out)
        return build

    def x_EmptyLit(self, e):
        t = self.type_of(e)
        v = {"set": frozenset(), "bag": rt.Bag()}.get(t[0], rt.FrozenMap())
        return lambda env: v

    def x_ListComp(self, e):
        gen, body = self.loop(e.comp), self.expr(e.comp.expr)
        return lambda env: tuple([body(env) for _ in gen(env)])

    def x_SetComp(self, e):
        gen, body = self.loop(e.comp), self.expr(e.comp.expr)
        return lambda env: frozenset([body(env) for _ in gen(env)])

    def x_MapComp(self, e: m.MapComp):
        gen = self.loop(m.Comp(e.key, e.targets, e.iter, e.cond, e.span))
        k, v = self.expr(e.key), self.expr(e.value)
        return lambda env: rt.FrozenMap([(k(env), v(env)) for _ in gen(env)])

    def x_Template(self, t: m.Template):
        parts = [(p if isinstance(p, str) else self.expr(p)) for p in t.parts]
        fmt = rt.format_value
        return lambda env: "".join(p if isinstance(p, str) else fmt(p(env)) for p in parts)

    def template(self, t: m.Template):
        """A label's text, as one generated function (pysource.p_Template)."""
        return self.expr(t)

    # ---------------- statements ----------------
    def block(self, b: m.Block, inline: bool = False):
        """The statements of b in sequence. `inline`: the body of an `if` or a `for`, which the
        run of simple statements it is part of writes out whole where it is simple."""
        compiled = [self.stmt(s) for s in b.stmts]
        if inline and all(kind == SIMPLE for kind, _ in compiled):
            return chain(compiled)
        return chain(self.fused(b.stmts, compiled))

    def stmt(self, s):
        return getattr(self, "s_" + type(s).__name__)(s)

    def s_Let(self, s: m.Let):
        f = self.expr(s.value)
        slots = [self.ck.syms[id(t)].slot for t in s.targets]
        if len(slots) == 1:
            i = slots[0]

            def let(env):
                env[i] = f(env)
                return True
        else:
            def let(env):
                for i, v in zip(slots, f(env)):
                    env[i] = v
                return True
        return SIMPLE, let

    def s_Var(self, s: m.Var):
        return self.field_setter(s.target, self.expr(s.value))

    def s_Choose(self, s: m.Choose):
        dom = self.iterate(s.domain)
        put = self.placer(s.targets)
        cond = self.expr(s.cond) if s.cond is not None else None

        P = self.PICK
        every = self.choose_loop(s, dom)

        # a fork owns the env it is given (each way on gets a copy): the names are bound in it to
        # test the condition, and copied only for a value that passes, not for each one tried
        def choose(env, k):
            pick = env[P]
            if pick is None:
                if every is not None:
                    every(env, k)
                    return
                for v in dom(env):
                    put(env, v)
                    if cond is None or cond(env):
                        k(env.copy())
                return
            values = list(dom(env))  # one path picked: the values in random order, until one completes
            pick[0].shuffle(values)
            for v in values:
                put(env, v)
                if cond is None or cond(env):
                    k(env.copy())
                    if pick[1]:
                        return
        if self.drops is None:
            return FORK, choose
        drops, why = self.drops, (s.span, "where the `choose` had no value to take")

        def counting(env, k):  # validate: a path on which no value was left to choose is counted as dropped
            taken = [False]

            def took(e):
                taken[0] = True
                k(e)
            choose(env, took)
            if not taken[0]:
                _dropped(drops, why)
        return FORK, counting

    def placer(self, targets):
        """f(env, v): the names bound to v in env itself (a tuple taken apart for several)."""
        slots = [self.ck.syms[id(t)].slot for t in targets]
        if len(slots) == 1:
            one = slots[0]

            def put_one(env, v):
                env[one] = v
            return put_one

        def put_tuple(env, v):
            for i, x in zip(slots, v):
                env[i] = x
        return put_tuple

    def binder(self, targets):
        """f(env, v) -> a copy of env with the names bound to v (a tuple taken apart for several)."""
        slots = [self.ck.syms[id(t)].slot for t in targets]
        if len(slots) == 1:
            one = slots[0]

            def bind_one(env, v):
                e = env.copy()
                e[one] = v
                return e
            return bind_one

        def bind_tuple(env, v):
            e = env.copy()
            for i, x in zip(slots, v):
                e[i] = x
            return e
        return bind_tuple

    def s_Draw(self, s: m.Draw):
        """A fork per distinct element, its weight (copies / all copies) multiplied into the
        chance weight slot, and `name = value` added to the outcome's label. With a random
        generator in the sampler slot, one fork only, drawn by weight."""
        dom = self.iterate(s.domain)
        bind = self.binder(s.targets)
        names = ", ".join(t.name for t in s.targets)
        W, L, R, fmt = self.WEIGHT, self.LABELS, self.SAMPLER, rt.format_value

        texts: dict = {}  # value -> its label text: a die's faces recur at every chance node

        def text(v):
            t = texts.get(v)
            if t is None:
                if len(texts) >= 4096:
                    texts.clear()
                t = texts[v] = f"{names} = {fmt(v)}"
            return t

        def draw(env, k):
            counts: dict = {}
            for v in dom(env):
                counts[v] = counts.get(v, 0) + 1
            if not counts:
                _fail(s.domain.span, "draw from an empty collection")
            total = sum(counts.values())
            if env[R] is not None:
                x = env[R].randrange(total)
                for v, c in counts.items():
                    x -= c
                    if x < 0:
                        break
                e = bind(env, v)
                e[L] = env[L] + (text(v),)
                return k(e)
            for v, c in counts.items():
                e = bind(env, v)
                e[W] = env[W] * c / total
                e[L] = env[L] + (text(v),)
                k(e)
        return FORK, draw

    def s_Require(self, s):
        f = self.expr(s.cond)
        if self.drops is None:
            return SIMPLE, lambda env: bool(f(env))
        drops, why = self.drops, (s.span, "where the `require` did not hold")
        return SIMPLE, lambda env: bool(f(env)) or _dropped(drops, why)

    def field_setter(self, ident: m.Ident, value_fn):
        """A step storing value_fn(env) into a field, enforcing its declared bounds."""
        sym = self.ck.syms[id(ident)]
        i = sym.slot
        f = sym.decl
        if isinstance(f.type, m.RangeType):
            lo = self.expr(f.type.lo)(self.blank_env())
            hi = self.expr(f.type.hi)(self.blank_env())
            if f.bound == "clamp":
                def setter(env):
                    v = value_fn(env)
                    env[i] = lo if v < lo else hi if v > hi else v
                    return True
            else:
                drops, why = self.drops, self.range_left(ident, lo, hi)

                def setter(env):
                    v = value_fn(env)
                    if v < lo or v > hi:
                        return drops is not None and _dropped(drops, why)
                    env[i] = v
                    return True
            return SIMPLE, setter
        if bounded_collection(f.type):
            return SIMPLE, self._collection_setter(ident, f, value_fn)

        def setter(env):
            env[i] = value_fn(env)
            return True
        return SIMPLE, setter

    @staticmethod
    def range_left(ident: m.Ident, lo: int, hi: int) -> tuple:
        """(span, why) of a path dropped where a field would leave its range lo..hi."""
        return ident.span, f"where '{ident.name}' would leave its range {lo}..{hi} (unless the field says `clamp`)"

    def _collection_setter(self, ident: m.Ident, f: m.Field, value_fn):
        """A store into a field of a collection of a range (`map<Res, 0..9>`, `list<0..5>`): a
        value outside the range drops the branch, or with `clamp` is stored as the nearest bound."""
        i, kind, r = self.ck.syms[id(ident)].slot, f.type.name.name, f.type.args[-1]
        lo, hi = self.expr(r.lo)(self.blank_env()), self.expr(r.hi)(self.blank_env())
        values = (lambda c: c.values()) if kind == "map" else (lambda c: c.items) if kind == "bag" else (lambda c: c)
        if f.bound == "clamp":
            def within(v):
                return lo if v < lo else hi if v > hi else v
            remake = {"map": lambda c: rt.FrozenMap({k: within(v) for k, v in c.items()}),
                      "bag": lambda c: rt.Bag(within(v) for v in c.items),
                      "set": lambda c: frozenset(within(v) for v in c)}.get(kind, lambda c: tuple(within(v) for v in c))

            def setter(env):
                c = value_fn(env)
                env[i] = c if all(lo <= v <= hi for v in values(c)) else remake(c)
                return True
            return setter
        drops, why = self.drops, (ident.span, f"where a value in '{ident.name}' would leave its range {lo}..{hi} "
                                              "(unless the field says `clamp`)")

        def setter(env):
            c = value_fn(env)
            if not all(lo <= v <= hi for v in values(c)):
                return drops is not None and _dropped(drops, why)
            env[i] = c
            return True
        return setter

    def s_Assign(self, s: m.Assign):
        return self.field_setter(s.target, self.expr(s.value))

    def s_Update(self, s: m.Update):
        sym = self.ck.syms[id(s.target)]
        i, g, fn = sym.slot, self.expr(s.value), self.update_op(sym.type, s)
        return self.field_setter(s.target, lambda env: fn(env[i], g(env)))

    def update_op(self, t, s):
        """`old, x -> new` for `s.op` (`+=`, `-=` or `*=`) on a value of type t: ints add, subtract
        and multiply, collections take an element or a whole collection of their own type."""
        if t == T.INT:
            return {"+=": operator.add, "-=": operator.sub, "*=": operator.mul}[s.op]
        if t[0] == "map" and s.op == "-=":  # `m -= k`: the map without the entry of key k, if it has one
            return rt.FrozenMap.without
        whole = T.fits(self.type_of(s.value), t) and not T.fits(self.type_of(s.value), t[1])
        return _collection_op(t[0], s.op[0], whole, s.span)

    def s_IndexAssign(self, s: m.IndexAssign):
        sym = self.ck.syms[id(s.target)]
        i = sym.slot
        k, v = self.expr(s.key), self.expr(s.value)
        if sym.type[0] == "map":
            return self.field_setter(s.target, lambda env: env[i].set(k(env), v(env)))
        outside = _named(_OUTSIDE_SET, s.target)

        def set_item(env):
            seq, idx = env[i], k(env)
            if not 0 <= idx < len(seq):
                _fail(s.span, f"index {idx} is outside {_elements(len(seq))}", outside)
            return seq[:idx] + (v(env),) + seq[idx + 1:]
        return self.field_setter(s.target, set_item)

    def s_IndexUpdate(self, s: m.IndexUpdate):
        sym = self.ck.syms[id(s.target)]
        i, t, name = sym.slot, sym.type, s.target.name
        k, g = self.expr(s.key), self.expr(s.value)
        is_map = t[0] == "map"
        fn = self.update_op(t[2] if is_map else t[1], s)
        outside = _named(_OUTSIDE_SET, s.target)

        def update(env):
            coll, key = env[i], k(env)
            if is_map:
                if key not in coll:
                    _fail(s.span, f"no entry {rt.format_value(key)} in {name} to change with `{s.op}`; "
                                  f"`{name}[...] =` adds one")
            elif not 0 <= key < len(coll):
                _fail(s.span, f"index {key} is outside {_elements(len(coll))}", outside)
            new = fn(coll[key], g(env))
            return coll.set(key, new) if is_map else coll[:key] + (new,) + coll[key + 1:]
        return self.field_setter(s.target, update)

    def s_Replace(self, s: m.Replace):
        sym = self.ck.syms[id(s.target)]
        i = sym.slot
        old, new = self.expr(s.old), self.expr(s.new)
        span = s.span

        def replace(env):
            coll, o = env[i], old(env)
            if isinstance(coll, rt.Bag):
                rest = coll.remove(o)
                if rest is None:
                    _fail(span, f"{rt.format_value(o)} is not in {s.target.name}", _ABSENT)
                return rest.add(new(env))
            if o not in coll:
                _fail(span, f"{rt.format_value(o)} is not in {s.target.name}", _ABSENT)
            j = coll.index(o)
            return coll[:j] + (new(env),) + coll[j + 1:]
        return self.field_setter(s.target, replace)

    def s_IfStmt(self, s: m.IfStmt):
        test = self.expr(s.test)
        body = self.block(s.body, inline=True)
        if s.orelse is None:
            orelse = (SIMPLE, lambda env: True)
        elif isinstance(s.orelse, m.Block):
            orelse = self.block(s.orelse, inline=True)
        else:
            orelse = self.s_IfStmt(s.orelse)
        if body[0] == SIMPLE and orelse[0] == SIMPLE:
            a, b = body[1], orelse[1]
            return SIMPLE, lambda env: a(env) if test(env) else b(env)
        a, b = as_fork(body), as_fork(orelse)
        return FORK, lambda env, k: a(env, k) if test(env) else b(env, k)

    def s_ForStmt(self, s: m.ForStmt):
        loop = self.for_loop(s)
        until = self.loop_cuts is not None and repeat_condition(self.ck, s)
        if not until:
            return loop
        tally = self.loop_cuts.setdefault(until.span, [0, 0])
        size, held = self.iterate(s.iter), self.expr(until)

        def ran(env, n):  # the steps stopped at the end of the range or where the condition failed
            tally[0] += 1
            try:
                tally[1] += n > 0 and bool(held(env))
            except RuleRuntimeError:
                pass
        if loop[0] == SIMPLE:
            step = loop[1]

            def noting(env):
                n = len(tuple(size(env)))
                return step(env) and (ran(env, n) or True)
            return SIMPLE, noting
        fork = loop[1]

        def noting_fork(env, k):
            n = len(tuple(size(env)))
            fork(env, lambda e: (ran(e, n), k(e)))
        return FORK, noting_fork

    def for_loop(self, s: m.ForStmt):
        it = self.iterate(s.iter)
        slots = [self.ck.syms[id(t)].slot for t in s.targets]
        body = self.block(s.body, inline=True) if s.cond is None else \
            self.s_IfStmt(m.IfStmt(s.cond, s.body, None, s.cond.span))
        names = [t.name for t in s.targets]

        def bind(env, v):
            if len(slots) == 1:
                env[slots[0]] = v
            else:
                for i, x in zip(slots, v):
                    env[i] = x

        # with a `merge equal paths` in the body, the elements of the run and the index of the pass
        # are in a slot of their own: what is still to come depends on them
        position = self.ck.loop_positions.get(id(s))
        if body[0] == SIMPLE:
            step = body[1]

            def loop(env):
                items = it(env) if position is None else _LoopRun(it(env))
                for i, v in enumerate(items):
                    bind(env, v)
                    if position is not None:
                        env[position] = (items, i)
                    try:
                        if not step(env):
                            return False
                    except RuleRuntimeError as err:
                        _on_pass(err, names, v, s.span)
                        raise
                return True
            return SIMPLE, loop
        fork = body[1]

        def loop_fork(env, k):
            items = tuple(it(env))
            run = None if position is None else _LoopRun(items)
            this = object()  # this run of the loop: an error is told of its pass once, not after the loop

            def go(e, n, go):  # go passed in, not closed over: a function in its own closure is a
                if n == len(items):  # cycle, and it held the turn's listed moves until the collector ran
                    try:
                        k(e)
                    except RuleRuntimeError as err:
                        _past(err, this)
                        raise
                    return
                bind(e, items[n])
                if run is not None:
                    e[position] = (run, n)
                try:
                    fork(e, lambda e2: go(e2, n + 1, go))
                except RuleRuntimeError as err:
                    if _first_from(err, this):
                        _on_pass(err, names, items[n], s.span)
                    raise
            go(env, 0, go)
        return FORK, loop_fork

    def s_MergeStmt(self, s: m.MergeStmt):
        """Prune a path whose state, visible names and `pass to` still to take effect equal an
        earlier one's here. The seen set is in the MERGED slot, made afresh for each move
        generation (absent elsewhere: no effect)."""
        n, merged, passed, slots = self.nfields + 2, self.MERGED, self.PASSED, self.ck.merge_slots[id(s)]

        def merge(env):
            seen = env[merged]
            if seen is None:
                return True
            key = (id(s), tuple(env[:n]), env[passed], tuple([env[i] for i in slots]))
            if key in seen:
                return False
            seen.add(key)
            return True
        return SIMPLE, merge

    def s_OptionalStmt(self, s):
        body = as_fork(self.block(s.body))

        P = self.PICK

        def optional(env, k):
            pick = env[P]
            if pick is not None and pick[0].random() < 0.5:  # one path picked: the body first half the time
                body(env.copy(), k)
                if not pick[1]:
                    k(env)
                return
            k(env.copy())
            if pick is None or not pick[1]:
                body(env, k)
        return FORK, optional

    def s_PassTo(self, s: m.PassTo):
        f, P = self.expr(s.player), self.PASSED

        def pass_to(env):
            env[P] = f(env).index
            return True
        return SIMPLE, pass_to

    def s_EitherStmt(self, s: m.EitherStmt):
        bodies = [as_fork(self.block(b)) for b in s.branches]
        P = self.PICK

        def either(env, k):
            pick = env[P]
            if pick is None:
                for body in bodies[:-1]:
                    body(env.copy(), k)
                bodies[-1](env, k)
                return
            order = list(bodies)  # one path picked: the branches in random order, until one completes
            pick[0].shuffle(order)
            for body in order:
                body(env.copy(), k)
                if pick[1]:
                    return
        return FORK, either

    def s_TryStmt(self, s: m.TryStmt):
        """The ways through the first block; where it has none, those through the other."""
        body = as_fork(self.block(s.body))
        orelse = as_fork(self.block(s.orelse)) if isinstance(s.orelse, m.Block) else self.s_TryStmt(s.orelse)[1]

        def attempt(env, k):
            through = [False]

            def counted(e):
                through[0] = True
                k(e)
            body(env.copy(), counted)
            if not through[0]:
                orelse(env, k)
        return FORK, attempt

    def s_CallStmt(self, s: m.CallStmt):
        sym = self.ck.syms[id(s.func)]
        d: m.ActionDecl = sym.decl
        body = self.action_body(d)
        args = [self.expr(a) for a in s.args]
        slots = [self.ck.syms[id(p)].slot for p in d.params]
        label = self.template(d.label) if d.label is not None else None
        name = d.name.name
        L, C = self.LABELS, self.CALLED

        def bind(env) -> list:
            vals = [a(env) for a in args]
            for i, v in zip(slots, vals):
                env[i] = v
            return vals

        def add_label(env, at):
            """The label goes before those of the actions called in the body (at: their start)."""
            text = label(env) if label is not None else name
            if text:  # an action labelled "" is a step of a larger one and adds nothing
                done = env[L]
                env[L] = done + (text,) if at == len(done) else done[:at] + (text,) + done[at:]
            if env[C] is not None:  # actions traced (Game.reached_actions)
                env[C] = env[C] + (name,)

        if body[0] == SIMPLE:
            step = body[1]

            def call(env):
                vals = bind(env)
                at = len(env[L])
                try:
                    if not step(env):
                        return False
                    add_label(env, at)
                except RuleRuntimeError as err:
                    if vals:
                        _called(err, name, vals, s.span)
                    raise
                return True
            return SIMPLE, call
        fork = body[1]

        def call_fork(env, k):
            vals = bind(env)
            at = len(env[L])
            if not vals:
                fork(env, lambda e: (add_label(e, at), k(e)))
                return
            this = object()  # this call, told apart from the others an error passes through

            def done(e):
                add_label(e, at)
                try:
                    k(e)
                except RuleRuntimeError as err:  # after the action, in what follows it: no part of this call
                    _past(err, this)
                    raise
            try:
                fork(env, done)
            except RuleRuntimeError as err:
                if _first_from(err, this):
                    _called(err, name, vals, s.span)
                raise
        return FORK, call_fork

    def action_body(self, d: m.ActionDecl):
        name = d.name.name
        if name not in self.actions:
            self.actions[name] = self.block(d.body)
        return self.actions[name]


class _LoopRun(tuple):
    """The elements one run of a loop goes through, hashed once: two paths where a `merge equal
    paths` in the loop's body compares them are at the same point of equal runs."""

    def __init__(self, items):
        self._hash = tuple.__hash__(self)

    def __hash__(self):
        return self._hash


def chain(items: list):
    """Sequence compiled statements: runs of simple steps, then a fork with the rest."""
    if all(kind == SIMPLE for kind, _ in items):
        steps = [f for _, f in items]
        if len(steps) == 1:
            return SIMPLE, steps[0]

        def run(env):
            for f in steps:
                if not f(env):
                    return False
            return True
        return SIMPLE, run
    n = next(i for i, (kind, _) in enumerate(items) if kind == FORK)
    head = [f for _, f in items[:n]]
    fork = items[n][1]
    rest = items[n + 1:]
    if not rest:
        def run_fork(env, k):
            for f in head:
                if not f(env):
                    return
            fork(env, k)
        return FORK, run_fork
    kind, after = chain(rest)
    if kind == SIMPLE:  # simple steps after the fork: run on each way it goes, one call fewer
        def run_then(env, k):
            for f in head:
                if not f(env):
                    return
            fork(env, lambda e: k(e) if after(e) else None)
        return FORK, run_then
    tail = after

    def run_chain(env, k):
        for f in head:
            if not f(env):
                return
        fork(env, lambda e: tail(e, k))
    return FORK, run_chain


def as_fork(compiled):
    kind, f = compiled
    if kind == FORK:
        return f
    return lambda env, k: k(env) if f(env) else None


_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge, "+": operator.add, "-": operator.sub, "*": operator.mul}


def _collection_op(kind: str, op: str, whole: bool, span):
    """`+`/`-` on a list, set or bag, with a whole collection or one element."""
    if kind == "bag":
        if whole:
            return rt.Bag.union if op == "+" else rt.Bag.difference
        if op == "+":
            return rt.Bag.add

        def remove(b, x):
            r = b.remove(x)
            if r is None:
                _fail(span, f"{rt.format_value(x)} is not in {rt.format_value(b)}", _ABSENT)
            return r
        return remove
    if kind == "set":
        if whole:
            return operator.or_ if op == "+" else operator.sub
        return (lambda s, x: s | {x}) if op == "+" else (lambda s, x: s - {x})
    if whole:
        return operator.add if op == "+" else (lambda a, b: tuple(x for x in a if x not in b))
    if op == "+":
        return lambda a, x: a + (x,)

    def remove_one(a, x):
        if x not in a:
            _fail(span, f"{rt.format_value(x)} is not in {rt.format_value(a)}", _ABSENT)
        i = a.index(x)
        return a[:i] + a[i + 1:]
    return remove_one


def untyped_op(op: str, span):
    """`+`/`-` on two values whose types the checker does not know (def parameters): the
    numbers', or the collection operation for the kind of the left value. A list takes only a
    whole list (as the checker has it); a set or bag takes a whole one of its kind or one
    element, which cannot be told apart when it holds collections of its own kind."""
    plain = _OPS[op]

    def combine(a, b):
        if type(a) is int:
            return plain(a, b)
        kind = "bag" if isinstance(a, rt.Bag) else "set" if isinstance(a, frozenset) else \
            "list" if type(a) is tuple else None
        if kind is None:
            return plain(a, b)
        whole = kind == "list" or isinstance(b, type(a))
        if kind != "list" and whole and any(isinstance(x, type(a)) for x in a):
            _fail(span, f"'{op}' on {rt.format_value(a)} and {rt.format_value(b)}: one element or the whole "
                        f"{kind}? A def's parameters carry no type, so it cannot be told here; write it where "
                        "the types are known")
        return _collection_op(kind, op, whole, span)(a, b)
    return combine


def _in_order(coll):
    if isinstance(coll, (frozenset, dict)):
        try:
            return sorted(coll)
        except TypeError:
            return sorted(coll, key=repr)
    return coll


def _expand_counts(mp, span) -> list:
    """{5: 2, 12: 1} -> [5, 5, 12]; a count below 0 is an error at span."""
    below = next(((k, n) for k, n in mp.items() if n < 0), None)
    if below is not None:
        _fail(span, f"bag() of a map of counts: {rt.format_value(below[0])} is counted {below[1]}, below 0")
    return [k for k, n in mp.items() for _ in range(n)]


def _dyn_attr(obj, name, span):
    """`.name` of a value whose type the checker does not know (a def parameter)."""
    if name == "name" and isinstance(obj, tiles.Tile):
        return obj.name
    if isinstance(obj, rt.Record) and name in obj._index:
        return rt.field_of(obj, name)
    _fail(span, f"{rt.format_value(obj)} has no field '{name}'")
