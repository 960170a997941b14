"""Runs of simple statements as generated Python: one function per run, not a tree of closures.

A run of simple steps (assignments, `let`, `var`, `require`, `if` and `for` whose bodies are simple)
costs one Python call per statement, per loop round and per expression as closures. Here the
run becomes one function whose body is the statements as Python, their expressions written
by pysource.py: `hand -= 1` is `env[4] = (env[4] - 1)`. A statement this module does not
write (a call of an action, `replace`, a collection with a range) runs as its closure from
inside the generated function.

A generated run that raises puts the environment back as it found it and runs the closures
instead, so errors keep their exact source span and message. `merge` is never inside a run:
it records what it saw, so running it twice would prune the path.
"""
from __future__ import annotations

from typing import Optional

from . import model as m
from . import types as T
from .check import bounded_collection, nodes_in, repeat_condition

INDENT = "    "


class StmtSource:
    """Mixin for the Compiler: `fused(stmts, compiled)`, runs of simple statements generated."""

    def fused(self, stmts: list, compiled: list) -> list:
        """compiled (the (kind, function) of each of stmts) with each run of simple statements
        that holds one this module writes replaced by one generated step."""
        if not self.generate_python:
            return compiled
        out, run = [], []

        def flush():
            if any(self._writes(s) for s, _ in run):
                out.append(("simple", self._run_function([s for s, _ in run], [c[1] for _, c in run])))
            else:
                out.extend(c for _, c in run)
            run.clear()
        for s, c in zip(stmts, compiled):
            if c[0] == "simple" and not any(nodes_in(s, m.MergeStmt)):
                # (a run that raises runs again step by step, where a merge would meet its own path)
                run.append((s, c))
                continue
            flush()
            out.append(c)
        flush()
        return out

    def _writes(self, s) -> bool:
        return type(s) in (m.Let, m.Var, m.Require, m.Assign, m.Update, m.IndexAssign, m.IndexUpdate, m.IfStmt,
                           m.ForStmt, m.PassTo)

    def _run_function(self, stmts: list, closures: list):
        """One step running stmts; the closures where Python cannot compile the text (too deep) or
        where it raises."""
        def slow(env):
            for f in closures:
                if not f(env):
                    return False
            return True
        lines = self._lines(stmts, 2, closures)
        if lines is None:
            return slow
        body = "".join(x + "\n" for x in lines)
        text = (f"def _s(env):\n    saved = env[:]\n    try:\n{body}        return True\n"
                f"    except Exception:\n        env[:] = saved\n        return {self._name(slow)}(env)\n")
        fn = self._define(text, "_s")
        return fn if fn is not None else slow

    def _lines(self, stmts: list, depth: int, closures: Optional[list] = None) -> Optional[list]:
        """The statements as lines of Python at depth indents (their closures, if compiled
        already); None when one of them is not a simple step (a fork, or `merge`)."""
        lines: list = []
        for i, s in enumerate(stmts):
            gen = getattr(self, "t_" + type(s).__name__, None)
            got = gen(s, depth) if gen is not None else None
            if got is None:
                if isinstance(s, m.MergeStmt):
                    return None
                kind, f = self.stmt(s) if closures is None else ("simple", closures[i])
                if kind != "simple":
                    return None
                got = self._at(depth, f"if not {self._name(f)}(env):", f"{INDENT}return False")
            lines += got
        return lines

    def _at(self, depth: int, *lines: str) -> list:
        return [INDENT * depth + x for x in lines]

    def _drop(self, why: tuple) -> str:
        """What a step that drops its path returns: False, counted for validate where it counts."""
        if self.drops is None:
            return "False"
        from .compile import _dropped
        return f"{self._name(_dropped)}({self._name(self.drops)}, {self._name(why)})"

    def _store(self, ident: m.Ident, value: str, depth: int) -> Optional[list]:
        """Lines storing the value of the text `value` into a field, within its declared range."""
        sym = self.ck.syms[id(ident)]
        i, f = sym.slot, sym.decl
        if bounded_collection(f.type):
            return None
        if not isinstance(f.type, m.RangeType):
            return self._at(depth, f"env[{i}] = {value}")
        lo, hi = (self.expr(b)(self.blank_env()) for b in (f.type.lo, f.type.hi))
        why = self.range_left(ident, lo, hi)
        lo, hi = self._name(lo), self._name(hi)
        if f.bound == "clamp":
            return self._at(depth, f"v = {value}", f"env[{i}] = {lo} if v < {lo} else {hi} if v > {hi} else v")
        return self._at(depth, f"v = {value}", f"if v < {lo} or v > {hi}:", f"{INDENT}return {self._drop(why)}",
                        f"env[{i}] = v")

    def _in_range(self, ident: m.Ident, depth: int) -> Optional[list]:
        """Lines that keep `w`, an element about to go into a field that is a list or map of a range,
        within the range (dropping the path, or with `clamp` moving it to the nearest bound); None for
        a field of another type. The elements already there are within it: every store checks."""
        f = self.ck.syms[id(ident)].decl
        if not bounded_collection(f.type) or f.type.name.name not in ("list", "map"):
            return None
        r = f.type.args[-1]
        lo, hi = (self.expr(b)(self.blank_env()) for b in (r.lo, r.hi))
        low, high = self._name(lo), self._name(hi)
        if f.bound == "clamp":
            return self._at(depth, f"w = {low} if w < {low} else {high} if w > {high} else w")
        why = (ident.span, f"where a value in '{ident.name}' would leave its range {lo}..{hi} "
                           "(unless the field says `clamp`)")
        return self._at(depth, f"if w < {low} or w > {high}:", f"{INDENT}return {self._drop(why)}")

    def _targets(self, targets) -> str:
        slots = [self.ck.syms[id(t)].slot for t in targets]
        return f"env[{slots[0]}]" if len(slots) == 1 else "(" + "".join(f"env[{s}], " for s in slots) + ")"

    # ---------------- statements ----------------
    def t_Let(self, s: m.Let, depth: int):
        return self._at(depth, f"{self._targets(s.targets)} = {self.src(s.value)}")

    def t_Var(self, s: m.Var, depth: int):
        return self._store(s.target, self.src(s.value), depth)

    def t_Require(self, s, depth: int):
        why = (s.span, "where the `require` did not hold")
        return self._at(depth, f"if not {self.src(s.cond)}:", f"{INDENT}return {self._drop(why)}")

    def t_PassTo(self, s: m.PassTo, depth: int):
        return self._at(depth, f"env[{self.PASSED}] = {self.src(s.player)}.index")

    def t_Assign(self, s: m.Assign, depth: int):
        return self._store(s.target, self.src(s.value), depth)

    def t_Update(self, s: m.Update, depth: int):
        sym = self.ck.syms[id(s.target)]
        old, g = f"env[{sym.slot}]", self.src(s.value)
        if sym.type == T.INT:
            return self._store(s.target, f"({old} {s.op[0]} {g})", depth)
        return self._store(s.target, f"{self._name(self.update_op(sym.type, s))}({old}, {g})", depth)

    def t_IndexAssign(self, s: m.IndexAssign, depth: int):
        sym = self.ck.syms[id(s.target)]
        k, v = self.src(s.key), self.src(s.value)
        within = self._in_range(s.target, depth)
        if within is not None:  # the one element stored checked, not the whole collection
            i = sym.slot
            if sym.type[0] == "map":
                return self._at(depth, f"j = {k}", f"w = {v}") + within + \
                    self._at(depth, f"env[{i}] = env[{i}].set(j, w)")
            return self._at(depth, f"q = env[{i}]", f"j = {k}", "if not 0 <= j < len(q):", f"{INDENT}raise IndexError",
                            f"w = {v}") + within + self._at(depth, f"env[{i}] = q[:j] + (w,) + q[j + 1:]")
        if sym.type[0] == "map":
            return self._store(s.target, f"env[{sym.slot}].set({k}, {v})", depth)
        store = self._store(s.target, "q[:j] + (w,) + q[j + 1:]", depth)
        return store and self._at(depth, f"q = env[{sym.slot}]", f"j = {k}", "if not 0 <= j < len(q):",
                                  f"{INDENT}raise IndexError", f"w = {v}") + store

    def t_IndexUpdate(self, s: m.IndexUpdate, depth: int):
        sym = self.ck.syms[id(s.target)]
        t = sym.type
        is_map = t[0] == "map"
        item = t[2] if is_map else t[1]
        g = self.src(s.value)
        new = f"(q[j] {s.op[0]} {g})" if item == T.INT else f"{self._name(self.update_op(item, s))}(q[j], {g})"
        check, error = ("if j not in q:", "KeyError") if is_map else ("if not 0 <= j < len(q):", "IndexError")
        within = self._in_range(s.target, depth)
        if within is not None:  # the one element stored checked, not the whole collection
            return self._at(depth, f"q = env[{sym.slot}]", f"j = {self.src(s.key)}", check, f"{INDENT}raise {error}",
                            f"w = {new}") + within + \
                self._at(depth, f"env[{sym.slot}] = " + ("q.set(j, w)" if is_map else "q[:j] + (w,) + q[j + 1:]"))
        store = self._store(s.target, "q.set(j, w)" if is_map else "q[:j] + (w,) + q[j + 1:]", depth)
        return store and self._at(depth, f"q = env[{sym.slot}]", f"j = {self.src(s.key)}", check,
                                  f"{INDENT}raise {error}", f"w = {new}") + store

    def t_IfStmt(self, s: m.IfStmt, depth: int):
        body = self._lines(s.body.stmts, depth + 1)
        if body is None:
            return None
        lines = self._at(depth, f"if {self.src(s.test)}:") + (body or self._at(depth + 1, "pass"))
        if s.orelse is None:
            return lines
        orelse = self._lines(s.orelse.stmts, depth + 1) if isinstance(s.orelse, m.Block) else \
            self.t_IfStmt(s.orelse, depth + 1)
        if orelse is None:
            return None
        return lines + self._at(depth, "else:") + (orelse or self._at(depth + 1, "pass"))

    def t_ForStmt(self, s: m.ForStmt, depth: int):
        if self.loop_cuts is not None and repeat_condition(self.ck, s):  # its closure counts cut runs
            return None
        inner = depth + 1 if s.cond is None else depth + 2
        body = self._lines(s.body.stmts, inner)
        if body is None:
            return None
        it = self.src(s.iter)
        t = self.type_of(s.iter)
        if t == T.ANY or t[0] in ("set", "map"):
            it = f"_in_order({it})"
        lines = self._at(depth, f"for {self._targets(s.targets)} in {it}:")
        if s.cond is not None:
            lines += self._at(depth + 1, f"if {self.src(s.cond)}:")
        return lines + (body or self._at(inner, "pass"))
