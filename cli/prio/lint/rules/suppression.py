"""PRIO901: the suppression directives themselves (applied by `prio.lint.suppress`)."""
from prio.lint.registry import declare
from prio.lint.suppress import RULE_ID

declare(RULE_ID, "unused-suppression", "warning", "suppression", target="suppressions", doc="""
    A `# prio: ignore` comment that suppresses nothing.

    A suppression that no longer matches a finding hides the next real problem on that line, and
    it misleads readers into thinking something there needs an exception. prio reports a
    directive whose rules found nothing on the line it applies to, a rule id or slug that does
    not exist, and a comment that starts like a directive but is not one (`# prio: ignore
    PRIO201` without the brackets, an unclosed `[`, `# prio: ignore-file`). Rules switched off
    by `select`/`ignore` in `.prio.yaml` or on the command line are not judged: a directive
    naming only such rules is never reported.

    A directive applies to its own line when it follows YAML content, and to the next line with
    YAML content when it stands on a line of its own.

    Example (warns):
        properties:
          priority.offset: "10"   # prio: ignore[PRIO201]
    Fix: delete the comment, or move it to the line the finding points at:
        properties:
          priority.offset: "1500000000"   # prio: ignore[PRIO201] system tenants, reviewed
    """)
