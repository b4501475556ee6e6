"""--kube: the cluster of the user's kubeconfig, read through their own kubectl (prio.io.kubectl),
as the inputs of explain, simulate, preempt, snapshot and diff; `kubectl prio` turns it on.

What is read, each with one `kubectl get ... -o json`: the ConfigMaps the YuniKorn shim reads
(yunikorn-configs and yunikorn-defaults in --yunikorn-namespace, default yunikorn), the pods that are not
finished (all namespaces, every scheduler's: YuniKorn's are the work, the others' bound to a node
take room there), the nodes, and the PriorityClasses. Each answer becomes an input by a name
such as `<kube pods>` (prio.io.source.PROVIDED), recognised by content like a file: a ConfigMap
List, a pod list, a node list, PriorityClasses; prio.yunikorn.load.kubectl reads pods and nodes as the
shim reports them to YuniKorn. Nothing is written to the cluster. Credentials that may not list
the nodes leave them out, with a note (the cluster is then one pool, as for a pod list alone)."""
from __future__ import annotations

import json
import os
import sys
from dataclasses import replace

from prio.cli.guard import say
from prio.errors import InputError

NAMESPACE = "yunikorn"  # where YuniKorn's Helm chart installs it
TIMEOUT_ENV = "PRIO_KUBECTL_TIMEOUT"  # seconds for each kubectl call (default prio.io.kubectl's)
MAX_TIMEOUT = 86400.0  # a day: longer is no deadline (and inf would never fire)
LIVE = "live"  # prio diff's OLD or NEW: the config the cluster runs (as with --yunikorn)
FINISHED_OUT = "status.phase!=Succeeded,status.phase!=Failed"  # finished pods hold nothing
_KINDS = {"configmap": "ConfigMaps", "pods": "pods", "nodes": "nodes", "priorityclasses": "PriorityClasses"}


def _provide(name: str, text: str) -> str:
    from prio.io import source

    source.PROVIDED[name] = text
    return name


def _timeout() -> float | None:
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value < MAX_TIMEOUT:  # inf and nan included: a deadline that never comes is none
        raise InputError(TIMEOUT_ENV, f"must be a number of seconds above 0 and below {MAX_TIMEOUT:g}, not {raw!r}")
    return value


def fetch(context=None, namespace=None, timeout=None, config: bool = True, verbose: bool = False,
          config_needed: bool = False, images=None) -> list[str]:
    """The cluster's state as input names (read through source.PROVIDED): the YuniKorn ConfigMaps
    (`config`), the YuniKorn pods and the PriorityClasses. Without the ConfigMaps YuniKorn runs
    its built-in default config (said in a note), unless `config_needed` (prio diff's `live`).
    `images`: a list the images of the pods' containers are added to."""
    from prio.io import caps, kubectl
    from prio.kube.configmap import NAMES

    ns = namespace or NAMESPACE
    asks = []
    if config:
        asks.append(["get", "configmap", *NAMES, "-n", ns, "--ignore-not-found", "-o", "json"])
    # every scheduler's pods: another scheduler's pod on a node takes room YuniKorn cannot use
    asks += [["get", "pods", "--all-namespaces", "--field-selector", FINISHED_OUT, "-o", "json"],
             ["get", "nodes", "-o", "json"],
             ["get", "priorityclasses", "-o", "json"]]
    names = []
    for args in asks:
        # the input's name in messages: short, and never a REV:PATH (no colon) for prio diff
        name = f"<kube {args[1]}{f', context {context}' if context else ''}>"
        try:
            text = kubectl.get(args, context, timeout)
        except InputError as e:
            if args[1] != "nodes" or not e.message.startswith("forbidden"):
                raise
            say(f"prio: note: {kubectl.label(args, context)}: {e.message}; without the nodes the cluster "
                             "is one pool (no node room, no cordoned nodes, no other schedulers' pods)")
            continue
        found = kubectl.items(text)
        # counted before a model is built: every pod is an ask (the asks cap), the rest objects
        (caps.ASKS if args[1] == "pods" else caps.OBJECTS).check(kubectl.label(args, context), len(found), what=_KINDS[args[1]])
        if args[1] == "pods" and images is not None:  # the release YuniKorn's own pods run
            images += [c.get("image") for p in found if isinstance(p, dict) for c in _containers(p)]
        if verbose:
            say(f"prio: {name}: {len(found)} object{'s' if len(found) != 1 else ''}")
        if args[1] == "configmap":
            if not found:
                where = f" (context {context})" if context else ""
                if config_needed:
                    raise InputError(kubectl.label(args, context), f"no {' or '.join(NAMES)} ConfigMap in namespace {ns}{where}: YuniKorn runs its "
                                           "built-in default config there, or is installed elsewhere (--yunikorn-namespace NS)")
                sys.stderr.write(f"prio: note: {kubectl.label(args, context)}: no {' or '.join(NAMES)} ConfigMap in namespace {ns}{where}: "
                                 "taken as YuniKorn's built-in default config (if YuniKorn is installed elsewhere, say "
                                 "--yunikorn-namespace NS)\n")
                continue
            text = json.dumps({"apiVersion": "v1", "kind": "List", "items": found})  # one object or a List alike
        elif not found:
            continue  # no pods or no classes: nothing to read (a config alone still explains)
        names.append(_provide(name, text))
    return names


def _containers(pod: dict) -> list:
    spec = pod.get("spec")
    got = spec.get("containers") if isinstance(spec, dict) else None
    return [c for c in got if isinstance(c, dict) and isinstance(c.get("image"), str)] if isinstance(got, list) else []


def shown_release(o, images) -> dict:
    """What the images of YuniKorn's pods say of the release (prio.yunikorn.releases.from_image):
    not given, --yunikorn-version becomes the one they show (said in a note); given, a note when
    they show another. The options to change (for `replace`)."""
    from prio.render.printable import printable
    from prio.yunikorn import releases

    shown = sorted({v for v in map(releases.from_image, images) if v})
    if not shown or not hasattr(o, "yunikorn_version"):
        return {}
    known = [releases.get(v) for v in shown]
    names = sorted({r.name for r in known if r is not None})
    what = f"the cluster's YuniKorn runs {', '.join(shown)} (its pods' images)"
    asked = o.version_asked()  # the option, or .prio.yaml's yunikornVersion
    if asked is not None:
        if o.release().name not in names:
            said = "--yunikorn-version" if o.yunikorn_version is not None else "yunikornVersion"
            sys.stderr.write(f"prio: note: {said} {printable(asked)}, but {printable(what)}\n")
        return {}
    if len(names) == 1 and None not in known:
        sys.stderr.write(f"prio: note: {printable(what)}: judged as YuniKorn {names[0]} (--yunikorn-version says otherwise)\n")
        return {"yunikorn_version": names[0]}
    sys.stderr.write(f"prio: note: {printable(what)}: judged as YuniKorn {releases.NEWEST.name}, the newest prio knows "
                     "(--yunikorn-version says otherwise)\n")
    return {}


def with_cluster(o):
    """`o` with the cluster's inputs after its own INPUTs when --kube is given; `o` otherwise.
    prio diff's OLD or NEW may then be `live`: the ConfigMap the cluster runs; its INPUTs get
    the cluster's pods and classes (the configs compared are OLD and NEW). --kube reads what files
    would give, so it is refused beside --yunikorn and --sample."""
    if not o.kube:
        for flag, name in (("context", "--context"), ("namespace", "--yunikorn-namespace"), ("namespace_old", "--namespace")):
            if getattr(o, flag, None):
                raise InputError(name, "goes with --kube (or kubectl prio)")
        return o
    if getattr(o, "namespace_old", None):
        sys.stderr.write("prio: note: --namespace is now --yunikorn-namespace (the namespace of YuniKorn's ConfigMaps); "
                         "-n/--namespace is a pod's namespace in kubectl prio why\n")
        o = replace(o, namespace=o.namespace or o.namespace_old)
    if o.yunikorn:
        raise InputError("--kube", "give either --kube (the cluster through kubectl) or --yunikorn URL (YuniKorn's REST API), not both")
    if getattr(o, "sample", None):
        raise InputError("--kube", "give either --kube or --sample, not both")
    sides = (o.old, o.new) if hasattr(o, "old") else None
    config = sides is None or LIVE in sides
    images: list = []
    names = fetch(o.context, o.namespace, _timeout(), config=config, verbose=o.verbose, config_needed=sides is not None and config,
                  images=images)
    changes = {"kube": False, **shown_release(o, images)}
    if sides is not None and config:
        live = names.pop(0)
        changes.update(old=live if o.old == LIVE else o.old, new=live if o.new == LIVE else o.new)
    changes["inputs"] = (*o.inputs, *names)
    return replace(o, **changes)
