"""The one decorator of kernel functions, and a watch on Numba compiling them.

Kernel functions are compiled once and cached on disk (``cache=True``), release the GIL so
searches can run in threads (``nogil=True``), and are compiled without Numba's reference
counting (``_nrt=False``): every array they touch is allocated by the caller, and counting
references on each array access made move generation forty times slower. With
``NUMBA_DISABLE_JIT=1`` they run as plain Python.

Numba keys its cache on a function's argument types: each caller type of each entry point
is one compilation, which only a call with those types builds (``damier compile`` makes them
all). Left to itself Numba also types a constant argument as a literal (a callee called with
``True`` from one kernel function and with a variable from another was compiled twice, five
times for the move generator, 4-5 s each): a kernel function called from compiled code is
compiled for the plain types of its arguments instead (:func:`_plain_types`), once for all
its callers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, event
from numba.extending import intrinsic, overload

_kernel = njit(cache=True, nogil=True, _nrt=False)
kernel_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")


def prefetch(array: Any, index: int) -> None:
    """Ask the processor to bring row ``index`` of ``array`` into its cache, so that a
    read of it later does not wait for memory (a hint: no value changes; plain Python
    does nothing). The search asks for a child's transposition-table entry before it
    plays the move, and the miss overlaps with that work."""


@intrinsic
def _prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        kind = signature.args[0]
        view = context.make_array(kind)(context, builder, args[0])
        first = [args[1]] + [ir.Constant(args[1].type, 0)] * (kind.ndim - 1)
        pointer = cgutils.get_item_pointer2(
            context,
            builder,
            view.data,
            cgutils.unpack_tuple(builder, view.shape),
            cgutils.unpack_tuple(builder, view.strides),
            kind.layout,
            first,
        )
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte, word, word, word])
        function = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0")
        # A read (0), kept in every cache level (3), of data (1).
        address = builder.bitcast(pointer, byte)
        builder.call(function, [address, word(0), word(3), word(1)])
        return context.get_dummy_value()

    return sig, codegen


@overload(prefetch, inline="always")
def _prefetch_compiled(array, index):  # type: ignore[no-untyped-def]
    def impl(array, index):  # type: ignore[no-untyped-def]
        _prefetch(array, index)

    return impl


def _plain_types(dispatcher: Any) -> Any:
    """``dispatcher``, compiled for the plain (non-literal) types of the arguments it gets
    from other compiled functions: ``Literal[bool](True)`` is compiled as ``bool``.

    Numba asks a dispatcher for the version a compiled caller needs through
    ``get_call_template(args, kws)``; the argument types are made plain before it compiles.
    (Calls from Python are typed from the values, never as literals.) Under
    ``NUMBA_DISABLE_JIT=1`` the function is plain Python and is returned as it is.
    """
    ask = getattr(dispatcher, "get_call_template", None)
    if ask is None:
        return dispatcher

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        plain = tuple(types.unliteral(arg) for arg in args)
        return ask(plain, {name: types.unliteral(kind) for name, kind in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def kernel(function: Callable[..., Any]) -> Any:
    """Compile ``function`` with Numba: cached, without the GIL, without reference
    counting, one version per plain argument types."""
    return _plain_types(_kernel(function))


@dataclass(frozen=True)
class Compiled:
    """One compilation: a version of a function for some argument types."""

    name: str
    """The function's qualified name."""
    types: str
    """The argument types of the version."""
    seconds: float
    """From start to end, the compilations it set off inside itself included (a kernel
    function calling another compiles the callee first)."""
    own_seconds: float
    """Without those."""


class Compilations(event.Listener):  # type: ignore[misc]
    """What Numba compiled (rather than read from its cache) while it was watched, and how
    long each compilation took."""

    def __init__(self, on_first: Callable[[], None] | None = None) -> None:
        self.count = 0
        self.names: list[str] = []
        self.compiled: list[Compiled] = []
        """The compilations that ended, in the order they ended."""
        self._on_first = on_first
        self._open: list[tuple[str, str, float, list[float]]] = []

    def on_start(self, ev: Any) -> None:
        if self.count == 0 and self._on_first is not None:
            self._on_first()
        self.count += 1
        name = ev.data["dispatcher"].py_func.__qualname__
        self.names.append(name)
        kinds = ", ".join(str(kind) for kind in ev.data["args"])
        self._open.append((name, kinds, time.perf_counter(), [0.0]))

    def on_end(self, ev: Any) -> None:
        if not self._open:  # began before the watch
            return
        name, kinds, began, nested = self._open.pop()
        seconds = time.perf_counter() - began
        self.compiled.append(Compiled(name, kinds, seconds, seconds - nested[0]))
        if self._open:
            self._open[-1][3][0] += seconds

    @property
    def seconds(self) -> float:
        """Time spent compiling (each compilation's own time, summed)."""
        return sum(done.own_seconds for done in self.compiled)


@contextmanager
def watch_compilation(
    on_first: Callable[[], None] | None = None, into: Compilations | None = None
) -> Iterator[Compilations]:
    """Count Numba's compilations in the block (in every thread); ``on_first`` is called as
    the first one starts (to say that a wait is compilation, before it begins). ``into``:
    add them to these counts rather than to new ones."""
    compilations = into if into is not None else Compilations(on_first)
    with event.install_listener("numba:compile", compilations):
        yield compilations
