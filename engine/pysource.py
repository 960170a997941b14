"""Expressions as generated Python: one function per expression, not a tree of closures.

The compiler's closures (`x_*` methods in compile.py) cost one Python call per
node of an expression. Here an expression becomes the text of one Python
expression reading the same env slots, compiled once: `len(hand) == 6`
is `len(env[9]) == 6`. The text is built from the checked model only: every
name, string and value of the rule file enters as a namespace entry (`_c12`),
never as source text.

Subexpressions constant under the parameters are evaluated once (folded).
Nodes this module does not cover run as their closure. A generated function
that raises runs its closure instead, so errors keep their exact source span
and message (evaluation is pure, so doing it again is safe).
"""
from __future__ import annotations

import re
from collections import ChainMap
from itertools import chain
from typing import Optional

import attrs

from . import model as m
from . import runtime as rt
from . import types as T
from .check import nodes_in, state_slots

STATE_KINDS = ("field", "local", "current")
SIMPLE_CALLS = {"len": "len", "count": "len", "sum": "sum", "any": "any", "all": "all", "abs": "abs",
                "list": "tuple", "set": "frozenset", "text": "_text", "chars": "tuple"}
COMP_WRAP = {"sum": "sum({})", "any": "any({})", "all": "all({})", "list": "tuple({})", "set": "frozenset({})",
             "sorted": "tuple(sorted({}))", "bag": "_Bag({})", "min": "min({})", "max": "max({})",
             "union": "frozenset().union(*{})", "concat": "tuple(_chain({}))"}


def _numbers(a: int, b: int) -> tuple:
    """a..b as generated code makes it; one past the closures' limit fails, and they say why."""
    if b - a >= rt.RANGE_MOST:
        raise ValueError("a range too large")
    return tuple(range(a, b + 1))


class Lazy:
    """A function built on its first call (closures needed only when generated code fails)."""

    __slots__ = ("build", "fn")

    def __init__(self, build):
        self.build, self.fn = build, None

    def __call__(self, env):
        if self.fn is None:
            self.fn = self.build()
        return self.fn(env)


_MISS = object()
DEF_MEMO = 20_000
"""Values each remembered def keeps before it forgets them all."""


class _Forgets(dict):
    """A def's memo table while memos are off: it keeps nothing."""

    def __setitem__(self, key, value):
        pass


_FORGETS = _Forgets()


def env_before(env: list, before: int, n: int) -> list:
    """An environment like env with the state held at slot `before` (the state before a step) in
    place of the state's n slots: where old(...) reads its argument."""
    then = list(env)
    then[:n] = env[before]
    return then


INLINE_NODES = 24
"""The most nodes of a def's body written in place of its calls."""

_SIMPLE_TEXT = re.compile(r"env\[\d+\]|_c\d+|-?\d+|True|False")
"""Texts that cost no more to read twice than a name does."""


def _size(node) -> int:
    """The nodes of an expression."""
    if isinstance(node, tuple):
        return sum(_size(x) for x in node)
    if attrs.has(type(node)) and not isinstance(node, m.Span):
        return 1 + sum(_size(getattr(node, f.name)) for f in attrs.fields(type(node)))
    return 0


def _loops(node) -> bool:
    """Whether an expression holds a comprehension."""
    if isinstance(node, (m.CallComp, m.ListComp, m.SetComp, m.MapComp)):
        return True
    if isinstance(node, tuple):
        return any(_loops(x) for x in node)
    if attrs.has(type(node)) and not isinstance(node, m.Span):
        return any(_loops(getattr(node, f.name)) for f in attrs.fields(type(node)))
    return False


class PySource:
    """Mixin for the Compiler: `expr(e)` as generated Python, falling back to `closure(e)`."""

    generate_python = True  # False: every expression and statement runs as its closure (to compare the two)

    def init_source(self, in_order):
        self.ns = {"_in_order": in_order, "_Bag": rt.Bag, "_FrozenMap": rt.FrozenMap, "_text": rt.format_value,
                   "_field_of": rt.field_of, "_players": self.players, "_env_before": env_before,
                   "_chain": chain.from_iterable, "_numbers": _numbers, "_tail": rt.tail,
                   "__builtins__": __builtins__}
        self._generated: dict = {}
        self._folded: dict = {}
        self._def_names: dict = {}
        self._def_memos: list = []  # the namespace names of the defs' memo tables
        self._def_memos_on = True
        self._context = None  # the (def name, argument types) whose checked body is being compiled
        self._inlined: dict = {}  # slot of a def parameter -> the text of its argument, in a def's body written inline
        self._in_iterable = False  # writing the collection a comprehension goes over
        self._closures_used = 0  # nodes written as calls of their closures, so far
        self._base = (self.ck.syms, self.ck.types)

    def under(self, context, build):
        """build() with the checker's symbols and types of a def's body as checked for one list of
        argument types (context: a key of checker.def_overlays; None: as first checked)."""
        if context == self._context:
            return build()
        kept = (self.ck.syms, self.ck.types, self._context)
        if context is not None:
            syms, types = self.ck.def_overlays[context]
            self.ck.syms, self.ck.types = ChainMap(syms, self._base[0]), ChainMap(types, self._base[1])
        else:
            self.ck.syms, self.ck.types = self._base
        self._context = context
        try:
            return build()
        finally:
            self.ck.syms, self.ck.types, self._context = kept

    def param_symbol(self, p: m.Ident):
        """A def parameter as first checked: its slot is the same in every context, so a call
        binds its arguments alike whichever body it runs."""
        return self._base[0][id(p)]

    def lazy_closure(self, e) -> "Lazy":
        """closure(e), built on first use, in the context of now."""
        context = self._context
        return Lazy(lambda: self.under(context, lambda: self.closure(e)))

    def def_context(self, d: m.DefDecl, args) -> Optional[tuple]:
        """The context to compile def d's body in for a call with argument expressions args: its
        body as checked for their types when every one is known, else as first checked."""
        argt = tuple(self.type_of(a) for a in args)
        key = (d.name.name, argt)
        return key if key in self.ck.def_overlays and all(T.known(t) for t in argt) else None

    def expr(self, e):
        """A function env -> value of e."""
        key = (id(e), self._context)
        hit = self._generated.get(key)
        if hit is None or hit[0] is not e:  # ids are reused once a node is gone (command-line predicates)
            hit = self._generated[key] = (e, self._function(e) if self.generate_python else self.closure(e))
        return hit[1]

    def closure(self, e):
        return getattr(self, "x_" + type(e).__name__)(e)

    def _function(self, e):
        folded = self._fold(e)
        if folded is not None:
            v = folded[0]
            return lambda env: v
        src = self.src(e)
        slow = self._name(self.lazy_closure(e))
        text = f"def _f(env):\n    try:\n        return {src}\n    except Exception:\n        return {slow}(env)\n"
        fn = self._define(text, "_f")
        return fn if fn is not None else self.closure(e)

    def choose_loop(self, s: m.Choose, dom):
        """f(env, k) for a `choose` of one name with a condition, every value tried: one generated
        loop that binds the name, tests the condition written in place and passes a copy of env
        on for each value that holds it; None where the condition is not generated."""
        if not self.generate_python or len(s.targets) != 1 or s.cond is None or self._fold(s.cond) is not None:
            return None
        slot = self.ck.syms[id(s.targets[0])].slot
        src, slow = self.src(s.cond), self._name(self.lazy_closure(s.cond))
        text = (f"def _choose(env, k):\n    for v in {self._name(dom)}(env):\n        env[{slot}] = v\n"
                f"        try:\n            ok = {src}\n        except Exception:\n            ok = {slow}(env)\n"
                f"        if ok:\n            k(env.copy())\n")
        return self._define(text, "_choose")

    def _define(self, text: str, name: str):
        """Run a generated `def` in the namespace; None when Python cannot compile it (too deep)."""
        try:
            code = compile(text, "<rules>", "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None
        scope: dict = {}
        exec(code, self.ns, scope)
        return scope[name]

    def _name(self, value) -> str:
        """A namespace entry holding value; ints and bools are written out."""
        if type(value) in (int, bool):
            return repr(value)
        name = f"_c{len(self.ns)}"
        self.ns[name] = value
        return name

    # ---------------- folding ----------------
    def _fold(self, e):
        """(value,) when e does not depend on the state or on local names and evaluates; else None."""
        hit = self._folded.get((id(e), self._context))
        if hit is not None and hit[0] is e:
            return hit[1]
        out = None
        if self._constant(e):
            try:
                out = (self.closure(e)(self.blank_env()),)
            except Exception:  # left to fail, with its message, where and if it runs
                out = None
        self._folded[(id(e), self._context)] = (e, out)
        return out

    def _constant(self, e) -> bool:
        if isinstance(e, (m.IntLit, m.StrLit)):
            return True
        if isinstance(e, m.Name):
            sym = self.ck.syms.get(id(e))
            return sym is not None and sym.kind not in STATE_KINDS
        if isinstance(e, (m.Comp, m.CallComp, m.First, m.ListComp, m.SetComp, m.MapComp)):
            return False  # binds local names
        if isinstance(e, m.Call):
            sym = self.ck.syms.get(id(e.func))
            if sym is None or sym.kind == "def":
                return False
            return all(self._constant(a.value) for a in e.args)
        if isinstance(e, m.Attr):
            return self._constant(e.obj)
        if isinstance(e, m.MapLit):
            return all(self._constant(x.key) and self._constant(x.value) for x in e.entries)
        parts = [getattr(e, f) for f in ("left", "right", "operand", "test", "then", "orelse", "lo", "hi", "obj",
                                         "key") if hasattr(e, f)]
        if isinstance(e, (m.TupleLit, m.ListLit, m.SetLit)):
            parts = list(e.items)
        if not parts and not isinstance(e, (m.TupleLit, m.ListLit, m.SetLit, m.EmptyLit)):
            return False
        return all(self._constant(p) for p in parts)

    # ---------------- source text ----------------
    def src(self, e) -> str:
        folded = self._fold(e)
        if folded is not None:
            return self._name(folded[0])
        gen = getattr(self, "p_" + type(e).__name__, None)
        text = gen(e) if gen is not None else None
        if text is None:
            self._closures_used += 1
            text = f"{self._name(self.lazy_closure(e))}(env)"
        return text

    def p_Name(self, e: m.Name):
        sym = self.ck.syms[id(e)]
        if sym.kind == "local" and sym.slot in self._inlined:
            return self._inlined[sym.slot]
        if sym.kind in ("field", "local"):
            return f"env[{sym.slot}]"
        if sym.kind == "current":
            return f"_players[env[{self.CUR}]]"
        return None

    def p_Cond(self, e: m.Cond):
        return f"({self.src(e.then)} if {self.src(e.test)} else {self.src(e.orelse)})"

    def p_BinOp(self, e: m.BinOp):
        a, b, op = self.src(e.left), self.src(e.right), e.op
        lt, rt = self.type_of(e.left), self.type_of(e.right)
        if op in ("+", "-") and lt == rt == T.ANY:  # by the kind of the left value (Python's `-` takes a set whole)
            from .compile import untyped_op
            return f"{self._name(untyped_op(op, e.span))}({a}, {b})"
        if op in ("+", "-") and any(t != T.ANY and t[0] in T.COLLECTIONS for t in (lt, rt)):
            return self._collection_op(e, a, b, lt, rt)
        if op in ("and", "or", "in", "not in", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%"):
            return f"({a} {op} {b})"
        return None

    def _collection_op(self, e: m.BinOp, a: str, b: str, lt, rt) -> Optional[str]:
        """`+`/`-` on a list, set or bag (the left's kind, or the right's where the left's type is not
        known), with a whole collection or one element, as compile.py's x_BinOp makes it: a set's
        with another whole set as Python's `|` and `-`, the others by compile.py's function."""
        from .compile import _collection_op
        if lt == T.ANY and rt[0] in T.COLLECTIONS:
            lt = rt
        if lt == T.ANY or lt[0] not in T.COLLECTIONS:
            return None
        whole = T.fits(rt, lt)
        if lt[0] == "set" and whole:
            return f"({a} {'|' if e.op == '+' else '-'} {b})"
        return f"{self._name(_collection_op(lt[0], e.op, whole, e.span))}({a}, {b})"

    def p_Not(self, e):
        return f"(not {self.src(e.operand)})"

    def p_Neg(self, e):
        return f"(-{self.src(e.operand)})"

    def p_RangeLit(self, e):
        return f"_numbers({self.src(e.lo)}, {self.src(e.hi)})"

    def p_Attr(self, e: m.Attr):
        t = self.type_of(e.obj)
        if t != T.ANY and t[0] == "record":
            fields = [n for n, _ in self.ck.records.get(t[1], ())]
            if e.attr.name in fields:
                return f"{self.src(e.obj)}[{fields.index(e.attr.name)}]"
        if t == T.ANY:  # a def parameter: a record's field by name (anything else takes the slow path)
            return f"_field_of({self.src(e.obj)}, {e.attr.name!r})"
        return None

    def p_Index(self, e: m.Index):
        return f"{self.src(e.obj)}[{self.src(e.key)}]"

    def p_TupleLit(self, e):
        return "(" + "".join(self.src(i) + ", " for i in e.items) + ")"

    p_ListLit = p_TupleLit

    def p_SetLit(self, e):
        return f"frozenset({self.p_TupleLit(e)})"

    def p_Call(self, e: m.Call):
        sym = self.ck.syms[id(e.func)]
        args = [self.src(a.value) for a in e.args]
        if sym.kind == "def":
            context = self.def_context(sym.decl, [a.value for a in e.args])
            inline = self._inline(sym.decl, context, args)
            if inline is not None:
                return inline
            name = self._def_function(sym.decl, context)
            return f"{name}(env{''.join(', ' + a for a in args)})"
        if sym.kind == "record":  # its fields in their declared order, named or not (as record_call)
            names = [f for f, _ in self.ck.records[sym.name]]
            fields = [""] * len(names)
            for i, (a, text) in enumerate(zip(e.args, args)):
                fields[names.index(a.name.name) if a.name else i] = text
            return f"{self._name(self.record_classes[sym.name])}(({''.join(f + ', ' for f in fields)}))"
        if sym.kind != "builtin":
            return None
        name = sym.name
        if name in SIMPLE_CALLS and len(args) == 1:
            return f"{SIMPLE_CALLS[name]}({args[0]})"
        if name in ("min", "max"):
            return f"{name}({', '.join(args)})"
        if name == "get":
            return f"{args[0]}.get({args[1]}, {args[2]})"
        if name == "join":
            return f"{args[0]}.join({args[1]})"
        if name == "neighbours":
            return f"{args[0]}.neighbours({args[1]})"
        if name == "head":
            return f"{args[1]}[:max(0, {args[0]})]"
        if name == "tail":
            return f"_tail({args[0]}, {args[1]})"
        if name == "union":
            return f"frozenset().union(*{args[0]})"
        if name == "concat":
            return f"tuple(_chain({args[0]}))"
        if name == "keys":
            return f"tuple(_in_order({args[0]}))"
        if name == "old":  # the argument read with the state before the step in place of this one
            return f"(lambda env: {args[0]})(_env_before(env, {self.ck.before_slot}, {self.nfields + 2}))"
        return None

    def _inline(self, d: m.DefDecl, context, args: list) -> Optional[str]:
        """The body of def d written in place of a call with the argument texts args, where the def
        is small and forgets its values (no comprehension); else None. The arguments are worked out
        first, in order, as for a call: each but a slot or a constant into a name of its own. Not
        where a part of the body runs as its closure, which reads the parameters from their slots,
        nor where it reads old(...), which reads them as they are now."""
        if _loops(d.body) or _size(d.body) > INLINE_NODES or len(self._inlined) > 3 * INLINE_NODES or \
                any(c.func.name == "old" for c in nodes_in(d.body, m.Call)):
            return None
        bound, texts = [], []
        for a in args:
            if _SIMPLE_TEXT.fullmatch(a):
                texts.append(a)
                continue
            name = f"_a{len(self.ns)}"
            self.ns[name] = None  # the name is this call's own
            bound.append(f"({name} := {a})")
            texts.append(name)
        if bound and self._in_iterable:
            return None
        kept, closures = self._inlined, self._closures_used
        self._inlined = {**kept, **dict(zip([self.param_symbol(p).slot for p in d.params], texts))}
        try:
            body = self.under(context, lambda: self.src(d.body))
        finally:
            self._inlined = kept
        if self._closures_used > closures:
            return None
        return f"({', '.join(bound)}, {body})[-1]" if bound else f"({body})"

    def _def_function(self, d: m.DefDecl, context=None) -> str:
        """The namespace name of def d as a generated function (env, *args), its body compiled in
        `context` (see def_context)."""
        key = (d.name.name, context)
        name = self._def_names.get(key)
        if name is not None:
            return name
        name = self._def_names[key] = f"_d{len(self.ns)}"
        self.ns[name] = None  # reserved; filled in below
        slots = [self.param_symbol(p).slot for p in d.params]
        params = "".join(f", a{i}" for i in range(len(slots)))
        binds = "".join(f"    env[{s}] = a{i}\n" for i, s in enumerate(slots))

        def build():
            slow = self._name(self.lazy_closure(d.body))
            reads = self._memo_key(d)
            if reads is None:
                text = (f"def {name}(env{params}):\n{binds}    try:\n        return {self.src(d.body)}\n"
                        f"    except Exception:\n        return {slow}(env)\n")
            else:  # remembered by its arguments and the state slots it reads
                memo, miss = self._name({} if self._def_memos_on else _FORGETS), self._name(_MISS)
                self._def_memos.append(memo)
                key = "(" + "".join(f"a{i}, " for i in range(len(slots))) + "".join(f"env[{r}], " for r in reads) + ")"
                text = (f"def {name}(env{params}):\n    key = {key}\n    v = {memo}.get(key, {miss})\n"
                        f"    if v is not {miss}:\n        return v\n{binds}    try:\n        v = {self.src(d.body)}\n"
                        f"    except Exception:\n        v = {slow}(env)\n"
                        f"    if len({memo}) >= {DEF_MEMO}:\n        {memo}.clear()\n"
                        f"    {memo}[key] = v\n    return v\n")
            fn = self._define(text, name)
            if fn is None:
                body = self.closure(d.body)

                def fn(env, *args):
                    for s, v in zip(slots, args):
                        env[s] = v
                    return body(env)
            return fn
        kept = self._inlined, self._in_iterable  # a function of its own: the caller's names are not its own
        self._inlined, self._in_iterable = {}, False
        try:
            self.ns[name] = self.under(context, build)
        finally:
            self._inlined, self._in_iterable = kept
        return name

    def remember_defs(self, on: bool) -> None:
        """Whether the defs that loop remember their values (from now on; off, they forget them)."""
        self._def_memos_on = on
        for name in self._def_memos:
            self.ns[name] = {} if on else _FORGETS

    def _memo_key(self, d: m.DefDecl) -> Optional[tuple]:
        """The state slots whose values, with its arguments, make the value of def d, when d is
        worth remembering (its body loops: a comprehension); else None."""
        if not _loops(d.body):
            return None
        return tuple(sorted(state_slots(self.ck, d.body)))

    # ---------------- comprehensions ----------------
    def _for(self, c) -> str:
        """` for TARGETS in ITER if COND` of a comprehension."""
        slots = [self.ck.syms[id(t)].slot for t in c.targets]
        target = f"env[{slots[0]}]" if len(slots) == 1 else "(" + "".join(f"env[{s}], " for s in slots) + ")"
        kept, self._in_iterable = self._in_iterable, True  # where Python takes no `:=`
        try:
            it = self.src(c.iter)
        finally:
            self._in_iterable = kept
        t = self.type_of(c.iter)
        if t == T.ANY or t[0] in ("set", "map"):
            it = f"_in_order({it})"
        cond = f" if {self.src(c.cond)}" if c.cond is not None else ""
        return f" for {target} in {it}{cond}"

    def p_CallComp(self, e: m.CallComp):
        c, name = e.comp, e.func.name
        if name == "count":
            return f"len([0{self._for(c)}])"
        if name in ("any", "all"):
            return f"{name}({self.src(c.expr)}{self._for(c)})"
        if name not in COMP_WRAP:
            return None
        return COMP_WRAP[name].format(f"[{self.src(c.expr)}{self._for(c)}]")

    def p_First(self, e: m.First):
        """`first(x for x in xs where c) else d`: the first value, or d (evaluated only then)."""
        if self._in_iterable:
            return None
        miss, v = self._name(_MISS), f"_v{len(self.ns)}"
        self.ns[v] = None  # the name is this expression's own: nested firsts do not share it
        return (f"({v} if ({v} := next(({self.src(e.comp.expr)}{self._for(e.comp)}), {miss})) is not {miss} "
                f"else {self.src(e.default)})")

    def p_ListComp(self, e):
        return f"tuple([{self.src(e.comp.expr)}{self._for(e.comp)}])"

    def p_SetComp(self, e):
        return f"frozenset([{self.src(e.comp.expr)}{self._for(e.comp)}])"

    def p_MapComp(self, e: m.MapComp):
        return f"_FrozenMap([({self.src(e.key)}, {self.src(e.value)}){self._for(e)}])"

    def _text(self, e) -> str:
        """The text of e's value in a label (runtime.format_value), an int's and a name's written out."""
        t = self.type_of(e)
        if t == T.INT:
            return f"str({self.src(e)})"
        if t[0] == "enum":
            return f"{self.src(e)}.name"
        return f"_text({self.src(e)})"

    def p_Template(self, e: m.Template):
        parts = [self._name(p) if isinstance(p, str) else self._text(p) for p in e.parts]
        return "(" + " + ".join(parts) + ")" if parts else self._name("")
