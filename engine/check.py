"""Checks a parsed game: names, types, arity, domains; collects every error in one run.

The checker also annotates the model for the compiler: the symbol each name
refers to (`syms`), the type of each expression (`types`) and a slot for each
state field and local variable.
"""
from __future__ import annotations

from collections import ChainMap
from pathlib import Path
from typing import Optional

import attrs

from . import model as m
from . import types as T
from .check_expr import BUILTINS, ExpressionChecks, a_kind
from .diagnostics import Diagnostic, counted, did_you_mean
from .parse import misspelt_statement_word
from search.agents import AGENTS_ONLY, ALGORITHMS, CHOICES, FRACTIONS, LEAST, TAKES


@attrs.define(eq=False)
class Symbol:
    """What a name means: its kind, type, where it was declared, and its slot or decl."""

    kind: str  # param const table enumval type record def field local action builtin heuristic
    name: str
    type: tuple
    span: m.Span
    slot: int = -1
    decl: object = None


BOOL_CONSTS = {"yes": True, "no": False, "true": True, "false": False}
ALL_PLAYERS = "the players in turn order"
"""The value of the built-in constant `players` (the compiler gives it its players)."""
PRIMITIVES = {"int": T.INT, "bool": T.BOOL, "str": T.STR, "cell": T.CELL, "grid": T.GRID, "player": T.PLAYER}
GENERICS = {"list": 1, "set": 1, "bag": 1, "map": 2, "graph": 1}
BUILTIN_TYPES = set(PRIMITIVES) | set(GENERICS)
_RANGE_HINT = "a number is no collection: the numbers from 0 to n are the range `0..n` (both ends included)"
OTHER_LANGUAGES = {
    "size": "`len(x)` counts the elements of a collection", "length": "`len(x)` counts the elements of a collection",
    "range": "`a..b` is the whole numbers from a to b, both included",
    "None": "there is no empty value: `k in m` tells whether a map has the key k",
    "null": "there is no empty value: `k in m` tells whether a map has the key k",
    "enumerate": "go over the indices for an index beside each item: `for i in 0..len(xs) - 1` reads xs[i]",
    **dict.fromkeys(("items", "entries"), "go over a map's keys: `for k in keys(m)` reads each value as m[k] "
                                          "(values(m) lists the values alone)"),
    **dict.fromkeys(("player", "self", "me"), "the player whose turn it is is `current`; `score for p: EXPR` "
                                               "names each player in turn"),
    **dict.fromkeys(("shuffle", "shuffled"), "a shuffled deck is dealt a card at a time as chance's: a `chance` "
                                             "block draws one (`draw c in deck`) and takes it out (`deck -= c`)"),
}
"""Hints for names that other languages have and the rules language spells otherwise."""
RANDOM_FUNCTIONS = dict.fromkeys(("random", "rand", "randint", "randrange", "roll", "dice", "choice"),
                                 "chance moves in a `chance when COND { ... }` block, which draws its outcomes "
                                 "(`draw d in 1..6`, then `roll = d`)")
"""Hints for a call of a random function: a random choice is chance's."""
OTHER_LANGUAGE_STATEMENTS = {
    "return": "an action has no `return`: its path ends with its block, and `require COND` drops the path "
              "where COND is false",
    "break": "a `for` runs its block for every value: `for x in xs where COND` keeps only some",
    "continue": "a `for` runs its block for every value: `for x in xs where COND` keeps only some",
    "print": "rules print nothing: `play --show` prints final states through the file's `view`",
}
"""Hints for statements that other languages have and the rules language does without."""


def bounded_collection(t) -> bool:
    """Whether a field's declared type is a collection of a range (`map<Res, 0..9>`, `list<0..5>`),
    whose values are kept in it."""
    return isinstance(t, m.GenericType) and t.name.name in ("map", "list", "set", "bag") and \
        isinstance(t.args[-1], m.RangeType)


class Checker(ExpressionChecks):
    """Walks the declarations once per rule; `errors` holds what it found."""

    def __init__(self, decls: tuple, path: str):
        self.decls = decls
        self.path = path
        self.errors: list[Diagnostic] = []
        self.globals: dict[str, Symbol] = {}
        self.syms: dict[int, Symbol] = {}
        self.types: dict[int, tuple] = {}
        self.records: dict[str, tuple] = {"cell": (("row", T.INT), ("col", T.INT))}
        self.enums: dict[str, tuple] = {}
        self.tilesets: dict[str, tuple] = {}  # tile type -> (side enum, label enum)
        self.untyped_tiles: set = set()  # tile types whose side or label enum is unknown (an error)
        self.misspelt_keyword_lines: set = set()  # (file, line) of a statement keyword misspelt as an action
        self.bound_by_misspelt: set = set()  # names after it on its line: their later uses are no news
        self.let_bound: set = set()  # the ids of the symbols `let` binds (where `var` would have done)
        self.players: tuple = ("player",)
        self.players_uses: list = []  # the spans of the names `players` read
        self.duplicated: set = set()  # names the file declares twice: their uses are typed `any`, no news
        self.fields: list[Symbol] = []
        self.nslots = 0
        self._const_busy: set = set()
        self._defs_busy: set = set()
        self._call_graph: dict[str, set] = {}
        self._current_action: Optional[str] = None
        self._in_chance = False  # inside a `chance` block: draws only, no choices
        self._invariant: Optional[m.InvariantDecl] = None  # the file's invariant being checked: old(...) is allowed
        self._in_old = False
        self.step_invariants: set = set()  # ids of the invariants that read old(...): checked on each step
        self.before_slot: Optional[int] = None  # where an invariant's environment holds the state before the step
        self._in_turn = False  # checking the turn block, where `merge equal paths` may stand
        self._around: list = []  # the `for` and `try` statements around the statement checked
        self.merge_slots: dict = {}  # id of each `merge equal paths` -> slots of the local names visible there
        # and of the positions of the loops around it
        self.loop_positions: dict = {}  # id of a `for` around a `merge equal paths` -> slot of its position
        self.scopes: list[dict] = []
        self._def_calls: list = []  # (def, argument types, call span) of each call with a known argument type
        self._checked_with: set = set()  # (def name, argument types) already checked so
        # (def name, argument types) -> (symbols, types) of its body checked so, without errors:
        # the compiler compiles the body so for a call with exactly those argument types
        self.def_overlays: dict = {}
        self._unbound_player: Optional[str] = None  # how to write `for p`, in a score or heuristic without it
        self._bound_player: Optional[tuple] = None  # (its name, how to write it, what) in one with `for q`

    # ---------------- reporting ----------------
    def error(self, code: str, msg: str, span: m.Span, hint: Optional[str] = None):
        d = Diagnostic(code, msg, span, hint)
        if d not in self.errors:  # a def is checked again at each call while its type is unknown
            self.errors.append(d)

    def unknown(self, what: str, name: str, span: m.Span, candidates):
        near = did_you_mean(name, candidates)
        hint = RANDOM_FUNCTIONS.get(name, OTHER_LANGUAGES.get(name)) if what == "function" else \
            OTHER_LANGUAGES.get(name) if what == "name" else \
            OTHER_LANGUAGE_STATEMENTS.get(name) if what == "action" else None
        if near and hint is None:
            sym = self.globals.get(near) if not what.startswith("field of") else None  # a record's, not a global
            where = f" (declared at {sym.span})" if sym and sym.span.line else ""
            hint = f"did you mean '{near}'?{where}"
        if hint is None and what == "name":
            hint = self._bound_later(name, span)
        if hint is None and what == "name" and self._unbound_player:
            hint = f"`{self._unbound_player.format(name)}` names each player in turn"
        if hint is None and what == "name" and self._bound_player and (len(name) <= 2 or name in ("player", "who")):
            bound, form, whose = self._bound_player
            hint = f"{whose} names its player {bound} here ({form.format(bound).replace(' EXPR', '')} ...): " \
                   f"write {bound}, or {form.format(name).replace(' EXPR', '')} ..."
        if hint is None and what in ("name", "state field"):
            hint = self._bound_elsewhere(name, what == "state field", span)
        if hint is None and what.startswith("field of") and candidates:  # the fields it has, where none is near
            hint = f"its fields: {', '.join(candidates)}"
        self.error("unknown-name", f"unknown {what} '{name}'", span, hint)

    def _bound_later(self, name: str, span: m.Span) -> Optional[str]:
        """A hint for a name read in a comprehension before the `for` of it that binds it (`... for r in
        f(t) for t in ts`): the `for`s bind their names from left to right."""
        def inside(outer: m.Span) -> bool:
            return outer.file == span.file and (outer.line, outer.col) <= (span.line, span.col) <= \
                (outer.end_line, outer.end_col)
        for kind in (m.Comp, m.MapComp):
            for c in nodes_in(self.decls, kind):
                binds = [t for t in c.targets if t.name == name and (t.span.line, t.span.col) > (span.line, span.col)]
                if binds and inside(c.span):
                    at = binds[0].span
                    return (f"'{name}' is bound by a `for` after it, at line {at.line}, column {at.col}: the `for`s "
                            f"of a comprehension bind their names from left to right, so `for {name} in ...` goes "
                            "first")
        return None

    def _bound_elsewhere(self, name: str, changed: bool, span: Optional[m.Span] = None) -> Optional[str]:
        """A hint for a name that is unknown here (at `span`) but that a block elsewhere binds (an
        action reading a `var` of the turn that calls it, say, or its label a name bound in an `if`
        of its body); `changed`: it is assigned here."""
        for d in self.decls:
            if not isinstance(d, (m.ActionDecl, m.TurnDecl, m.TriggerDecl, m.ChanceDecl)):
                continue
            for kind in (m.Let, m.Var, m.Choose, m.ForStmt, m.Draw):
                for s in nodes_in(d.body, kind):
                    for x in (s.target,) if isinstance(s, m.Var) else s.targets:
                        if isinstance(x, m.Ident) and x.name == name:
                            block = f"action '{d.name.name}'" if isinstance(d, m.ActionDecl) else \
                                "the turn" if isinstance(d, m.TurnDecl) else "a trigger" \
                                if isinstance(d, m.TriggerDecl) else "a chance block"
                            nested = not any(s is top for top in d.body.stmts)
                            if span is not None and nested and _within(span, d.span):  # the same declaration
                                return (f"'{name}' is bound at {x.span}, inside a block of {block} (an `if`, a "
                                        "`for`, a branch), and seen in that block only; the label and the steps "
                                        "after the block see the names bound outside it: `var "
                                        f"{name} = ...` before the block, set with `{name} = ...` inside it")
                            if span is not None and span.file.startswith("--"):  # --measure, --invariant, ...
                                return (f"'{name}' is bound at {x.span}, in {block}, and seen in that block only: "
                                        f"an expression of {span.file} reads the state's fields, the parameters "
                                        "and the constants; keep the value in a state field to read it")
                            in_def = next((f for f in self.decls if isinstance(f, m.DefDecl) and span is not None
                                           and _within(span, f.span)), None)
                            if in_def is not None:
                                params = ", ".join([p.name for p in in_def.params] + [name])
                                return (f"'{name}' is bound at {x.span}, in {block}: a name bound in a block is "
                                        "seen in that block only, not in a def it calls; pass it as an argument "
                                        f"(`def {in_def.name.name}({params}) = ...`, called with it)")
                            here = next((a.name.name for a in self.decls if isinstance(a, m.ActionDecl)
                                         and span is not None and _within(span, a.span)), None)
                            if here is not None and not any(c.func.name == here for c in nodes_in(d.body, m.CallStmt)):
                                return (f"'{name}' is bound at {x.span}, in {block}: a name bound in a block is seen "
                                        f"in that block only, not in action '{here}'")
                            return (f"'{name}' is bound at {x.span}, in {block}: a name bound in a block is seen "
                                    "in that block only, not in an action it calls; "
                                    + ("to change it there, keep it in a state field" if changed else
                                       f"pass it as an argument (`action NAME({name})`)"))
        return None

    # ---------------- driver ----------------
    def run(self):
        self.declare_globals()
        for d in self.decls:
            getattr(self, "check_" + type(d).__name__, lambda d: None)(d)
        self.check_required()
        self.check_recursion()
        if not any(d.code == "recursion" for d in self.errors):
            self.check_defs_as_called()
        if not self.errors:
            from .scored import check_scored  # it walks the model with nodes_in, of this module
            self.errors += check_scored(self)
        unbound = {f"unknown name '{n}'" for n in self.bound_by_misspelt}
        self.errors = [d for d in self.errors if not (d.code == "unknown-name" and d.message in unbound)]
        self.errors = [self._players_hidden(d) for d in self.errors]
        return self

    def _players_hidden(self, d: Diagnostic) -> Diagnostic:
        """d, with a hint saying why when the file names something `players` beside a `players`
        declaration of several and d is about a use of it: the built-in list is hidden there."""
        mine = self.globals.get("players")
        if mine is None or not mine.span.line or len(self.players) < 2 or not any(
                u.file == d.span.file and (d.span.line, d.span.col) <= (u.line, u.col) and
                (u.end_line, u.end_col) <= (d.span.end_line, d.span.end_col) for u in self.players_uses):
            return d
        said = (f"`players` here is {a_kind(mine.kind)} declared at {mine.span}, which hides the list of the "
                f"players ({', '.join(self.players)}); `players A, B, C, D first n` lets a parameter n say how "
                "many of them play")
        return attrs.evolve(d, hint=said)  # the cause, in place of a hint about the type alone

    def declare(self, sym: Symbol):
        old = self.globals.get(sym.name)
        if old is not None:
            self.duplicated.add(sym.name)  # a built-in's name too: its uses are no news
            # the kinds are declared in turn (fields after heuristics, say): the error goes where the
            # file names it the second time
            first, then = (sym, old) if old.span.line and old.span.file == sym.span.file and \
                (sym.span.line, sym.span.col) < (old.span.line, old.span.col) else (old, sym)
            kind = f", as {a_kind(first.kind)}" + (f" of enum {T.show(first.type)}" if first.kind == "enumval" else "")
            if not old.span.line:
                self.error("duplicate", f"'{sym.name}' is a built-in name", then.span, "give this one another name"
                           + (" (language.md lists the built-in functions in section 6)" if sym.name in BUILTINS
                              else ""))
                return
            self.error("duplicate", f"'{sym.name}' is already declared", then.span,
                       f"first declared at {first.span}{kind}; one of the two needs another name")
            return
        self.globals[sym.name] = sym

    def declare_globals(self):
        for name, value in BOOL_CONSTS.items():
            self.globals[name] = Symbol("const", name, T.BOOL, m.NOWHERE, decl=value)
        for name in BUILTINS:
            self.globals[name] = Symbol("builtin", name, T.ANY, m.NOWHERE)
        players = [d for d in self.decls if isinstance(d, m.PlayersDecl)]
        for d in players[1:]:
            self.error("duplicate", "players are already declared", d.span, f"first declared at {players[0].span}")
        if players:
            self.players = tuple(i.name for i in players[0].names)
            for i in players[0].names:
                self.declare(Symbol("enumval", i.name, T.PLAYER, i.span))
        self.enums["player"] = self.players
        self.globals["current"] = Symbol("current", "current", T.PLAYER, m.NOWHERE)
        self.globals["cell"] = Symbol("record", "cell", T.CELL, m.NOWHERE)  # cell(row, col)
        states = [d for d in self.decls if isinstance(d, m.StateDecl)]
        for d in states[1:]:
            self.error("duplicate", "the state is already declared", d.span,
                       f"first declared at {states[0].span}; a game has one `state` block, with all its fields")
        # records and enums first: types may name them anywhere in the file
        for d in self.decls:
            # `param variant in {official, blog}` declares the enum `variant`
            param_enum = isinstance(d, m.Param) and isinstance(d.domain, m.SetLit) and d.domain.items and all(
                isinstance(i, m.Name) for i in d.domain.items) and not any(
                i.id in self.globals or i.id in BOOL_CONSTS for i in d.domain.items)
            if (isinstance(d, (m.EnumDecl, m.RecordDecl)) or param_enum) and d.name.name in BUILTIN_TYPES:
                self.error("duplicate", f"'{d.name.name}' is a built-in type", d.name.span, "choose another name")
                continue
            if isinstance(d, m.EnumDecl):
                self.declare(Symbol("type", d.name.name, ("enum", d.name.name), d.name.span, decl=d))
                self.enums[d.name.name] = tuple(v.name for v in d.values)
                for v in d.values:
                    self.declare(Symbol("enumval", v.name, ("enum", d.name.name), v.span))
            elif isinstance(d, m.RecordDecl):
                self.declare(Symbol("record", d.name.name, ("record", d.name.name), d.name.span, decl=d))
            elif param_enum:
                self.enums[d.name.name] = tuple(i.id for i in d.domain.items)
                for i in d.domain.items:
                    self.declare(Symbol("enumval", i.id, ("enum", d.name.name), i.span))
        for d in self.decls:
            if isinstance(d, m.TilesDecl):
                self.declare_tiles(d)
        records = [d for d in self.decls if isinstance(d, m.RecordDecl) and d.name.name not in BUILTIN_TYPES]
        for d in records:  # named first, so a record's field may be of a record declared after it
            self.records.setdefault(d.name.name, ())
        for d in records:
            seen = {}
            fields = []
            for f in d.fields:
                if f.name.name in seen:
                    self.error("duplicate", f"record {d.name.name} already has a field '{f.name.name}'",
                               f.name.span, f"first declared at {seen[f.name.name]}")
                    continue
                seen[f.name.name] = f.name.span
                fields.append((f.name.name, self.resolve_type(f.type)))
            self.records[d.name.name] = tuple(fields)
        self.check_records_end(records)
        base = 0
        for d in states:  # a second block is an error, but its fields are known: their uses are no more errors
            for f in d.fields:
                sym = Symbol("field", f.name.name, T.ANY, f.name.span, slot=base, decl=f)
                base += 1
                self.fields.append(sym)
        # fields, current player, fired triggers, labels, chance weight, sampler, paths merged,
        # one path picked (a sampled move), actions completed on the path (when traced), the
        # player a `pass to` names
        self.nslots = base + 9
        for d in self.decls:
            if isinstance(d, m.Param):
                self.declare(Symbol("param", d.name.name, T.ANY, d.name.span, decl=d))
            elif isinstance(d, (m.ConstDecl, m.TableDecl)):
                self.declare(Symbol("const", d.name.name, T.ANY, d.name.span, decl=d))
            elif isinstance(d, m.DefDecl):
                self.declare(Symbol("def", d.name.name, T.ANY, d.name.span, decl=d))
            elif isinstance(d, m.ActionDecl):
                self.declare(Symbol("action", d.name.name, T.ANY, d.name.span, decl=d))
            elif isinstance(d, m.HeuristicDecl):
                if d.name.name == "score":
                    self.error("duplicate", "a heuristic cannot be named 'score'", d.name.span,
                               "`--heuristic score` (and heuristic=score) means the score itself; choose another name")
                self.declare(Symbol("heuristic", d.name.name, T.INT, d.name.span, decl=d))
        for sym in self.fields:
            self.declare(sym)
        for sym in self.fields:
            sym.type = self.resolve_type(sym.decl.type)
        if "players" not in self.globals:  # unless the file names something so
            self.globals["players"] = Symbol("const", "players", T.list_of(T.PLAYER), m.NOWHERE, decl=ALL_PLAYERS)

    def check_records_end(self, records: list) -> None:
        """A record whose fields hold itself, directly or through other records' fields, has no
        value that ends: an error at the first record of each such loop, at its field that starts
        it (a list of it may be empty, so list<R> is no loop)."""
        decls = {d.name.name: d for d in records}
        edges = {}
        for name, d in decls.items():
            types = dict(self.records[name])
            edges[name] = [(f, types[f.name.name][1]) for f in d.fields if f.name.name in types
                           and types[f.name.name][0] == "record" and types[f.name.name][1] in decls]
        looped: set = set()
        for name in decls:
            if name in looped:
                continue
            todo = [(name, [])]  # a record reached, and the (field, record) steps to it
            while todo:
                at, steps = todo.pop()
                for f, to in edges[at]:
                    if to == name:
                        loop = steps + [(f, to)]
                        looped.update(r for _, r in loop)
                        shown = " -> ".join([name] + [f"{r} (field {g.name.name})" for g, r in loop])
                        self.error("cycle", f"record {name} holds itself ({shown}), so no value of it ends",
                                   loop[0][0].type.span, f"a list of it may be empty: list<{to}>")
                        todo = []
                        break
                    if to not in (r for _, r in steps):
                        todo.append((to, steps + [(f, to)]))

    def declare_tiles(self, d: m.TilesDecl):
        """The tile type and one constant per tile; the sides and labels must be enums."""
        if d.name.name in BUILTIN_TYPES:
            self.error("duplicate", f"'{d.name.name}' is a built-in type", d.name.span, "choose another name")
            return
        unknown = [e for e in (d.sides, d.labels) if e.name not in self.enums or e.name == "player"]
        for e in unknown:
            self.unknown("enum", e.name, e.span, [n for n in self.enums if n != "player"])
        if unknown:
            # the type and its tiles are still declared, untyped, so that their uses all over the
            # file add no errors of their own to the one above
            self.untyped_tiles.add(d.name.name)
            self.declare(Symbol("type", d.name.name, T.ANY, d.name.span, decl=d))
            for entry in d.tiles:
                self.declare(Symbol("const", entry.name.name, T.ANY, entry.name.span, decl=(d, entry)))
            return
        for e in (d.sides, d.labels):
            self.syms[id(e)] = self.globals[e.name]
        t = ("tile", d.name.name)
        self.declare(Symbol("type", d.name.name, t, d.name.span, decl=d))
        self.tilesets[d.name.name] = (d.sides.name, d.labels.name)
        for entry in d.tiles:
            self.declare(Symbol("const", entry.name.name, t, entry.name.span, decl=(d, entry)))

    # ---------------- types ----------------
    def resolve_type(self, t) -> tuple:
        if isinstance(t, m.RangeType):
            for e in (t.lo, t.hi):
                self.expect(e, T.INT, "a range bound")
                self.require_constant(e, "a range bound")
            return T.INT
        if isinstance(t, m.NamedType):
            n = t.name.name
            if n in PRIMITIVES:
                return PRIMITIVES[n]
            if n in self.globals:
                self.syms[id(t.name)] = self.globals[n]  # a use, for the unused-declaration lint
            if n in self.records:
                return ("record", n)
            if n in self.enums:
                return ("enum", n)
            if n in self.tilesets:
                return ("tile", n)
            if n in self.untyped_tiles:
                return T.ANY
            self.unknown("type", n, t.name.span, list(PRIMITIVES) + list(self.records) + list(self.enums)
                         + list(self.tilesets))
            return T.ANY
        if isinstance(t, m.GenericType):
            n = t.name.name
            if n not in GENERICS:
                self.unknown("generic type", n, t.name.span, GENERICS)
                return T.ANY
            if len(t.args) != GENERICS[n]:
                self.error("arity", f"{n}<...> takes {counted(GENERICS[n], 'type argument')}, got {len(t.args)}",
                           t.span)
                return T.ANY
            args = tuple(self.resolve_type(a) for a in t.args)
            if n == "bag":
                self.need_sortable(args[0], "bag<...>", t.span)
            return (n,) + args
        return T.ANY

    def sortable(self, t) -> bool:
        """Whether values of type t can be put in order at run time, as `<`, sorted(), min(),
        max() and every bag (it keeps its items sorted) do: not maps, sets, grids or what holds them."""
        if t == T.ANY or t[0] in ("int", "str", "bool", "enum", "tile"):
            return True
        if t[0] == "record":
            return all(self.sortable(ft) for _, ft in self.records.get(t[1], ()))
        if t[0] == "tuple":
            return all(self.sortable(x) for x in t[1])
        if t[0] in ("list", "bag"):
            return self.sortable(t[1])
        return False

    def need_sortable(self, t, what: str, span: m.Span) -> None:
        if not self.sortable(t):
            self.error("type-mismatch", f"{what} needs values that can be put in order, got {T.show(t)}", span)

    def expect(self, e, want: tuple, what: str) -> tuple:
        got = self.expr(e, want)  # `{}` takes the set, bag or map type wanted
        if not T.fits(got, want):
            self.error("type-mismatch", f"{what} must be {T.show(want)}, got {T.show(got)}", e.span,
                       self.mismatch_hint(e, want, got))
        return got

    def require_constant(self, e, what: str):
        for n in names_in(e):
            sym = self.syms.get(id(n))
            if sym is not None and sym.kind in ("field", "current"):
                self.error("not-constant", f"{what} must not depend on the state ('{n.id}')", n.span)
                return

    # ---------------- declarations ----------------
    def check_PlayersDecl(self, d: m.PlayersDecl):
        if d.first is not None:  # how many of them play: a whole number the parameters give
            self.expect(d.first, T.INT, "the number of players")
            self.require_constant(d.first, "the number of players")

    def check_Param(self, d: m.Param):
        sym = self.globals.get(d.name.name)
        if sym is None or sym.decl is not d:
            return
        if d.domain is None:
            t = self.expr(d.default)
            if t not in (T.INT, T.BOOL, T.ANY):
                values = isinstance(d.default, (m.RangeLit, m.SetLit))  # `param n = 1..20`: the values, no default
                self.error("type-mismatch", f"a parameter without a domain must be an int or bool, got {T.show(t)}",
                           d.default.span, None if not values else
                           f"a parameter's values follow `in` and its default follows '=': "
                           f"`param {d.name.name} in {_domain_text(d.default)} = VALUE`")
                if values and isinstance(t, tuple) and len(t) == 2:  # read as one of its values from here on
                    t = t[1]
        elif isinstance(d.domain, m.RangeLit):
            lo, hi = d.domain.lo, d.domain.hi
            self.expect(lo, T.INT, "a range bound")
            self.expect(hi, T.INT, "a range bound")
            t = T.INT
            if isinstance(lo, m.IntLit) and isinstance(hi, m.IntLit) and lo.value > hi.value:
                self.error("empty-domain", f"the domain {lo.value}..{hi.value} of '{d.name.name}' is empty",
                           d.domain.span, "write the smaller bound first")
            self.expect(d.default, T.INT, "the default")
            if isinstance(lo, m.IntLit) and isinstance(hi, m.IntLit) and isinstance(d.default, m.IntLit):
                if not lo.value <= d.default.value <= hi.value:
                    self.error("out-of-domain", f"default {d.default.value} of '{d.name.name}' is not in "
                               f"{lo.value}..{hi.value}", d.default.span)
        elif isinstance(d.domain, m.SetLit) and (taken := self._taken_names(d.domain)):
            # `param objective in {largest, count}` beside `def largest`: the set declares no enum
            yes_no = {getattr(e, "id", None) for e in d.domain.items} <= {"yes", "no", "true", "false"}
            self.error("duplicate", f"the values of '{d.name.name}' are names of its own only where all are new: "
                       + "; ".join(taken), d.domain.span,
                       f"a parameter of yes or no is declared by its default alone: param {d.name.name} = yes"
                       if yes_no else
                       "give its values other names (a set of names is a new enum, `{fast, slow}`, or values of one "
                       "enum declared before)")
            t = T.ANY
        elif isinstance(d.domain, m.SetLit):
            t = self.expr(d.domain)
            t = t[1] if t != T.ANY else T.ANY
            dt = self.expr(d.default)
            if not T.fits(dt, t):
                self.error("type-mismatch", f"the default must be {T.show(t)}, got {T.show(dt)}", d.default.span)
            elif isinstance(d.default, m.Name) and all(isinstance(i, m.Name) for i in d.domain.items):
                if d.default.id not in [i.id for i in d.domain.items]:
                    self.error("out-of-domain", f"default '{d.default.id}' of '{d.name.name}' is not one of "
                               + ", ".join(i.id for i in d.domain.items), d.default.span)
            elif isinstance(d.default, m.IntLit) and all(isinstance(i, m.IntLit) for i in d.domain.items):
                if d.default.value not in [i.value for i in d.domain.items]:
                    self.error("out-of-domain", f"default {d.default.value} of '{d.name.name}' is not in the domain",
                               d.default.span)
        elif isinstance(d.domain, m.EmptyLit):
            self.error("empty-domain", f"the domain of '{d.name.name}' is empty", d.domain.span)
            t = T.ANY
        else:
            sym_d = self.globals.get(d.domain.id) if isinstance(d.domain, m.Name) else None
            enum = sym_d.decl if sym_d is not None and isinstance(sym_d.decl, m.EnumDecl) else None
            self.error("bad-domain", "a domain is a range such as 1..8 or a set such as {official, blog}",
                       d.domain.span, None if enum is None else
                       f"the values of the enum {enum.name.name} are a set in braces: "
                       f"`param {d.name.name} in {{{', '.join(v.name for v in enum.values)}}}`")
            t = T.ANY
        sym.type = t
        self.require_constant(d.default, "a parameter's default")
        if self._default_reads_itself(d):
            self.error("cycle", f"'{d.name.name}' is defined in terms of itself", d.default.span,
                       "a parameter's default is a value, or made of other parameters and constants")

    def _taken_names(self, domain: m.SetLit) -> list:
        """Where a parameter's set of names holds a name declared as something other than a value
        (a def, a built-in, a constant...), what each such name already is."""
        if not domain.items or not all(isinstance(i, m.Name) for i in domain.items):
            return []
        out = []
        for i in domain.items:
            sym = self.globals.get(i.id)
            if sym is not None and sym.kind not in ("enumval", "const") or i.id in BOOL_CONSTS:
                what = {"def": "a def", "builtin": "a built-in function", "action": "an action", "param":
                        "a parameter", "record": "a record", "type": "a type", "heuristic": "a heuristic",
                        "field": "a state field"}.get(sym.kind if sym else "", "a value")
                out.append(f"'{i.id}' is {what}" + (f" (line {sym.span.line})" if sym and sym.span.line else ""))
        return out

    def _default_reads_itself(self, d: m.Param) -> bool:
        """Whether parameter d's default names d, itself or through the defaults of other
        parameters and the values of constants."""
        seen, todo = set(), [d.default]
        while todo:
            for n in nodes_in(todo.pop(), m.Name):
                sym = self.globals.get(n.id)
                if sym is None or id(sym) in seen:
                    continue
                seen.add(id(sym))
                if sym.decl is d:
                    return True
                if sym.kind == "param" and isinstance(sym.decl, m.Param):
                    todo.append(sym.decl.default)
                elif sym.kind == "const" and isinstance(sym.decl, m.ConstDecl):
                    todo.append(sym.decl.value)
        return False

    def const_type(self, sym: Symbol) -> tuple:
        """The type of a const or table, worked out on first use (any order is fine)."""
        if sym.type != T.ANY or sym.kind != "const" or not isinstance(sym.decl, (m.ConstDecl, m.TableDecl)):
            return sym.type
        if sym.name in self._const_busy:
            self.error("cycle", f"'{sym.name}' is defined in terms of itself", sym.span)
            return T.ANY
        self._const_busy.add(sym.name)
        saved, self.scopes = self.scopes, []
        d = sym.decl
        if isinstance(d, m.TableDecl):
            kt, vt = self.resolve_type(d.key_type), self.resolve_type(d.value_type)
            keys = set()
            for e in d.entries:
                self.expect(e.key, kt, "a table key")
                self.expect(e.value, vt, "a table entry")
                self.require_constant(e.key, "a table key")
                self.require_constant(e.value, "a table entry")
                k = e.key.id if isinstance(e.key, m.Name) else getattr(e.key, "value", None)
                if k is not None and k in keys:
                    self.error("duplicate", f"table '{d.name.name}' already has an entry for {k}", e.key.span)
                keys.add(k)
            t = ("map", kt, vt)
        else:
            t = self.expr(d.value, self.resolve_type(d.type) if d.type else None)
            if d.type is not None:
                want = self.resolve_type(d.type)
                if not T.fits(t, want):
                    self.error("type-mismatch", f"'{d.name.name}' is declared {T.show(want)}, got {T.show(t)}",
                               d.value.span, self.mismatch_hint(d.value, want, t))
                    want = T.ANY  # one of the two is wrong: its uses are not checked against either
                t = want
            self.require_constant(d.value, "a constant")
        self.scopes = saved
        self._const_busy.discard(sym.name)
        sym.type = t
        return t

    def check_ConstDecl(self, d):
        sym = self.globals.get(d.name.name)
        if sym is not None and sym.decl is d:
            self.const_type(sym)

    check_TableDecl = check_ConstDecl

    def check_DefDecl(self, d: m.DefDecl):
        sym = self.globals.get(d.name.name)
        if sym is None or sym.decl is not d or d.name.name in self._defs_busy:
            return  # busy: defs calling each other (check_recursion reports it)
        self._defs_busy.add(d.name.name)
        self._current_action = d.name.name
        scope = {}
        for p in d.params:
            if p.name in scope:
                self.error("duplicate", f"parameter '{p.name}' appears twice", p.span)
            seen = self.syms.get(id(p))  # checked before (a def returning `any` is checked at each call):
            scope[p.name] = self.local(p, T.ANY, seen.slot if seen else None)  # its slot stays, calls bind it
        self.scopes = [scope]
        sym.type = self.expr(d.body)
        self.scopes = []
        self._current_action = None
        self._defs_busy.discard(d.name.name)

    def check_StateDecl(self, d: m.StateDecl):
        for f in d.fields:
            sym = self.globals.get(f.name.name)
            if sym is None or sym.decl is not f:  # declared twice: an error of its own
                continue
            want = sym.type
            got = self.expr(f.init, want)
            if not T.fits(got, want):
                self.error("type-mismatch", f"field '{f.name.name}' is {T.show(want)}, its initial value is "
                           f"{T.show(got)}", f.init.span, self.mismatch_hint(f.init, want, got))
            self.require_constant(f.init, "an initial value")
            self.bound_needs_range(f)
            bounds = (_literal_int(f.type.lo), _literal_int(f.type.hi)) if isinstance(f.type, m.RangeType) else (None,)
            v = _literal_int(f.init)
            if None not in bounds and v is not None and not bounds[0] <= v <= bounds[1]:  # told with the others
                self.error("out-of-range", f"initial value {v} of '{f.name.name}' is outside {bounds[0]}..{bounds[1]}",
                           f.init.span)

    def bound_needs_range(self, f) -> None:
        """`clamp` or `reject` on a state field or a `var` whose type is no range (nor a collection of one)."""
        if f.bound and not isinstance(f.type, m.RangeType) and not bounded_collection(f.type):
            self.error("bad-bound", f"'{f.bound}' needs a range type such as 0..18 (or a collection of one, "
                       "map<Res, 0..9>)", f.span)

    def check_ActionDecl(self, d: m.ActionDecl):
        sym = self.globals.get(d.name.name)
        if sym is None or sym.decl is not d:
            return
        self._current_action = d.name.name
        scope = {}
        for p in d.params:
            scope[p.name] = self.local(p, T.ANY)
        self.scopes = [scope]
        self.block(d.body, new_scope=False)
        if d.label is not None:
            for part in d.label.parts:
                if not isinstance(part, str):
                    self.expr(part)
        self.scopes = []
        self._current_action = None

    def check_TurnDecl(self, d: m.TurnDecl):
        self._current_action = "<turn>"
        self.scopes = [{}]
        self._in_turn = True
        self.block(d.body, new_scope=False)
        self._in_turn = False
        self.scopes = []
        self._current_action = None

    def check_TriggerDecl(self, d: m.TriggerDecl):
        self.scopes = [{}]
        self.expect(d.cond, T.BOOL, "a trigger's condition")
        self.block(d.body, new_scope=False)
        self.scopes = []

    def check_ChanceDecl(self, d: m.ChanceDecl):
        self.scopes = [{}]
        self.expect(d.cond, T.BOOL, "a chance condition")
        self._in_chance = True
        self.block(d.body, new_scope=False)
        self._in_chance = False
        self.scopes = []

    def misplaced_in_chance(self, what: str, span: m.Span) -> None:
        if self._in_chance:
            self.error("misplaced", f"{what} inside a chance block", span,
                       "a chance block draws with `draw`; players choose in actions")

    def top_level(self, e, want: tuple, what: str, scope=None):
        """Check a declaration's expression in a fresh scope."""
        self.scopes = [scope or {}]
        self.expect(e, want, what)
        self.scopes = []

    def check_TilesDecl(self, d: m.TilesDecl):
        if self.tilesets.get(d.name.name) is None or self.globals[d.name.name].decl is not d:
            return
        sides = self.enums[d.sides.name]
        labels = self.enums[d.labels.name]
        for entry in d.tiles:
            if len(entry.labels) != len(sides):
                self.error("arity", f"tile '{entry.name.name}' needs {len(sides)} labels, one per value of "
                           f"{d.sides.name} ({', '.join(sides)}), got {len(entry.labels)}", entry.span)
            labelled = set()
            for side, lab in zip(sides, entry.labels):
                if lab.name == "_":
                    continue
                if lab.name not in labels and did_you_mean(lab.name, list(labels)) is None:
                    self.error("unknown-name", f"unknown value of {d.labels.name} '{lab.name}'", lab.span,
                               f"a side carries {'one of ' if len(labels) > 1 else ''}{', '.join(labels)}, or `_` for "
                               "nothing")
                elif lab.name not in labels:
                    self.unknown(f"value of {d.labels.name}", lab.name, lab.span, list(labels))
                labelled.add(side)
            seen: dict = {}
            for g in entry.groups or ():
                for side in g.sides:
                    if side.name not in sides:
                        self.unknown(f"value of {d.sides.name}", side.name, side.span, sides)
                    elif side.name in seen:
                        self.error("duplicate", f"side {side.name} of '{entry.name.name}' is in two groups",
                                   side.span, f"first at {seen[side.name]}")
                    elif side.name not in labelled:
                        self.error("type-mismatch", f"side {side.name} of '{entry.name.name}' has no label, so it "
                                   "joins nothing", side.span)
                    seen.setdefault(side.name, side.span)

    def check_ViewDecl(self, d: m.ViewDecl):
        views = [x for x in self.decls if isinstance(x, m.ViewDecl)]
        if views[0] is not d:
            self.error("duplicate", "the view is already declared", d.span, f"first declared at {views[0].span}")
        self.expect(d.expr, T.STR, "a view")

    def check_ForbidDecl(self, d: m.ForbidDecl):
        self.top_level(d.cond, T.BOOL, "a forbidden setting")
        self.require_constant(d.cond, "a forbidden setting")

    def check_MergeDecl(self, d):
        same = [x for x in self.decls if isinstance(x, type(d))]
        if same[0] is not d:
            what = "merge equal moves" if isinstance(d, m.MergeDecl) else "dead ends are ends"
            self.error("duplicate", f"`{what}` is already declared", d.span, f"first declared at {same[0].span}")

    check_DeadEndsDecl = check_MergeDecl

    def check_TerminalDecl(self, d):
        self.top_level(d.cond, T.BOOL, "the terminal condition")

    def check_InvariantDecl(self, d):
        self._invariant = d
        try:
            self.top_level(d.cond, T.BOOL, "an invariant")
        finally:
            self._invariant = None

    def old_call(self, e: m.Call) -> tuple:
        """`old(EXPR)`: EXPR in the state before the last step (a move or a chance outcome), in an
        invariant (of the file, or given with --invariant), which is then checked on each step
        instead of in each state."""
        if len(e.args) != 1 or e.args[0].name is not None:
            self.error("arity", f"old() takes 1 argument, got {len(e.args)}", e.span,
                       "old(EXPR) is EXPR in the state before the last step")
            return T.ANY
        if self._invariant is None or self._current_action is not None or self._in_old:
            where = "inside old(...)" if self._in_old else "outside an invariant"
            self.error("misplaced", f"old(...) {where}", e.func.span,
                       "old(EXPR) reads the state before the last step, which only an invariant sees (an "
                       "`invariant` of the file, or `--invariant` of check and solve), written in it itself; "
                       "EXPR may call defs")
            return self.expr(e.args[0].value)
        self.step_invariants.add(id(self._invariant))
        if self.before_slot is None:
            self.before_slot = self.nslots
            self.nslots += 1
        self._in_old = True
        try:
            return self.expr(e.args[0].value)
        finally:
            self._in_old = False

    def check_ScoreDecl(self, d: m.ScoreDecl):
        self.per_player(d, "score for {}: EXPR", "a score")

    def check_HeuristicDecl(self, d: m.HeuristicDecl):
        self.per_player(d, f"heuristic {d.name.name} for {{}} = EXPR", "a heuristic")

    def per_player(self, d, form: str, what: str):
        """A score or heuristic: with `for p`, p names each player in turn. Without it, an unknown
        name with no better hint may be meant as that player (`form` shows how to write it)."""
        self._unbound_player = None if d.player is not None else form
        self._bound_player = None if d.player is None else (d.player.name, form, what)
        try:
            self.top_level(d.value, T.INT, what, self.player_scope(d.player))
        finally:
            self._unbound_player = self._bound_player = None

    def check_AgentDecl(self, d: m.AgentDecl):
        name = d.name.name
        first = next(x for x in self.decls if isinstance(x, m.AgentDecl) and x.name.name == name)
        if first is not d:
            self.error("duplicate", f"agent {name} is already declared", d.name.span, f"first declared at {first.span}")
            return
        if name not in TAKES:
            names = ALGORITHMS + AGENTS_ONLY
            near = did_you_mean(name, names)
            self.error("unknown-name", f"unknown algorithm '{name}'", d.name.span,
                       f"did you mean '{near}'?" if near else f"the algorithms are {', '.join(names)}")
            return
        seen = {}
        for o in d.options:
            key, v = o.name.name, o.value
            if key in seen:
                self.error("duplicate", f"option '{key}' is given twice", o.name.span, f"first given at {seen[key]}")
                continue
            seen[key] = o.span
            if key not in TAKES[name]:
                near = None if key in LEAST else did_you_mean(key, TAKES[name])  # width is no typo of depth
                self.error("unknown-name", f"{name} has no option '{key}'", o.name.span,
                           f"did you mean '{near}'?" if near else f"{name} takes {', '.join(TAKES[name])}")
            elif key == "heuristic":
                heuristics = [x.name.name for x in self.decls if isinstance(x, m.HeuristicDecl)]
                if not isinstance(v, m.Ident):
                    self.error("type-mismatch", "heuristic: expected the name of a heuristic, got a number", o.span)
                elif v.name not in heuristics:
                    self.unknown("heuristic", v.name, v.span, heuristics)
            elif key in CHOICES:
                if not isinstance(v, m.Ident) or v.name not in CHOICES[key]:
                    self.error("type-mismatch", f"{key}: expected one of {', '.join(CHOICES[key])}, got "
                               f"{repr(v.name) if isinstance(v, m.Ident) else v}", o.span)
            elif isinstance(v, m.Ident):
                self.error("type-mismatch", f"{key}: expected a number, got '{v.name}'", v.span)
            elif isinstance(v, float) and key not in FRACTIONS:
                self.error("type-mismatch", f"{key}: expected a whole number, got {v}", o.span)
            elif v < LEAST[key]:
                self.error("out-of-range", f"{key} {v}: expected {LEAST[key]} or more", o.span)

    def player_scope(self, name: Optional[m.Ident]) -> dict:
        """The scope binding `for p` of a score or heuristic, if it has one."""
        return {name.name: self.local(name, T.PLAYER)} if name is not None else {}

    def check_Use(self, d):
        pass

    def check_required(self):
        start = m.Span(self.path, 1, 1, 1, 1)
        kinds = {type(d) for d in self.decls}
        if not kinds & {m.StateDecl, m.TurnDecl, m.TerminalDecl, m.ScoreDecl} and kinds - {m.Game}:  # for games to use
            self.error("not-a-game", "the file has no `state`, `turn`, `terminal` or `score`, so it is no game",
                       start, "a file of declarations that games share is checked through a game that uses it: "
                       f"write use \"{Path(self.path).name}\" in the game's file, and validate that")
            kinds = {m.StateDecl, m.TurnDecl, m.TerminalDecl, m.ScoreDecl}
        for kind, code, what in ((m.StateDecl, "missing-state", "a `state`"),  # in the order a file has them
                                 (m.TurnDecl, "missing-turn", "a `turn`"),
                                 (m.TerminalDecl, "missing-terminal", "a `terminal` condition"),
                                 (m.ScoreDecl, "missing-score", "a `score`")):
            if kind not in kinds:
                self.error(code, f"the game needs {what}", start, f"add {what} declaration" + (
                    " (`turn { }` where only chance steps move)" if kind is m.TurnDecl and any(
                        isinstance(d, m.ChanceDecl) for d in self.decls) else ""))
        for kind, what in ((m.TerminalDecl, "terminal condition"), (m.TurnDecl, "turn")):
            ds = [d for d in self.decls if isinstance(d, kind)]
            for d in ds[1:]:
                self.error("duplicate", f"the {what} is already declared", d.span, f"first declared at {ds[0].span}")
        scores = [d for d in self.decls if isinstance(d, m.ScoreDecl)]
        for d in scores[1:]:
            self.error("duplicate", "the score is already declared", d.span, f"first declared at {scores[0].span}")

    def check_defs_as_called(self):
        """Check the body of each def again with its parameters of the types of each call's
        arguments (a parameter has no declared type, so the first check knows nothing of it):
        `edges(c)` in a def called with a cell is an error in the def, with the call as the
        hint. What this records for the compiler (symbols, types) is kept apart, in
        def_overlays: the first check's stand for the def as a whole, and a call with exactly
        these argument types compiles the body as checked here. Calls met in these checks are
        checked in turn, each def once per list of argument types."""
        done = 0
        while done < len(self._def_calls):
            d, argt, call = self._def_calls[done]
            done += 1
            key = (d.name.name, argt)
            if key in self._checked_with:
                continue
            self._checked_with.add(key)
            self._check_def_with(d, argt, call)

    def _check_def_with(self, d: m.DefDecl, argt: tuple, call: m.Span):
        kept = (self.syms, self.types, self.merge_slots, self.scopes, self._current_action)
        first = len(self.errors)
        self.syms, self.types, self.merge_slots = ChainMap({}, self.syms), ChainMap({}, self.types), {}
        self._current_action = None  # the call graph is the first check's
        try:
            # the parameters keep their slots, so every call binds its arguments alike; names
            # bound inside the body get slots of their own (nslots is not given back)
            self.scopes = [{p.name: self.local(p, t, kept[0][id(p)].slot) for p, t in zip(d.params, argt)}]
            self.expr(d.body)
            if len(self.errors) == first:
                self.def_overlays[(d.name.name, argt)] = (self.syms.maps[0], self.types.maps[0])
        except Exception:  # a pass on top of the first check: it may find less, never stop the check
            del self.errors[first:]
        finally:
            found = self.errors[first:]
            del self.errors[first:]
            self.syms, self.types, self.merge_slots, self.scopes, self._current_action = kept
        known = {(x.code, x.message, x.span) for x in self.errors}
        args = ", ".join(f"{p.name}: {T.show(t)}" for p, t in zip(d.params, argt))
        for x in found:
            if (x.code, x.message, x.span) not in known:
                known.add((x.code, x.message, x.span))
                called = f"with {args}, as called at {call}"
                self.error(x.code, x.message, x.span, f"{x.hint}; {called}" if x.hint else called)

    def check_recursion(self):
        graph = self._call_graph

        def visit(n, path):
            for c in graph.get(n, ()):
                if c in path:
                    sym = self.globals.get(c)
                    self.error("recursion", f"'{c}' calls itself (through {' -> '.join(path + [c])})",
                               sym.span if sym else m.NOWHERE,
                               "actions and defs may not be recursive: steps that repeat while a condition holds "
                               "are a `for` over at most as many with an `if` inside, or `pass to current` "
                               "(see `pass to` in docs/language.md)")
                    return True
                if visit(c, path + [c]):
                    return True
            return False

        for n in list(graph):
            if visit(n, [n]):
                break

    # ---------------- scopes ----------------
    def local(self, ident: m.Ident, t, slot: Optional[int] = None) -> Symbol:
        """A local name: a new slot, or the given one."""
        if slot is None:
            slot = self.nslots
            self.nslots += 1
        sym = Symbol("local", ident.name, t, ident.span, slot=slot)
        self.syms[id(ident)] = sym
        return sym

    def lookup(self, name: str) -> Optional[Symbol]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.globals.get(name)

    def visible_names(self):
        names = set(self.globals)
        for s in self.scopes:
            names |= set(s)
        return names

    def bind(self, targets: tuple, t, span, scope: dict):
        if len(targets) == 1:
            scope[targets[0].name] = self.local(targets[0], t)
            return
        if t != T.ANY and t[0] != "tuple":
            self.error("type-mismatch", f"{len(targets)} names need a tuple of {len(targets)}, got {T.show(t)}",
                       span)
            t = T.ANY
        if t != T.ANY and len(t[1]) != len(targets):
            self.error("arity", f"{len(targets)} names for a tuple of {len(t[1])}", span)
            t = T.ANY
        for i, target in enumerate(targets):
            scope[target.name] = self.local(target, T.ANY if t == T.ANY else t[1][i])

    # ---------------- statements ----------------
    def block(self, b: m.Block, new_scope=True):
        if new_scope:
            self.scopes.append({})
        for s in b.stmts:
            getattr(self, "stmt_" + type(s).__name__)(s)
        if new_scope:
            self.scopes.pop()

    def stmt_Let(self, s: m.Let):
        t = self.expr(s.value)
        self.bind(s.targets, t, s.value.span, self.scopes[-1])
        self.let_bound.update(id(self.scopes[-1][n.name]) for n in s.targets)

    def stmt_Var(self, s: m.Var):
        want = None if s.type is None else self.resolve_type(s.type)
        got = self.expr(s.value, want)
        if want is not None and not T.fits(got, want):
            self.error("type-mismatch", f"'{s.target.name}' is {T.show(want)}, got {T.show(got)}", s.value.span,
                       self.mismatch_hint(s.value, want, got))
        self.bound_needs_range(s)
        for r in nodes_in(s.type, m.RangeType):  # worked out once, when the rules are compiled
            n = next((n for n in names_in((r.lo, r.hi)) if (sym := self.syms.get(id(n))) is not None
                      and sym.kind == "local" and self.lookup(n.id) is sym), None)
            if n is not None:
                self.error("not-constant", f"a range bound must be known before play: parameters and constants, not "
                           f"'{n.id}', a name bound as the rules run", n.span)
        sym = self.local(s.target, got if want is None else want)
        sym.decl = s  # a name that `=`, `+=` and `-=` may change (field_target)
        self.scopes[-1][s.target.name] = sym

    def stmt_Draw(self, s: m.Draw):
        if not self._in_chance:
            self.error("misplaced", "`draw` outside a chance block", s.span,
                       "chance draws in `chance when COND { ... }`; players choose with `choose`")
        t = self.expr(s.domain)
        el = T.element(t)
        if el is None or (t != T.ANY and t[0] == "map"):
            weighted = "bag(...) of a map draws each key with its value as its weight: draw x in " \
                "bag({2: 9, 4: 1}) gives 2 nine times in ten" if t != T.ANY and t[0] == "map" else None
            self.error("type-mismatch", f"draw needs a list, set or bag, got {T.show(t)}", s.domain.span, weighted)
            el = T.ANY
        self.bind(s.targets, el, s.domain.span, self.scopes[-1])

    def stmt_Choose(self, s: m.Choose):
        self.misplaced_in_chance("`choose`", s.span)
        t = self.expr(s.domain)
        el = T.element(t)
        if el is None:
            self.error("type-mismatch", f"choose needs a collection, got {T.show(t)}", s.domain.span,
                       _RANGE_HINT if t == T.INT else None)
            el = T.ANY
        self.bind(s.targets, el, s.domain.span, self.scopes[-1])
        if s.cond is not None:
            self.expect(s.cond, T.BOOL, "a `where` condition")

    def stmt_Require(self, s):
        self.expect(s.cond, T.BOOL, "a `require` condition")

    def field_target(self, ident: m.Ident) -> Optional[Symbol]:
        sym = self.lookup(ident.name)
        if sym is None:
            self.unknown("state field", ident.name, ident.span, [f.name for f in self.fields])
            return None
        if sym.kind != "field" and ident.name in self.duplicated and sym is self.globals.get(ident.name):
            return None  # declared twice: the duplicate is the error
        if sym.kind != "field" and not isinstance(sym.decl, m.Var):
            hidden = self.globals.get(ident.name)
            self.error("not-assignable", f"'{ident.name}' is {a_kind(sym.kind)}, "
                       "only state fields and names declared with `var` can be assigned", ident.span,
                       f"the '{ident.name}' bound at line {sym.span.line}, column {sym.span.col} hides the state field "
                       f"'{ident.name}': bind another name there and assign the field from it"
                       if sym.kind == "local" and hidden is not None and hidden.kind == "field" else
                       f"`var {ident.name} = ...` in place of `let` declares a name that `=`, `+=` and `-=` change"
                       if id(sym) in self.let_bound else None)
            return None
        self.syms[id(ident)] = sym
        return sym

    def stmt_Assign(self, s: m.Assign):
        name, fields = s.target.name, [f.name for f in self.fields]
        if self.lookup(name) is None and not did_you_mean(name, fields):
            self.error("unknown-name", f"unknown state field '{name}'", s.target.span,
                       f"to name a value from here on, write `let {name} = ...` (`var {name} = ...` to change it "
                       "later; a `var` is gone after the block it is declared in)")
            self.bound_by_misspelt.add(name)  # its uses are no news
            sym = None
        else:
            sym = self.field_target(s.target)
        want = sym.type if sym else T.ANY
        got = self.expr(s.value, want)
        if not T.fits(got, want):
            hint = self.mismatch_hint(s.value, want, got)
            if hint is None and want[0] in ("list", "set", "bag") and T.fits(got, want[1]):  # an element
                x = s.value.id if isinstance(s.value, m.Name) else "x"
                alone = {"list": f"[{x}]", "set": f"{{{x}}}", "bag": f"bag([{x}])"}[want[0]]
                hint = f"`{name} += {x}` adds an element to the {want[0]}; `{name} = {alone}` makes it hold {x} " \
                       "alone"
            self.error("type-mismatch", f"'{s.target.name}' is {T.show(want)}, got {T.show(got)}", s.value.span,
                       hint)

    def stmt_Update(self, s: m.Update):
        sym = self.field_target(s.target)
        self.updated(sym.type if sym else T.ANY, s.target.name, s.op, s.value, s.target.span)

    def updated(self, t, what: str, op: str, value: m.Expr, span: m.Span):
        """`what op value` (`+=`, `-=` or `*=`) where what is of type t: an int, or but for `*=` a
        collection given an element or a collection of its own type."""
        got = self.expr(value, t[1] if t != T.ANY and t[0] == "map" and op == "-=" else None)  # a key: `{}` too
        if t == T.ANY:
            return
        if op == "*=" and t != T.INT:
            self.error("type-mismatch", f"'*=' multiplies an int, '{what}' is {T.show(t)}", span)
            return
        if t == T.INT:
            ok = T.fits(got, T.INT)
        elif t[0] in T.COLLECTIONS:
            ok = T.fits(got, t[1]) or T.fits(got, t)
        elif t[0] == "map" and op == "-=":  # `m -= k` takes the entry of key k away (of a map entry too)
            if not T.fits(got, t[1]):
                self.error("type-mismatch", f"'{what} -=' takes away the entry of a key, {T.show(t[1])}, got "
                           f"{T.show(got)}", value.span)
            return
        else:
            self.error("type-mismatch", f"'{op}' needs an int, a list, a set or a bag, '{what}' is {T.show(t)}", span,
                       f"`{what}[k] = v` adds or changes an entry, and `{what} -= k` takes one away"
                       if t[0] == "map" and "[" not in what else None)
            return
        if not ok:
            whole = got != T.ANY and got[0] in T.COLLECTIONS and T.fits(got[1], t[1]) if t != T.INT else False
            self.error("type-mismatch", f"'{what} {op}' needs "
                       + (T.show(t) if t == T.INT else f"{T.show(t[1])} or {T.show(t)}") + f", got {T.show(got)}",
                       value.span, f"{t[0]}(...) makes {T.show(t)} of it" if whole else
                       None if t == T.INT else self.mismatch_hint(value, t[1], got))

    def stmt_IndexAssign(self, s: m.IndexAssign):
        want_v = self.indexed(s, "=")
        vt = self.expr(s.value)
        if want_v is not None and not T.fits(vt, want_v):
            self.error("type-mismatch", f"the value must be {T.show(want_v)}, got {T.show(vt)}", s.value.span,
                       self.mismatch_hint(s.value, want_v, vt))

    def stmt_IndexUpdate(self, s: m.IndexUpdate):
        want_v = self.indexed(s, s.op)
        self.updated(T.ANY if want_v is None else want_v, f"{s.target.name}[...]", s.op, s.value, s.target.span)

    def indexed(self, s, op: str):
        """The type of the entries of the field `s.target[s.key]` assigned to (None: unknown or an
        error), the key checked."""
        sym = self.field_target(s.target)
        t = sym.type if sym else T.ANY
        kt = self.expr(s.key)
        if t == T.ANY:
            return None
        if t[0] == "map":
            want_k, want_v = t[1], t[2]
        elif t[0] == "list":
            want_k, want_v = T.INT, t[1]
        else:
            self.error("type-mismatch", f"'{s.target.name}[...] {op}' needs a map or list, got {T.show(t)}", s.span)
            return None
        if not T.fits(kt, want_k):
            self.error("type-mismatch", f"{'the key' if t[0] == 'map' else 'a list index'} must be {T.show(want_k)}, "
                       f"got {T.show(kt)}", s.key.span,
                       self.mismatch_hint(s.key, want_k, kt))
        return want_v

    def stmt_Replace(self, s: m.Replace):
        sym = self.field_target(s.target)
        t = sym.type if sym else T.ANY
        ot, nt = self.expr(s.old), self.expr(s.new)
        if t != T.ANY and t[0] not in ("list", "bag"):
            self.error("type-mismatch", f"replace needs a list or bag, '{s.target.name}' is {T.show(t)}", s.span)
            return
        el = T.element(t)
        for e, et in ((s.old, ot), (s.new, nt)):
            if not T.fits(et, el):
                self.error("type-mismatch", f"'{s.target.name}' holds {T.show(el)}, got {T.show(et)}", e.span)

    def stmt_IfStmt(self, s: m.IfStmt):
        self.expect(s.test, T.BOOL, "an `if` condition")
        self.block(s.body)
        if isinstance(s.orelse, m.Block):
            self.block(s.orelse)
        elif s.orelse is not None:
            self.stmt_IfStmt(s.orelse)

    def loop_scope(self, iterable, targets: tuple) -> None:
        """Open a scope binding a `for`'s targets to the elements of the iterable."""
        t = self.expr(iterable)
        el = T.element(t)
        if el is None:
            self.error("type-mismatch", f"'for' needs a collection, got {T.show(t)}", iterable.span,
                       _RANGE_HINT if t == T.INT else "chars(s) is the list of a string's characters"
                       if t == T.STR else None)
            el = T.ANY
        scope = {}
        self.bind(targets, el, iterable.span, scope)
        self.scopes.append(scope)

    def stmt_ForStmt(self, s: m.ForStmt):
        self.loop_scope(s.iter, s.targets)
        if s.cond is not None:
            self.expect(s.cond, T.BOOL, "a `where` condition")
        self._around.append(s)
        self.block(s.body)
        self._around.pop()
        self.scopes.pop()

    def stmt_MergeStmt(self, s: m.MergeStmt):
        if not self._in_turn:
            self.error("misplaced", "`merge equal paths` outside the turn block", s.span,
                       "it goes in `turn { ... }` (directly, or in an `if`, `for`, `optional` or `either` "
                       "there), where all that follows depends only on the state and the names declared there")
            return
        if any(isinstance(x, m.TryStmt) for x in self._around):
            self.error("misplaced", "`merge equal paths` inside the block of a `try`", s.span,
                       "a path it ends would count as no way through that block, and could bring in the "
                       "`else`: put it after the `try`, or in the `else`")
            return
        loops = [self._position_slot(x) for x in self._around if isinstance(x, m.ForStmt)]
        self.merge_slots[id(s)] = [sym.slot for scope in self.scopes for sym in scope.values()
                                   if sym.kind == "local"] + loops

    def _position_slot(self, loop: m.ForStmt) -> int:
        """The slot for where a run of `loop` is (the elements it goes through and the index of this
        one), given when first asked for."""
        if id(loop) not in self.loop_positions:
            self.loop_positions[id(loop)] = self.nslots
            self.nslots += 1
        return self.loop_positions[id(loop)]

    def stmt_OptionalStmt(self, s):
        self.misplaced_in_chance("`optional`", s.span)
        self.block(s.body)

    def stmt_PassTo(self, s: m.PassTo):
        self.expect(s.player, T.PLAYER, "`pass to`")

    def stmt_EitherStmt(self, s: m.EitherStmt):
        self.misplaced_in_chance("`either`", s.span)
        for b in s.branches:
            self.block(b)

    def stmt_TryStmt(self, s: m.TryStmt):
        self.misplaced_in_chance("`try`", s.span)
        self._around.append(s)
        self.block(s.body)
        self._around.pop()
        if isinstance(s.orelse, m.Block):
            self.block(s.orelse)
        else:
            self.stmt_TryStmt(s.orelse)

    def stmt_CallStmt(self, s: m.CallStmt):
        self.misplaced_in_chance("an action call", s.span)
        sym = self.lookup(s.func.name)
        line = (s.span.file, s.span.line)
        if line in self.misspelt_keyword_lines:  # the rest of a statement whose keyword is misspelt
            self.bound_by_misspelt.add(s.func.name)  # `chose o in ...` would have bound o
            return
        for a in s.args:
            self.expr(a)
        if sym is None and s.func.name in ("or", "and"):  # `turn { roll or hold }`
            self.error("unknown-name", f"'{s.func.name}' between steps is no action", s.func.span,
                       "a choice of steps is written `either { A } or { B }`; steps one after another "
                       "need no word between them")
            return
        if sym is None:
            actions = [n for n, v in self.globals.items() if v.kind == "action"]
            word = None if did_you_mean(s.func.name, actions) or s.func.name in OTHER_LANGUAGE_STATEMENTS \
                else misspelt_statement_word(s.func.name)
            if word is None:
                self.unknown("action", s.func.name, s.func.span, actions)
                return
            self.misspelt_keyword_lines.add(line)
            self.error("unknown-name", f"unknown action '{s.func.name}'", s.func.span,
                       f"did you mean the keyword '{word}'?")
            return
        if sym.kind != "action":
            self.error("not-an-action", f"'{s.func.name}' is {a_kind(sym.kind)}, not an action",
                       s.func.span)
            return
        self.syms[id(s.func)] = sym
        want = len(sym.decl.params)
        if len(s.args) != want:
            self.error("arity", f"action '{s.func.name}' takes {counted(want, 'argument')}, got {len(s.args)}", s.span)
        if self._current_action:
            self._call_graph.setdefault(self._current_action, set()).add(s.func.name)


def names_in(e):
    """Every Name node inside an expression."""
    return nodes_in(e, m.Name)


def _within(inner: m.Span, outer: m.Span) -> bool:
    """Whether the place `inner` begins lies within `outer`."""
    return inner.file == outer.file and (outer.line, outer.col) <= (inner.line, inner.col) <= \
        (outer.end_line, outer.end_col)


def nodes_in(root, kind: type):
    """Every node of type `kind` inside root (a node or a tuple of them), in order."""
    if isinstance(root, tuple):
        for x in root:
            yield from nodes_in(x, kind)
    elif attrs.has(type(root)):
        if isinstance(root, kind):
            yield root
        for f in attrs.fields(type(root)):
            yield from nodes_in(getattr(root, f.name), kind)


def repeat_condition(ck: Checker, s: m.ForStmt):
    """The condition that ends the repeats of a `for` that only counts them: its names are read
    neither by its `where` nor by its block, and the condition is the `where`, or the test of an
    `if` without `else` that is its whole block (`for k in 1..8 { if can_jump(at) { jump } }`);
    else None."""
    body = s.body.stmts
    cond = s.cond if s.cond is not None else \
        body[0].test if len(body) == 1 and isinstance(body[0], m.IfStmt) and body[0].orelse is None else None
    if cond is None:
        return None
    names = [ck.syms[id(t)] for t in s.targets if id(t) in ck.syms]
    if any(ck.syms.get(id(n)) in names for n in nodes_in((s.cond, s.body), m.Name)):
        return None
    return cond


def state_slots(checker: Checker, root) -> frozenset:
    """The state slots (fields, the current player) that a checked expression or block may read
    or write, through the defs it calls as well: the names it mentions, so possibly more than
    one run touches, never fewer."""
    slots, seen, todo = set(), set(), [root]
    while todo:
        x = todo.pop()
        if isinstance(x, tuple):
            todo.extend(x)
            continue
        if not attrs.has(type(x)) or isinstance(x, m.Span) or id(x) in seen:
            continue
        seen.add(id(x))
        sym = checker.syms.get(id(x))
        if sym is not None:
            if sym.kind == "field":
                slots.add(sym.slot)
            elif sym.kind == "current":
                slots.add(len(checker.fields))
            elif sym.kind == "def":
                todo.append(sym.decl)
        todo.extend(getattr(x, f.name) for f in attrs.fields(type(x)))
    return frozenset(slots)


def check(decls: tuple, path: str) -> Checker:
    """Run every check; the returned checker holds errors and annotations."""
    return Checker(decls, path).run()


def _domain_text(e) -> str:
    """A range or set of numbers as written (`1..20`, `{3, 5}`), or its shape."""
    if isinstance(e, m.RangeLit):
        return f"{e.lo.value}..{e.hi.value}" if isinstance(e.lo, m.IntLit) and isinstance(e.hi, m.IntLit) else "LO..HI"
    return "{" + ", ".join(str(i.value) if isinstance(i, m.IntLit) else "V" for i in e.items) + "}"


def _literal_int(e) -> Optional[int]:
    """The number a literal whole number (or one with a minus) is; None for any other expression."""
    if isinstance(e, m.Neg):
        v = _literal_int(e.operand)
        return None if v is None else -v
    return e.value if isinstance(e, m.IntLit) else None
