"""The one decorator of kernel functions.

Kernel functions are compiled once and cached on disk (``cache=True``), release the GIL so
searches can run in threads (``nogil=True``), and are compiled without Numba's reference
counting (``_nrt=False``): every array they touch is allocated by the caller, and counting
references on each array access made move generation forty times slower. With
``NUMBA_DISABLE_JIT=1`` they run as plain Python.
"""

from numba import njit

kernel = njit(cache=True, nogil=True, _nrt=False)
kernel_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")
