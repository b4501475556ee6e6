/* prio's HTML report, the Volcano view (issue 49): drawn when the page's context says
   model 'volcano'. The builder (render/html/__init__.py, from prio.backends' row) puts this file after report/yunikorn.js in the
   page's one script (a part of it, see render/html/report/core.js); report/page.js calls prioViews[CTX.model] for the main view. Everything
   from the input goes in as text (textContent), never as markup. Long tables draw their first
   ROWS rows and say how many the file holds. */
prioViews.volcano = function (api) {
  'use strict';
  var h = api.h, plural = api.plural, DATA = api.data || {}, COMMAND = api.command;
  var ROWS = 1000;
  var STOPS = { quiet: 'a cycle changed nothing', cycleLimit: 'the cycle limit (100)' };

  function table(id, caption, head, rows) {
    var shown = rows.slice(0, ROWS);
    var t = h('table', { id: id, cls: 'volcano', 'data-rows': String(rows.length) },
      h('caption', { text: caption }),
      h('thead', null, h('tr', null, head.map(function (c) { return h('th', { scope: 'col', text: c }); }))),
      h('tbody', null, shown.map(function (r) {
        return h('tr', r.cls ? { cls: r.cls } : null, r.cells.map(function (c) { return h('td', { text: c === null || c === undefined ? '' : String(c) }); }));
      })));
    var box = h('section', { cls: 'volcano-part' }, t);
    if (rows.length > shown.length) box.appendChild(h('p', { cls: 'count', text: 'The first ' + ROWS + ' of ' + rows.length + ' rows; the file holds every row (its prio-data element).' }));
    return box;
  }

  function config(cfg) {
    var box = h('section', { cls: 'volcano-part', id: 'volcano-config' }, h('h2', { text: 'Config in force' }));
    if (cfg.valid === false) {
      box.appendChild(h('p', { cls: 'warn', id: 'volcano-config-refused', text: 'Volcano refuses the file\u2019s config (' + cfg.error + '): its default config runs, so no preempt or reclaim happens unless the default has them.' }));
    }
    box.appendChild(h('p', null, 'actions: ', h('code', { text: (cfg.actions || []).join(', ') })));
    (cfg.tiers || []).forEach(function (tier, i) {
      box.appendChild(h('p', null, 'tier ' + (i + 1) + ': ', h('code', { text: tier.map(function (p) { return p.name; }).join(', ') })));
    });
    return box;
  }

  function simulate() {
    var view = h('div', { id: 'volcano-simulate' });
    view.appendChild(h('p', { id: 'volcano-summary', text: plural(DATA.cyclesRun || 0, 'scheduling cycle') + ' ran; stopped: ' + (STOPS[DATA.stopReason] || DATA.stopReason) + '.' }));
    view.appendChild(config(DATA.config || {}));
    var events = [];
    (DATA.cycles || []).forEach(function (c) {
      (c.phaseChanges || []).forEach(function (p) { events.push({ cells: [c.cycle, 'phase', p.podGroup, p.from + ' \u2192 ' + p.to] }); });
      (c.binds || []).forEach(function (b) { events.push({ cls: b.tie ? 'tie' : null, cells: [c.cycle, 'bind', b.pod, 'on ' + b.node + (b.tie ? ' (tie: lowest node name; Volcano picks at random)' : '')] }); });
      (c.evictions || []).forEach(function (e) { events.push({ cls: 'evict', cells: [c.cycle, e.action, e.pod, 'from ' + e.node + (e.preemptor ? ' for ' + e.preemptor : '')] }); });
      (c.pipelined || []).forEach(function (p) { events.push({ cells: [c.cycle, 'pipelined', p.pod, 'onto ' + p.node + ', bound once its victims are gone'] }); });
    });
    view.appendChild(h('h2', { text: 'Cycles (only those in which something happened)' }));
    view.appendChild(events.length ? table('volcano-cycles', 'What each cycle did', ['cycle', 'event', 'object', 'detail'], events) :
      h('p', { id: 'volcano-cycles', 'data-rows': '0', text: 'Nothing was bound, evicted or pipelined and no PodGroup changed phase.' }));
    var groups = (DATA.podGroups || []).map(function (g) {
      var cond = (g.conditions || []).map(function (c) { return c.type + (c.message ? ': ' + c.message : ' (' + c.reason + ')'); }).join(' | ');
      return { cls: g.inSession ? null : 'lost', cells: [g.podGroup, g.queue, g.priority, g.phase + (g.inSession ? '' : ' (never in a session: its queue does not exist)'),
        g.running + ' running, ' + g.pending + ' pending, ' + g.evicted + ' evicted', cond] };
    });
    view.appendChild(h('h2', { text: 'PodGroups at the end' }));
    view.appendChild(table('volcano-podgroups', 'Each PodGroup\u2019s phase and the conditions Volcano wrote', ['PodGroup', 'queue', 'priority', 'phase', 'pods', 'conditions'], groups));
    var pods = (DATA.pods || []).map(function (p) {
      var when = p.state === 'Running' ? (p.boundInCycle === 0 ? 'running from the start' : 'bound in cycle ' + p.boundInCycle) :
        p.state === 'Evicted' ? 'evicted in cycle ' + p.evictedInCycle : (p.pendingMessage || p.pendingReason || '');
      return { cls: p.state.toLowerCase(), cells: [p.pod, p.state, p.node || p.nominatedNode || '', when] };
    });
    view.appendChild(h('h2', { text: 'Pods at the end' }));
    view.appendChild(table('volcano-pods', 'Where each pod ended, or why it waits (Volcano\u2019s PodScheduled message)', ['pod', 'state', 'node', 'when / why'], pods));
    return view;
  }

  function explain() {
    var view = h('div', { id: 'volcano-explain' });
    view.appendChild(config(DATA.config || {}));
    view.appendChild(h('h2', { text: 'Queues, in the order allocate serves them' }));
    view.appendChild(table('volcano-queues', 'The queue order of the first session', ['queue', 'weight', 'priority', 'state', 'deserved', 'allocated'],
      (DATA.queues || []).map(function (q) { return { cells: [q.queue, q.weight, q.priority, q.state, q.deserved, q.allocated] }; })));
    view.appendChild(h('h2', { text: 'Jobs, in the order allocate takes them within their queue' }));
    view.appendChild(table('volcano-jobs', 'The job order of the first session', ['PodGroup', 'queue', 'priority', 'minMember', 'phase', 'pods'],
      (DATA.jobs || []).map(function (j) { return { cells: [j.podGroup, j.queue, j.priority, j.minMember, j.phase, j.pods] }; })));
    if ((DATA.notInSession || []).length) {
      view.appendChild(h('p', { id: 'volcano-left-out', cls: 'warn', text: 'Left out of every session (their queue does not exist): ' + DATA.notInSession.join(', ') }));
    }
    return view;
  }

  return COMMAND === 'explain' ? explain() : simulate();
};
