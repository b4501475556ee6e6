"""Volcano's pure model: its scheduler config as `UnmarshalSchedulerConf` reads it (conf), the
objects of a cluster with the defaults a cluster applies on create (model), and a reference
replay of its scheduling cycles (session). No I/O, YAML or printing: prio.loaders.volcano reads
the files, prio.render.volcano prints."""
