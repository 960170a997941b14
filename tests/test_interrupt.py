"""Ctrl-C during a search: the search stops and reports what it found; a second Ctrl-C quits."""
import contextlib
import json
import os
import random
import re
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


@contextlib.contextmanager
def ctrl_c_once_handled(times: int = 1, sig=signal.SIGINT):
    """Within the block, from another thread: once the command has put in its own handler of `sig`
    (Ctrl-C's SIGINT, or SIGTERM), send the process that signal (`times` times, a second once the
    handler there was before is back). Nothing is sent once the block has ended, so a command that
    fails early fails the test alone."""
    done = threading.Event()
    before = signal.getsignal(sig)  # read here: the command may put in its own before the thread starts

    def run():
        handler = before
        for _ in range(times):
            while signal.getsignal(sig) is handler:
                if done.wait(0.01):
                    return
            handler = signal.getsignal(sig)
            if done.wait(0.2):
                return
            os.kill(os.getpid(), sig)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        yield
    finally:
        done.set()
        t.join()


def test_ctrl_c_during_search_prints_the_best_line_found_and_exits_130(capsys):
    with ctrl_c_once_handled():
        status = main(["search", NIDAVELLIR, "--algo", "random-walk", "--budget", "1000000000"])
    out, err = capsys.readouterr()
    assert status == 130
    lines = out.splitlines()
    assert lines[1] == "  interrupted (Ctrl-C): what the search had found by then"
    assert lines[2].startswith("  best score: ")
    # the heading, the interrupt, the score, "best line:" and 8 trades, then where the line ends
    assert len(lines[:lines.index("  its final state:")]) == 4 + 8
    assert "Traceback" not in err


def test_ctrl_c_during_a_search_deciding_move_by_move_stops_within_the_move_it_weighs(capsys):
    with ctrl_c_once_handled():
        status = main(["search", NIDAVELLIR, "--algo", "flat-mc", "--budget", "1000000000", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 130
    assert out["interrupted"] is True
    assert out["fm_calls"] < 10**9 // 8  # less than the share of the first of its 8 decisions


def test_a_second_ctrl_c_quits_at_once(capsys):
    with ctrl_c_once_handled(times=2):
        with pytest.raises(KeyboardInterrupt):
            with first_interrupt_stops() as stop:
                while True:  # a run that does not look at `stop`
                    time.sleep(0.01)
    assert stop.is_set()


def test_the_handler_there_was_is_put_back_after_the_block():
    before = signal.getsignal(signal.SIGINT)
    with first_interrupt_stops():
        assert signal.getsignal(signal.SIGINT) is not before
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.parametrize("jobs, fork", [("1", True), ("2", True), ("2", False)])
def test_ctrl_c_during_play_reports_the_games_played_as_a_shorter_run_would(capsys, platform, jobs, fork):
    if not fork:
        platform.without_fork()  # the processes are started afresh, as on Windows
    with ctrl_c_once_handled():
        status = main(["play", "rules/tictactoe.rules", "--agents", "mcts,random", "--games", "20000",
                       "--budget", "100", "--jobs", jobs, "--json"])
    assert status == 130
    out = json.loads(capsys.readouterr().out)
    assert out["interrupted"] is True
    assert platform.contexts == ([] if jobs == "1" else ["fork" if fork else "spawn"])
    n = out["agents"][0]["games"]
    assert 0 < n < 20000
    assert main(["play", "rules/tictactoe.rules", "--agents", "mcts,random", "--games", str(n),
                 "--budget", "100", "--json"]) == 0
    shorter = json.loads(capsys.readouterr().out)
    assert shorter["interrupted"] is False
    assert out["agents"] == shorter["agents"]


def test_sigterm_during_play_stops_it_as_ctrl_c_does_and_the_handler_there_was_is_put_back(capfd):
    # `timeout` and schedulers stop a run by SIGTERM: the games played are reported all the same
    before = signal.getsignal(signal.SIGTERM)
    with ctrl_c_once_handled(sig=signal.SIGTERM):
        status = main(["play", "rules/tictactoe.rules", "--agents", "mcts,random", "--games", "20000",
                       "--budget", "100", "--json"])
    assert status == 130
    captured = capfd.readouterr()  # the note is written to the descriptor, past Python's buffers
    out = json.loads(captured.out)
    assert out["interrupted"] is True and 0 < out["agents"][0]["games"] < 20000
    assert "(asked to stop; again quits now)" in captured.err
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_worker_ends_by_sigterm_whatever_its_parent_does_with_it():
    from search.play import leave_interrupts_to_the_parent
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGTERM, lambda *a: None)  # as a parent catching it hands it on by fork
        leave_interrupts_to_the_parent()
        assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == (signal.SIG_IGN, signal.SIG_DFL)
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])


def test_an_interrupted_play_says_how_to_play_the_rest(capsys):
    with ctrl_c_once_handled():
        status = main(["play", NIDAVELLIR, "--agents", "random", "--games", "1000000", "--first-game", "5"])
    assert status == 130
    lines = capsys.readouterr().out.splitlines()
    n = int(lines[-1].split()[1])  # the agent's row: name, games, ...
    assert lines[1] == (f"  interrupted (Ctrl-C) after {n:,} games of 1,000,000 "
                        f"(the rest: --first-game {5 + n} --games {1000000 - n})")


def test_an_interrupted_play_of_agents_each_alone_says_their_means_are_of_different_games(capsys):
    # one player: random plays its 3 games at once, then mcts its own, slowly; the interrupt comes
    # while mcts plays, so the two means are of different numbers of games
    with ctrl_c_once_handled():
        status = main(["play", NIDAVELLIR, "--agents", "random,mcts", "--games", "3", "--budget", "3000"])
    assert status == 130
    lines = capsys.readouterr().out.splitlines()
    rows: dict = {}  # each agent's games, from its row of the table (the first line that names it)
    for line in lines:
        if line.startswith(("  random ", "  mcts ")) and line.split()[0] not in rows:
            rows[line.split()[0]] = int(line.split()[1])
    assert rows["random"] == 3 and 1 <= rows["mcts"] < 3, lines
    games = "1 game" if rows["mcts"] == 1 else f"{rows['mcts']} games"
    assert (f"  (interrupted: the agents' means are of different numbers of games; game by game, the differences "
            f"pair the first {games}, which every agent played)") in lines, lines


def test_ctrl_c_during_fit_fits_and_records_the_games_played_as_a_shorter_run_would(capsys, tmp_path):
    with ctrl_c_once_handled():
        fit = ["fit", NIDAVELLIR, "--features", "coin_sum", "--agent", "random"]
        status = main([*fit, "--games", "1000000", "--json", "--record", str(tmp_path / "cut.jsonl")])
    assert status == 130
    out = json.loads(capsys.readouterr().out)
    assert out["interrupted"] is True
    recorded = (tmp_path / "cut.jsonl").read_text().splitlines()
    n = len({json.loads(r)["game"] for r in recorded})
    assert 0 < n < 1000000 and out["rows"] == len(recorded) == 8 * n  # a decision a round, 8 rounds
    assert main([*fit, "--games", str(n), "--json", "--record", str(tmp_path / "whole.jsonl")]) == 0
    shorter = json.loads(capsys.readouterr().out)
    assert shorter.pop("interrupted") is False and out.pop("interrupted") is True
    assert out == shorter
    assert (tmp_path / "whole.jsonl").read_text().splitlines() == recorded


def stats_with_ctrl_c(monkeypatch, *, at_playout=None, at_depth=None, limit=100):
    """`stats` measuring depths exactly while they hold at most `limit` states, with a Ctrl-C sent
    as the given playout begins or when it is first told of states measured at the given depth
    (none if not given)."""
    from engine import cli_search
    from search.stats import stats as real

    def stats(game, *, progress, sampled, **kw):
        def measured(d, done, n):
            if d == at_depth:
                os.kill(os.getpid(), signal.SIGINT)
            return progress(d, done, n)

        def playouts(k):
            if k == at_playout:
                os.kill(os.getpid(), signal.SIGINT)
            return sampled(k)
        return real(game, progress=measured, sampled=playouts, **{**kw, "exact_limit": limit})
    monkeypatch.setattr(cli_search, "stats", stats)


def test_ctrl_c_during_the_playouts_of_stats_shows_those_done_as_that_many_samples_would(capsys, monkeypatch):
    stats_with_ctrl_c(monkeypatch, at_playout=7)
    assert main(["stats", "rules/tictactoe.rules", "--json"]) == 130
    out = json.loads(capsys.readouterr().out)
    assert out["interrupted"] is True and out["samples"] == 7
    assert [d["exact"] for d in out["depths"]] == [True] * 3 + [False] * 7  # 1, 9, 72 states, then sampled
    stats_with_ctrl_c(monkeypatch)
    assert main(["stats", "rules/tictactoe.rules", "--samples", "7", "--json"]) == 0
    seven = json.loads(capsys.readouterr().out)
    assert seven.pop("interrupted") is False and out.pop("interrupted") is True
    assert out == seven


def test_ctrl_c_while_stats_measures_a_depth_shows_the_depths_measured_whole(capsys, monkeypatch):
    stats_with_ctrl_c(monkeypatch, at_depth=4, limit=1000)  # told after 256 of the 756 positions with 4 marks
    assert main(["stats", "rules/tictactoe.rules"]) == 130
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "  interrupted (Ctrl-C): the depths measured whole by then"
    # depth and states: the tic-tac-toe positions with 0 to 3 marks
    assert [line.split()[:2] for line in lines[3:]] == [["0", "1"], ["1", "9"], ["2", "72"], ["3", "252"]]


def test_ctrl_c_during_check_says_how_many_lines_were_checked_without_a_failure(capsys, monkeypatch):
    from engine import properties
    real = properties.check_in_parts

    def check_in_parts(game, *, progress, **kw):
        def told(n, k):
            progress(n, k)
            if n == 5:
                os.kill(os.getpid(), signal.SIGINT)
        return real(game, progress=told, **kw)
    monkeypatch.setattr(properties, "check_in_parts", check_in_parts)
    assert main(["check", "rules/tictactoe.rules", "--json"]) == 130
    out = json.loads(capsys.readouterr().out)
    assert out["interrupted"] is True and out["ok"] is True and out["failure"] is None
    assert out["examples"] == 5 and 5 * 5 <= out["steps"] <= 5 * 9  # a line of tic-tac-toe: 5 to 9 moves


class Counted:
    """The game numbers 0 .. n - 1, counting how many were drawn."""

    def __init__(self, n):
        self.n, self.drawn = n, 0

    def __len__(self):
        return self.n

    def __iter__(self):
        for g in range(self.n):
            self.drawn += 1
            yield g


def test_a_stop_leaves_few_of_a_long_run_queued_for_the_workers():
    from search.agents import make_agent
    from search.play import _games, _Job
    game = load_game(str(ROOT / "rules" / "tictactoe.rules"))
    job = _Job(game, [("random", make_agent("random"))], 1, 0, None, None, None, 0)
    games = Counted(1_000_000)
    ended = list(_games(job, games, 2, stop=lambda: True))  # asked to stop after the first game
    assert len(ended) >= 1
    assert games.drawn < 100_000  # not every game of the run drawn, each only to be skipped


def test_ctrl_c_during_a_solve_with_json_prints_an_object_saying_so(capsys, monkeypatch):
    import engine.cli

    def stopped(*args, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(engine.cli, "_solve", stopped)
    assert main(["solve", NIDAVELLIR, "--json"]) == 130
    out = capsys.readouterr()
    assert json.loads(out.out) == {"file": NIDAVELLIR, "error": "interrupted (Ctrl-C) before there was anything to "
                                   "report", "interrupted": True}
    assert out.err == "interrupted (Ctrl-C)\n"


@pytest.mark.parametrize("flags, status", [(["--max-states", "10"], 1), ([], 0)])
def test_a_ctrl_c_after_a_solve_told_its_report_while_its_states_are_freed_keeps_the_reports_status(
        capsys, monkeypatch, flags, status):
    # freeing millions of states takes seconds after the report (too many states, or the value): a
    # SIGTERM from `timeout` then is no interrupt of the solve, whose report was out
    import engine.cli
    solve = engine.cli._solve

    def then_stopped(*args, **kw):
        solve(*args, **kw)
        raise KeyboardInterrupt
    monkeypatch.setattr(engine.cli, "_solve", then_stopped)
    assert main(["solve", str(ROOT / "rules" / "tictactoe.rules"), *flags]) == status
    out = capsys.readouterr()
    assert "interrupted" not in out.err + out.out
    assert ("more than 10 states" in out.err) if status else ("best" in out.out and out.err == "")
    monkeypatch.setattr(engine.cli, "_solve", lambda *args, **kw: (_ for _ in ()).throw(KeyboardInterrupt))
    assert main(["solve", str(ROOT / "rules" / "tictactoe.rules")]) == 130  # the next run told nothing yet


@pytest.mark.parametrize("search, flags, unit", [("solve", [], "states valued"),
                                                 ("alpha_beta", ["--alpha-beta"], "states searched")])
def test_ctrl_c_during_a_solve_says_how_far_it_had_got(capsys, monkeypatch, search, flags, unit):
    import engine.cli

    def stopped(game, **kw):  # told of 8,192 states, then Ctrl-C
        kw["valued"](4096)
        kw["valued"](8192)
        raise KeyboardInterrupt
    monkeypatch.setattr(engine.cli, search, stopped)
    assert main(["solve", str(ROOT / "rules" / "tictactoe.rules"), *flags]) == 130
    err = capsys.readouterr().err
    assert re.fullmatch(rf"interrupted \(Ctrl-C\), after \d+\.\d s: 8,192 {unit}\n", err), err


def test_a_search_stopped_by_sigterm_says_so_and_a_later_ctrl_c_says_ctrl_c(capsys):
    for sig, said in [(signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "Ctrl-C")]:
        with ctrl_c_once_handled(sig=sig):
            status = main(["search", NIDAVELLIR, "--algo", "random-walk", "--budget", "1000000000"])
        assert status == 130
        assert f"  interrupted ({said}): what the search had found by then\n" in capsys.readouterr().out


def test_ctrl_c_while_the_engine_loads_says_interrupted_without_a_traceback():
    # Ctrl-C as `python -m engine` imports its command line: made here by an import hook
    import subprocess
    import sys
    code = ("import importlib.abc, runpy, sys\n"
            "class Stop(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'engine.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Stop())\n"
            "sys.argv = ['engine', 'solve', 'rules/tictactoe.rules']\n"
            "runpy.run_module('engine', run_name='__main__')\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (130, "", "interrupted\n")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads which signals a process catches in /proc")
def test_sigterm_to_a_solve_under_way_says_interrupted_without_a_traceback():
    import subprocess
    import sys
    p = subprocess.Popen([sys.executable, "-m", "engine", "solve", "rules/railroad-ink.rules", "--set", "dice=off"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until the engine catches SIGTERM (bit 15 of SigCgt)
            status = open(f"/proc/{p.pid}/status").read()
            caught = int(next(x for x in status.splitlines() if x.startswith("SigCgt:")).split()[1], 16)
            if caught & (1 << (signal.SIGTERM - 1)):
                break
            time.sleep(0.05)
        time.sleep(0.5)  # under way
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130 and out == "", err
    assert err.startswith("interrupted (SIGTERM), after") and "Traceback" not in err, err


@pytest.mark.skipif(not os.path.exists("/proc/self/status") or not hasattr(os, "killpg"),
                    reason="finds the workers in /proc and signals a process group")
def test_sigterm_to_the_group_while_workers_play_ends_the_run_at_once_with_its_workers():
    # as `timeout` does: the parent and its workers all get it; no worker is left waited for
    import subprocess
    import sys
    p = subprocess.Popen([sys.executable, "-m", "engine", "play", "rules/tictactoe.rules", "--agents", "mcts,random",
                          "--games", "200000", "--budget", "100", "--jobs", "2"],
                         cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def workers():
        out = []
        for d in os.listdir("/proc"):
            try:
                if d.isdigit() and f"PPid:\t{p.pid}\n" in open(f"/proc/{d}/status").read():
                    out.append(int(d))
            except OSError:
                pass
        return out
    try:
        deadline = time.monotonic() + 60
        while not workers() and time.monotonic() < deadline:
            time.sleep(0.05)
        started = workers()
        assert started, "the run started no workers"
        time.sleep(0.5)
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(timeout=30)
    finally:
        p.kill()
    assert p.returncode == -signal.SIGTERM
    time.sleep(0.5)
    alive = [w for w in started if os.path.exists(f"/proc/{w}") and "State:\tZ" not in open(f"/proc/{w}/status").read()]
    assert not alive
