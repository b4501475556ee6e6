"""YuniKorn's renderers: each turns a result of its commands (an explanation, a simulation, a
preemption, a diff, a snapshot) into text in one output format, from the result records of
prio.yunikorn (`records`, the explain rows, ...); `html` is the HTML report's context. They read
no input; the shared writers (alignment, sections, the page) are prio.render's."""
