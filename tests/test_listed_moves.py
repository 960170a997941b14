"""Listed moves keep what they change: the next state is made when a search asks for it."""
import pickle
import random
import tracemalloc

from engine.game import Move
from engine.load import load_game
from search.protocol import CHANCE

from conftest import ROOT

WIDE = """\
state { board: map<int, int> = {k: 0 for k in 0..399}  turns: 0..3 = 0 }
action mark(k) "mark {k}" { board[k] = 1  turns += 1 }
turn {
    choose k in 0..399 where board[k] == 0
    mark(k)
}
terminal turns == 3
score sum(values(board))
"""


def test_the_moves_of_a_state_with_a_large_map_hold_far_less_than_a_copy_of_it_each(tmp_path):
    game = _wide(tmp_path)
    s = game.initial_state()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    moves = game.legal_moves(s)
    held = tracemalloc.get_traced_memory()[0] - before
    one_map = _traced_size(lambda: s[0].set(0, 1))
    tracemalloc.stop()
    assert len(moves) == 400
    # each copy of the 400-entry map is some 20 KB: 400 copies would be 8 MB
    assert held < 20 * one_map


def test_a_move_made_on_demand_is_the_state_the_turn_made_with_its_keys_in_order(tmp_path):
    game = _wide(tmp_path)
    s = game.initial_state()
    for m in game.legal_moves(s)[:50]:
        k = int(m.label.split()[1])
        board, turns = game.apply(s, m)[:2]
        assert board == {**dict(s[0]), k: 1} and list(board) == list(range(400)) and turns == 1
        assert game.apply(s, m) == game.apply(s, m) and game.apply(s, m) is not s
    moves = game.legal_moves(s)
    assert pickle.loads(pickle.dumps(moves)) == moves


def test_railroad_ink_moves_made_on_demand_are_the_states_the_turn_made(monkeypatch):
    lean, full = (load_game(str(ROOT / "rules" / "railroad-ink.rules")) for _ in range(2))
    rng = random.Random(5)
    s = lean.initial_state()
    while not lean.is_terminal(s):
        if lean.current_player(s) == CHANCE:
            s = lean.sample_chance(s, rng).next
            continue
        moves = lean.legal_moves(s)
        with monkeypatch.context() as patch:  # moves that hold the next state the turn made
            patch.setattr(Move, "lean", classmethod(lambda cls, label, base, nxt, slots: cls(label, nxt)))
            made = full.legal_moves(s)
        assert [m.label for m in moves] == [m.label for m in made]
        for m, f in zip(moves, made):  # the maps' entries in the order the turn set them, too
            assert _in_order(m.next) == _in_order(f.next)
        s = rng.choice(moves).next


def _wide(tmp_path):
    path = tmp_path / "wide.rules"
    path.write_text(WIDE)
    return load_game(str(path))


def _in_order(state) -> list:
    return [list(v.items()) if isinstance(v, dict) else v for v in state]


def _traced_size(make) -> int:
    before = tracemalloc.get_traced_memory()[0]
    kept = make()
    size = tracemalloc.get_traced_memory()[0] - before
    del kept
    return size
