"""validate's output formats: a Report of findings as text, json, sarif, github, gitlab, junit
or markdown, with the statistics and hints they share."""
