"""The one decorator of kernel functions, the intrinsics they share (a prefetch, arrays
passed as one frame), and a watch on Numba compiling them.

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

import ctypes
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils, event, ir_utils
from numba.extending import intrinsic, overload
from numba.np.arrayobj import populate_array

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


FRAME_SLOT = 4
"""Numbers a frame keeps for each array: its address and up to three extents."""


def _framed_python(frame: Any, slot: int, dtype: Any, ndim: int) -> Any:
    start = FRAME_SLOT * slot
    shape = tuple(int(extent) for extent in frame[start + 1 : start + 1 + ndim])
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    memory = (ctypes.c_char * size).from_address(int(frame[start]))
    return np.frombuffer(memory, dtype=dtype).reshape(shape)


@intrinsic
def _framed(typingctx, frame, slot, dtype, ndim):  # type: ignore[no-untyped-def]
    if not isinstance(frame, types.Array) or frame.dtype != types.int64 or frame.ndim != 1:
        return None
    if not isinstance(ndim, types.IntegerLiteral) or not 1 <= ndim.literal_value < FRAME_SLOT:
        return None
    kind = types.Array(dtype.instance_type, ndim.literal_value, "C")

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        numbers = context.make_array(signature.args[0])(context, builder, args[0]).data
        start = builder.mul(args[1], ir.Constant(args[1].type, FRAME_SLOT))

        def number(k: int) -> Any:
            return builder.load(builder.gep(numbers, [builder.add(start, start.type(k))]))

        extents = [number(1 + axis) for axis in range(kind.ndim)]
        item = context.get_data_type(kind.dtype)
        size = context.get_constant(types.intp, context.get_abi_sizeof(item))
        strides = [size]
        for extent in reversed(extents[1:]):
            strides.insert(0, builder.mul(strides[0], extent))
        view = context.make_array(kind)(context, builder)
        data = builder.inttoptr(number(0), item.as_pointer())
        populate_array(view, data=data, shape=extents, strides=strides, itemsize=size, meminfo=None)
        return view._getvalue()

    return kind(frame, slot, dtype, ndim), codegen


def _kept_alive(lhs: str, args: Any, alias_map: Any, arg_aliases: set[str]) -> None:
    arg_aliases.add(lhs)


# Numba deletes a write to an array that no later statement of the function reads, unless
# the array may be one of its arguments (its dead-code pass knows no other memory that
# outlives the call): an array read from a frame is memory the caller keeps, as an argument
# is. (Without this the search's last write to its transposition table was lost.) The
# array must be assigned straight from the call, not through a tuple, for the pass to see.
ir_utils.alias_func_extensions[("_framed", __name__)] = _kept_alive

framed: Any = _framed_python if config.DISABLE_JIT else _framed
"""``framed(frame, slot, dtype, ndim)``: the array that :func:`frame_array` wrote into
``frame``'s ``slot``, of ``dtype`` and ``ndim`` dimensions (a constant), C-ordered. A
recursive kernel function passes its arrays so, as one vector of addresses and extents,
instead of seven to eleven words each: its calls' copies of them were an eighth of the
bitboard search's time (measured with perf). The caller keeps the arrays alive. (An
intrinsic, called from compiled code only; as plain Python, a view of that memory.)"""


@kernel_inline
def frame_array(frame, slot, array):  # type: ignore[no-untyped-def]
    """Write ``array``'s address and extents into ``frame`` (an int64 vector of
    :data:`FRAME_SLOT` numbers a slot) at ``slot``, for :func:`framed`."""
    start = FRAME_SLOT * slot
    frame[start] = array.ctypes.data
    for axis in range(array.ndim):
        frame[start + 1 + axis] = array.shape[axis]


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
