"""The one decorator of kernel functions, and a watch on Numba compiling them.

Kernel functions are compiled once and cached on disk (``cache=True``), release the GIL so
searches can run in threads (``nogil=True``), and are compiled without Numba's reference
counting (``_nrt=False``): every array they touch is allocated by the caller, and counting
references on each array access made move generation forty times slower. With
``NUMBA_DISABLE_JIT=1`` they run as plain Python.

Numba keys its cache on a function's argument types, literal constants included (a callee
called with ``True`` is a version of its own): each caller type of each entry point is one
compilation, which only a call with those types builds (``damier compile`` makes them all).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from numba import njit
from numba.core import event

kernel = njit(cache=True, nogil=True, _nrt=False)
kernel_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")


class Compilations(event.Listener):  # type: ignore[misc]
    """What Numba compiled (rather than read from its cache) while it was watched."""

    def __init__(self, on_first: Callable[[], None] | None = None) -> None:
        self.count = 0
        self.names: list[str] = []
        self._on_first = on_first

    def on_start(self, ev: Any) -> None:
        if self.count == 0 and self._on_first is not None:
            self._on_first()
        self.count += 1
        self.names.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev: Any) -> None:
        pass


@contextmanager
def watch_compilation(on_first: Callable[[], None] | None = None) -> Iterator[Compilations]:
    """Count Numba's compilations in the block; ``on_first`` is called as the first one
    starts (to say that a wait is compilation, before it begins)."""
    compilations = Compilations(on_first)
    with event.install_listener("numba:compile", compilations):
        yield compilations
