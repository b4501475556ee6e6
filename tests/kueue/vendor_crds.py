"""Re-vendor Kueue's CRD schemas into cli/prio/kueue/crds/ (run by a maintainer, not by the suite).

    python tests/kueue/vendor_crds.py GIT_DIR [COMMIT]

GIT_DIR: a clone of github.com/kubernetes-sigs/kueue (a bare one will do); COMMIT: the commit the
recorded corpora name (../shared/testdata/kueue/README.md), by default the one in the manifest.
For each CRD prio reads, each served version's `openAPIV3Schema` is written as compact JSON with
its `description`s dropped (prose, a fifth of the bytes, never read by a check: prio's messages are
its own), and manifest.json records, per file, the source path, the commit, the sha256 of the
source YAML and of the written JSON. tests/kueue/test_kueue_crds.py checks the sha256s and, when
KUEUE_GIT names such a clone, that this script reproduces every file byte for byte.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "cli", "prio", "kueue", "crds")
REPOSITORY = "https://github.com/kubernetes-sigs/kueue"
# The CRDs of the objects prio's Kueue loader reads (prio.kueue.load.KINDS, less the
# Configuration, which is no CRD, and the core kinds).
PLURALS = ("clusterqueues", "cohorts", "localqueues", "resourceflavors", "topologies", "workloadpriorityclasses", "workloads")


def _source(plural: str) -> str:
    return f"config/components/crd/bases/kueue.x-k8s.io_{plural}.yaml"


def strip(node):
    """The schema without `description` (a schema's keyword, not a property that is so named)."""
    if isinstance(node, dict):
        return {k: ({p: strip(s) for p, s in v.items()} if k == "properties" else strip(v))
                for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [strip(x) for x in node]
    return node


def render(text: bytes) -> dict:
    """{file name: (kind, version, JSON bytes)} for one CRD's YAML."""
    crd = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    kind, plural = crd["spec"]["names"]["kind"], crd["spec"]["names"]["plural"]
    out = {}
    for v in crd["spec"]["versions"]:
        if not v.get("served"):
            continue
        body = json.dumps(strip(v["schema"]["openAPIV3Schema"]), separators=(",", ":"), sort_keys=True)
        out[f"{plural}.{v['name']}.json"] = (kind, v["name"], body.encode() + b"\n")
    return out


def vendor(git_dir: str, commit: str) -> dict:
    """{file name: bytes} of every vendored file, manifest.json included."""
    files, entries = {}, {}
    for plural in PLURALS:
        text = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{_source(plural)}"], check=True,
                              capture_output=True).stdout
        for name, (kind, version, body) in render(text).items():
            files[name] = body
            entries[name] = {"kind": kind, "version": version, "source": _source(plural), "commit": commit,
                             "sourceSha256": hashlib.sha256(text).hexdigest(), "sha256": hashlib.sha256(body).hexdigest()}
    manifest = {"repository": REPOSITORY, "commit": commit, "licence": "Apache-2.0 (LICENSE, NOTICE)",
                "transform": "each served version's spec.versions[].schema.openAPIV3Schema, descriptions dropped, "
                             "as compact JSON with sorted keys (tests/kueue/vendor_crds.py)",
                "files": entries}
    files["manifest.json"] = (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()
    return files


def main(argv: list) -> int:
    git_dir = argv[1]
    if len(argv) > 2:
        commit = argv[2]
    else:
        with open(os.path.join(OUT, "manifest.json"), encoding="utf-8") as fh:
            commit = json.load(fh)["commit"]
    os.makedirs(OUT, exist_ok=True)
    for name, body in vendor(git_dir, commit).items():
        with open(os.path.join(OUT, name), "wb") as fh:
            fh.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
