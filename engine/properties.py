"""Property checks driven by Hypothesis: invariants and the forward-model contract after every move.

Each example is a line of play from the initial state: Hypothesis picks every
move (or chance outcome) by index, and every property is checked in every state
on the line. A failure ends the line there, so shrinking the choices shortens
the line; `check_game` then searches again below its length, until no shorter
failing line turns up, and last checks every state fewer moves from the start
(within a limit), so that the line reported has the fewest moves.

A loop under `@given(st.data())` rather than a RuleBasedStateMachine: a line
stops at a terminal state, where a state machine would go on running empty
steps up to its step count (or reject the example if no rule applies).
"""
from __future__ import annotations

import math
import multiprocessing
import tempfile
from contextlib import contextmanager
from typing import Callable, Optional, Sequence

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, strategies as st
from hypothesis import seed as hypothesis_seed
from hypothesis.configuration import set_hypothesis_home_dir, storage_directory
from hypothesis.errors import HypothesisException

from search.play import can_fork, leave_interrupts_to_the_parent, sigterm_ends_the_run
from search.protocol import CHANCE
from .diagnostics import RuleRuntimeError, clip as _clip
from .model import Span

BUILT_IN = (
    "apply never changes its input state",
    "equal keys give equal legal moves and equal evaluations",
    "terminal states have no legal moves and have returns",
    "chance outcomes have positive weights that sum to 1",
    "every legal move can be applied",
    "moves of one state have distinct labels",
)
"""The properties checked in every state of every game."""


@attrs.frozen
class Failure:
    """A property that does not hold: what and where, the moves that lead there, and the state."""

    code: str  # "invariant", "runtime" or "property" (a built-in property)
    message: str
    span: Optional[Span]  # the invariant or the rule that failed; None for a built-in property
    moves: tuple  # move labels from the initial state
    state: object  # game.state_json(s), or repr(s) for a game without it
    hint: Optional[str] = None  # what may help, for a rule that failed
    fewest: bool = False  # every state fewer moves from the start was checked: no shorter line fails
    before: object = None  # an invariant that reads old(...): the state before the last step, as `state`
    view: Optional[str] = None  # the state through the file's view, when it declares one that can show it


@attrs.frozen
class Report:
    """What a check did: the examples and moves it ran, and the failure it found, if any."""

    examples: int
    steps: int
    invariants: int
    failure: Optional[Failure]
    every_line: bool = False  # Hypothesis ran out of lines to try: the examples are every line the game has
    dead_ends: int = 0  # lines that stopped at a state that is not terminal where no move is legal


class _Found(Exception):
    """Carries a failure out of the Hypothesis test."""

    def __init__(self, failure: Failure):
        super().__init__(failure.message)
        self.failure = failure


def check_game(game, *, examples: int = 200, seed: int = 0, steps: int = 1000,
               extra_invariants: Sequence = (), progress: Optional[Callable] = None) -> Report:
    """Check invariants, `extra_invariants` and BUILT_IN along lines of play chosen by Hypothesis."""
    # extra_invariants: (declaration with a .span, state -> bool) pairs;
    # progress(examples, steps) is called after each line of play.
    run = _Run(game, tuple(extra_invariants), progress)
    failure = None
    with _scratch_hypothesis_home(), _no_local_constants(), _memo_off(game):
        # Shrinking makes the choices small, not always few: three times "add 1" can be
        # a local minimum when two times "add 2" also fails. So search again below the
        # length of each failure until no shorter one turns up.
        while (found := _search(run, examples, seed, steps)) is not None:
            failure = found
            if not found.moves:
                break
            steps = len(found.moves) - 1
        if failure is not None:
            failure = _fewest(run, failure, limit=max(FEWEST_STATES, run.steps + run.examples))
    return Report(run.examples, run.steps, run.ninvariants, failure, run.every_line and failure is None,
                  run.dead_ends)


FEWEST_STATES = 20_000
"""The states `_fewest` may check in any case; more when the search itself went through more."""


def _fewest(run: "_Run", failure: Failure, limit: int) -> Failure:
    """The failure with the fewest moves: every state fewer moves from the start than the
    failure's line is checked, breadth first (chance outcomes too), equal keys once. A failure
    met there comes first; else it is the failure found, now known to be the shortest. Past
    `limit` states the walk gives up and the failure stays as found."""
    g = run.game
    try:
        s = g.initial_state()
        layer, seen, checked = [(s, ())], {g.key(s)}, 0
        for depth in range(len(failure.moves)):
            after = []
            for s, line in layer:
                checked += 1
                if checked > limit:
                    return failure
                labels, nexts = run.visit(s, list(line))
                if depth + 1 < len(failure.moves):
                    for label, t in zip(labels, nexts):
                        if (k := g.key(t)) not in seen:
                            seen.add(k)
                            after.append((t, line + (label,)))
            layer = after
    except _Found as e:
        return attrs.evolve(e.failure, fewest=True)
    return attrs.evolve(failure, fewest=True)


@attrs.frozen
class _Parts:
    """What the parts of one check_in_parts check."""

    game: object
    extra: tuple  # extra_invariants
    examples: int
    seed: int
    steps: int
    jobs: int
    counts: object  # the examples and steps of each part so far, two numbers a part


_PARTS: Optional[_Parts] = None  # set before the parts start (or, by _started, the error that kept it from being made)


def check_in_parts(game, *, jobs: int, examples: int = 200, seed: int = 0, steps: int = 1000,
                   extra_invariants: Sequence = (), progress: Optional[Callable] = None,
                   rebuild: Optional[Callable[[], tuple]] = None) -> Report:
    """check_game shared among `jobs` parts: part i checks its share of the examples with seed
    `seed * 1000 + i`, each part in a process of its own: forked where the platform forks, else
    started afresh, `rebuild()` making in it the (game, extra_invariants) given here (a picklable
    function: of its module, or a functools.partial of one). Without either, one part after
    another here. The counts add up; of the failures the parts found, the one with the fewest
    moves is reported (the earliest part's on a tie). The same seed and jobs give the same report
    on every platform; another number of jobs plays other lines."""
    global _PARTS
    jobs = min(jobs, examples)
    if jobs <= 1:
        return check_game(game, examples=examples, seed=seed, steps=steps, extra_invariants=extra_invariants,
                          progress=progress)
    method = "fork" if can_fork() else "spawn" if rebuild is not None else None
    context = multiprocessing.get_context(method) if method else None
    counts = context.Array("q", 2 * jobs, lock=False) if context else [0] * (2 * jobs)
    _PARTS = _Parts(game, tuple(extra_invariants), examples, seed, steps, jobs, counts)

    def told():
        if progress is not None:
            progress(sum(counts[0::2]), sum(counts[1::2]))
    try:
        if context is None:
            reports = [_check_part(i, told) for i in range(jobs)]
        else:
            start, given = (leave_interrupts_to_the_parent, ()) if method == "fork" else \
                (_started, (rebuild, attrs.evolve(_PARTS, game=None, extra=())))
            with sigterm_ends_the_run():  # as while play's workers play
                reports = _parts_in_processes(context.Pool(jobs, start, given), jobs, told)
    finally:
        _PARTS = None
    failures = [r.failure for r in reports if r.failure is not None]
    first = min(failures, key=lambda f: len(f.moves)) if failures else None
    if first is not None and any(f.fewest and len(f.moves) == len(first.moves) for f in failures):
        first = attrs.evolve(first, fewest=True)
    return Report(sum(r.examples for r in reports), sum(r.steps for r in reports), reports[0].invariants, first,
                  first is None and any(r.every_line for r in reports), sum(r.dead_ends for r in reports))


def _started(rebuild: Callable[[], tuple], parts: _Parts) -> None:
    """In a process started afresh: the game and extra invariants made again, the rest of the
    parts as the parent has them."""
    global _PARTS
    leave_interrupts_to_the_parent()
    try:
        game, extra = rebuild()
    except Exception as e:  # raised here, the pool would start the process again and again
        _PARTS = e  # _check_part raises it, and the parent with it
        return
    _PARTS = attrs.evolve(parts, game=game, extra=tuple(extra))


def _parts_in_processes(pool, jobs: int, told: Callable[[], None]) -> list:
    """The reports of the parts of _PARTS, each checked by a process of the pool; `told` is
    called every 0.2 s until they are all done."""
    try:
        result = pool.map_async(_check_part, range(jobs))
        while not result.ready():
            result.wait(0.2)
            told()
        reports = result.get()
        pool.close()
        pool.join()
    except BaseException:  # interrupted
        pool.terminate()
        raise
    return reports


def _check_part(i: int, told: Callable[[], None] = lambda: None) -> Report:
    """Part i of check_in_parts (in a process of its own, or here one part after another): its
    examples and steps so far go to the shared counts, and then `told` is called."""
    p = _PARTS
    if isinstance(p, Exception):
        raise p

    def progress(n: int, k: int):
        p.counts[2 * i], p.counts[2 * i + 1] = n, k
        told()
    return check_game(p.game, examples=p.examples // p.jobs + (i < p.examples % p.jobs), seed=p.seed * 1000 + i,
                      steps=p.steps, extra_invariants=p.extra, progress=progress)


def _search(run: "_Run", examples: int, seed: int, steps: int) -> Optional[Failure]:
    """One Hypothesis run: the shrunk failure, or None when every line passes."""

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
              phases=(Phase.generate, Phase.shrink), report_multiple_bugs=False, print_blob=False)
    @given(st.data())
    def line_of_play(data):
        run.play(lambda n: data.draw(st.integers(0, n - 1)), steps)

    try:
        with _stopped_because(run):
            line_of_play()
    except _Found as e:
        return e.failure
    except HypothesisException as e:  # a flaky game: a line fails, then passes when replayed
        found = _found_in(e)
        if found is None:
            raise
        f = found.failure
        return attrs.evolve(f, message=f.message + " (not every time: the game is not deterministic)")
    return None


@contextmanager
def _stopped_because(run: "_Run"):
    """Note in run.every_line whether Hypothesis stopped for want of new lines to try (every
    sequence of choices tried: the game has no other line of at most the steps asked), from
    the statistics it reports. A Hypothesis that reports none, or moved them, tells nothing."""
    try:
        from hypothesis.statistics import collector
    except ImportError:
        yield
        return

    def note(stats):
        run.every_line = stats.get("stopped-because") == "nothing left to do"
    with collector.with_value(note):
        yield


@contextmanager
def _memo_off(game):
    """Turn a compiled game's memo tables off, so that equal keys compare freshly generated moves."""
    memo = getattr(game, "memo_limit", None)
    if memo is not None:
        game.memo_limit = 0
    try:
        yield
    finally:
        if memo is not None:
            game.memo_limit = memo


@contextmanager
def _no_local_constants():
    """Keep Hypothesis from drawing now and then a number written in the source of a module loaded
    from outside site-packages (as it does from version 6.131 on): which modules those are
    depends on how the engine was installed and on what else was imported, so the same seed
    would play other lines. A Hypothesis without them, or with its internals moved, is left
    as it is."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
        get, cache = providers._get_local_constants, providers.CONSTANTS_CACHE.cache
    except (ImportError, AttributeError):
        yield
        return
    none = Constants()
    providers._get_local_constants = lambda: none
    cache.clear()  # it holds the constants already found, by the kind of value drawn
    try:
        yield
    finally:
        providers._get_local_constants = get
        cache.clear()


@contextmanager
def _scratch_hypothesis_home():
    """Point Hypothesis' storage at a temporary directory while checking."""
    # even without a database, Hypothesis caches constants it finds in ./.hypothesis
    home = storage_directory()
    previous = getattr(home, "home_directory", home)  # a plain Path before Hypothesis 6.131
    with tempfile.TemporaryDirectory(prefix="engine-check-") as home:
        set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            set_hypothesis_home_dir(previous)


def _found_in(e: BaseException) -> Optional[_Found]:
    """The failure inside an exception group or chain that Hypothesis raised, if any."""
    if isinstance(e, _Found):
        return e
    for inner in list(getattr(e, "exceptions", ())) + [e.__cause__, e.__context__]:
        if inner is not None and (found := _found_in(inner)) is not None:
            return found
    return None


_DOING = {"legal_moves": "while listing the moves of the state below",
          "chance_outcomes": "while listing the chance outcomes of the state below",
          "view": "while showing the state below through the view", "returns": "while scoring the state below",
          "is_terminal": "while testing whether the state below ends the game",
          "current_player": "while finding who moves in the state below"}
"""What a rule failing in check was doing, by the game method it failed in."""


class _Run:
    """The state of one check across examples: counters and what each key has shown so far."""

    def __init__(self, game, extra: tuple, progress):
        self.game = game
        self.extra = extra
        self.progress = progress
        self.examples = self.steps = 0
        self.every_line = False  # the last Hypothesis run stopped for want of new lines
        self.dead_ends = 0  # lines that stopped where the game is not over but no move is legal
        self.ninvariants = len(getattr(game, "invariants", ())) + len(getattr(game, "step_invariants", ())) + \
            len(extra)
        # key -> (line of moves, fingerprints, texts): for the labels of the legal moves, the keys
        # of the next states and the evaluations, a fingerprint (length and hash; the evaluations
        # themselves) and the start of their text for a message. Not the moves or next states:
        # a check of a wide game held every state it listed (6.5 GB for 200 examples of one).
        self.seen: dict = {}

    def play(self, pick: Callable[[int], int], max_steps: int) -> None:
        """One line of play from the initial state; `pick(n)` chooses among n moves."""
        # Hypothesis stops a line that repeats one it has played: only complete lines count
        line: list = []
        with self.guard(line, None, "initial_state"):
            s = self.game.initial_state()
        for step in range(max_steps + 1):
            labels, nexts = self.visit(s, line, last=step == max_steps)
            if not nexts and not self.game.is_terminal(s):
                self.dead_ends += 1
            if not nexts or step == max_steps:
                break
            i = pick(len(nexts)) if len(nexts) > 1 else 0
            line.append(labels[i])
            s = nexts[i]
        self.examples += 1
        self.steps += len(line)
        if self.progress:
            self.progress(self.examples, self.steps)

    def fail(self, code: str, message: str, span, line: list, s, hint: Optional[str] = None, before=None):
        """Stop the line: raise the failure with the moves so far and state s (and the state
        `before` the last step, for an invariant that reads old(...))."""
        state_json = getattr(self.game, "state_json", None)

        def shown(x):
            return repr(x) if state_json is None or x is None else state_json(x)
        raise _Found(Failure(code, message, span, tuple(line), shown(s), hint,
                             before=None if before is None else shown(before), view=self.view_of(s)))

    def view_of(self, s) -> Optional[str]:
        """s through the game's view, if it declares one and the view can show s (a failing view
        is the failure itself)."""
        if s is None or not getattr(self.game, "declares_view", False):
            return None
        try:
            return self.game.view(s)
        except Exception:
            return None

    @contextmanager
    def guard(self, line: list, s, what: str):
        """A rule failing, or any error in the game, is a failure at this point of the line."""
        try:
            yield
        except RuleRuntimeError as e:
            doing = _DOING.get(what)
            self.fail("runtime", e.message + (f" ({doing})" if doing else ""), e.span, line, s, e.hint)
        except (_Found, KeyboardInterrupt):
            raise
        except Exception as e:
            self.fail("property", f"{what} raised {type(e).__name__}: {e}", None, line, s)

    def visit(self, s, line: list, last: bool = False) -> tuple:
        """Check every property in state s; returns the labels and next states to choose from.
        The steps on from s are checked too unless it is the `last` state of a line (a line of at
        most so many moves must not fail one move further)."""
        g = self.game
        self.check_invariants(s, line)
        if getattr(g, "declares_view", False):  # the view must show every state, as validate's playouts ask
            with self.guard(line, s, "view"):
                g.view(s)
        with self.guard(line, s, "is_terminal"):
            terminal = g.is_terminal(s)
        if terminal:
            with self.guard(line, s, "legal_moves"):
                moves = tuple(g.legal_moves(s))
            if moves:
                self.fail("property", f"a terminal state has legal moves: expected none, got {len(moves)} "
                          f"({_show(g.describe(m) for m in moves)})", None, line, s)
            with self.guard(line, s, "returns"):
                r = tuple(g.returns(s))
            if len(r) != g.num_players or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in r):
                self.fail("property", f"returns of a terminal state: expected {g.num_players} finite "
                          f"number(s), got {r!r}", None, line, s)
            self.compare_with_equal_keys(s, line, (), ())
            return (), ()
        with self.guard(line, s, "current_player"):
            chance = g.current_player(s) == CHANCE
        if chance:
            moves = self.chance_moves(s, line)
        else:
            with self.guard(line, s, "legal_moves"):
                moves = tuple(g.legal_moves(s))
        with self.guard(line, s, "describe"):
            labels = tuple(g.describe(m) for m in moves)
        if len(set(labels)) != len(labels):
            twice = next(lb for lb in labels if labels.count(lb) > 1)
            self.fail("property", f"moves of one state have distinct labels: '{twice}' labels "
                      f"{labels.count(twice)} moves", None, line, s)
        if chance:  # a line shows which of its steps chance took, as solve's best line does
            labels = tuple(f"chance: {label}" for label in labels)
        nexts = tuple(self.apply_all(s, moves, labels, line))
        if not last:
            self.check_steps(s, line, labels, nexts)
        self.compare_with_equal_keys(s, line, labels, nexts)
        return labels, nexts

    def check_steps(self, s, line: list, labels: tuple, nexts: tuple) -> None:
        """The invariants that read old(...), the game's then the extra ones, on every step from s."""
        broken_steps = getattr(self.game, "broken_steps", None) if getattr(self.game, "step_invariants", ()) \
            else None
        extra = [(decl, holds) for decl, holds in self.extra if getattr(holds, "step", False)]
        if broken_steps is None and not extra:
            return
        for label, t in zip(labels, nexts):
            with self.guard(line + [label], t, "broken_invariants"):
                broken = [] if broken_steps is None else broken_steps(s, t)
                if not broken:
                    broken = [decl for decl, holds in extra if not holds(t, s)]
            if broken:
                self.fail("invariant", "invariant does not hold", broken[0].span, line + [label], t, before=s)

    def check_invariants(self, s, line: list) -> None:
        """The game's own invariants, then the extra ones."""
        broken_invariants = getattr(self.game, "broken_invariants", None)
        if broken_invariants is not None:
            with self.guard(line, s, "broken_invariants"):
                broken = broken_invariants(s)
            if broken:
                self.fail("invariant", "invariant does not hold", broken[0].span, line, s)
        for decl, holds in self.extra:
            if getattr(holds, "step", False):
                continue  # on the steps, by check_steps
            with self.guard(line, s, "an invariant"):
                ok = holds(s)
            if not ok:
                self.fail("invariant", "invariant does not hold", decl.span, line, s)

    def chance_moves(self, s, line: list) -> tuple:
        """The outcomes of a chance node, whose weights must be positive and sum to 1."""
        with self.guard(line, s, "chance_outcomes"):
            outcomes = tuple(self.game.chance_outcomes(s))
            labels = [self.game.describe(o) for o, _ in outcomes]
        for label, (_, p) in zip(labels, outcomes):
            if not (isinstance(p, (int, float)) and p > 0):
                self.fail("property", f"chance outcome '{label}' has weight {p!r}: expected a positive "
                          "number", None, line, s)
        total = sum(p for _, p in outcomes)
        if abs(total - 1) > 1e-9:
            self.fail("property", f"chance outcomes' weights sum to {total!r}: expected 1 "
                      f"({len(outcomes)} outcome(s))", None, line, s)
        return tuple(o for o, _ in outcomes)

    def apply_all(self, s, moves: tuple, labels: tuple, line: list) -> list:
        """Apply every move to s, which must not change; returns the next states.

        s is compared with its text before after the 1st, 2nd, 4th, 8th... move and after the
        last: a state of many moves is written out a few times, not once a move (which took
        most of a check's time). A change is named by the move after which it was seen, and
        by the first move since the check before it when that was not the one before."""
        before = repr(s)
        nexts, checked = [], 0
        for i, (m, label) in enumerate(zip(moves, labels), 1):
            with self.guard(line, s, f"apply of move '{label}'"):
                nexts.append(self.game.apply(s, m))
            if i & (i - 1) == 0 or i == len(moves):  # a power of two, or the last
                after = repr(s)
                if after != before:
                    which = f"'{label}'" if i == checked + 1 else \
                        f"one of the moves from '{labels[checked]}' to '{label}' (moves {checked + 1}-{i})"
                    self.fail("property", f"apply changed its input state: applying {which} turned "
                              f"{_clip(before)} into {_clip(after)}", None, line, s)
                checked = i
        return nexts

    def compare_with_equal_keys(self, s, line: list, labels: tuple, nexts: tuple) -> None:
        """States with equal keys have equal moves, next keys and evaluations. Where the game is
        not over, a score that fails (`10 // k` with k still 0) is left out of the evaluations: it
        may have no value before the end, and only a search whose lines stop short reads it."""
        g = self.game
        with self.guard(line, s, "key or evaluate"):
            k = g.key(s)
            try:
                score = (g.evaluate(s),)
            except RuleRuntimeError:
                if g.is_terminal(s):
                    raise
                score = ()
            evals = score + tuple(g.evaluate(s, h) for h in getattr(g, "heuristics", ()))
            keys = tuple(g.key(n) for n in nexts)
            fingerprint = ((len(labels), hash(labels)), (len(keys), hash(keys)), evals)
            old = self.seen.get(k)
        if old is None:
            self.seen[k] = (tuple(line), fingerprint, (_show(labels), _start(keys), str(evals)))
            return
        line_there, was, was_text = old
        for i, what in enumerate(("legal moves", "next states", "evaluations")):
            if was[i] != fingerprint[i]:
                where = " after " + "; ".join(line_there) if line_there else " in the initial state"
                now_text = (_show(labels), _start(keys), str(evals))[i]
                self.fail("property", f"equal keys give different {what}: the state with this key{where} "
                          f"had {_clip(was_text[i])}, this one has {_clip(now_text)}", None, line, s)


def _show(labels) -> str:
    """Move labels for a message."""
    return _clip(_joined(f"'{lb}'" for lb in labels) or "none")


def _start(items: tuple, n: int = 200) -> str:
    """str(items), or as much of its start as _clip shows."""
    text = _joined((repr(x) for x in items), n)
    return "(" + text if len(text) > n else str(items)


def _joined(texts, n: int = 200) -> str:
    """", ".join(texts), or a start of it longer than n characters, which _clip shows as it would
    the whole: a state's moves are written out for every state a check meets, and a wide turn
    has over 100,000 of them, of which a message shows a few."""
    parts, size = [], -2
    for t in texts:
        parts.append(t)
        size += len(t) + 2
        if size > n:
            break
    return ", ".join(parts)
