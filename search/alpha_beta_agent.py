"""The alpha-beta agent: for a game of two players whose returns add up to the same total, the move
that a depth-limited alpha-beta search values best, searched one depth deeper at a time while the
budget lasts (iterative deepening)."""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from .alpha_beta import NotConstantSum, alpha_beta
from .budget import Budgeted, Observer, Progress, Result


class Unfit(Exception):
    """The game is not one the agent can play: its message says why."""


class _Spent(Exception):
    """The budget ran out in the middle of a search."""


class _Counted:
    """The game as a search from `root` sees it: each listing of moves or chance outcomes and each
    move applied is a forward-model call of `fm`; once the budget is spent, _Spent. With a
    `heuristic`, an end is valued by it too, as every search values ends (finished and unfinished
    lines on one scale)."""

    def __init__(self, game, root, fm: Budgeted, heuristic: Optional[str], root_moves: Sequence):
        self._game, self._root, self._fm, self._heuristic = game, root, fm, heuristic
        self._root_moves = root_moves  # the root's moves in the order the search tries them

    def __getattr__(self, name):
        return getattr(self._game, name)

    def _call(self) -> None:
        if self._fm.spent:
            raise _Spent

    def initial_state(self):
        return self._root

    def returns(self, s):
        h = self._heuristic
        return self._game.returns(s) if h is None else [self._game.evaluate(s, h, p) for p in (0, 1)]

    def legal_moves(self, s):
        self._call()
        if s is self._root:  # listed once, when the decision began
            return self._root_moves
        return self._fm.moves(s)

    def legal_moves_within(self, s, limit: int):
        self._call()
        self._fm.charge()
        within = getattr(self._game, "legal_moves_within", None)
        return self._game.legal_moves(s) if within is None else within(s, limit)

    def chance_outcomes(self, s):
        self._call()
        return self._fm.outcomes(s)

    def apply(self, s, m):
        self._call()
        return self._fm.apply(s, m)


def alpha_beta_agent(game, state, *, budget: Optional[int], rng, heuristic: Optional[str] = None,
                     max_depth: Optional[int] = None, observers: Iterable[Observer] = (),
                     progress: Optional[Progress] = None) -> Result:
    """Search state to depth 1, 2, ... (at most max_depth) with alpha-beta, the states where the
    lines stop and the ends valued by the heuristic (by the score without one), until the budget
    runs out or a search reaches every end: the best move of the deepest search that finished (the
    first of those as good in a random order of the moves; where the lines stop, by player 0's lead
    over player 1, see alpha_beta). Unfit where two ends' returns add up to different totals."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    moves = list(fm.moves(state))
    if len(moves) <= 1:
        return fm.result(moves[0] if moves else None)
    rng.shuffle(moves)  # of moves as good, the first tried is played: one drawn at random, not the first listed
    if max_depth == 0:  # no search: a move at random
        return fm.result(moves[0])
    counted, best = _Counted(game, state, fm, heuristic, moves), [moves[0]]
    leaf = None if heuristic is None else counted.returns

    def deepened(depth: int, i: Optional[int]):  # a depth searched whole: its best move
        fm.iterations = depth
        if i is not None:
            best[0] = moves[i]
    try:  # one search, deeper a depth at a time, each ordering its moves by the one before
        found = alpha_beta(counted, first_moves=False, max_depth=DEEPEST if max_depth is None else max_depth,
                           leaf=leaf, deepened=deepened)
        fm.iterations += 1
        best[0] = found.best_line[0][0]
    except _Spent:
        pass
    except NotConstantSum as e:
        raise Unfit(f"alpha-beta takes one player's gain for the other's loss, but the values of two ends it met "
                    f"add up to different totals, {_shown(e.first)} and {_shown(e.other)}"
                    + (f" (by the heuristic {heuristic}, which values the ends too)" if heuristic is not None else ""))
    return fm.result(best[0])


def _shown(values) -> str:
    """Two players' values as a message writes them: (9, 1), (0.5, 0.5)."""
    return "(" + ", ".join(f"{v:g}" for v in values) + ")"


DEEPEST = 1_000
"""The depth the agent deepens to without --depth: as a game stops at 1,000 moves (`play --max-moves`)."""
