"""The reader YuniKorn's loaders use: prio.io.fields' typed field access, plus resources as
YuniKorn reads their quantities (prio.yunikorn.quantity). The helpers of prio.io.fields are
re-exported here for YuniKorn's loaders."""
from __future__ import annotations

from prio.io import fields
from prio.io.fields import MAX_TIME_SECONDS, kind_of_value, parse_time, to_ns  # noqa: F401 - the loaders find them here
from prio.yunikorn import quantity


class Reader(fields.Reader):
    def resources(self, path, value) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(path, f"resources must be a mapping of resource name to quantity, found {value!r}")
        out = {}
        cache = self._qty
        for k, v in value.items():
            got = cache.get((k, v)) if isinstance(v, str) else None
            if got is not None:
                out[k] = got
                continue
            if isinstance(v, bool) or v is None:
                self.fail(tuple(path) + (k,), f"invalid quantity {v!r} for {k}")
            raw = self.doc.raw(tuple(path) + (k,))
            text = raw if raw is not None else str(v)
            if isinstance(v, (int, float)) and v < 0:
                self.fail(tuple(path) + (k,), f"negative quantity {v} for {k}: resources cannot be negative")
            try:
                out[k] = quantity.parse(k, text)
            except quantity.QuantityError as e:
                self.fail(tuple(path) + (k,), str(e))
            if isinstance(v, str) and raw is None or raw == v:
                cache[(k, v)] = out[k]
        return out

