"""The shared writers: the output formats a command offers (`formats`), alignment and printable
names (`align`, `printable`), JSON numbers (`jsontext`), the section writer the backends'
renderers share (`sections`), validate's formats (`validate/`) and the HTML page (`html/`).
Each scheduler's own renderers are in its package (prio.yunikorn.render, prio.NAME.render).
They read no input."""
