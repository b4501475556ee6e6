"""Volcano's pure model: its scheduler config as `UnmarshalSchedulerConf` reads it (conf), the
objects of a cluster with the defaults a cluster applies on create (model), and a reference
replay of its scheduling cycles (session). No I/O, YAML or printing: prio.volcano.load reads
the files, prio.volcano.render prints."""
