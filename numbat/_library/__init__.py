"""The library layer's private modules: serialize and the heatmap (`numbat.linalg`,
`numbat.random` and `numbat.constants` are the public modules of this layer)."""
