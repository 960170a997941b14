"""`python -m engine`: the command line."""
import gc
import sys

# The engine allocates many small tuples and closures and makes few reference cycles, so the
# collector's default of a young collection every 700 allocations mostly scans live objects:
# collecting less often makes commands about a tenth faster for about 1% more memory
# (measured with bench/versus.py; see bench/README.md).
gc.set_threshold(20_000, 20, 20)

try:
    from .cli import main  # noqa: E402  (after the threshold, so imports run under it too)
except KeyboardInterrupt:  # Ctrl-C while the engine is still loading: nothing begun, nothing to report
    print("interrupted", file=sys.stderr)
    sys.exit(130)

if __name__ == "__main__":  # not in a process that `--jobs` starts afresh, which imports this module too
    import signal

    def _terminated(signum, frame):  # SIGTERM (`timeout`, a scheduler): as Ctrl-C, what was done is reported
        from .interrupt import note_signal
        note_signal(signum)
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, _terminated)
    sys.exit(main())
