"""The tensor layer: `Tensor` and `Template` (data, type, names; no op), argument checks,
and the expression graph a defn records."""
