"""Front-end ops: infer the output template once, then call the backend."""
