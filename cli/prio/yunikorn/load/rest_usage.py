"""The users' and groups' usage a live YuniKorn tracks (`/ws/v1/partition/{p}/usage/users` and
`/usage/groups`), read into ugm.Served: the user/group manager's starting usage where the
applications read do not already hold it (ugm.Served says why they mostly do).

What YuniKorn serves (yunikorn-core pkg/webservice/dao/ugm_info.go): a list of
UserResourceUsageDAOInfo `{userName, groups: {application id: group}, queues}` and of
GroupResourceUsageDAOInfo `{groupName, applications: [...], queues}`, where `queues` is a tree of
ResourceUsageDAOInfo `{queuePath, resourceUsage, runningApplications, maxResources,
maxApplications, children}` from root down (omitempty: an empty map or list is left out).
Resources are in internal units (vcore in millicores). Lists and children come in map order.
The manager is one for the whole scheduler: the partition in the path selects nothing."""
from __future__ import annotations

from prio.errors import InputError
from prio.yunikorn.ugm import Served

MAX_DEPTH = 1000  # a queue tree deeper than any YuniKorn builds: a malformed answer, not a queue


def read(users_url: str, users, groups_url: str, groups) -> Served:
    """The parsed JSON of the two endpoints (either may be None: not served) as ugm.Served."""
    out = Served()
    for url, data, name_key, into in ((users_url, users, "userName", out.users), (groups_url, groups, "groupName", out.groups)):
        if data is None:
            continue
        if not isinstance(data, list):
            raise InputError(url, "expected a list of usage entries")
        for i, entry in enumerate(data):
            if not isinstance(entry, dict) or not isinstance(entry.get(name_key), str) or not entry[name_key]:
                raise InputError(url, f"[{i}]: a usage entry needs a {name_key}")
            name = entry[name_key]
            if name in into:
                raise InputError(url, f"[{i}]: {name_key} {name!r} is listed twice")
            into[name] = _tree(url, f"[{i}].queues", entry.get("queues"))
            if name_key == "userName":
                apps = entry.get("groups") or {}
                if not isinstance(apps, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in apps.items()):
                    raise InputError(url, f"[{i}].groups: expected a map of application id to group name")
                out.app_groups.update({k: v for k, v in apps.items() if k and v})
            else:
                apps = entry.get("applications") or []
                if not isinstance(apps, list) or not all(isinstance(a, str) for a in apps):
                    raise InputError(url, f"[{i}].applications: expected a list of application ids")
                out.app_groups.update({a: name for a in apps if a})
    return out


def _tree(url: str, where: str, root) -> dict:
    """A ResourceUsageDAOInfo tree as {queue path: (resources, set of running application ids)},
    walked without recursion."""
    out: dict = {}
    if root is None:
        return out
    stack = [(root, where, 0)]
    while stack:
        q, at, depth = stack.pop()
        if not isinstance(q, dict) or not isinstance(q.get("queuePath"), str) or not q["queuePath"]:
            raise InputError(url, f"{at}: a queue entry needs a queuePath")
        if depth > MAX_DEPTH:
            raise InputError(url, f"{at}: queues nested deeper than {MAX_DEPTH} levels")
        res = q.get("resourceUsage") or {}
        if not isinstance(res, dict) or not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                                                for k, v in res.items()):
            raise InputError(url, f"{at}.resourceUsage: expected a map of resource name to whole number")
        running = q.get("runningApplications") or []
        if not isinstance(running, list) or not all(isinstance(a, str) for a in running):
            raise InputError(url, f"{at}.runningApplications: expected a list of application ids")
        path = q["queuePath"].lower()  # as YuniKorn's queue names and prio's tree paths are
        if path in out:
            raise InputError(url, f"{at}: queue {q['queuePath']} is listed twice")
        out[path] = ({k: v for k, v in res.items() if v}, set(running))
        kids = q.get("children") or []
        if not isinstance(kids, list):
            raise InputError(url, f"{at}.children: expected a list of queues")
        stack.extend((c, f"{at}.children[{j}]", depth + 1) for j, c in enumerate(kids))
    return out
