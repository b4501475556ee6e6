"""prio.suggest: did-you-mean candidates for a name."""


def test_suggestions_prefer_a_suffix_over_spelling():
    from prio.suggest import close

    paths = ["root", "root.tenants", "root.tenants.tenant-a", "root.tenants.tenant-b"]
    assert close("tenant-a", paths) == ["root.tenants.tenant-a"]
    assert close("ROOT.TENANTS", paths) == ["root.tenants"]
    assert close("tennant-b", paths)[0] == "root.tenants.tenant-b"
    assert close("x", paths) == []
