"""Armada's current scheduler: dominant-resource-fairness cost, fair share by weight
(1/priorityFactor), adjusted fair share by water filling, eviction to fair share and the
cross-queue candidate order of one scheduling round.

Modules: `model` (the scenario as data), `fairness` (costs, weights, fair shares; pure),
`round` (eviction and lease order of one round; pure), `scenario` (reads a scenario document
into the model), `render` (tables, plain, markdown, json), `command` (what explain and
simulate call). The rules follow armadaproject/armada at commit 207cc9e (2026):
`fairness/fairness.go`, `context/scheduling.go` (`updateFairShares`), `scheduling_algo.go`
(`constructSchedulingContext`), `constraints/constraints.go` (`CapResources`),
`queue_scheduler.go` (`QueueCandidateGangIteratorPQ.Less`) and `preempting_queue_scheduler.go`
(the protected-fair-share eviction test). The round model is that of
`../shared/testdata/armada-current/README.md`: one pool modelled as one node.
"""
