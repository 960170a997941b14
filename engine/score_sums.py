"""validate's look at the score before the end: in a game of several players whose returns add up
to the same at every end the playouts reached, a state before the end where they add up to another
total. The agents value the states where their lines stop by the score, so a score that means
something only at the end (`if won(p) then 1 else -1`) misleads them where the file declares no
heuristic."""
from __future__ import annotations

from typing import Optional

from . import model as m
from .diagnostics import Diagnostic, RuleRuntimeError, counted
from .runtime import number_text
from search.protocol import CHANCE


class ScoreSums:
    """The sums of the returns at the ends and in the states where a player moves before one."""

    def __init__(self, game):
        self.game = game
        self.ends: set = set()  # the sums of the returns at the ends
        self.before: dict = {}  # a sum before an end -> (the moves before, the returns)

    @classmethod
    def of(cls, game) -> Optional["ScoreSums"]:
        """The look for a game of several players without a heuristic, else None."""
        return cls(game) if game.num_players > 1 and not game.heuristics else None

    def look(self, s, moves: int) -> None:
        game = self.game
        try:
            if game.is_terminal(s):
                self.ends.add(round(sum(game.returns(s)), 9))
            elif game.current_player(s) != CHANCE:
                if game.legal_moves_within(s, 0) == ():  # a dead end, which solve and play score as an end
                    self.ends.add(round(sum(game.returns(s)), 9))
                elif len(self.before) < 2:
                    returns = tuple(game.returns(s))
                    self.before.setdefault(round(sum(returns), 9), (moves, returns))
        except RuleRuntimeError:  # a score that cannot be worked out before the end: not this warning's
            pass

    def warnings(self) -> list:
        if len(self.ends) != 1:
            return []
        total = next(iter(self.ends))
        other = [(moves, returns) for t, (moves, returns) in self.before.items() if t != total]
        decl = next((d for d in self.game.checker.decls if isinstance(d, m.ScoreDecl)), None)
        if not other or decl is None:
            return []
        moves, returns = other[0]
        shown = ", ".join(f"{p} {number_text(v)}" for p, v in zip(self.game.player_names, returns))
        return [Diagnostic(
            "score-before-end", f"the returns add up to {number_text(total)} at every end the random playouts "
            f"reached, but to {number_text(round(sum(returns), 9))} "
            + ("in the initial state" if moves == 0 else f"after {counted(moves, 'move')}") + f" ({shown})",
            decl.span, "agents value the states where their lines stop by the score when the file declares no "
            "heuristic: a score that holds before the end as at it (if won(p) then 1 else if won(other(p)) then -1 "
            "else 0), or a `heuristic`, tells them how a game stands; where the score does so already (the points "
            "taken so far), a heuristic of it says so (`heuristic taken for p = ...`)", severity="warning")]
