"""Command bodies: each wires a loader, the core and a renderer, and returns an exit code."""
