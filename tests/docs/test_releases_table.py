"""docs/yunikorn.md's table "what changes by release" is the one prio.yunikorn.releases makes
(prio.yunikorn.render.releases): the page and the rules prio applies cannot disagree. After a deliberate
change, PRIO_UPDATE_GOLDEN=1 writes the table into the page."""
import os

from conftest import ROOT

PAGE = os.path.join(ROOT, "docs", "yunikorn.md")


def test_the_releases_table_is_generated_from_the_release_data():
    from prio.yunikorn.render.releases import BEGIN, END, markdown_table

    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    start, end = page.index(BEGIN), page.index(END) + len(END)
    want = page[:start] + markdown_table() + page[end:]
    if os.environ.get("PRIO_UPDATE_GOLDEN") == "1" and want != page:
        with open(PAGE, "w", encoding="utf-8") as f:
            f.write(want)
        page = want
    assert page == want, "docs/yunikorn.md's release table is stale: run with PRIO_UPDATE_GOLDEN=1"


def test_every_release_has_a_column_and_the_newest_is_the_default():
    from prio.yunikorn import releases

    header, rows = releases.changes_table()
    assert [h.split()[0] for h in header[1:]] == list(releases.NAMES)
    assert all(len(cells) == len(releases.NAMES) for _, cells in rows)
    assert releases.get(None) is releases.NEWEST is releases.RELEASES[releases.NAMES[-1]]
    assert releases.get("1.6.3") is releases.get("v1.6") is releases.RELEASES["1.6"]
    assert releases.get("2.0") is None and releases.get("1") is None and releases.get("1.6.3.1") is None
