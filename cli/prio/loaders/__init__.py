"""Loaders: turn parsed input documents into the model (config, snapshot). Edges, no printing."""
