"""Files a command writes (`--policy`, `--plot`, `--record`): checked before the run, written
under a hidden name beside the target, and given the target's name only at the end, by a link
that fails if a file took that name meanwhile. So nothing the user had is overwritten, and a
run that fails or is stopped leaves no file behind."""
from __future__ import annotations

import os
from typing import Callable, Optional

from .diagnostics import UsageError


class CannotWrite(Exception):
    """An output that could not be written after the run (a full disk, a name taken meanwhile):
    exit status 1, one line, no traceback."""


class NewFile:
    """A new file to write: `flag path` as the user gave it, one of `endings` (lowercase, such as
    ".png"). The checks run at once; `open()` makes the hidden file, `finish()` names it."""

    def __init__(self, flag: str, path: str, endings: tuple, command: str):
        self.flag, self.path, self.command = flag, path, command
        if not path:
            raise UsageError(f"{flag}: expected a file name, got an empty one")
        name = os.path.basename(path)
        ending = next((e for e in endings if name.lower().endswith(e)), None)
        if ending is None:
            raise UsageError(f"{flag} {path}: expected a file name ending in {_either(endings)}")
        if len(name) == len(ending):
            raise UsageError(f"{flag} {path}: expected a name before {ending}, such as out{ending}")
        self.ending = ending
        if os.path.isdir(path):
            raise UsageError(f"{flag} {path}: a folder; give the name of a new file, such as "
                             f"{os.path.join(path, 'out' + ending)}")
        if os.path.lexists(path):
            raise UsageError(f"{flag} {path}: the file exists; choose a new name (nothing is overwritten)")
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            raise UsageError(f"{flag} {path}: there is no folder {folder}")
        self.part = os.path.join(folder, f".{name}.{os.getpid()}.part")
        self.stream = None
        try:  # made and removed at once: a folder that cannot be written is found before the run
            os.close(os.open(self.part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            os.remove(self.part)
        except OSError as e:
            raise UsageError(f"{flag} {path}: cannot write a file in {folder} ({e.strerror})") from None

    def open(self, binary: bool = False):
        """The hidden file, made now, to write the output into."""
        try:
            fd = os.open(self.part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except OSError as e:
            raise CannotWrite(f"{self.flag} {self.path}: cannot be written ({e.strerror})") from None
        self.stream = os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"}))
        return self.stream

    def write(self, text: str) -> None:
        """Write text to the hidden file; a write that fails (a full disk) removes it."""
        try:
            self.stream.write(text)
        except OSError as e:
            self._failed(e)

    def finish(self) -> None:
        """Give the hidden file the target's name, unless a file took that name meanwhile (the
        hidden file is then kept, and named in the error)."""
        try:
            self.stream.close()
        except OSError as e:
            self._failed(e)
        self.stream = None  # abandon() leaves the hidden file alone from here
        try:
            os.link(self.part, self.path)  # fails if the name is taken: nothing is overwritten
        except FileExistsError:
            raise CannotWrite(f"{self.flag} {self.path}: a file of that name appeared while {self.command} ran; "
                              f"the output is in {self.part}") from None
        except OSError:  # a file system without hard links: the name checked, then taken
            if os.path.lexists(self.path):
                raise CannotWrite(f"{self.flag} {self.path}: a file of that name appeared while {self.command} "
                                  f"ran; the output is in {self.part}") from None
            os.rename(self.part, self.path)
            return
        os.remove(self.part)

    def abandon(self) -> None:
        """Remove the hidden file of a run that did not finish (nothing once finish() began)."""
        if self.stream is not None:
            try:
                self.stream.close()
            except OSError:
                pass
            self.stream = None
            os.remove(self.part)

    def write_all(self, fill: Callable, binary: bool = False) -> None:
        """open(), fill(stream), finish(); the hidden file removed if filling fails."""
        stream = self.open(binary)
        try:
            fill(stream)
        except OSError as e:
            self._failed(e)
        except BaseException:
            self.abandon()
            raise
        self.finish()

    def _failed(self, e: OSError):
        self.abandon()
        raise CannotWrite(f"{self.flag} {self.path}: could not be written ({e.strerror or e}); "
                          "nothing was left behind") from None


def _either(endings: tuple) -> str:
    return endings[0] if len(endings) == 1 else ", ".join(endings[:-1]) + f" or {endings[-1]}"


def new_file(flag: str, path: Optional[str], endings: tuple, command: str) -> Optional[NewFile]:
    """A NewFile for an option given (an empty name is refused), or None for one not given."""
    return None if path is None else NewFile(flag, path, endings, command)
