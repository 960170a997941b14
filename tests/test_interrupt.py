"""Ctrl-C during a search: the search stops and reports what it found; a second Ctrl-C quits."""
import json
import os
import random
import signal
import threading
import time

import pytest

from conftest import ROOT
from engine import load_game
from engine.cli import main
from engine.interrupt import first_interrupt_stops
from search.agents import ALGORITHMS, plan
from search.budget import PROGRESS_EVERY

NIDAVELLIR = str(ROOT / "rules" / "nidavellir.rules")


@pytest.mark.parametrize("algo", [a for a in ALGORITHMS if a != "osla"])  # osla: one call a move, whatever the budget
def test_a_search_told_to_stop_at_its_first_report_stops_there_whatever_its_budget(algo):
    game = load_game(NIDAVELLIR)
    told = []

    def progress(calls, best):
        told.append(calls)
        return True

    r = plan(game, game.initial_state(), algo, budget=10**9, rng=random.Random(1), progress=progress)
    assert told and told[0] >= PROGRESS_EVERY
    # what was under way when it was told finishes: a line of 8 trades, or the move being weighed
    assert r.fm_calls < told[0] + 500, (algo, r.fm_calls)


def test_a_line_planner_told_to_stop_keeps_the_best_line_it_had_found():
    game = load_game(NIDAVELLIR)
    r = plan(game, game.initial_state(), "random-walk", budget=10**9, rng=random.Random(1),
             progress=lambda calls, best: calls >= 3 * PROGRESS_EVERY)
    assert 3 * PROGRESS_EVERY <= r.fm_calls < 3 * PROGRESS_EVERY + 50
    assert r.best_score is not None and len(r.best_line) == 8  # one trade a round, 8 rounds
    assert r.best_score == game.returns(r.best_line[-1][1])[0]


def interrupt_when_handled(times: int = 1):
    """From another thread: once the command has its own Ctrl-C handler, send the process SIGINT
    (`times` times, a second only once the handler that was there before is back)."""
    def run():
        default = signal.getsignal(signal.SIGINT)
        for _ in range(times):
            deadline = time.monotonic() + 60
            while signal.getsignal(signal.SIGINT) is default and time.monotonic() < deadline:
                time.sleep(0.01)
            default = signal.getsignal(signal.SIGINT)
            time.sleep(0.2)
            os.kill(os.getpid(), signal.SIGINT)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_ctrl_c_during_search_prints_the_best_line_found_and_exits_130(capsys):
    t = interrupt_when_handled()
    status = main(["search", NIDAVELLIR, "--algo", "random-walk", "--budget", "1000000000"])
    t.join()
    out, err = capsys.readouterr()
    assert status == 130
    lines = out.splitlines()
    assert lines[1] == "  interrupted (Ctrl-C): what the search had found by then"
    assert lines[2].startswith("  best score: ")
    assert len(lines) == 4 + 8  # the heading, the interrupt, the score, "best line:" and 8 trades
    assert "Traceback" not in err


def test_ctrl_c_during_search_with_json_says_interrupted(capsys):
    t = interrupt_when_handled()
    status = main(["search", NIDAVELLIR, "--algo", "beam", "--width", "1000000", "--budget", "1000000000",
                   "--json"])
    t.join()
    out = json.loads(capsys.readouterr().out)
    assert status == 130
    assert out["interrupted"] is True
    assert out["fm_calls"] < 10**9


def test_a_second_ctrl_c_quits_at_once(capsys):
    t = interrupt_when_handled(times=2)
    with pytest.raises(KeyboardInterrupt):
        with first_interrupt_stops() as stop:
            while True:  # a run that does not look at `stop`
                time.sleep(0.01)
    t.join()
    assert stop.is_set()


def test_the_handler_there_was_is_put_back_after_the_block():
    before = signal.getsignal(signal.SIGINT)
    with first_interrupt_stops():
        assert signal.getsignal(signal.SIGINT) is not before
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_during_play_reports_the_games_played_as_a_shorter_run_would(capsys, jobs):
    t = interrupt_when_handled()
    status = main(["play", "rules/tictactoe.rules", "--agents", "mcts,random", "--games", "20000",
                   "--budget", "100", "--jobs", jobs, "--json"])
    t.join()
    assert status == 130
    out = json.loads(capsys.readouterr().out)
    assert out["interrupted"] is True
    n = out["agents"][0]["games"]
    assert 0 < n < 20000
    assert main(["play", "rules/tictactoe.rules", "--agents", "mcts,random", "--games", str(n),
                 "--budget", "100", "--json"]) == 0
    shorter = json.loads(capsys.readouterr().out)
    assert shorter["interrupted"] is False
    assert out["agents"] == shorter["agents"]


def test_an_interrupted_play_says_how_to_play_the_rest(capsys):
    t = interrupt_when_handled()
    status = main(["play", NIDAVELLIR, "--agents", "random", "--games", "1000000", "--first-game", "5"])
    t.join()
    assert status == 130
    lines = capsys.readouterr().out.splitlines()
    n = int(lines[-1].split()[1])  # the agent's row: name, games, ...
    assert lines[1] == (f"  interrupted (Ctrl-C) after {n:,} games of 1,000,000 "
                        f"(the rest: --first-game {5 + n} --games {1000000 - n})")
