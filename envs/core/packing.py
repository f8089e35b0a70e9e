"""The kernels' view of a state rebuilt in compiled code from the state's one buffer.

A state keeps every field in one buffer (``envs.core.state``): ``_buffer`` (uint8) and
``_layout`` (per field: the byte offset of its block, then its shape). The batch loops take
``(buffer, layout, params)``, three arrays for numba to unbox instead of the 40 to 85 of a
game's view (~90 ns each: 7.9 µs a call for discoveries, two calls a decision in the AEC
env), and ``unpack`` names them as the game's view inside: each field an array over its
block of the buffer, made in a few instructions. The arrays borrow the buffer (no reference
of their own), so they live only as long as the call that unpacked them, which holds the
buffer; nothing keeps them past it.

The fields' dtypes and ranks are fixed when the kernels compile (a state's ``_spec``, the
key its kernels are looked up by); their shapes are read from the layout at each call.
Under ``NUMBA_DISABLE_JIT=1``, ``unpack`` builds the same view with NumPy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba.core import types as nbtypes
from numba.extending import lower_builtin, type_callable
from numba.np.arrayobj import make_array, populate_array
from numba.np.numpy_support import from_dtype

from envs.core.state import LAYOUT_WIDTH, field_views


def view_unpacker(view_class: type, spec: tuple[tuple[np.dtype, int], ...]) -> Callable:
    """``unpack(packed)``: the ``view_class`` named tuple of the state whose fields have
    ``spec``'s dtypes and ranks, from ``packed = (buffer, layout, params)``."""
    array_types = [nbtypes.Array(from_dtype(dtype), ndim, "C") for dtype, ndim in spec]

    def unpack(packed: tuple) -> Any:
        buffer, layout, params = packed
        return view_class(*field_views(buffer, layout, spec), params)

    @type_callable(unpack)
    def _type_unpack(context: Any) -> Callable:
        def typer(packed: nbtypes.Type) -> nbtypes.Type | None:
            if isinstance(packed, nbtypes.BaseTuple) and len(packed) == 3:
                return nbtypes.NamedTuple((*array_types, packed.types[2]), view_class)
            return None

        return typer

    @lower_builtin(unpack, nbtypes.BaseTuple)
    def _lower_unpack(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        packed_type = signature.args[0]
        buffer = make_array(packed_type.types[0])(context, builder,
                                                  builder.extract_value(args[0], 0))
        layout = make_array(packed_type.types[1])(context, builder,
                                                  builder.extract_value(args[0], 1))
        params = builder.extract_value(args[0], 2)

        def entry(k: int, column: int) -> Any:
            index = context.get_constant(nbtypes.intp, k * LAYOUT_WIDTH + column)
            return builder.load(builder.gep(layout.data, [index]))

        fields = []
        for k, array_type in enumerate(array_types):
            data_type = context.get_data_type(array_type.dtype)
            itemsize = context.get_constant(nbtypes.intp, context.get_abi_sizeof(data_type))
            shape = [entry(k, 1 + d) for d in range(array_type.ndim)]
            strides = [itemsize]
            for extent in reversed(shape[1:]):
                strides.insert(0, builder.mul(strides[0], extent))
            data = builder.bitcast(builder.gep(buffer.data, [entry(k, 0)]),
                                   data_type.as_pointer())
            array = make_array(array_type)(context, builder)
            populate_array(array, data=data, shape=shape, strides=strides, itemsize=itemsize,
                           meminfo=None)
            fields.append(array._getvalue())
        if context.enable_nrt:  # the view holds ``params`` like the tuple it came from
            context.nrt.incref(builder, packed_type.types[2], params)
        return context.make_tuple(builder, signature.return_type, [*fields, params])

    return unpack
