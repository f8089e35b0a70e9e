"""Compiling the rules with numba, cached on disk under a key of the rules' own source.

Every kernel of the suite is decorated with ``njit`` from here (``numba.njit`` with
``cache=True``). numba keys its disk cache on one file's path and content, so a change to a
table in ``data.py`` that a kernel in another file reads would run the old compiled kernel,
and a copy of the same sources elsewhere (a CI clone, a Ray worker, a temporary copy) would
compile everything again. So this module puts a cache locator of its own in front of
numba's: every function defined under the ``envs`` package is cached in

    <cache root>/<digest of every .py file under envs/>/<its folder inside envs>/

with that digest as the source stamp. Any change to any rules file gives a new folder (no
stale kernel can be loaded), and an unchanged copy of the sources anywhere reuses the
folder. (A function compiled here from outside the package, a test's game, also has its
own file's content, and that of the functions bound into it, in its stamp.)

The cache root is ``$TRADEWINDS_CACHE_DIR``, else ``$NUMBA_CACHE_DIR``, else
``$XDG_CACHE_HOME/tradewinds`` (``~/.cache/tradewinds``), else a folder of the temporary
directory when that one cannot be written (a read-only home); ``python -m envs.compile``
fills it ahead of time.

Reference counting: numba counts the references to every array that a compiled function
takes (an atomic add on entry and a subtract on exit for each), and a rules function takes
the whole state, 40-odd arrays. Measured on batavia, those counts were 64% of a step. So
``njit`` compiles without numba's runtime (``_nrt=False``): arrays are borrowed, never
counted, and a rules function cannot allocate one; it takes the small arrays it works in
from ``local_zeros`` (its own stack frame). The batch loops, which take the state's arrays
from Python, and a function that hands a new array back to Python ask for the runtime with
``njit(_nrt=True)``.

Under ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python (debugging, coverage).
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import sys
import tempfile
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba.core import caching, cgutils, config
from numba.core import types as nbtypes
from numba.core.errors import TypingError
from numba.extending import lower_builtin, type_callable
from numba.np.arrayobj import make_array, populate_array

PACKAGE = Path(__file__).resolve().parents[1]  # the envs package
THREADS_VARIABLE = "TRADEWINDS_THREADS"


def source_digest(package: Path = PACKAGE) -> str:
    """A hex digest of every ``.py`` file under ``package``: names and contents."""
    digest = hashlib.blake2b(digest_size=10)
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_root() -> Path:
    """The folder that holds one cache folder per source digest (see the module docstring)."""
    for variable in ("TRADEWINDS_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(variable):
            return Path(os.environ[variable])
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(home) / "tradewinds"


def _writable_folder(path: Path) -> Path:
    """``path``, created; a per-user folder of the temporary directory if it cannot be."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        return path
    except OSError:
        fallback = Path(tempfile.gettempdir()) / f"tradewinds-{os.getuid()}" / path.name
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


SOURCE_DIGEST = source_digest()
CACHE_DIR = cache_root() / SOURCE_DIGEST


_MARK = "_tradewinds_sources"  # set on every function compiled through ``njit`` below


def _file_digest(paths: tuple[str, ...]) -> str:
    digest = hashlib.blake2b(digest_size=10)
    for path in paths:
        digest.update(Path(path).read_bytes() + b"\0")
    return digest.hexdigest()


class _SourceTreeLocator(caching._CacheLocator):
    """numba's cache locator for every function compiled through ``njit`` (module docstring).

    A function outside the ``envs`` package (a test's game) is cached under the same digest
    with its own file's content (and that of the functions bound into it) in its stamp.
    """

    def __init__(self, py_func: Callable, py_file: str):
        self._lineno = py_func.__code__.co_firstlineno
        folder = Path(py_file).resolve().parent
        outside = tuple(sorted({str(Path(f).resolve()) for f in getattr(py_func, _MARK)}
                               | {str(Path(py_file).resolve())}))
        outside = tuple(f for f in outside if not Path(f).is_relative_to(PACKAGE))
        if folder.is_relative_to(PACKAGE):
            self._cache_path = str(CACHE_DIR / folder.relative_to(PACKAGE))
        else:
            self._cache_path = str(CACHE_DIR / "elsewhere" /
                                   self.get_suitable_cache_subpath(py_file))
        self._stamp = SOURCE_DIGEST + (_file_digest(outside) if outside else "")

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return self._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Callable, py_file: str) -> _SourceTreeLocator | None:
        if not hasattr(py_func, _MARK) or not os.path.exists(py_file):
            return None  # not ours: numba's own locators decide
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


def _install_locator() -> None:
    """Put ``_SourceTreeLocator`` first among numba's cache locators (once per process)."""
    global CACHE_DIR
    if config.DISABLE_JIT:
        return
    locators = caching.CacheImpl._locator_classes
    if any(c.__name__ == _SourceTreeLocator.__name__ for c in locators):
        return
    first_use = not CACHE_DIR.exists()
    CACHE_DIR = _writable_folder(CACHE_DIR)
    if first_use:
        print(f"tradewinds: compiling the game kernels on their first use (cached in "
              f"{CACHE_DIR})", file=sys.stderr)
    locators.insert(0, _SourceTreeLocator)


_install_locator()


def njit(function: Callable | None = None, **options: Any) -> Any:
    """``numba.njit`` with the disk cache on and numba's runtime off (``@njit``, or
    ``@njit(parallel=True, _nrt=True)``; the module docstring says why)."""
    options.setdefault("cache", True)
    options.setdefault("_nrt", False)
    if function is None:
        return functools.partial(njit, **options)
    if not hasattr(function, _MARK):
        setattr(function, _MARK, ())
    return numba.njit(**options)(function)


def local_zeros(shape: int | tuple[int, ...], dtype: Any) -> np.ndarray:
    """A zeroed C-ordered array of ``shape`` (constant ints: module-level names or literals)
    in the frame of the compiled function that asks for it: on its stack, no allocation,
    no reference count. Never return it or keep it past the call (but a function inlined
    into its caller, ``njit(inline="always")``, has the caller's frame). From plain Python,
    and under NUMBA_DISABLE_JIT, it is ``np.zeros``."""
    return np.zeros(shape, dtype)


def _literal_dims(shape: nbtypes.Type) -> tuple[int, ...] | None:
    if isinstance(shape, nbtypes.IntegerLiteral):
        return (shape.literal_value,)
    if isinstance(shape, nbtypes.BaseTuple) and all(
            isinstance(t, nbtypes.IntegerLiteral) for t in shape.types):
        return tuple(t.literal_value for t in shape.types)
    return None


@type_callable(local_zeros)
def _type_local_zeros(context: Any) -> Callable:
    def typer(shape: nbtypes.Type, dtype: nbtypes.Type) -> nbtypes.Type | None:
        dims = _literal_dims(shape)
        if dims is None:  # numba tries the plain types, then the literal ones
            raise TypingError(f"local_zeros: the shape must be constant ints (module-level "
                              f"names of this module or literals), got {shape}")
        if isinstance(dtype, nbtypes.NumberClass):
            return nbtypes.Array(dtype.instance_type, len(dims), "C")
        if isinstance(dtype, nbtypes.DType):
            return nbtypes.Array(dtype.dtype, len(dims), "C")
        return None

    return typer


@lower_builtin(local_zeros, nbtypes.Any, nbtypes.Any)
def _lower_local_zeros(context: Any, builder: Any, signature: Any, args: Any) -> Any:
    array_type = signature.return_type
    dims = _literal_dims(signature.args[0])
    data_type = context.get_data_type(array_type.dtype)
    itemsize = context.get_abi_sizeof(data_type)
    count = max(math.prod(dims), 1)
    data = cgutils.alloca_once(builder, data_type, size=count)  # in the entry block
    cgutils.memset(builder, data, context.get_constant(nbtypes.intp, count * itemsize), 0)
    strides = [itemsize * math.prod(dims[k + 1:]) for k in range(len(dims))]
    array = make_array(array_type)(context, builder)
    populate_array(array, data=data,
                   shape=[context.get_constant(nbtypes.intp, d) for d in dims],
                   strides=[context.get_constant(nbtypes.intp, s) for s in strides],
                   itemsize=context.get_constant(nbtypes.intp, itemsize), meminfo=None)
    return array._getvalue()


def specialise(function: Callable, suffix: str, **bindings: Callable) -> Callable:
    """A copy of a generic plain-Python ``function`` whose global names in ``bindings`` are
    bound to other functions (a game's row functions) or classes (its view), for ``njit``
    to compile.

    numba resolves a global at compile time, so the copy compiles to a kernel that calls the
    bound functions directly; passing them as arguments instead costs ~10 µs a call and
    defeats the disk cache. ``suffix`` names the copy, so each has its own cache entry.
    """
    namespace = dict(function.__globals__)
    missing = sorted(set(bindings) - set(function.__code__.co_names))
    if missing:
        raise ValueError(f"{function.__qualname__} does not use {missing}")
    namespace.update(bindings)
    copy = types.FunctionType(function.__code__, namespace, f"{function.__name__}_{suffix}",
                              function.__defaults__, function.__closure__)
    copy.__qualname__ = f"{function.__qualname__}_{suffix}"
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    # The copy's compiled code holds the bound functions' code: their files key its cache.
    files = []
    for bound in bindings.values():
        if isinstance(bound, type):  # a class (a game's view): the file that defines it
            files.append(sys.modules[bound.__module__].__file__)
            continue
        py_func = getattr(bound, "py_func", bound)
        files += [py_func.__code__.co_filename, *getattr(py_func, _MARK, ())]
    setattr(copy, _MARK, tuple(files))
    return copy


def default_threads() -> int:
    """Threads for the batch kernels: ``$TRADEWINDS_THREADS``, else 1.

    One by default: training processes run torch beside the env, and a batch too small to
    split gains nothing; ``make_vec(..., threads=N)`` or the variable asks for more.
    """
    value = os.environ.get(THREADS_VARIABLE, "1")
    try:
        threads = int(value)
    except ValueError:
        raise ValueError(f"{THREADS_VARIABLE} must be a positive int, got {value!r}") from None
    return check_threads(threads)


def check_threads(threads: int) -> int:
    """``threads`` if it is a positive int no larger than numba's thread pool."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, got {threads!r}")
    if threads > config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads={threads} is more than this machine's "
                         f"{config.NUMBA_NUM_THREADS} (NUMBA_NUM_THREADS)")
    return threads
