"""YuniKorn's preemption for pending asks, as apache/yunikorn-core does it (objects/preemption.go,
queue.go FindEligiblePreemptionVictims, application.go tryAllocate/tryPreemption), on a model:
the queue tree (tree.QNode), the running allocations and the nodes of a snapshot.

Pure: no I/O. `analyse` runs YuniKorn's scheduling cycles on the snapshot (asks in YuniKorn's
order, each placed, preempted for, or failed, until nothing changes) and returns per ask the
outcome, the victims in the order YuniKorn picks them, the node, YuniKorn's reason string, plus
the why computed in the initial state: the fence root and why it stops there, the ask's priority
as translated at each queue up to the fence root, and every running task with why it is or is
not a candidate.

Resources follow Go's *Resource (prio.yunikorn.resources): None is nil, {} is an empty (non-nil)
resource; YuniKorn's nil semantics decide outcomes in corner cases.

Assumptions, as the recordings in ../shared/testdata/yunikorn-preemption make them: every
preemption.delay has passed, the resource manager accepts every victim set (the mock callback of
yunikorn-core: success at the start index) and releases victims at once, then the ask is placed
on the node YuniKorn reserved for it. Where Go leaves an order to map iteration, ties go by
queue path, then application, then the allocation's order in the snapshot.

The modules, in the order a run goes through them:
  world       the running state: nodes, running allocations, queue usage and headroom
  candidates  the victim search for one ask (queue.go): the fence root, the ask's priority at
              each queue, every running task with why it is or is not a candidate
  guarantee   the queues' preemption snapshots (QueuePreemptionSnapshot): what a queue may lose
              and what is left of its guarantee
  ordering    the order victims are tried in, and the score of a node's solution
  preemptor   the Preemptor (preemption.go): the guarantee check, victims node by node, the
              extra victims elsewhere, the final choice
  cycles      the scheduling cycles over every pending ask: `analyse`
  result      what `analyse` returns, and YuniKorn's own failure messages
  quota       quota-change preemption (quota_preemptor.go): a lowered max enforced on the
              running work, with no pending ask involved (docs/quota-preemption.md)
"""
from __future__ import annotations

from prio.yunikorn.preemption.cycles import analyse
from prio.yunikorn.preemption.result import AskResult, Candidate, Result

__all__ = ["analyse", "AskResult", "Candidate", "Result"]
