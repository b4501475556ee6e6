  // ---- Kueue ---------------------------------------------------------------------------------
  // Kueue's view (issue 47: its own file, a part of the page's one script: see report/core.js).
  // A Kueue page (CTX.model 'kueue'): the cohort tree beside every view (explain's rows: in DATA
  // for explain, in CTX.tree before the replay for simulate, CTX.trees for diff), and views of
  // their own: simulate's cycles per ClusterQueue and end state, explain's pending workloads in
  // Kueue's order with why, diff's workloads that end differently.
  var selectCycle = null, selectWorkload = null; // set by simulate's and explain's views, read by follow
  var STOPS = { noPendingHeads: 'no ClusterQueue has a workload left to try', noProgress: 'two cycles in a row changed nothing', cycleLimit: 'the cycle limit (200)' };
  var OUTCOMES = { fits: '\u2713', 'would preempt': '\u26A0', waits: '\u2717', 'never tried': '\u2013', 'never queued': '\u2013' };
  function qty(s) { // a Kubernetes quantity as a number, for drawing only (the page shows Kueue's text)
    if (s === null || s === undefined) return null;
    var m = /^(-?[0-9.]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(String(s));
    if (!m) return null;
    var f = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 1024, Mi: Math.pow(1024, 2), Gi: Math.pow(1024, 3),
      Ti: Math.pow(1024, 4), Pi: Math.pow(1024, 5), Ei: Math.pow(1024, 6) }[m[2]] || 1;
    return parseFloat(m[1]) * f;
  }
  function share(x) { return x === null || x === undefined ? '' : typeof x === 'number' ? String(Math.round(x * 1000) / 1000) : String(x); }
  function cqPath(cq) { return cq ? ((CTX.paths || {})[cq] || cq) : ''; }
  function kueuePathOf(name) { // a ClusterQueue's or Cohort's name -> its path in the tree
    if ((CTX.paths || {})[name]) return CTX.paths[name];
    var rows = COMMAND === 'explain' ? DATA.tree : COMMAND === 'diff' ? ((CTX.trees || {}).NEW || []) : CTX.tree;
    var hit = (rows || []).filter(function (n) { return n.name === name; })[0];
    return hit ? hit.path : name;
  }
  function flavorsText(podSets) {
    return (podSets || []).map(function (ps) {
      var res = Object.keys(ps.flavors).map(function (r) { return r + ' ' + (ps.resourceUsage[r] || '0') + ' in ' + ps.flavors[r]; }).join(', ');
      return podSets.length > 1 || ps.name !== 'main' ? ps.name + ' \u00D7' + ps.count + ': ' + res : res;
    }).join('; ');
  }
  function resourceLine(r, isCq) {
    return r.resource + ' in ' + r.flavor + ': nominal ' + r.nominalQuota +
      ', borrowing limit ' + (r.borrowingLimit || 'none') + ', lending limit ' + (r.lendingLimit || 'none') +
      '; usage ' + r.usage + (r.borrowed && r.borrowed !== '0' ? ' (' + r.borrowed + ' borrowed)' : '') +
      (r.lendable !== null && r.lendable !== undefined ? '; lendable ' + r.lendable : '') +
      (isCq && r.available !== null ? '; available now ' + r.available : '');
  }
  function kueueNodes(rows) { // explain's tree rows as buildTree's items: the cohort path is the tree path
    return (rows || []).map(function (n) {
      var isCq = n.kind === 'ClusterQueue', lines = [n.kind + ' ' + n.name + ' (' + n.path + ')'];
      (n.resources || []).forEach(function (r) { lines.push(resourceLine(r, isCq)); });
      if (!(n.resources || []).length) lines.push('no quota of its own and no usage');
      if (isCq) {
        var p = n.preemption || {};
        lines.push('queueing ' + n.queueingStrategy + '; preemption: withinClusterQueue ' + p.withinClusterQueue + ', reclaimWithinCohort ' +
          p.reclaimWithinCohort + ', borrowWithinCohort ' + p.borrowWithinCohort);
        lines.push(n.namespaceSelector === null ? 'no namespaceSelector: it admits from no namespace' : 'namespaceSelector ' + JSON.stringify(n.namespaceSelector));
      }
      if (n.share !== null) lines.push('fair sharing: weight ' + share(n.weight) + ', share ' + share(n.share));
      return { queue: n.path, depth: n.depth, node: n, why: lines };
    });
  }
  function kueueContent(fair) {
    return function (q) {
      var n = q.node, isCq = n.kind === 'ClusterQueue', out = [], bars = h('span', { cls: 'bars' }), words = [];
      out.push(bars);
      out.push(h('span', { cls: 'tag' + (isCq ? '' : ' cohort'), title: isCq ? 'ClusterQueue, queueing strategy' : 'Cohort', text: isCq ? n.queueingStrategy : 'cohort' }));
      if (isCq && n.namespaceSelector === null) out.push(h('span', { cls: 'tag chg', title: 'no namespaceSelector: it admits from no namespace', text: 'no namespaceSelector' }));
      var p = n.preemption || {}, pol = [];
      if (p.withinClusterQueue && p.withinClusterQueue !== 'Never') pol.push('within ' + p.withinClusterQueue);
      if (p.reclaimWithinCohort && p.reclaimWithinCohort !== 'Never') pol.push('reclaim ' + p.reclaimWithinCohort);
      if (p.borrowWithinCohort && p.borrowWithinCohort !== 'Never') pol.push('borrow ' + p.borrowWithinCohort);
      if (pol.length) out.push(h('span', { cls: 'tag', title: 'preemption policies that are not Never', text: pol.join(', ') }));
      if (fair && n.share !== null) out.push(h('span', { cls: 'tag', title: 'fair sharing: weight, and dominant resource share / weight', text: 'w ' + share(n.weight) + ', share ' + share(n.share) }));
      (n.resources || []).forEach(function (r, i) {
        var text = r.resource + ' in ' + r.flavor + ': ' + r.usage + ' used of nominal ' + r.nominalQuota +
          (r.borrowed && r.borrowed !== '0' ? ' (' + r.borrowed + ' borrowed)' : '') +
          (r.borrowingLimit ? ', borrowing limit ' + r.borrowingLimit : '') + (isCq && r.available !== null ? ', ' + r.available + ' available' : '');
        words.push(text);
        var used = qty(r.usage) || 0, nominal = qty(r.nominalQuota) || 0, avail = isCq ? qty(r.available) || 0 : 0;
        var scale = Math.max(used + avail, nominal, used);
        if (!isCq || !scale || i > 1) return;
        var bar = h('span', { cls: 'bar', title: text, 'data-borrowing': used > nominal ? 'true' : null });
        bar.appendChild(h('i', { style: 'width:' + Math.min(100, 100 * Math.min(used, nominal) / scale).toFixed(1) + '%' }));
        if (used > nominal) { // the borrowed part, hatched
          bar.appendChild(h('u', { style: 'left:' + (100 * nominal / scale).toFixed(1) + '%;width:' + Math.min(100, 100 * (used - nominal) / scale).toFixed(1) + '%' }));
        }
        bar.appendChild(h('b', { style: 'left:' + Math.min(99, 100 * nominal / scale).toFixed(1) + '%' }));
        bars.appendChild(bar);
      });
      if (words.length) { bars.setAttribute('title', words.join('\n')); bars.setAttribute('aria-label', words.join('; ')); }
      return out;
    };
  }
  function kueueTree(rows) {
    return buildTree(kueueNodes(rows), { sep: '/', cls: 'kueue', label: 'Cohorts and ClusterQueues', content: kueueContent(CTX.fairSharing || DATA.fairSharing),
      whyLabel: 'quota', whyTitle: 'Quotas, limits, usage and policies', searchLabel: 'Search cohorts and ClusterQueues (key: /)' });
  }
  function revealLink(treeBox, cq) {
    var path = cqPath(cq);
    return h('a', { href: '#queue=' + encodeURIComponent(path), cls: 'cqlink', 'data-cq': cq, text: path,
      onclick: function (e) { e.preventDefault(); if (treeBox) treeBox.reveal(path); } });
  }
  function pendingGroups(items, id, reasonOf, cols) {
    var box = h('div', { id: id, 'data-workloads': String(items.length) });
    if (!items.length) { box.appendChild(h('p', { text: 'No workload is left pending.' })); return box; }
    var groups = new Map(), reasons = CTX.reasons || {};
    items.forEach(function (w) { var c = reasonOf(w) || 'never evaluated'; if (!groups.has(c)) groups.set(c, []); groups.get(c).push(w); });
    Array.from(groups.keys()).sort(function (a, b) { return groups.get(b).length - groups.get(a).length || (a < b ? -1 : 1); }).forEach(function (c) {
      var ws = groups.get(c);
      var head = c === 'never evaluated' ? 'Kueue never evaluated it (behind a StrictFIFO head, or set aside with an identical workload)' : reasons[c];
      box.appendChild(h('details', { cls: 'group', 'data-reason': c, 'data-count': String(ws.length), open: true },
        h('summary', null, h('span', { cls: 'code', text: c }), ' \u2014 ' + plural(ws.length, 'workload') + (head ? ': ' + head : '')),
        h('div', null, arrayTable(cols, ws, { label: 'Pending: ' + c }))));
    });
    return box;
  }

  function buildKueueSimulate(treeBox) {
    var cycles = DATA.cycles || [], wls = DATA.workloads || [];
    var cqOf = CTX.clusterQueueOf || {};
    var admitted = wls.filter(function (w) { return w.state === 'Admitted'; }), pending = wls.filter(function (w) { return w.state !== 'Admitted'; });
    var pre = [];
    cycles.forEach(function (c) { (c.preempted || []).forEach(function (p) { pre.push({ cycle: c.cycle, p: p }); }); });
    var list = [{ id: 'cycles', name: 'Cycles (' + cycles.length + ')', build: function () {
      var box = h('div', { id: 'cycles', 'data-cycles': String(cycles.length), 'data-run': String(DATA.cyclesRun), 'data-stop': DATA.stopReason });
      box.appendChild(h('p', { id: 'kueue-summary' }, plural(DATA.cyclesRun || 0, 'scheduling cycle') + ' ran; stopped: ' + (STOPS[DATA.stopReason] || DATA.stopReason) + '. ' +
        plural(admitted.length, 'workload') + ' admitted at the end, ' + pending.length + ' pending, ' + plural(pre.length, 'preemption') + '.'));
      if (!cycles.length) box.appendChild(h('p', { text: 'No workload was admitted or preempted.' }));
      else box.appendChild(h('p', { cls: 'count', text: 'The cycles in which something was admitted or preempted. Kueue tries one workload per ClusterQueue per cycle; a preemptor is admitted in a later cycle, once its victims have released their quota.' }));
      cycles.forEach(function (c) {
        var byCq = new Map();
        function put(cq, ev) { if (!byCq.has(cq)) byCq.set(cq, []); byCq.get(cq).push(ev); }
        (c.preempted || []).forEach(function (p) { put(p.clusterQueue, { kind: 'preempted', w: p.workload, p: p }); });
        (c.admitted || []).forEach(function (a) { put(a.clusterQueue, { kind: 'admitted', w: a.workload, a: a }); });
        var sec = h('section', { cls: 'cycle', id: 'cycle-' + c.cycle, 'data-cycle': String(c.cycle), 'data-tie': c.tie ? 'true' : null },
          h('h3', null, 'Cycle ' + c.cycle, h('span', { cls: 'count', text: ' ' + c.time }),
            c.tie ? h('span', { cls: 'tag chg', title: 'Kueue leaves this choice to Go\u2019s map order: prio took names in order, Kueue may take another', text: 'tie' }) : null));
        Array.from(byCq.keys()).sort(function (a, b) { var x = cqPath(a), y = cqPath(b); return x < y ? -1 : x > y ? 1 : 0; }).forEach(function (cq) {
          var evs = byCq.get(cq).sort(function (a, b) { return (a.kind === 'preempted' ? 0 : 1) - (b.kind === 'preempted' ? 0 : 1) || (a.w < b.w ? -1 : 1); });
          sec.appendChild(h('div', { cls: 'cq', 'data-cq': cq }, revealLink(treeBox, cq),
            h('ul', { cls: 'events' }, evs.map(function (ev) {
              if (ev.kind === 'admitted') {
                return h('li', { cls: 'ev-admitted', 'data-event': 'admitted', 'data-workload': ev.w },
                  h('span', { cls: 'outcome allocated', text: '\u2713 ADMITTED' }), h('code', { text: ev.w }), ' \u2014 ' + flavorsText(ev.a.podSets));
              }
              return h('li', { cls: 'ev-preempted', 'data-event': 'preempted', 'data-workload': ev.w },
                h('span', { cls: 'outcome preempted', text: '\u26A0 PREEMPTED' }), h('code', { text: ev.w }), ' for ', h('code', { text: ev.p.preemptor }),
                ' (' + ev.p.reason + ')', h('div', { cls: 'msg', text: ev.p.message }));
            }))));
        });
        box.appendChild(sec);
      });
      return box;
    } }];
    list.push({ id: 'end', name: 'End state (' + wls.length + ')', build: function () {
      var box = filtered([
        { name: 'workload', get: function (w) { return w.workload; } },
        { name: 'ClusterQueue', get: function (w) { return cqPath(w.clusterQueue || cqOf[w.workload]) || '(no LocalQueue ' + w.localQueue + ')'; } },
        { name: 'priority', num: true, get: function (w) { return String(w.priority); } },
        { name: 'state', get: function (w) { return w.state; } },
        { name: 'when / reason', get: function (w) {
          if (w.state === 'Admitted') return w.admittedInCycle === 0 ? 'running from the start' : 'cycle ' + w.admittedInCycle;
          return w.pendingReason || 'never evaluated';
        } },
        { name: 'flavors / message', get: function (w) { return w.state === 'Admitted' ? flavorsText(w.podSets) : (w.pendingMessage || ''); } },
        { name: 'preempted', num: true, get: function (w) { return w.timesPreempted ? String(w.timesPreempted) + '\u00D7' : ''; } }],
        wls, function (w) { return w.workload + ' ' + (w.clusterQueue || cqOf[w.workload] || '') + ' ' + w.state + ' ' + (w.pendingReason || ''); },
        { label: 'End state', placeholder: 'Filter workloads by name, ClusterQueue, state or reason', onPick: function (i) {
          var w = wls[box.index(i)];
          box.table.select(i);
          if (treeBox && (w.clusterQueue || cqOf[w.workload])) treeBox.reveal(cqPath(w.clusterQueue || cqOf[w.workload]), true);
        } });
      box.id = 'kueue-end';
      box.setAttribute('data-rows', String(wls.length));
      return box;
    }, shown: function () { var t = document.querySelector('#kueue-end .vt'); if (t) t.refresh(); } });
    list.push({ id: 'pending', name: 'Pending (' + pending.length + ')', build: function () {
      return pendingGroups(pending, 'kueue-pending', function (w) { return w.pendingReason; }, [
        { name: 'workload', get: function (w) { return w.workload; } },
        { name: 'ClusterQueue', get: function (w) { return cqPath(cqOf[w.workload]) || '(no LocalQueue ' + w.localQueue + ')'; } },
        { name: 'priority', num: true, get: function (w) { return String(w.priority); } },
        { name: 'message', get: function (w) { return w.pendingMessage || ''; } }]);
    } });
    if (pre.length) list.push({ id: 'preemptions', name: 'Preemptions (' + pre.length + ')', build: function () {
      var t = arrayTable([
        { name: 'cycle', num: true, get: function (x) { return String(x.cycle); } },
        { name: 'workload', get: function (x) { return x.p.workload; } },
        { name: 'ClusterQueue', get: function (x) { return cqPath(x.p.clusterQueue); } },
        { name: 'preemptor', get: function (x) { return x.p.preemptor; } },
        { name: 'reason', get: function (x) { return x.p.reason; } },
        { name: 'message', get: function (x) { return x.p.message; } }], pre, { label: 'Preemptions' });
      t.id = 'kueue-preemptions';
      return t;
    } });
    list.push({ id: 'perqueue', name: 'Per ClusterQueue', build: function () {
      var rows = {}, order = [];
      function row(cq) { if (!rows[cq]) { rows[cq] = { cq: cq, admitted: 0, running: 0, pending: 0, preempted: 0, first: null, last: null }; order.push(cq); } return rows[cq]; }
      Object.keys(CTX.paths || {}).forEach(row);
      cycles.forEach(function (c) {
        (c.admitted || []).forEach(function (a) { var r = row(a.clusterQueue); r.admitted++; if (r.first === null) r.first = c.cycle; r.last = c.cycle; });
        (c.preempted || []).forEach(function (p) { row(p.clusterQueue).preempted++; });
      });
      wls.forEach(function (w) {
        var cq = w.clusterQueue || cqOf[w.workload];
        if (!cq) return;
        if (w.state === 'Admitted') { if (w.admittedInCycle === 0) row(cq).running++; } else row(cq).pending++;
      });
      order.sort(function (a, b) { var x = cqPath(a), y = cqPath(b); return x < y ? -1 : x > y ? 1 : 0; });
      var t = arrayTable([
        { name: 'ClusterQueue', get: function (r) { return cqPath(r.cq); } },
        { name: 'admitted in the run', num: true, get: function (r) { return String(r.admitted); } },
        { name: 'running from the start', num: true, get: function (r) { return String(r.running); } },
        { name: 'preemptions', num: true, get: function (r) { return String(r.preempted); } },
        { name: 'pending at the end', num: true, get: function (r) { return String(r.pending); } },
        { name: 'first / last cycle', get: function (r) { return r.first === null ? '' : r.first === r.last ? String(r.first) : r.first + '\u2013' + r.last; } }],
        order.map(function (cq) { return rows[cq]; }), { label: 'Per ClusterQueue' });
      t.id = 'kueue-perqueue';
      return t;
    } });
    others(['cyclesRun', 'stopReason', 'cycles', 'workloads'], list);
    var box = tabs(list);
    selectCycle = function (n) {
      box.show('cycles');
      var el = document.getElementById('cycle-' + n);
      if (!el) return;
      Array.prototype.forEach.call(document.querySelectorAll('section.cycle.sel'), function (x) { x.classList.remove('sel'); });
      el.classList.add('sel');
      el.scrollIntoView({ block: 'start' });
    };
    return box;
  }

  function buildKueueExplain(treeBox) {
    var pend = DATA.pending || [], why = CTX.whyWorkload || {};
    var panel = h('div', { cls: 'whyask', id: 'kueue-why' }, h('strong', { text: 'Why does this workload wait?' }),
      h('p', { cls: 'count', text: 'Pick a workload in the table.' }));
    var box = null;
    function pick(i) {
      if (i < 0 || i >= pend.length) return;
      var p = pend[i];
      if (box) { var pos = box.position(i); if (pos >= 0) box.table.select(pos); }
      panel.textContent = '';
      panel.setAttribute('data-workload', p.workload);
      panel.appendChild(h('strong', { text: 'Why ' + p.workload + '?' }));
      var lines = why[p.workload];
      if (lines) panel.appendChild(h('pre', { cls: 'answer', text: lines.join('\n') }));
      else panel.appendChild(h('p', null, 'Ask prio: ', h('code', { text: 'prio explain --why-workload ' + p.workload + ' FILES...' }),
        CTX.whyNote ? ' (' + CTX.whyNote + ')' : ''));
      if (treeBox && p.clusterQueue) treeBox.reveal(cqPath(p.clusterQueue), true);
    }
    selectWorkload = function (key) {
      for (var i = 0; i < pend.length; i++) if (pend[i].workload === key) { tabsBox.show('pending'); pick(i); return; }
    };
    var list = [{ id: 'pending', name: 'Pending workloads (' + pend.length + ')', build: function () {
      box = filtered([
        { name: 'ClusterQueue', get: function (p) { return p.clusterQueue ? cqPath(p.clusterQueue) : '(none)'; } },
        { name: '#', num: true, get: function (p) { return p.position === null ? '\u2013' : String(p.position); } },
        { name: 'workload', get: function (p) { return p.workload; } },
        { name: 'priority', num: true, get: function (p) { return String(p.priority); } },
        { name: 'now', get: function (p) { return (OUTCOMES[p.outcome] || '') + ' ' + p.outcome; } },
        { name: 'reason', get: function (p) { return p.reason || ''; } },
        { name: 'why', get: function (p) { return p.message + (p.victims.length ? ' (victims: ' + p.victims.map(function (v) { return v.workload + ' ' + v.reason; }).join(', ') + ')' : ''); } }],
        pend, function (p) { return p.workload + ' ' + (p.clusterQueue || '') + ' ' + p.outcome + ' ' + (p.reason || ''); },
        { label: 'Pending workloads in the order Kueue considers them', placeholder: 'Filter workloads by name, ClusterQueue, outcome or reason', onPick: function (j) { pick(box.index(j)); } });
      box.id = 'kueue-pending';
      box.setAttribute('data-rows', String(pend.length));
      return [h('p', { cls: 'count', text: 'Per ClusterQueue in the order Kueue considers them, each evaluated alone against the quota as it is now, as Kueue\u2019s next cycle would; one workload per ClusterQueue is tried per cycle.' }), box, panel];
    }, shown: function () { if (box) box.table.refresh(); } }];
    list.push({ id: 'quotas', name: 'Cohorts and ClusterQueues (' + (DATA.tree || []).length + ')', build: function () {
      var rows = [];
      (DATA.tree || []).forEach(function (n) {
        if (!(n.resources || []).length) rows.push({ n: n, r: null, first: true });
        (n.resources || []).forEach(function (r, i) { rows.push({ n: n, r: r, first: i === 0 }); });
      });
      function v(f) { return function (x) { return x.r ? (x.r[f] === null ? '\u2013' : x.r[f]) : ''; }; }
      var t = arrayTable([
        { name: 'name', get: function (x) { return x.first ? new Array(x.n.depth + 1).join('\u2003') + x.n.name + (x.n.kind === 'Cohort' ? '/' : '') : ''; } },
        { name: 'resource', get: function (x) { return x.r ? x.r.resource + ' in ' + x.r.flavor : ''; } },
        { name: 'nominal', num: true, get: v('nominalQuota') },
        { name: 'borrowing limit', num: true, get: v('borrowingLimit') },
        { name: 'lending limit', num: true, get: v('lendingLimit') },
        { name: 'usage', num: true, get: v('usage') },
        { name: 'borrowed', num: true, get: v('borrowed') },
        { name: 'lendable', num: true, get: v('lendable') },
        { name: 'available', num: true, get: v('available') },
        { name: 'weight', num: true, get: function (x) { return x.first ? share(x.n.weight) : ''; } },
        { name: 'share', num: true, get: function (x) { return x.first ? share(x.n.share) : ''; } }], rows, { label: 'Cohorts and ClusterQueues' });
      t.id = 'kueue-quotas';
      return [t, h('p', { cls: 'count', text: 'borrowed: usage above the node\u2019s own quota; lendable: what it may lend its cohort; available: what a workload of the ClusterQueue may use now, borrowing included; share: dominant resource share / weight (fair sharing' + (DATA.fairSharing ? ', on' : ', off in this setup') + ').' })];
    } });
    others(['model', 'fairSharing', 'tree', 'pending'], list);
    var tabsBox = tabs(list);
    return tabsBox;
  }

  function kueueState(f) { // one side of a workload in a diff, as kueue/render.py's _state says it
    if (!f) return '(not there)';
    var s;
    if (f.state === 'Admitted') {
      var flv = Object.keys(f.flavors || {}).map(function (ps) { var rs = f.flavors[ps]; return Object.keys(rs).sort().map(function (r) { return r + ' in ' + rs[r]; }).join(', '); }).join('; ');
      s = 'Admitted to ' + f.clusterQueue + ' (' + (f.admittedInCycle === 0 ? 'from the start' : 'cycle ' + f.admittedInCycle) + (flv ? ': ' + flv : '') + ')';
    } else s = 'Pending: ' + (f.pendingReason || 'never evaluated') + (f.pendingMessage ? ' (' + f.pendingMessage + ')' : '');
    if (f.timesPreempted) s += '; preempted ' + f.timesPreempted + '\u00D7';
    return s;
  }
  function buildKueueDiff() {
    var ws = DATA.workloads || [], s = DATA.summary || {}, fi = DATA.findings || { added: [], removed: [] };
    var cyc = DATA.cycles || {}, stop = DATA.stopReason || {};
    var list = [{ id: 'summary', name: 'Summary', build: function () {
      return h('div', { id: 'diff-summary' }, h('ul', null,
        h('li', { 'data-kind': 'workloads' }, s.changed + ' of ' + plural(s.workloads, 'workload') + ' end differently (' + s.newlyAdmitted + ' newly admitted, ' +
          s.newlyPending + ' newly pending, ' + s.preemptedMoreOften + ' preempted more often)'),
        h('li', { 'data-kind': 'replays' }, 'OLD: ' + plural(cyc.old, 'cycle') + ', stopped: ' + (STOPS[stop.old] || stop.old) + '; NEW: ' +
          plural(cyc.new, 'cycle') + ', stopped: ' + (STOPS[stop.new] || stop.new)),
        h('li', { 'data-kind': 'findings' }, plural((fi.added || []).length, 'finding') + ' added, ' + (fi.removed || []).length + ' removed')));
    } }];
    list.push({ id: 'workloads', name: 'Workloads (' + ws.length + ')', build: function () {
      if (!ws.length) return h('p', { id: 'kueue-diff-workloads', 'data-rows': '0', text: 'Every workload ends the same: admitted in the same cycle to the same ClusterQueue and flavors, preempted as often, or pending for the same reason.' });
      var box = filtered([
        { name: 'workload', get: function (c) { return c.workload; } },
        { name: 'change', get: function (c) { return c.changes.join(', '); } },
        { name: 'OLD', get: function (c) { return kueueState(c.old); } },
        { name: 'NEW', get: function (c) { return kueueState(c.new); } }], ws, function (c) { return c.workload + ' ' + c.changes.join(' '); },
        { label: 'Workloads admitted, preempted or left pending differently', placeholder: 'Filter workloads or changes' });
      box.id = 'kueue-diff-workloads';
      box.setAttribute('data-rows', String(ws.length));
      return box;
    } });
    list.push(addedRemoved('findings', 'Findings', fi));
    others(['old', 'new', 'model', 'summary', 'cycles', 'stopReason', 'workloads', 'findings'], list);
    return tabs(list);
  }

  VIEWS.kueue = {
    titles: { explain: 'Kueue cohorts and queues', simulate: 'Kueue admission cycles', diff: 'Kueue setup change' },
    explain: buildKueueExplain, simulate: buildKueueSimulate, diff: buildKueueDiff,
    search: ' search cohorts and ClusterQueues, ', steps: false,
    pathOf: function (q) { return q.charAt(0) !== '/' ? kueuePathOf(q) : q; },
    follow: function (args) { // the address's own keys: #cycle=N, #workload=NS/NAME (explain's why)
      if (args.cycle && selectCycle) selectCycle(+args.cycle);
      if (args.workload && selectWorkload) selectWorkload(args.workload);
    },
    header: function (top) { // its cycles left to Go's map order
      var tieCycles = COMMAND === 'simulate' ? (DATA.cycles || []).filter(function (c) { return c.tie; }).map(function (c) { return c.cycle; }) : [];
      if (tieCycles.length) {
        top.appendChild(h('div', { cls: 'ties', id: 'ties' },
          h('strong', { text: 'Where Kueue itself is nondeterministic: ' }),
          plural(tieCycles.length, 'cycle') + ' with a choice left to Go\u2019s map order (heads equal on everything Kueue compares; prio takes names in order, Kueue may take another): ',
          tieCycles.slice(0, 30).map(function (c, i) { return [i ? ', ' : '', h('a', { href: '#cycle=' + c, text: 'cycle ' + c })]; })));
      }
    },
    aside: function (aside) { // the cohort tree (explain's rows: DATA's for explain, the context's before the replay)
      var rows = COMMAND === 'explain' ? DATA.tree : COMMAND === 'diff' ? ((CTX.trees || {}).NEW || (CTX.trees || {}).OLD) : CTX.tree;
      if (!(rows && rows.length)) { aside.appendChild(h('p', { cls: 'count', text: 'No cohort tree in this report.' })); return null; }
      aside.setAttribute('aria-label', 'Cohort tree');
      aside.appendChild(h('h2', { text: COMMAND === 'diff' ? 'Cohorts and ClusterQueues (NEW, before the replay)' : COMMAND === 'simulate' ? 'Cohorts and ClusterQueues (before the replay)' : 'Cohorts and ClusterQueues' }));
      var treeBox = kueueTree(rows);
      aside.appendChild(treeBox);
      aside.appendChild(h('p', { cls: 'count' }, 'Bars: a ClusterQueue\u2019s usage against what it may use now: solid up to its nominal quota (the tick), hatched what it borrows. ',
        h('kbd', { text: '\u2191\u2193\u2190\u2192' }), ' move and open, ', h('kbd', { text: 'Enter' }), ' shows the quotas.'));
      return treeBox;
    }
  };
