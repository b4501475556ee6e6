"""Renderers: each turns a result (an explanation, a simulation, a diff, a validate Report) into
a string in one output format; the CLI decides where it goes. They read no input (neither `io`
nor `loaders`)."""
