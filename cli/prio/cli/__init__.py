"""The command layer: the typer app and its commands (explain, simulate, preempt, diff,
validate, snapshot, rule). A command parses its options, has the loaders read its inputs, runs
the checks and engines on them (the loaders run no lint rule: the registry's judgment step does, `prio.backends.judge`),
hands the results to a renderer and decides what goes to stdout, stderr and the exit code. It is
the only package that may import all the others, mostly lazily (inside the command) for
start-up speed."""
