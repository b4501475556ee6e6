"""Armada's legacy queue priority model: "Armada (legacy, up to 2022)".

What this is
------------
From 2019 to 2022 Armada shared the cluster between queues by *usage priority*: each executor
reported what every queue ran, the server turned that into one number per queue (cpu-equivalents)
and let each queue's priority follow it with a half-life; a queue's share of new resources was
proportional to the inverse of its effective priority. The slicing and probabilistic scheduling
were deleted on 2022-12-01, the priority code in February 2024. Current Armada schedules by
dominant-resource-fairness cost and weight = 1 / priorityFactor, with no decay and no history;
prio models that in prio.armada.current, the default (this model needs `scheduler: legacy`).
`docs/priority.md` (the document users still find) describes the legacy model; prio follows
how Armada's code actually behaved, and says where the two differ.

The model, step by step
-----------------------
1. Weights (resource scarcity). `resourceScarcity` if the scenario gives it; otherwise computed
   from the capacity as `calculateResourceScarcity` did: cpu weighs 1 and every other resource
   `total_cpu / total_r`, in the resource's raw unit (memory per byte). A resource with less than
   0.00001 total capacity gets no weight. 10 cpu, 20Gi and 5 GPUs give memory 0.5 per Gi and GPU 2,
   so 5 cpu + 2Gi + 1 GPU is a usage of 8 (the document's "factors" are the inverses).
   Armada's shipped 2022 config set `resourceScarcity: {cpu: 1}`, so real deployments usually
   weighed cpu alone.
2. Usage. Sum of amount x weight. A resource without a weight counts **0** (the code since
   2021-02-24); the document's time counted it **1** (`weighting="legacy"`).
3. Decay, once per usage report, per cluster:
   `new = f*old + (1-f)*usage`, `f = 0.5^(dt/priorityHalfTime)` (the code, a true half-life: after
   one half-time the priority has closed half the gap to the usage, after two three quarters).
   The document prints the formula the other way round, `priority*(1-beta) + usage*beta` with the
   same beta; the two agree only when dt equals the half-time (`decay="document"` selects it).
   A cluster's first report decays as if one minute had passed; a queue missing from a report
   decays towards 0; a queue seen for the first time starts from 0. Reports naming queues the
   scenario does not define are dropped, as Armada dropped them.
4. Aggregation. A queue's priority is the sum of its per-cluster priorities over the clusters
   that reported in the last 10 minutes (before the latest report).
5. Effective priority: `max(priority, 0.5) * priorityFactor`, and exactly 0.5 (no factor) for a
   queue with no history at all. The document mentions neither the floor nor that exception
   (before 2021-02-24 the code computed `max(priority*factor, 0.5)`; prio uses the later order).
6. Share: among the queues with queued jobs (all queues when the scenario lists no jobs), the
   inverse effective priority over the sum of inverses: priorities 1 and 2 give 2/3 and 1/3.
   (Armada's design.md once said "proportional", the code and priority.md say inverse.)
7. Slices (`sliceResource`): with A = usage(offer) + all current usage, a queue's fair total is
   A x its share, its slice weight `max(0, fair total - its own usage)`, and its slice the same
   fraction of every offered resource. Queues with no remaining limit take no part; each slice is
   then capped by the queue's remaining limit (`SliceResourceWithLimits`): capacity x
   `maximalResourceFractionPerQueue` (or the queue's own legacy `resourceLimits`, which then also
   lift every resource it does not name to the whole capacity) minus its usage, capped by
   capacity x `maximalResourceFractionToSchedulePerQueue`. Without a capacity there are no limits.
8. The round. The slice round (skipped with `useProbabilisticSchedulingForAllResources`) lets
   each queue lease its jobs in order (job priority ascending, then submission) while they fit
   in its capped slice; a job that does not fit is skipped and later ones are still tried, and a
   job asking for a resource the offer lacks never fits. Then the probabilistic remainder: draw a
   queue with probability proportional to what is left of its slice (in cpu-equivalents), lease
   one job of it within the remainder and its limit, shrink its slice; a drawn queue with no job
   that fits leaves and the remainder is re-sliced among the rest. It stops when the remainder
   falls below `minimumResourceToSchedule`, no queue is left, or as many draws in a row as there
   were queues leased nothing.

Where prio differs from Armada, on purpose
------------------------------------------
- Determinism: Armada iterated Go maps (random order). prio takes queues in name order, draws
  with Python's seeded `random.Random(seed)` (default seed 0), so the same scenario and seed give
  byte-identical output; the draw itself is `pickQueueRandomly`'s cumulative rule.
- NaN: when the slice weights sum to 0 (the offer weighs nothing and every queue sits at its fair
  total) Armada divided 0 by 0 and its NaN slices stopped the round: nothing was leased. prio
  leases nothing too, shows zero slices, and says why. A zero or negative half-time, reports out
  of time order, a factor below 1 and (without resourceScarcity) a capacity without cpu are input
  errors, because Armada's code would have produced NaN, overshooting or nonsense from them.
- Not modelled: nodes and node types, lease payload and job-count limits, minimum job size,
  pools and per-pool scarcity, the gRPC deadline.

Input
-----
A scenario file (YAML or JSON, `model: armada`): `priorityHalfTime` (Go duration), `capacity`
(Kubernetes quantities; cpu in cores, memory in bytes), optional `resourceScarcity`, `queues`
(name, priorityFactor >= 1 (default 1), optional current `priority`, `usage` and legacy
`resourceLimits`), optional `usage` reports (time as a Go duration from the start or RFC 3339,
cluster, per-queue resources), `offer`, `jobs` (queue, requests, count, optional priority, id,
runtime), `seed`, `rounds`, `roundInterval` (default 1m), `cluster` (the home cluster: where the
queues' stated priority and usage live and where simulate schedules; default the first report's
cluster), and the scheduling settings `useProbabilisticSchedulingForAllResources` (default
false: both rounds run; Armada's shipped config said true), `minimumResourceToSchedule`,
`maximalClusterFractionToSchedule` (caps the offer when set), `maximalResourceFractionPerQueue`,
`maximalResourceFractionToSchedulePerQueue`, `queueLeaseBatchSize` (200), at the top level or
under `scheduling:`. Armada's own queue definitions (`armadaproject.io/v1beta1` `Queue`, one per
document, a `List`/`QueueList`, or a bare list) may be given alongside as the queue list;
the scenario's `queues` then add state (priority, usage) by name. `lint.py` checks those files
(rules PRIO401-PRIO410).

Between simulated rounds every cluster that was active reports again `roundInterval` later: the
home cluster with its usage plus the jobs leased so far (minus those whose `runtime` has passed),
the others with what they last reported; priorities decay accordingly and shares shift. The
scenario's stated state counts as reported at the start, so the first simulated report of a
cluster decays over one `roundInterval` (not Armada's one-minute first-report rule, which explain
applies to the scenario's own reports). Leasing ignores float noise below 1e-9.

Options
-------
- `decay="code"` (default) or `"document"`: the decay formula.
- `weighting="current"` (default) or `"legacy"`: a resource without a weight counts 0 or 1.
"""
