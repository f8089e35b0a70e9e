"""The kernels' handle on a state: one pointer to its view, not the view's arrays one by one.

A game's view (``envs.core.compiled.kernel_view``) is a named tuple of 40 to 70 arrays, and
numba passes a named tuple to a compiled function as its members laid out one by one: an
array is five words and two per dimension, so every call of a rules function that takes the
view ``s`` passes 300 to 650 words (junk's ``_step_row`` took 641 arguments). Those calls
were most of a batched step in the games with the most arrays (1.8 of 2.3 µs a row in
junk). ``state_ref(view)`` keeps the view once in the frame of the batch loop and hands the
rules a pointer to it: each call passes one word, and ``s.tile`` reads the field through
the pointer (LLVM keeps what a function reads often in registers). The pointer lives only
as long as the batch loop's frame, where the rules run; nothing keeps it past the call.

Under ``NUMBA_DISABLE_JIT=1``, ``state_ref`` returns the view itself: plain Python reads
the same fields.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils
from numba.core import types as nbtypes
from numba.core.datamodel import models
from numba.core.imputils import impl_ret_borrowed
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (
    infer_getattr,
    lower_builtin,
    lower_getattr_generic,
    register_model,
    type_callable,
)


class StateRef(nbtypes.Type):
    """numba's type of a pointer to a view (a named tuple of a state's arrays)."""

    def __init__(self, view: nbtypes.BaseNamedTuple):
        self.dtype = view  # the pointee, as ``models.PointerModel`` reads it
        super().__init__(name=f"StateRef({view})")


register_model(StateRef)(models.PointerModel)


def state_ref(view: Any) -> Any:
    """A pointer to ``view`` in the caller's frame (compiled code), or ``view`` itself (plain
    Python)."""
    return view


@type_callable(state_ref)
def _type_state_ref(context: Any) -> Any:
    def typer(view: nbtypes.Type) -> nbtypes.Type | None:
        if isinstance(view, nbtypes.BaseNamedTuple):
            return StateRef(view)
        return None

    return typer


@lower_builtin(state_ref, nbtypes.BaseNamedTuple)
def _lower_state_ref(context: Any, builder: Any, signature: Any, args: Any) -> Any:
    # Lowered in the caller's own frame (a call would hand back a pointer into its own).
    model = context.data_model_manager[signature.args[0]]
    pointer = cgutils.alloca_once(builder, model.get_data_type())  # in the entry block
    builder.store(model.as_data(builder, args[0]), pointer)
    return pointer


@infer_getattr
class _StateRefAttributes(AttributeTemplate):
    key = StateRef

    def generic_resolve(self, typ: StateRef, attr: str) -> nbtypes.Type | None:
        fields = typ.dtype.fields
        return typ.dtype.types[fields.index(attr)] if attr in fields else None


@lower_getattr_generic(StateRef)
def _state_ref_getattr(context: Any, builder: Any, typ: StateRef, value: Any,
                       attr: str) -> Any:
    position = typ.dtype.fields.index(attr)
    field_type = typ.dtype.types[position]
    field = cgutils.gep_inbounds(builder, value, 0, position)
    loaded = context.data_model_manager[field_type].load_from_data_pointer(builder, field)
    # A borrowed reference: where numba counts references (the batch loops), it releases
    # what a getattr returns, so the read takes one.
    return impl_ret_borrowed(context, builder, field_type, loaded)
