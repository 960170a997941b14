"""The compiled game: the forward-model protocol over compiled closures.

A state is a tuple: the state fields in declaration order, the index of the
player to move, and a bit set of the `once` triggers that have fired.
"""
from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction
from math import prod
from pathlib import Path
from typing import Optional

from . import model as m
from . import runtime as rt
from .check import Checker, bounded_collection, nodes_in, state_slots
from .compile import Compiler, as_fork
from .diagnostics import Diagnostic, RuleErrors, RuleRuntimeError
from .frame_room import with_room
from .scored import reads_scored, scored_field
from search.protocol import CHANCE

MEMO_LIMIT = 200_000
"""Entries kept per memo table before it is cleared (states are values, so memoising is safe)."""
MEMO_MOVES = 250_000
"""Moves kept in the legal-moves memo before it is cleared: each move holds its next state (or,
where it sets an entry of a large map, the entry), so a game with many moves per state keeps fewer
states. A game of 50-150 moves a state, each next state with a board of its own, took about 8 GB
per process with 200,000 states memoised, before moves kept entries instead of boards; MCTS, beam
and backtrack on the rule files in rules/ run as fast with this bound."""


class guard:
    """Report a Python error inside compiled rules (a value of a type the rule did not
    expect, e.g. through an untyped def parameter) as a rule error at `span`. A class, not a
    generator: it is entered for every state a search asks about."""

    __slots__ = ("span", "what")

    def __init__(self, span, what: str):
        self.span, self.what = span, what

    def __enter__(self):
        return None

    def __exit__(self, kind, e, tb):
        if kind is None or issubclass(kind, RuleRuntimeError):
            return False
        if issubclass(kind, OverflowError):
            raise RuleRuntimeError(self.span, f"{self.what} gave a number too large to work with (more than about "
                                              "1e308)") from None
        if issubclass(kind, (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError)):
            raise RuleRuntimeError(self.span, f"{self.what} failed on a value of an unexpected type ({e})") from None
        return False


def fraction_text(x: float) -> str:
    """x as a fraction where one with a small denominator is x (5/6), else as a decimal."""
    f = Fraction(x).limit_denominator(10_000)
    return str(f) if abs(float(f) - x) < 1e-9 else f"{x:.6g}"


_UNKNOWN = object()
"""A memo's miss, where None is a value it holds."""


class _TooMany(Exception):
    """A turn has more paths than the caller's limit."""


LEAN_MAP = 8
"""Entries from which a map set in a listed move makes the move keep the entries it sets rather
than copies of the maps (a copy of a smaller map costs little more than its entry, and making
the move lean costs time)."""


class Move:
    """A legal move: its label and the state it leads to.

    A listed move that sets an entry of a large map (a route drawn on a board, say) keeps the
    map it was listed with and the entry instead of a copy of the map (`lean`), and makes its
    next state each time it is asked for: a search that keeps the moves of many states then
    holds a few entries a move, not a board."""

    __slots__ = ("label", "_next", "_rest", "_entries")

    def __init__(self, label: str, next: Optional[tuple], rest: tuple = (), entries: tuple = ()):
        self.label, self._next, self._rest, self._entries = label, next, rest, entries

    @classmethod
    def lean(cls, label: str, base: tuple, nxt: tuple, map_slots: tuple) -> "Move":
        """The move from base to nxt, where each map among map_slots that nxt has by setting one
        entry of base's is kept as base's map and the entry (index, key, value), if one of them
        is large (copies of small maps cost little more than their entries)."""
        for i in map_slots:
            b = nxt[i]
            if b is not base[i] and len(b) >= LEAN_MAP and b.set_from(base[i]):
                break
        else:
            return cls(label, nxt)
        rest, entries = list(nxt), []
        for i in map_slots:
            a, b = base[i], nxt[i]
            if b is not a and b.set_from(a):
                rest[i] = a
                k = b.key_set()
                entries += (i, k, b[k])
        return cls(label, None, tuple(rest), tuple(entries))

    @property
    def next(self) -> tuple:
        if self._next is not None:
            return self._next
        s = list(self._rest)
        e = iter(self._entries)
        for i, k, v in zip(e, e, e):
            s[i] = s[i].set(k, v)
        return tuple(s)

    def __eq__(self, other):
        return isinstance(other, Move) and self.label == other.label and self.next == other.next

    def __hash__(self):
        return hash((self.label, self.next))

    def __reduce__(self):
        return Move, (self.label, self.next)

    def __repr__(self):
        return f"Move(label={self.label!r})"

    def __str__(self):
        return self.label


MERGED_SHOWN = 6
"""The values of one draw a merged chance outcome's label names, at most."""


def _span_text(span) -> Optional[str]:
    """The text of the rule file at span, if it lies on one line of a file that can be read."""
    if span.line != span.end_line:
        return None
    try:
        lines = Path(span.file).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines[span.line - 1][span.col - 1:span.end_col - 1] if span.line <= len(lines) else None


def merged_label(draws: list) -> str:
    """The label of a chance outcome that the ways `draws` (each the labels of its draws, such as
    ("d = 2",)) lead to: one way's labels joined by " | "; where the ways are every combination of
    some values of each draw, each draw with its values (`d = 2, 3 or 5`, `a = 1 or 2 | b = 4`: a draw
    that changed nothing); otherwise the first way's, with how many others lead to the same state
    (`a = 1 | b = 6 (or 5 others)`)."""
    first = " | ".join(draws[0]) or "chance"
    if len(draws) == 1:
        return first
    split = [[d.partition(" = ") for d in way] for way in draws]
    names = [[name for name, _, _ in way] for way in split]
    if all(n == names[0] for n in names) and all(eq for way in split for _, eq, _ in way):
        values = [list(dict.fromkeys(way[i][2] for way in split)) for i in range(len(names[0]))]
        if len(set(map(tuple, draws))) == prod(len(v) for v in values):  # every combination is there
            return " | ".join(f"{name} = {_listed(v)}" for name, v in zip(names[0], values))
    return f"{first} (or {len(draws) - 1} other{'s' if len(draws) > 2 else ''})"


def _listed(values: list) -> str:
    """`2`, `2 or 3`, `2, 3 or 5`; past MERGED_SHOWN values, the first ones and how many more."""
    if len(values) > MERGED_SHOWN:
        values = values[:MERGED_SHOWN - 1] + [f"{len(values) - MERGED_SHOWN + 1} more"]
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"


class CompiledGame:
    """A rule file compiled into a forward model (see search/protocol.py)."""

    def __init__(self, checker: Checker, compiler: Compiler, title: str, path: str):
        self.title = title
        self.path = path
        self.rules_digest: Optional[str] = None  # of the rule texts (load.rules_digest), where load_game read them
        self.rules_digests: tuple = ()  # that digest and the one policy files written before it have
        self.checker = checker
        c = compiler
        self.compiler = c
        self.player_names = tuple(p.name for p in c.players)
        self.num_players = len(c.players)
        self.field_names = tuple(f.name for f in checker.fields)
        self.nstate = c.nfields + 2
        self.nslots = checker.nslots
        self.decls = checker.decls
        decl = {type(d): d for d in reversed(checker.decls)}
        self._turn = as_fork(c.block(decl[m.TurnDecl].body))
        self._turn_span, self._terminal_span = decl[m.TurnDecl].span, decl[m.TerminalDecl].span
        self._score_span = decl[m.ScoreDecl].span
        self._terminal = c.expr(decl[m.TerminalDecl].cond)
        score = decl[m.ScoreDecl]
        self._score = c.expr(score.value)
        self._score_slot = checker.syms[id(score.player)].slot if score.player is not None else None
        scored = scored_field(checker)
        self.scored_field = None if scored is None else scored.name
        if scored is not None:
            self._scored = (scored.slot, scored.type[0] == "map")
        self.trigger_decls = [d for d in checker.decls if isinstance(d, m.TriggerDecl)]
        # the index of each `once` trigger among the triggers (its bit in the state) -> its line in the file
        self.once_lines = {i: d.span.line for i, d in enumerate(self.trigger_decls) if d.once}
        self._triggers = [(c.expr(d.cond), as_fork(c.block(d.body)), d.once) for d in self.trigger_decls]
        self.heuristics = {d.name.name: (c.expr(d.value), d.player and checker.syms[id(d.player)].slot, d.span)
                           for d in checker.decls if isinstance(d, m.HeuristicDecl)}
        invariants = [(d, c.expr(d.cond)) for d in checker.decls if isinstance(d, m.InvariantDecl)]
        self.invariants = [(d, f) for d, f in invariants if id(d) not in checker.step_invariants]
        # those that read old(...): checked on each step, the state before it in before_slot
        self.step_invariants = [(d, f) for d, f in invariants if id(d) in checker.step_invariants]
        if self.scored_field is not None:
            self.split_scored(self.num_players == 1 and not reads_scored(checker, invariants))
        chances = [d for d in checker.decls if isinstance(d, m.ChanceDecl)]
        self._chances = [(c.expr(d.cond), as_fork(c.block(d.body)), d.span) for d in chances]
        self.chance_decls = chances
        self.chance_seen = False  # whether a state met so far was one where chance moves
        self._chance_memo: dict = {}
        # The slots each chance block may read or write, the player's among them: states that
        # agree on them have the same outcomes but for the slots the block leaves alone.
        self._chance_slots = [tuple(sorted(state_slots(checker, d.body) | {self.nstate - 2})) for d in chances]
        self._outcomes_memo: dict = {}  # (block, its slots' values) -> ((label, weight, new values), ...)
        views = [d for d in checker.decls if isinstance(d, m.ViewDecl)]
        self._view = (c.expr(views[0].expr), views[0].span) if views else None
        self.merge_equal = any(isinstance(d, m.MergeDecl) for d in checker.decls)
        self.dead_ends_end = any(isinstance(d, m.DeadEndsDecl) for d in checker.decls)  # no warning of them
        self.agent_options = {d.name.name: {o.name.name: o.value.name if isinstance(o.value, m.Ident) else o.value
                                            for o in d.options}
                              for d in checker.decls if isinstance(d, m.AgentDecl)}
        env = c.blank_env()
        fields = tuple(c.expr(f.decl.init)(env) for f in checker.fields)
        for f, v in zip(checker.fields, fields):
            t = f.decl.type
            if isinstance(t, m.RangeType):
                lo, hi = (c.expr(b)(env) for b in (t.lo, t.hi))
                if not lo <= v <= hi:
                    raise RuleErrors([Diagnostic("out-of-range", f"initial value {v} of '{f.name}' is outside "
                                                 f"{lo}..{hi}", f.decl.init.span)], {})
            elif bounded_collection(t):  # the values a list, set, bag or map of a range holds
                lo, hi = (c.expr(b)(env) for b in (t.args[-1].lo, t.args[-1].hi))
                kept = v.values() if isinstance(v, dict) else v.items if isinstance(v, rt.Bag) else v
                if outside := [x for x in kept if not lo <= x <= hi]:
                    raise RuleErrors([Diagnostic("out-of-range", f"initial value of '{f.name}' holds {outside[0]}, "
                                                 f"outside the range {lo}..{hi} of its values", f.decl.init.span)], {})
        self._initial = fields + (0, 0)
        self._map_slots = tuple(i for i, v in enumerate(fields) if type(v) is rt.FrozenMap)
        # a `choose` inside a long `for` nests one continuation per round
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
        self._moves: dict = {}
        self._moves_held = 0  # moves in self._moves, bounded by MEMO_MOVES
        self._terminal_memo: dict = {}
        self._memo_limit = MEMO_LIMIT
        # whether the moves, the end and the chance of each state are remembered (a search that
        # meets a state again asks again); an exhaustive solve, which asks once a state, turns
        # it off: the tables held as much again as the solve's own. Without them the end, the
        # chance and the moves of the last state asked are kept, by identity, for the questions
        # asked of one state in a row
        self.remember_states = True
        self._last_end = self._last_chance = self._last_moves = (None, None)
        # a set here collects the names of the actions completed on the paths of the moves
        # worked out from then on, triggers included, and the index of each chance declaration
        # that applied (validate: actions that never take part, chance blocks that never apply)
        self.reached_actions: Optional[set] = None

    @property
    def memo_limit(self) -> int:
        """States kept per memo table; 0 turns the memo tables off, those of the defs too."""
        return self._memo_limit

    @memo_limit.setter
    def memo_limit(self, n: int) -> None:
        self._memo_limit = n
        self.compiler.remember_defs(n > 0)

    def start_at(self, s: tuple) -> None:
        """Make s the initial state (`--from`): a state of this game, as engine/start_state.py reads one."""
        self._initial = s

    # ---------------- protocol ----------------
    def initial_state(self) -> tuple:
        return self._initial

    def current_player(self, s) -> int:
        """The player to move, or CHANCE where a `chance` condition holds (and the game goes on)."""
        if self._chances and self._chance_at(s) is not None:
            return CHANCE
        return s[self.nstate - 2]

    def chance_decl(self, s):
        """The chance declaration that applies in s (None where none does)."""
        at = self._chance_at(s) if self._chances else None
        return None if at is None else self.chance_decls[at]

    def _chance_at(self, s) -> Optional[int]:
        """The index of the first chance declaration whose condition holds in s, if any."""
        if self._last_chance[0] is s:
            return self._last_chance[1]
        at = self._chance_memo.get(s, _UNKNOWN)
        if at is not _UNKNOWN:
            return at
        at = None
        if not self.is_terminal(s):
            env = self.env(s)
            for i, (cond, _, span) in enumerate(self._chances):
                with guard(span, "the chance condition"):
                    if cond(env):
                        at = i
                        self.chance_seen = True
                        break
        if self.remember_states:
            return self._remember(self._chance_memo, s, at)
        self._last_chance = (s, at)
        return at

    def env(self, s) -> list:
        """A fresh evaluation environment for state s."""
        e = [None] * self.nslots
        e[: self.nstate] = s
        e[self.nstate] = ()
        e[self.nstate + 1] = 1
        if self.reached_actions is not None:
            e[self.compiler.CALLED] = ()
        return e

    def legal_moves(self, s) -> tuple:
        if self._last_moves[0] is s:
            return self._last_moves[1]
        moves = self._moves.get(s)
        if moves is None:
            with guard(self._turn_span, "the turn"):
                moves = with_room(self._generate, s)
            if not self.remember_states:
                self._last_moves = (s, moves)
            elif self.memo_limit:
                if len(self._moves) >= self.memo_limit or self._moves_held + len(moves) > MEMO_MOVES:
                    self._moves.clear()
                    self._moves_held = 0
                self._moves[s] = moves
                self._moves_held += len(moves)
        return moves

    def _remember(self, table: dict, s, value):
        """Store value for state s in a memo table (cleared when full) and return it."""
        if self.memo_limit:
            if len(table) >= self.memo_limit:
                table.clear()
            table[s] = value
        return value

    def _player_turn(self, s) -> bool:
        """Whether a player moves at s (not an end, not a chance node)."""
        return not (self.is_terminal(s) or (self._chances and self._chance_at(s) is not None))

    def legal_moves_within(self, s, limit: int) -> Optional[tuple]:
        """The legal moves of s, or None as soon as the turn has more than `limit` complete
        paths (before equal moves are merged): for callers that would rather sample a move
        than wait for a very large list. Not memoised."""
        try:
            with guard(self._turn_span, "the turn"):
                return with_room(self._generate, s, limit)
        except _TooMany:
            return None

    def _generate(self, s, limit: Optional[int] = None) -> tuple:
        if not self._player_turn(s):
            return ()
        out = []

        def emit(labels, nxt, env):
            out.append((labels, nxt))
            if limit is not None and len(out) > limit:
                raise _TooMany
        env = self.env(s)
        env[self.compiler.MERGED] = set()
        self._turn(env, lambda e: self._end_turn(e, emit))
        if self.merge_equal:  # one move per next state, the first label kept
            firsts: dict = {}
            for labels, nxt in out:
                firsts.setdefault(nxt, labels)
            out = [(labels, nxt) for nxt, labels in firsts.items()]
        seen: dict = {}
        moves = []
        for labels, nxt in out:
            label = " | ".join(labels) if labels else "pass"
            k = seen.get(label, 0) + 1
            seen[label] = k
            moves.append(Move.lean(label if k == 1 else f"{label} [{k}]", s, nxt, self._map_slots))
        return tuple(moves)

    def _end_turn(self, env, emit):
        """A path through the turn is complete: pass the turn on (to the next player in order,
        or the one a `pass to` named), fire the triggers, then emit(labels, next state, env) for
        each way they end; a `pass to` in a trigger names who moves next too."""
        n, p = self.nstate, self.compiler.PASSED
        env[n - 2] = (env[n - 2] + 1) % self.num_players if env[p] is None else env[p]
        env[p] = None
        if self.reached_actions is not None:
            emit = self._noting_reached(emit)
        if self._triggers:
            def fired(e):
                self._pass(e)
                emit(e[n], tuple(e[:n]), e)
            self._fire(env, 0, fired)
        else:
            emit(env[n], tuple(env[:n]), env)

    def _noting_reached(self, emit):
        """emit, the actions completed on the path first added to reached_actions."""
        reached, called = self.reached_actions, self.compiler.CALLED

        def noting(labels, nxt, env):
            reached.update(env[called])
            emit(labels, nxt, env)
        return noting

    def sample_move(self, s, rng) -> Optional[Move]:
        """One legal move found by a random walk down the turn (each `choose` tries its values
        in an order shuffled with rng, each `optional` picks at random which way it tries
        first; a path that fails a `require` steps back), without listing the legal moves: for
        random playouts of states with very many moves. Not a uniform draw from legal_moves.
        None when there is no legal move."""
        if not self._player_turn(s):
            return None
        got = []
        pick = [rng, False]

        def emit(labels, nxt, env):
            if not got:
                got.append(Move(" | ".join(labels) if labels else "pass", nxt))
                pick[1] = True
        env = self.env(s)
        env[self.compiler.SAMPLER] = rng
        env[self.compiler.PICK] = pick
        with guard(self._turn_span, "the turn"):
            with_room(self._turn, env, lambda e: self._end_turn(e, emit))
        return got[0] if got else None

    def _fire(self, env, i, k):
        """Run triggers i.. in order; `once` triggers mark their bit in the state. A trigger whose
        condition held goes into reached_actions as ("when", its index)."""
        triggers, fired = self._triggers, self.nstate - 1
        while i < len(triggers):
            cond, body, once = triggers[i]
            bit = 1 << i
            if (once and env[fired] & bit) or not cond(env):
                i += 1
                continue
            if self.reached_actions is not None:
                self.reached_actions.add(("when", i))
            if once:
                env[fired] |= bit
            body(env, lambda e, after=i + 1: self._fire(e, after, k))
            return
        k(env)

    def chance_outcomes(self, s) -> tuple:
        """(move, weight) for every distinct state the chance block can lead to; draws that lead
        to one state are one outcome (labelled by merged_label, their weights added). The player to
        move stays unless the block says `pass to`; triggers do not fire. Worked out once per
        value of the slots the block may read or write (a roll of dice once per round, whatever
        the board): another state that agrees on them gets the same outcomes, its other slots
        kept."""
        return self._outcomes(s, None)

    def chance_outcomes_within(self, s, limit: int) -> Optional[tuple]:
        """The chance outcomes of s, or None as soon as the block has more than `limit` paths
        (before those that lead to one state merge): for callers that would rather sample an
        outcome than wait for a very large list."""
        try:
            return self._outcomes(s, limit)
        except _TooMany:
            return None

    def _outcomes(self, s, limit: Optional[int]) -> tuple:
        at = self._chance_at(s) if self._chances else None
        if at is None:
            return ()
        if self.reached_actions is not None:
            self.reached_actions.add(at)
        slots = self._chance_slots[at]
        key = (at, tuple(s[i] for i in slots))
        outcomes = self._outcomes_memo.get(key)
        if outcomes is None:
            outcomes = self._remember(self._outcomes_memo, key, self._run_chance(s, at, slots, limit))
        moves = []
        nxt = list(s)
        for label, w, values in outcomes:
            for i, v in zip(slots, values):
                nxt[i] = v
            moves.append((Move(label, tuple(nxt)), w))
        return tuple(moves)

    def _run_chance(self, s, at: int, slots: tuple, limit: Optional[int] = None) -> tuple:
        """Every path through chance block `at` from s, merged by the state it leads to:
        (label, weight, the values of `slots` after it) per outcome; _TooMany past `limit` paths."""
        _, block, span = self._chances[at]
        n = self.nstate
        merged: dict = {}
        paths = [0]

        def finish(env):
            paths[0] += 1
            if limit is not None and paths[0] > limit:
                raise _TooMany
            self._pass(env)
            nxt = tuple(env[:n])
            got = merged.get(nxt)
            if got is None:
                merged[nxt] = [[tuple(env[n])], env[n + 1]]
            else:
                got[0].append(tuple(env[n]))
                got[1] += env[n + 1]

        with guard(span, "the chance block"):
            block(self.env(s), finish)
        total = sum(w for _, w in merged.values())
        if abs(total - 1) > 1e-9:
            self._weights_lost(s, at, total)
        return tuple((merged_label(draws), float(w), tuple(nxt[i] for i in slots))
                     for nxt, (draws, w) in merged.items())

    def _weights_lost(self, s, at: int, total: float):
        """Draws of chance block `at` from s were dropped, by a `require` or by a value that would
        leave a field's range: the outcomes left weigh `total`, not 1. The error is at the one
        place that dropped them (the block, with their lines, where several did)."""
        drops = self._drops_in_chance(s, at)
        places = sorted({span for span, _ in drops}, key=lambda x: (x.line, x.col))
        span = places[0] if len(places) == 1 else self._chances[at][2]
        got = ("the chance block has no outcome left: expected outcomes weighing 1 in all" if not total else
               f"the outcomes of the chance block weigh {fraction_text(total)} in all: expected 1")
        lines = sorted({x.line for x in places})
        where = ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines))
        ranges = sorted({why.split(" (unless")[0] for _, why in drops if why.endswith("`clamp`)")})
        if ranges:
            hint = (f"draws {' or '.join(ranges)} are dropped, with their weight ({where}): widen the range, "
                    "write `clamp` after it to keep the value at its bounds, or say what such a draw does "
                    "(`pos = if pos + d > 100 then pos else pos + d` stays put)")
        else:
            allowed = self._draw_allowed(at, places)
            hint = (f"a `require` in a chance block ({where}) drops the draws that fail it, with their weight: "
                    + (f"draw only from the values allowed, {allowed}" if allowed is not None else
                       "say in the block what such draws do instead (set a field the rules read, as a roll that "
                       "scores nothing ends a turn), and no `require`"))
        raise RuleRuntimeError(span, got, hint)

    def _draw_allowed(self, at: int, places: list) -> Optional[str]:
        """`draw d in [d for d in 1..6 where d != 6]`: the draw of chance block `at` from the values its
        one `require` (at `places`) allows, written from the rule file's text; a made-up example where
        the block has more draws or requires than one, or their text is not at hand; None where the
        `require` reads none of the names drawn (what the draws made together, say), which no draw's
        values can pass."""
        body = self.chance_decls[at].body
        draws = list(nodes_in(body, m.Draw))
        required = [r for r in nodes_in(body, m.Require) if r.span in places]
        drawn = {t.name for d in draws for t in d.targets}
        if required and not any(n.id in drawn for r in required for n in nodes_in(r.cond, m.Name)):
            return None
        if len(required) == 1 and len(places) == 1:
            read = {n.id for n in nodes_in(required[0].cond, m.Name)}
            mine = [d for d in draws if any(t.name in read for t in d.targets)]  # the draws it filters
            if len(mine) == 1 and len(mine[0].targets) == 1:
                domain, cond = _span_text(mine[0].domain.span), _span_text(required[0].cond.span)
                if domain and cond:
                    x = mine[0].targets[0].name
                    return f"`draw {x} in [{x} for {x} in {domain} where {cond}]`, and no `require`"
        return "for example `draw d in [d for d in 1..6 where d != 1]`"

    def _drops_in_chance(self, s, at: int) -> Counter:
        """(span, why) -> the paths of chance block `at` from s that a `require` or a field's
        range dropped there: the block compiled again, counting them."""
        c = self.compiler
        drops: Counter = Counter()
        saved, c.drops = c.drops, drops
        try:
            block = as_fork(c.block(self.chance_decls[at].body))
        finally:
            c.drops = saved
        with guard(self._chances[at][2], "the chance block"):
            block(self.env(s), lambda env: None)
        return drops

    def _pass(self, env) -> None:
        """The player a `pass to` of a trigger or a chance block named moves next."""
        p = self.compiler.PASSED
        if env[p] is not None:
            env[self.nstate - 2] = env[p]

    def sample_chance(self, s, rng) -> Move:
        """One chance outcome of s drawn by its weight, each draw made with rng: the same
        distribution over next states as chance_outcomes, without listing them all. The label
        is that of the draws made, which may differ from the label chance_outcomes keeps."""
        at = self._chance_at(s) if self._chances else None
        if at is None:
            raise ValueError("not a chance node")
        if self.reached_actions is not None:
            self.reached_actions.add(at)
        _, block, span = self._chances[at]
        n = self.nstate
        got = []

        def finish(env):
            if not got:
                self._pass(env)
                got.append(Move(" | ".join(env[n]) or "chance", tuple(env[:n])))
        env = self.env(s)
        env[self.compiler.SAMPLER] = rng
        with guard(span, "the chance block"):
            block(env, finish)
        if not got:  # a `require` dropped the path drawn: listing the outcomes says so
            self.chance_outcomes(s)
            raise AssertionError("a chance block dropped a draw, yet its outcomes weigh 1")
        return got[0]

    def apply(self, s, m: Move) -> tuple:
        return m.next

    def is_terminal(self, s) -> bool:
        if self._last_end[0] is s:
            return self._last_end[1]
        t = self._terminal_memo.get(s)
        if t is None:
            with guard(self._terminal_span, "the terminal condition"):
                t = bool(self._terminal(self.env(s)))
            if self.remember_states:
                self._remember(self._terminal_memo, s, t)
            else:
                self._last_end = (s, t)
        return t

    def returns(self, s) -> tuple:
        with guard(self._score_span, "the score"):
            return self._returns(s)

    def _returns(self, s) -> tuple:
        env = self.env(s)
        if self._score_slot is None:
            v = float(self._score(env))
            return (v,) * self.num_players
        out = []
        for p in self.compiler.players:
            env[self._score_slot] = p
            out.append(float(self._score(env)))
        return tuple(out)

    def evaluate(self, s, heuristic: Optional[str] = None, player: Optional[int] = None) -> float:
        """The heuristic's value of s for `player` (default: the player to move); without
        a heuristic, or with `score` (a keyword, so no heuristic's name), that player's returns."""
        if player is None:
            player = max(self.current_player(s), 0)
        if heuristic is None or heuristic == "score":
            return self.returns(s)[player]
        fn, slot, span = self.heuristics[heuristic]
        env = self.env(s)
        if slot is not None:
            env[slot] = self.compiler.players[player]
        with guard(span, f"heuristic '{heuristic}'"):
            return float(fn(env))

    def drop_invariants(self) -> None:
        """Check none of the file's invariants (solve --skip-invariants); a scored field that only
        an invariant kept in the state is set aside again."""
        self.invariants, self.step_invariants = [], []
        if self.scored_field is not None:
            self.split_scored(self.num_players == 1)

    def split_scored(self, on: bool) -> None:
        """Whether solve splits a state into what is still to come and the totals so far (one
        player: with several, which of the moves as good a player takes depends on who leads;
        and not where an invariant reads the total, which must hold in every state)."""
        if on:
            self.future_key, self.banked = self._future_key, self._banked
        else:
            self.__dict__.pop("future_key", None)
            self.__dict__.pop("banked", None)

    @property
    def splits_scored(self) -> bool:
        """Whether solve sets the scored field's totals aside."""
        return "future_key" in self.__dict__

    def _future_key(self, s) -> tuple:
        """s without its scored field: the states with one future key differ only in their totals
        so far, and have the same moves and the same rest of the game (engine/scored.py)."""
        i = self._scored[0]
        return s[:i] + (None,) + s[i + 1:]

    def _banked(self, s) -> tuple:
        """Each player's total so far in s, the part of the score the scored field holds."""
        i, by_player = self._scored
        v = s[i]
        return tuple(v.get(p, 0) for p in self.compiler.players) if by_player else (v,) * self.num_players

    def broken_invariants(self, s) -> list:
        """The invariant declarations that do not hold in state s."""
        return self._broken(self.invariants, self.env(s)) if self.invariants else []

    def broken_steps(self, before, s) -> list:
        """The invariants reading old(...) that do not hold on the step from state `before` to s."""
        if not self.step_invariants:
            return []
        env = self.env(s)
        env[self.checker.before_slot] = before
        return self._broken(self.step_invariants, env)

    @staticmethod
    def _broken(invariants: list, env: list) -> list:
        """The declarations of `invariants` false in env (one environment for them all: each binds
        its own names before it reads them)."""
        broken = []
        for decl, holds in invariants:
            try:
                if not holds(env):
                    broken.append(decl)
            except (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError):
                with guard(decl.span, "the invariant"):  # raised again, as a rule error at the invariant
                    holds(env)
        return broken

    def key(self, s):
        return s

    def describe(self, m: Move) -> str:
        return m.label

    # ---------------- views ----------------
    @property
    def declares_view(self) -> bool:
        """Whether the file declares a `view`."""
        return self._view is not None

    def view(self, s) -> str:
        """The state as the file's `view` shows it, or without one its fields one per line (and,
        with several players, the one to move, as `to_move` in state_json)."""
        if self._view is None:
            mover = [f"to_move: {self.player_names[s[self.nstate - 2]]}"] if self.num_players > 1 else []
            return "\n".join([f"{k}: {rt.format_value(v)}" for k, v in zip(self.field_names, s)] + mover)
        fn, span = self._view
        try:
            with guard(span, "the view"):
                return fn(self.env(s))
        except RuleRuntimeError as e:  # the state it failed on, for the command to show
            if getattr(e, "in_state", None) is None:
                e.in_state = s
            raise

    def fields_spread(self, states, most: int = 3, sample: int = 100_000) -> list:
        """(name, distinct values, least, greatest) of the `most` fields that take the most values
        in `states` (at most `sample` of them, evenly spread); the bounds of whole numbers only."""
        step = max(1, len(states) // sample)
        seen = [set() for _ in self.field_names]
        for s in states[::step]:
            for i, values in enumerate(seen):
                values.add(s[i])
        out = []
        for name, values in zip(self.field_names, seen):
            if self.splits_scored and name == self.scored_field:
                continue  # set aside: the states do not differ by it, whatever their first paths left in it
            ints = bool(values) and all(type(v) is int for v in values)
            out.append((name, len(values), min(values) if ints else None, max(values) if ints else None))
        out.sort(key=lambda x: -x[1])
        return [x for x in out[:most] if x[1] > 1]

    def state_json(self, s) -> dict:
        """The state by field name (records as objects, bags as sorted lists); the player to move
        where there are several, and where the file has `once` triggers the lines of those that
        have fired (`fired`)."""
        records = self.checker.records
        out = {f.name: rt.to_json(v, f.type, records) for f, v in zip(self.checker.fields, s)}
        if self.num_players > 1:
            out["to_move"] = self.player_names[s[self.nstate - 2]]
        if self.once_lines:
            out["fired"] = [line for i, line in self.once_lines.items() if s[self.nstate - 1] >> i & 1]
        return out

    def chance_steps(self, line) -> list:
        """For each step of a line [(move, state), ...] from the initial state, whether chance made it."""
        return [self.current_player(s) == CHANCE for s in [self._initial] + [s for _, s in line[:-1]]]

    def line_json(self, line, views: bool = False) -> list:
        """A line [(move, state), ...] from the initial state, as {"move", "state"} objects; a
        step chance made has `"chance": true`, and with `views` each has its `view` too."""
        def step(move: str, s, *extra) -> dict:
            return {"move": move, "state": self.state_json(s), **dict(extra),
                    **({"view": self.view(s)} if views else {})}
        return [step("start", self._initial)] + [
            step(self.describe(mv), s, *([("chance", True)] if by_chance else []))
            for (mv, s), by_chance in zip(line, self.chance_steps(line))]
