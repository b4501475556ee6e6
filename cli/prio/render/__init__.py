"""Renderers: each turns a result into a string; the CLI decides where it goes."""
