"""Opening a file numbat reads from its data or cache directory, where someone else may
have put something else: read-only, never following a final symbolic link, never blocking
on a FIFO, and only a regular file, checked with fstat on the open descriptor (so nothing
can swap the file between the check and the read).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as directory:
...     with opened(directory) as (handle, info):
...         pass
Traceback (most recent call last):
...
numbat._runtime._regular_file.NotRegularFile: it is not a regular file
"""

from __future__ import annotations

import contextlib
import os
import stat

FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotRegularFile(ValueError):
    """The path names a directory, a FIFO, a device or a socket (a symbolic link is an OSError)."""


@contextlib.contextmanager
def opened(path: str):
    """`(descriptor, fstat result)` of the regular file `path`, closed on leaving; raises
    FileNotFoundError or OSError as `os.open` does, NotRegularFile for anything else."""
    handle = os.open(path, FLAGS)
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile("it is not a regular file")
        yield handle, info
    finally:
        os.close(handle)
