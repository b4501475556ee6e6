"""Every case of ../shared/testdata/yunikorn-shim/pods/: prio reads each pod of a cluster's
kubectl exports as YuniKorn's Kubernetes shim does (what it sends the core: application, user,
groups, resources, priority, preemption flags, originator, gang fields) and places each
application where the core does (namespace tag rules, provided names, ACLs, the built-in default
config, the recovery queue). The check is the corpus README's, in tests/shim_pods.py."""
from __future__ import annotations

import pytest

import shim_pods
from conftest import shared


@pytest.mark.parametrize("case", shim_pods.cases() or ["(absent)"])
def test_pods_read_as_the_shim_reads_them(case):
    shared("testdata", "yunikorn-shim", "pods")
    bad = shim_pods.check(case)
    assert not bad, "\n".join(f"{who}: {field}: YuniKorn {want!r}, prio {got!r}" for who, field, want, got in bad)


def test_the_corpus_is_there_and_whole():
    shared("testdata", "yunikorn-shim", "pods")
    assert len(shim_pods.cases()) == 150  # a check that ran on nothing never passes
