  // ---- simulate: the timeline ----------------------------------------------------------------
  // The run as typed arrays. Lanes are the queues at one depth of the tree (each step in the lane
  // of its queue's ancestor there): leaves when they are few, root's children for 10,000 leaves.
  var MAX_LANES = 150;
  function simulateModel() {
    var steps = DATA.steps || [];
    var alloc = [], pre = [];
    // (a gang's placeholder releases and timeouts carry no ask: not allocations, not drawn yet)
    steps.forEach(function (s) { if (s.preemption) pre.push(s); else if (s.ask !== undefined) alloc.push(s); });
    var n = alloc.length;
    var prio = new Int32Array(n), stepNo = new Int32Array(n), prios = new Array(n);
    var queues = [], qid = new Map(), qOf = new Int32Array(n), depth = 0;
    for (var i = 0; i < n; i++) {
      var s = alloc[i];
      prio[i] = s.priority; prios[i] = s.priority; stepNo[i] = s.step;
      var id = qid.get(s.queue);
      if (id === undefined) { id = queues.length; qid.set(s.queue, id); queues.push(s.queue); depth = Math.max(depth, s.queue.split('.').length - 1); }
      qOf[i] = id;
    }
    var M = { alloc: alloc, pre: pre, n: n, prio: prio, stepNo: stepNo, bands: bandsOf(prios), queues: queues, qOf: qOf, maxDepth: depth };
    M.levels = [];
    for (var L = 1; L <= depth; L++) M.levels.push({ depth: L, lanes: new Set(queues.map(function (q) { return ancestor(q, L); })).size });
    var pickL = 1;
    M.levels.forEach(function (lv) { if (lv.lanes <= MAX_LANES) pickL = lv.depth; });
    if (!M.levels.length) pickL = 0;
    setLevel(M, pickL);
    return M;
  }
  function ancestor(q, L) { // the queue at depth L on q's path (q itself when it is not deeper)
    var at = -1;
    for (var k = 0; k <= L; k++) { at = q.indexOf('.', at + 1); if (at < 0) return q; }
    return q.slice(0, at);
  }
  function setLevel(M, L) {
    var order = {}, treePrio = {};
    ((CTX.tree && CTX.tree.queues) || []).forEach(function (q, i) { order[q.queue] = i; treePrio[q.queue] = q.priority; });
    var keyOf = M.queues.map(function (q) { return ancestor(q, L); });
    var lanes = Array.from(new Set(keyOf));
    lanes.sort(function (a, b) { return (order[a] === undefined ? 1e9 : order[a]) - (order[b] === undefined ? 1e9 : order[b]) || (a < b ? -1 : 1); });
    var laneOf = new Map();
    lanes.forEach(function (q, i) { laneOf.set(q, i); });
    var laneOfQ = keyOf.map(function (k) { return laneOf.get(k); });
    var n = M.n, lane = new Int32Array(n), counts = new Int32Array(lanes.length);
    // each lane's queue priority over the steps: change points (index, value or NaN for n/a)
    var series = lanes.map(function (q) { return { x: [], v: [], start: treePrio[q] === undefined ? null : treePrio[q] }; });
    for (var i = 0; i < n; i++) {
      var l = lane[i] = laneOfQ[M.qOf[i]];
      counts[l]++;
      var ch = M.alloc[i].changes;
      for (var c = 0; c < ch.length; c++) {
        var cl = laneOf.get(ch[c].queue);
        if (cl === undefined) continue;
        var sr = series[cl];
        if (!sr.x.length && sr.start === null) sr.start = ch[c].from;
        sr.x.push(i);
        sr.v.push(ch[c].to === null ? NaN : ch[c].to);
      }
    }
    series.forEach(function (sr) {
      var lo = Infinity, hi = -Infinity;
      function see(v) { if (v !== null && !isNaN(v)) { if (v < lo) lo = v; if (v > hi) hi = v; } }
      see(sr.start); sr.v.forEach(see);
      sr.lo = lo; sr.hi = hi;
      sr.x = Int32Array.from(sr.x); sr.v = Float64Array.from(sr.v);
    });
    var byLane = lanes.map(function (q, l) { return new Int32Array(counts[l]); }), fill = new Int32Array(lanes.length);
    for (i = 0; i < n; i++) byLane[lane[i]][fill[lane[i]]++] = i;
    M.level = L; M.lanes = lanes; M.lane = lane; M.series = series; M.byLane = byLane;
  }

  function changesText(s) {
    return (s.changes || []).map(function (c) { return short(c.queue) + ': ' + pr(c.from) + ' \u2192 ' + pr(c.to); }).join(', ');
  }
  function stepText(s) {
    return 'step ' + s.step + (s.tie ? ' *' : '') + '\n' + s.queue + '\n' + s.application + ' / ' + s.ask + '   P' + s.priority +
      (s.node ? '   on ' + s.node : '') + (s.taskGroup !== undefined ? '\ngang: ' + gangText(s) : '') + (s.changes && s.changes.length ? '\npriority changes: ' + changesText(s) : '\nno priority changes') +
      (s.note ? '\n! ' + s.note : '');
  }

  function timeline(M, onPick) {
    var GUTTER = 200, AXIS = 22, RIGHT = 64; // RIGHT: each lane's queue-priority scale
    var laneH = 0;
    function laneHeight() { laneH = Math.max(12, Math.min(28, Math.floor(480 / Math.max(1, M.lanes.length)))); }
    laneHeight();
    var wrap = h('div', { cls: 'tl-wrap' });
    var spacer = h('div', { style: 'height:0' });
    var canvas = h('canvas', { tabindex: '0', role: 'img', id: 'timeline-canvas',
      'aria-label': 'Timeline: ' + M.lanes.length + ' queues as lanes, ' + M.n + ' steps. Arrow keys move the selected step, + and - zoom, 0 resets.' });
    wrap.appendChild(canvas);
    wrap.appendChild(spacer);
    var tip = h('div', { cls: 'tip', hidden: true, role: 'tooltip' });
    var info = h('span', { cls: 'count', 'aria-live': 'polite' });
    var x0 = 0, x1 = Math.max(1, M.n); // the view, in step indexes
    var sel = -1;
    var box = h('div', { id: 'timeline', 'data-lanes': String(M.lanes.length), 'data-steps': String(M.n), 'data-level': String(M.level) });
    function zoom(f, at) {
      var span = x1 - x0, ns = Math.min(M.n || 1, Math.max(2, span * f)); // at most every step, at least two
      var c = at === undefined ? (x0 + x1) / 2 : at;
      var r = (c - x0) / span;
      x0 = c - ns * r; x1 = x0 + ns;
      clamp(); draw();
    }
    function clamp() {
      var span = x1 - x0;
      if (x0 < 0) { x0 = 0; x1 = span; }
      if (x1 > Math.max(1, M.n)) { x1 = Math.max(1, M.n); x0 = Math.max(0, x1 - span); }
    }
    function pan(d) { x0 += d; x1 += d; clamp(); draw(); }
    var tools = h('div', { cls: 'tl-tools' },
      h('button', { type: 'button', title: 'Zoom in (+)', 'aria-label': 'Zoom in', text: '+', onclick: function () { zoom(0.5); } }),
      h('button', { type: 'button', title: 'Zoom out (-)', 'aria-label': 'Zoom out', text: '\u2212', onclick: function () { zoom(2); } }),
      h('button', { type: 'button', title: 'Every step (0)', text: 'Reset', onclick: function () { x0 = 0; x1 = Math.max(1, M.n); draw(); } }),
      M.levels.length > 1 ? h('label', null, ' Lanes: ', levelSelect()) : null,
      info);
    function levelSelect() {
      var sel = h('select', { 'aria-label': 'Lanes: the queues at this depth', id: 'timeline-level' });
      M.levels.forEach(function (lv) {
        sel.appendChild(h('option', { value: String(lv.depth), selected: lv.depth === M.level, text: 'queues at depth ' + lv.depth + ' (' + fmtNum(lv.lanes) + ')' }));
      });
      sel.addEventListener('change', function () {
        setLevel(M, +sel.value);
        laneHeight(); W = 0; wrap.scrollTop = 0;
        box.setAttribute('data-lanes', String(M.lanes.length));
        box.setAttribute('data-level', String(M.level));
        draw();
      });
      return sel;
    }
    // colour is the ask's own priority, never its place in the order (YuniKorn sorts queues first:
    // step 1 can be the lowest band); the line is the lane queue's priority, its scale at the right
    var legend = h('div', { cls: 'legend', id: 'timeline-legend' }, h('strong', { text: 'Colour: the ask\u2019s own priority' }),
      h('span', { cls: 'count', text: '(not its place in the order: YuniKorn sorts the queues first, so an early step can be a low-priority ask)' }));
    for (var b = 0; b < M.bands.count; b++) legend.appendChild(h('span', { 'data-band': String(b) }, swatch(b), BAND_NAMES[b] + ' (' + M.bands.label(b) + ')'));
    legend.appendChild(h('span', { id: 'timeline-line-legend' }, h('span', { cls: 'lineswatch', 'aria-hidden': 'true' }),
      'the lane queue\u2019s priority over the steps; its scale, lowest to highest, at the lane\u2019s right (gaps: n/a)'));
    if (M.pre.length) legend.appendChild(h('span', null, '\u25BC preemption before the step'));
    box.appendChild(tools);
    box.appendChild(legend);
    box.appendChild(wrap);
    document.body.appendChild(tip);
    var W = 0, H = 0, dpr = 1, binned = false, drawn = 0, scales = [];
    function size() {
      W = Math.max(400, wrap.clientWidth || (box.clientWidth || 900));
      var full = AXIS + M.lanes.length * laneH + 4;
      H = Math.min(full, 560);
      spacer.style.height = Math.max(0, full - H) + 'px';
      dpr = window.devicePixelRatio || 1;
      canvas.width = Math.floor(W * dpr); canvas.height = Math.floor(H * dpr);
      canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
    }
    function draw() {
      if (!canvas.isConnected) return;
      if (!W || Math.abs(W - (wrap.clientWidth || W)) > 2) size();
      var g = canvas.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      var fg = cssVar('--fg'), muted = cssVar('--muted'), line = cssVar('--line'), bg = cssVar('--bg');
      g.fillStyle = bg; g.fillRect(0, 0, W, H);
      var plotW = W - GUTTER - RIGHT, span = x1 - x0, px = plotW / span;
      var top = wrap.scrollTop, firstLane = Math.max(0, Math.floor(top / laneH)), lastLane = Math.min(M.lanes.length, Math.ceil((top + H - AXIS) / laneH) + 1);
      function laneY(l) { return AXIS + l * laneH - top; }
      // axis
      g.fillStyle = muted; g.font = '11px system-ui, sans-serif'; g.textBaseline = 'middle';
      var tick = Math.pow(10, Math.floor(Math.log10(Math.max(1, span / 6))));
      if (span / tick > 12) tick *= 5; else if (span / tick > 6) tick *= 2;
      g.strokeStyle = line; g.lineWidth = 1;
      // step s covers [s-1, s) in index space: its tick at the middle
      for (var t = Math.max(tick, Math.ceil((x0 + 0.5) / tick) * tick); t - 0.5 <= x1; t += tick) {
        var tx = GUTTER + (t - 0.5 - x0) * px;
        g.beginPath(); g.moveTo(tx + 0.5, AXIS - 4); g.lineTo(tx + 0.5, H); g.stroke();
        g.fillText(fmtNum(t), tx + 2, 9);
      }
      g.fillText('step \u2192', 4, 9);
      // lanes
      var pats = []; for (var b = 0; b < M.bands.count; b++) pats.push(pattern(g, b));
      binned = span > plotW;
      drawn = 0;
      scales = [];
      var i0 = Math.max(0, Math.floor(x0)), i1 = Math.min(M.n, Math.ceil(x1));
      for (var l = firstLane; l < lastLane; l++) {
        var y = laneY(l);
        if (y > H) break;
        g.fillStyle = l % 2 ? bg : cssVar('--panel');
        g.fillRect(GUTTER, y, plotW, laneH);
        g.fillStyle = fg; g.textAlign = 'right';
        g.fillText(fit(g, M.lanes[l], GUTTER - 8), GUTTER - 6, y + laneH / 2);
        g.textAlign = 'left';
        var idx = M.byLane[l];
        var lo = lower(idx, i0), hi = lower(idx, i1);
        if (!binned) {
          var w = Math.max(1, Math.min(px - 1, 14));
          for (var k = lo; k < hi; k++) {
            var i = idx[k], bd = M.bands.band(M.prio[i]);
            var x = GUTTER + (i + 0.5 - x0) * px - w / 2;
            g.fillStyle = pats[bd]; g.fillRect(x, y + 2, w, laneH - 4);
            if (bd === 3 || w < 3) { g.strokeStyle = cssVar('--band' + bd); g.strokeRect(x + 0.5, y + 2.5, Math.max(0, w - 1), laneH - 5); }
            if (i === sel) { g.strokeStyle = fg; g.lineWidth = 2; g.strokeRect(x - 1.5, y + 0.5, w + 3, laneH - 1); g.lineWidth = 1; }
            drawn++;
          }
        } else { // bins: one per pixel column, height by count, band of the highest priority in it
          var cols = Math.ceil(plotW);
          var cnt = new Int32Array(cols), best = new Int32Array(cols).fill(-2147483648), mx = 0;
          for (k = lo; k < hi; k++) {
            i = idx[k];
            var col = Math.floor((i - x0) * px);
            if (col < 0 || col >= cols) continue;
            cnt[col]++; if (M.prio[i] > best[col]) best[col] = M.prio[i];
          }
          for (var cix = 0; cix < cols; cix++) if (cnt[cix] > mx) mx = cnt[cix];
          for (cix = 0; cix < cols; cix++) {
            if (!cnt[cix]) continue;
            var fill = Math.max(0.25, Math.sqrt(cnt[cix] / mx)); // against the lane's busiest pixel
            var bh = Math.max(2, (laneH - 4) * fill);
            g.fillStyle = pats[M.bands.band(best[cix])];
            g.fillRect(GUTTER + cix, y + laneH - 2 - bh, 1, bh);
            drawn++;
          }
        }
        drawSeries(g, M.series[l], y, plotW, px, i0, i1);
      }
      // preemptions: a mark on the axis before their step
      g.fillStyle = cssVar('--bad');
      M.pre.forEach(function (p) {
        var i = p.step - 1;
        if (i < x0 || i > x1) return;
        var x = GUTTER + (i - x0) * px;
        g.beginPath(); g.moveTo(x - 5, AXIS - 10); g.lineTo(x + 5, AXIS - 10); g.lineTo(x, AXIS - 2); g.fill();
      });
      box.setAttribute('data-binned', binned ? 'true' : 'false');
      box.setAttribute('data-scales', scales.join(' '));
      box.setAttribute('data-drawn', String(drawn));
      info.textContent = 'steps ' + fmtNum(M.n ? M.stepNo[Math.max(0, Math.min(M.n - 1, i0))] : 0) + '\u2013' + fmtNum(M.n ? M.stepNo[Math.max(0, i1 - 1)] : 0) +
        ' of ' + fmtNum(M.n) + (binned ? ' (binned: ' + (span / plotW).toFixed(1) + ' steps a pixel; zoom in for each step)' : '');
    }
    function drawSeries(g, sr, y, plotW, px, i0, i1) {
      if (sr.lo === Infinity) return;
      var range = sr.hi - sr.lo;
      // the scale: the line's highest value at the lane's top, its lowest at the bottom (one value: in the middle)
      g.fillStyle = cssVar('--muted'); g.font = '10px system-ui, sans-serif'; g.textAlign = 'left';
      var sx = GUTTER + plotW + 4;
      if (range) {
        g.textBaseline = 'top'; g.fillText(fitR(g, 'P ' + sr.hi, RIGHT - 6), sx, y + 1);
        g.textBaseline = 'bottom'; g.fillText(fitR(g, 'P ' + sr.lo, RIGHT - 6), sx, y + laneH - 1);
      } else { g.textBaseline = 'middle'; g.fillText(fitR(g, 'P ' + sr.lo, RIGHT - 6), sx, y + laneH / 2); }
      g.textBaseline = 'middle'; g.font = '11px system-ui, sans-serif';
      scales.push(sr.lo === sr.hi ? String(sr.lo) : sr.lo + '..' + sr.hi);
      function Y(v) { return range ? y + laneH - 3 - (v - sr.lo) / range * (laneH - 6) : y + laneH / 2; }
      g.strokeStyle = cssVar('--lineprio'); g.lineWidth = 1.25; g.globalAlpha = 0.7;
      g.beginPath();
      var k = lower(sr.x, i0), v = k > 0 ? sr.v[k - 1] : sr.start === null ? NaN : sr.start;
      var x = GUTTER, pen = false, lastPx = -1;
      function to(nx, nv) { // v holds from x to nx, then nv
        if (!isNaN(v)) { if (!pen) { g.moveTo(x, Y(v)); pen = true; } g.lineTo(nx, Y(v)); } else pen = false;
        if (!isNaN(nv) && !isNaN(v)) g.lineTo(nx, Y(nv)); else if (!isNaN(nv)) { g.moveTo(nx, Y(nv)); pen = true; }
        x = nx; v = nv;
      }
      for (; k < sr.x.length && sr.x[k] < i1; k++) {
        var nx = GUTTER + (sr.x[k] + 1 - x0) * px;
        if (Math.floor(nx) === lastPx && !isNaN(sr.v[k]) && !isNaN(v)) { v = sr.v[k]; continue; } // many changes in one pixel
        lastPx = Math.floor(nx);
        to(nx, sr.v[k]);
      }
      to(GUTTER + plotW, v);
      g.stroke();
      g.lineWidth = 1; g.globalAlpha = 1;
    }
    function fitR(g, text, w) { return g.measureText(text).width <= w ? text : text.slice(0, Math.max(3, Math.floor(text.length * w / g.measureText(text).width) - 1)) + '\u2026'; }
    function lower(a, v) { var lo = 0, hi = a.length; while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; } return lo; }
    function fit(g, text, w) {
      if (g.measureText(text).width <= w) return text;
      var s = short(text);
      while (s.length > 3 && g.measureText('\u2026' + s).width > w) s = s.slice(1);
      return '\u2026' + s;
    }
    function at(e) {
      var r = canvas.getBoundingClientRect();
      var mx = e.clientX - r.left, my = e.clientY - r.top;
      var plotW = W - GUTTER - RIGHT;
      var xi = x0 + (mx - GUTTER) / plotW * (x1 - x0);
      var l = Math.floor((my - AXIS + wrap.scrollTop) / laneH);
      return { mx: mx, my: my, xi: xi, lane: l >= 0 && l < M.lanes.length ? l : -1, inPlot: mx >= GUTTER };
    }
    canvas.addEventListener('mousemove', function (e) {
      var p = at(e);
      if (drag) { var d = (drag.x - e.clientX) / (W - GUTTER - RIGHT) * (x1 - x0); drag.x = e.clientX; pan(d); return; }
      if (!p.inPlot || p.lane < 0 || p.xi < 0 || p.xi >= M.n) { tip.hidden = true; return; }
      var text;
      var span = x1 - x0, perPx = span / (W - GUTTER - RIGHT);
      if (perPx <= 1) {
        var i = Math.floor(p.xi);
        text = stepText(M.alloc[i]) + (M.lane[i] !== p.lane ? '\n(this step placed in ' + M.lanes[M.lane[i]] + ')' : '');
      } else {
        var a = Math.max(0, Math.floor(p.xi)), z = Math.min(M.n, Math.floor(p.xi + perPx) + 1);
        var idx = M.byLane[p.lane], c = lower(idx, z) - lower(idx, a);
        text = 'steps ' + M.stepNo[a] + '\u2013' + M.stepNo[z - 1] + '\n' + M.lanes[p.lane] + ': ' + plural(c, 'placement') + '\n(zoom in to see each step)';
      }
      tip.textContent = text;
      tip.hidden = false;
      tip.style.left = Math.min(window.innerWidth - 460, e.clientX + 14) + 'px';
      tip.style.top = (e.clientY + 14) + 'px';
    });
    canvas.addEventListener('mouseleave', function () { tip.hidden = true; drag = null; });
    var drag = null, moved = false;
    canvas.addEventListener('mousedown', function (e) { drag = { x: e.clientX }; moved = false; });
    window.addEventListener('mouseup', function () { drag = null; });
    canvas.addEventListener('mousemove', function () { if (drag) moved = true; });
    canvas.addEventListener('click', function (e) {
      if (moved) return;
      var p = at(e);
      if (!p.inPlot || p.xi < 0 || p.xi >= M.n) return;
      var i = Math.floor(p.xi);
      if (p.lane >= 0 && M.lane[i] !== p.lane) { // the nearest step of the lane clicked
        var idx = M.byLane[p.lane], k = lower(idx, i);
        var cands = [idx[k - 1], idx[k]].filter(function (x) { return x !== undefined; });
        if (cands.length) i = cands.sort(function (a, b) { return Math.abs(a - p.xi) - Math.abs(b - p.xi); })[0];
      }
      onPick(i);
    });
    canvas.addEventListener('wheel', function (e) {
      e.preventDefault();
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) { pan((e.deltaX || e.deltaY) / (W - GUTTER - RIGHT) * (x1 - x0)); return; }
      zoom(e.deltaY > 0 ? 1.25 : 0.8, at(e).xi);
    }, { passive: false });
    canvas.addEventListener('keydown', function (e) {
      var k = e.key;
      if (k === '+' || k === '=') zoom(0.5, sel >= 0 ? sel : undefined);
      else if (k === '-' || k === '_') zoom(2, sel >= 0 ? sel : undefined);
      else if (k === '0') { x0 = 0; x1 = Math.max(1, M.n); draw(); }
      else if (k === 'ArrowRight') onPick(Math.min(M.n - 1, sel + 1));
      else if (k === 'ArrowLeft') onPick(Math.max(0, sel - 1));
      else if (k === 'Home') onPick(0);
      else if (k === 'End') onPick(M.n - 1);
      else if (k === 'PageDown') pan((x1 - x0) / 2);
      else if (k === 'PageUp') pan(-(x1 - x0) / 2);
      else return;
      e.preventDefault();
    });
    wrap.addEventListener('scroll', function () { draw(); });
    window.addEventListener('resize', debounce(function () { W = 0; draw(); }, 100));
    redraws.push(draw);
    box.select = function (i) {
      sel = i;
      if (i >= 0 && (i < x0 || i >= x1)) { var span = x1 - x0; x0 = i - span / 2; x1 = x0 + span; clamp(); }
      if (i >= 0) { // the lane into view
        var y = M.lane[i] * laneH;
        if (y < wrap.scrollTop || y > wrap.scrollTop + H - AXIS - laneH) wrap.scrollTop = Math.max(0, y - 2 * laneH);
      }
      draw();
    };
    box.draw = draw;
    return box;
  }

  function buildSimulate(treeBox) {
    var M = simulateModel();
    var whyAsk = CTX.whyAsk || {};
    var panel = h('div', { cls: 'whyask', id: 'whyask' }, h('strong', { text: 'Why is this ask here?' }), h('p', { cls: 'count', text: 'Pick a step on the timeline or in the steps table.' }));
    var stepsBox = null, tl = null;
    function pick(i) {
      if (i < 0 || i >= M.n) return;
      var s = M.alloc[i];
      if (tl) tl.select(i);
      if (stepsBox) { var pos = stepsBox.position(i); if (pos >= 0) stepsBox.table.select(pos); }
      panel.textContent = '';
      var key = s.application + '/' + s.ask;
      var lines = whyAsk[key];
      panel.appendChild(h('strong', { text: 'Why is ' + s.ask + ' at step ' + s.step + '?' }));
      panel.appendChild(h('pre', { text: stepText(s) }));
      if (lines) panel.appendChild(h('pre', { cls: 'answer', text: lines.join('\n') }));
      else panel.appendChild(h('p', null, 'Ask prio: ', h('code', { text: 'prio explain --why-ask ' + key + ' INPUT...' }),
        ' (the report carries the answers of runs of at most 100 asks).'));
      if (treeBox) treeBox.reveal(s.queue, true);
    }
    selectStep = function (stepNumber, toTimeline) {
      for (var i = 0; i < M.n; i++) if (M.stepNo[i] === stepNumber) { pick(i); if (toTimeline !== false) tabsBox.show('timeline'); return; }
    };
    var cols = [
      { name: 'step', num: true, get: function (s) { return String(s.step) + (s.tie ? '*' : '') + (s.note ? '!' : ''); } },
      { name: 'queue', get: function (s) { return s.queue; } },
      { name: 'application', get: function (s) { return s.application; } },
      { name: 'ask', get: function (s) { return s.ask; } },
      { name: 'priority', num: true, get: function (s) { return 'P' + s.priority; } }];
    if (M.alloc.some(function (s) { return s.node !== undefined; })) cols.push({ name: 'node', get: function (s) { return s.node || ''; } });
    if (M.alloc.some(function (s) { return s.taskGroup !== undefined; })) cols.push({ name: 'gang', get: gangText });
    cols.push({ name: 'priority changes', get: changesText });
    var unsched = DATA.unscheduled || [];
    var list = [
      { id: 'timeline', name: 'Timeline', build: function () {
        if (!M.n) return h('p', { id: 'timeline', 'data-lanes': '0', 'data-steps': '0', text: 'Nothing was placed: no step to draw.' + (unsched.length ? ' See Unscheduled.' : '') });
        tl = timeline(M, pick);
        return [tl, panel];
      }, shown: function () { if (tl) tl.draw(); } },
      { id: 'steps', name: 'Steps (' + fmtNum(M.n) + ')', build: function () {
        stepsBox = filtered(cols, M.alloc, function (s) { return s.queue + ' ' + s.application + ' ' + s.ask + ' ' + (s.node || ''); },
          { label: 'Scheduling order', placeholder: 'Filter steps by queue, application, ask or node', onPick: function (j) { pick(stepsBox.index(j)); } });
        stepsBox.id = 'steps';
        stepsBox.setAttribute('data-rows', String(M.n));
        return [stepsBox, h('p', { cls: 'count', text: '* a choice YuniKorn leaves to Go\u2019s map order (the real scheduler may take another order). ! YuniKorn\u2019s queue sort compared against another sibling\u2019s fair max.' })];
      }, shown: function () { if (stepsBox) stepsBox.table.refresh(); } },
      { id: 'unscheduled', name: 'Unscheduled (' + fmtNum(unsched.length) + ')', build: function () { return unscheduledView(unsched); } },
      { id: 'perqueue', name: 'Per queue', build: function () { return perQueue(M); } }];
    if (M.pre.length) list.splice(2, 0, { id: 'preemptions', name: 'Preemptions (' + M.pre.length + ')', build: function () {
      return arrayTable([
        { name: 'before step', num: true, get: function (p) { return String(p.step); } },
        { name: 'ask', get: function (p) { return p.preemption.ask; } },
        { name: 'application', get: function (p) { return p.preemption.application; } },
        { name: 'queue', get: function (p) { return p.preemption.queue; } },
        { name: 'node', get: function (p) { return p.preemption.node; } },
        { name: 'victims (in YuniKorn\u2019s order)', get: function (p) { return (p.preemption.victims || []).join(', '); } },
        { name: 'note', get: function (p) { return p.preemption.warning || (p.tie ? 'victims tie with other tasks: Go\u2019s map order chose' : ''); } }], M.pre, { label: 'Preemptions' });
    } });
    if (DATA.rejected && DATA.rejected.length) list.push({ id: 'rejected', name: 'Rejected (' + DATA.rejected.length + ')', build: function () { return generic(DATA.rejected); } });
    if (DATA.gangs && DATA.gangs.length) list.splice(2, 0, { id: 'gangs', name: 'Gangs (' + DATA.gangs.length + ')', build: function () { return gangView(treeBox); } });
    others(['steps', 'unscheduled', 'rejected', 'gangs'], list);
    var tabsBox = tabs(list);
    return tabsBox;
  }

  function gangText(s) { // the steps table's gang column, as simulate's text says it
    if (s.taskGroup === undefined) return '';
    return s.placeholder ? 'placeholder ' + s.taskGroup : s.taskGroup + (s.replaces ? ', replaces ' + s.replaces : '');
  }

  // ---- simulate: gangs (YuniKorn's task groups) ----------------------------------------------
  // One card per gang application: its state at the end, each task group's members (placeholders
  // the shim created, allocated, replaced by a real pod, released, cancelled or still pending),
  // its real pods, and its events in step order (the timeout, releases). From the JSON's steps,
  // unscheduled and gangs, and the context's task-group definitions (CTX.gangs).
  var GANG_STATES = { Running: ['\u2713', 'allocated', 'RUNNING: the real pods were handed over'],
    Accepted: ['\u25CB', 'preempted', 'WAITING: reserving, not every placeholder is allocated'],
    Failed: ['\u2717', 'not-placed', 'FAILED: the placeholder timeout (Hard) failed it'] };
  function gangModel() {
    var defs = {}, by = {};
    (CTX.gangs || []).forEach(function (d) { defs[d.application] = d; });
    (DATA.gangs || []).forEach(function (g) { by[g.application] = { g: g, def: defs[g.application] || null, ph: {}, phOrder: [], real: [], events: [] }; });
    function ph(x, id, group) {
      var p = x.ph[id];
      if (!p) { p = x.ph[id] = { id: id, group: group || null, state: 'pending' }; x.phOrder.push(id); }
      if (group && !p.group) p.group = group;
      return p;
    }
    function groupOf(x, id) { // a placeholder without its group in the JSON: the shim names it tg-APP-GROUP-N
      var gs = x.def ? x.def.taskGroups.map(function (t) { return t.name; }) : [];
      for (var i = 0; i < gs.length; i++) if (id.indexOf('tg-' + x.g.application + '-' + gs[i] + '-') === 0) return gs[i];
      return null;
    }
    (DATA.steps || []).forEach(function (s) {
      if (s.timeout && by[s.timeout.application]) {
        var x = by[s.timeout.application], t = s.timeout;
        x.events.push({ step: s.step, kind: 'timeout', text: 'placeholder timeout (' + t.style + ', while ' + t.phase + ') at ' + t.at + ' s: ' +
          plural(t.released.length, 'allocated placeholder') + ' released, ' + plural(t.cancelled.length, 'pending one') + ' cancelled' +
          (t.style === 'Hard' && t.phase === 'reserving' ? '; the gang fails' : t.phase === 'reserving' ? '; the gang goes on as an ordinary application' : '') });
        t.released.forEach(function (id) { var p = ph(x, id, groupOf(x, id)); p.state = 'released'; p.endStep = s.step; p.by = 'the timeout'; });
        t.cancelled.forEach(function (id) { var p = ph(x, id, groupOf(x, id)); p.state = 'cancelled'; p.endStep = s.step; });
        return;
      }
      if (s.placeholdersReleased && by[s.placeholdersReleased.application]) {
        var y = by[s.placeholdersReleased.application], r = s.placeholdersReleased;
        y.events.push({ step: s.step, kind: 'release', text: r.taskGroup + ': ' + plural(r.placeholders.length, 'placeholder') + ' released for a real pod larger than the group\u2019s minResource' });
        r.placeholders.forEach(function (id) { var p = ph(y, id, r.taskGroup); p.state = 'released'; p.endStep = s.step; p.by = 'a larger real pod'; });
        return;
      }
      var z = by[s.application];
      if (!z || s.ask === undefined || s.preemption) return;
      if (s.placeholder) { var q = ph(z, s.ask, s.taskGroup); q.state = 'allocated'; q.step = s.step; q.node = s.node; }
      else {
        z.real.push({ ask: s.ask, group: s.taskGroup || (z.def && z.def.members[s.ask]) || null, step: s.step, node: s.node, replaces: s.replaces || null });
        if (s.replaces) { var o = ph(z, s.replaces, s.taskGroup); o.state = 'replaced'; o.by = s.ask; o.endStep = s.step; }
      }
    });
    (DATA.unscheduled || []).forEach(function (u) {
      var x = by[u.application];
      if (!x) return;
      if (u.placeholder) { var p = ph(x, u.ask, u.taskGroup || groupOf(x, u.ask)); if (p.state === 'pending') p.reason = u.reason; }
      else x.real.push({ ask: u.ask, group: u.taskGroup || (x.def && x.def.members[u.ask]) || null, step: null, reason: u.reason, code: u.code });
    });
    return (DATA.gangs || []).map(function (g) { return by[g.application]; });
  }
  var PH_WORDS = { allocated: 'allocated', replaced: 'replaced', released: 'released', cancelled: 'cancelled', pending: 'pending' };
  function gangView(treeBox) {
    var gs = gangModel();
    var box = h('div', { id: 'gangs', 'data-gangs': String(gs.length) });
    box.appendChild(h('p', { cls: 'count', text: 'A gang (YuniKorn task groups) is scheduled as one unit: the shim first creates minMember placeholders per task group, each of the group\u2019s minResource; only when every group has its placeholders allocated does it hand the real pods over, and each real pod takes a placeholder\u2019s place and node. Placeholder states: \u25A0 allocated, \u2714 replaced by a real pod, \u25A1 pending, \u2715 released or cancelled.' }));
    if (gs.length > CAP) box.appendChild(h('p', { cls: 'count', text: 'The first ' + CAP + ' of ' + fmtNum(gs.length) + ' gangs (the Unscheduled tab and the -o json document have every one):' }));
    gs.slice(0, CAP).forEach(function (x) {
      var g = x.g, st = GANG_STATES[g.state] || ['?', '', g.state], def = x.def;
      var card = h('article', { cls: 'card gang', 'data-gang': g.application, 'data-state': g.state });
      card.appendChild(h('h3', null, h('span', { cls: 'outcome ' + st[1], text: st[0] + ' ' + st[2] }), g.application,
        def ? h('span', { cls: 'count' }, ' in ', h('a', { href: '#queue=' + encodeURIComponent(def.queue), cls: 'id', text: def.queue, onclick: function (e) { e.preventDefault(); if (treeBox) treeBox.reveal(def.queue); } })) : null));
      var facts = [];
      if (def) facts.push('style ' + def.style + ', placeholder timeout ' + (def.timeout ? def.timeout + ' s' : 'YuniKorn\u2019s default (15 min)'));
      facts.push(g.realAsksSent ? 'the shim handed the real pods over' : 'the real pods are held back by the shim');
      if (g.timeoutAt !== null && g.timeoutAt !== undefined) facts.push('the placeholder timer would fire at ' + g.timeoutAt + ' s');
      card.appendChild(h('p', { cls: 'count', text: facts.join('; ') }));
      var groups = def ? def.taskGroups.map(function (t) { return t.name; }) : [];
      x.phOrder.forEach(function (id) { var gr = x.ph[id].group; if (gr && groups.indexOf(gr) < 0) groups.push(gr); });
      if (x.phOrder.some(function (id) { return !x.ph[id].group; })) groups.push(null);
      groups.forEach(function (gr) {
        var t = def ? def.taskGroups.filter(function (tg) { return tg.name === gr; })[0] : null;
        var phs = x.phOrder.map(function (id) { return x.ph[id]; }).filter(function (p) { return p.group === gr; });
        var counts = {};
        phs.forEach(function (p) { counts[p.state] = (counts[p.state] || 0) + 1; });
        var held = (counts.allocated || 0) + (counts.replaced || 0);
        var row = h('div', { cls: 'tgroup', 'data-group': gr === null ? '' : gr, 'data-placeholders': String(phs.length), 'data-allocated': String(held) },
          h('div', { cls: 'tghead' }, h('strong', { cls: 'id', text: gr === null ? '(task group not known)' : gr }),
            t ? ' minMember ' + t.minMember + ' \u00D7 ' + t.minResource : '',
            ' \u2014 ' + held + ' of ' + (t ? t.minMember : phs.length) + ' placeholders held' +
            Object.keys(counts).filter(function (k) { return k !== 'allocated'; }).map(function (k) { return ', ' + counts[k] + ' ' + PH_WORDS[k]; }).join('')));
        var chips = h('ol', { cls: 'chips' });
        phs.slice(0, CAP).forEach(function (p) {
          var sym = { allocated: '\u25A0', replaced: '\u2714', pending: '\u25A1', released: '\u2715', cancelled: '\u2715' }[p.state];
          var tip = p.id + ': ' + (p.step ? 'allocated at step ' + p.step + ' on ' + p.node : 'never allocated') +
            (p.state === 'replaced' ? '; replaced by ' + p.by + ' at step ' + p.endStep : p.state === 'released' ? '; released by ' + p.by + ' (step ' + p.endStep + ')' :
              p.state === 'cancelled' ? '; cancelled by the timeout (step ' + p.endStep + ')' : p.state === 'pending' ? (p.reason ? '; pending: ' + p.reason : '; pending') : '');
          chips.appendChild(h('li', { cls: 'chip ' + p.state, 'data-placeholder': p.id, 'data-state': p.state, title: tip, tabindex: '0', 'aria-label': tip },
            h('span', { cls: 'sym', 'aria-hidden': 'true', text: sym }), p.state === 'replaced' ? p.by : p.step ? 'step ' + p.step : PH_WORDS[p.state]));
        });
        row.appendChild(chips);
        if (phs.length > CAP) row.appendChild(h('p', { cls: 'count', text: fmtNum(phs.length - CAP) + ' more placeholders, counted above.' }));
        var reals = x.real.filter(function (r) { return r.group === gr; });
        if (reals.length) { // the placed one by one; the waiting once per reason (a gang's pods wait for the same thing)
          var waits = new Map(), items = [];
          reals.forEach(function (r) {
            if (r.step !== null) {
              items.push(h('li', { 'data-real': r.ask, 'data-step': String(r.step) }, h('code', { cls: 'id', text: r.ask }), ' placed at ',
                h('a', { href: '#step=' + r.step, text: 'step ' + r.step }), ' on ' + r.node + (r.replaces ? ', in place of ' + r.replaces : '')));
              return;
            }
            var k = (r.code || '') + '\u0000' + r.reason;
            if (!waits.has(k)) { waits.set(k, []); items.push(k); }
            waits.get(k).push(r);
          });
          if (items.length > CAP) { var more = items.length - CAP; items = items.slice(0, CAP); items.push(h('li', { cls: 'count', text: fmtNum(more) + ' more' })); }
          row.appendChild(h('ul', { cls: 'reals' }, items.map(function (it) {
            if (typeof it !== 'string') return it;
            var rs = waits.get(it), r0 = rs[0];
            return h('li', { 'data-real': rs.map(function (r) { return r.ask; }).join(' '), 'data-waits': r0.code || '' },
              rs.map(function (r, i) { return [i ? ', ' : '', h('code', { cls: 'id', text: r.ask })]; }),
              (rs.length > 1 ? ' (' + rs.length + ' real pods) wait' : ' waits') + (r0.code ? ' (' + r0.code + ')' : '') + ': ' + r0.reason);
          })));
        }
        card.appendChild(row);
      });
      var others2 = x.real.filter(function (r) { return groups.indexOf(r.group) < 0; });
      if (others2.length) card.appendChild(h('p', { cls: 'count', text: 'Real pods in no task group: ' + others2.map(function (r) { return r.ask + (r.step !== null ? ' (step ' + r.step + ')' : ' (waits)'); }).join(', ') }));
      if (x.events.length) card.appendChild(h('ul', { cls: 'events' }, x.events.map(function (e) {
        return h('li', { 'data-event': e.kind }, h('a', { href: '#step=' + e.step, text: 'step ' + e.step }), ': ' + e.text);
      })));
      box.appendChild(card);
    });
    return box;
  }

  function unscheduledView(unsched) {
    var box = h('div', { id: 'unscheduled', 'data-asks': String(unsched.length) });
    if (!unsched.length) { box.appendChild(h('p', { text: 'Every pending ask was placed.' })); return box; }
    var groups = new Map();
    unsched.forEach(function (u) { var c = u.code || 'Unknown'; if (!groups.has(c)) groups.set(c, []); groups.get(c).push(u); });
    var codes = CTX.codes || {};
    box.appendChild(h('p', null, plural(unsched.length, 'ask') + ' not placed, by reason code (', h('code', { text: 'code' }), ' in the JSON):'));
    Array.from(groups.keys()).sort(function (a, b) { return groups.get(b).length - groups.get(a).length || (a < b ? -1 : 1); }).forEach(function (c, n) {
      var items = groups.get(c);
      var d = h('details', { cls: 'group', 'data-code': c, 'data-count': String(items.length), open: n < 3 },
        h('summary', null, h('span', { cls: 'code', text: c }), ' \u2014 ' + plural(items.length, 'ask') + (codes[c] ? ': ' + codes[c] : '')));
      var inner = h('div');
      d.appendChild(inner);
      var drawn = false;
      function fill() {
        if (drawn) return; drawn = true;
        var cols = [
          { name: 'queue', get: function (u) { return u.queue; } },
          { name: 'application', get: function (u) { return u.application; } },
          { name: 'ask', get: function (u) { return u.ask + (u.tie ? ' *' : ''); } },
          { name: 'priority', num: true, get: function (u) { return 'P' + u.priority; } },
          { name: 'reason', get: function (u) { return u.reason; } }];
        // the nodes the shim's predicates refuse the ask on (the JSON's nodes), the first few
        if (items.some(function (u) { return u.nodes && u.nodes.length; })) {
          cols.push({ name: 'refused on', get: function (u) {
            var ns = u.nodes || [];
            return ns.slice(0, 5).map(function (x) { return x.node + ': ' + (x.plugin || 'YuniKorn') + ': ' + x.reason; }).join('; ') +
              (ns.length > 5 ? '; and ' + (ns.length - 5) + ' more' : '');
          } });
        }
        inner.appendChild(arrayTable(cols, items, { label: 'Unscheduled: ' + c }));
      }
      if (d.open) fill();
      d.addEventListener('toggle', fill);
      box.appendChild(d);
    });
    return box;
  }

  function perQueue(M) {
    var first = new Map(), rows = [];
    for (var i = 0; i < M.n; i++) {
      var q = M.queues[M.qOf[i]], r = first.get(q);
      if (!r) { r = { queue: q, placed: 0, first: M.stepNo[i], last: 0 }; first.set(q, r); rows.push(r); }
      r.placed++; r.last = M.stepNo[i];
    }
    var order = {};
    ((CTX.tree && CTX.tree.queues) || []).forEach(function (x, k) { order[x.queue] = k; });
    rows.sort(function (a, b) { return (order[a.queue] === undefined ? 1e9 : order[a.queue]) - (order[b.queue] === undefined ? 1e9 : order[b.queue]) || (a.queue < b.queue ? -1 : 1); });
    var t = arrayTable([
      { name: 'queue', get: function (r) { return r.queue; } },
      { name: 'placed', num: true, get: function (r) { return fmtNum(r.placed); } },
      { name: 'first step', num: true, get: function (r) { return String(r.first); } },
      { name: 'last step', num: true, get: function (r) { return String(r.last); } }], rows, { label: 'Per queue' });
    t.id = 'perqueue';
    return t;
  }

  // top-level keys of the JSON this page does not draw (a newer prio's): shown as they are
  function others(known, list) {
    Object.keys(DATA).forEach(function (k) {
      var v = DATA[k];
      if (known.indexOf(k) >= 0 || v === null || (typeof v === 'object' && !Object.keys(v).length)) return;
      list.push({ id: 'other-' + k, name: k, build: function () { return h('div', { 'data-key': k }, h('p', { cls: 'count', text: 'The JSON\u2019s ' + k + ', as it is:' }), generic(DATA[k])); } });
    });
  }

  // ---- explain -------------------------------------------------------------------------------
  function gangPart(defs) { // explain's gang column: a gang application's pending asks are the shim's placeholders (its real pods wait, held back)
    var by = {};
    (defs || []).forEach(function (d) { by[d.application] = d; });
    return function (a) {
      var d = by[a.application];
      if (!d || d.members[a.ask]) return '';
      var g = d.taskGroups.filter(function (t) { return a.ask.indexOf('tg-' + d.application + '-' + t.name + '-') === 0; })[0];
      return 'placeholder' + (g ? ' ' + g.name : '');
    };
  }
  function buildExplain() {
    var asks = DATA.asks || [];
    var gangCol = (CTX.gangs || []).length ? [{ name: 'gang', get: gangPart(CTX.gangs) }] : [];
    var list = [{ id: 'asks', name: 'Pending asks (' + fmtNum(asks.length) + ')', build: function () {
      var box = filtered([
        { name: '#', num: true, get: function (a, i) { return String(i + 1); } },
        { name: 'ask', get: function (a) { return a.ask; } },
        { name: 'application', get: function (a) { return a.application; } },
        { name: 'queue', get: function (a) { return a.queue; } },
        { name: 'priority', num: true, get: function (a) { return 'P' + a.priority; } },
        { name: 'queue priorities (root\u2019s child first)', get: function (a) { return (a.queuePriorities || []).map(function (q) { return short(q.queue) + ' ' + pr(q.priority); }).join(' \u203A '); } }].concat(gangCol),
        asks, function (a) { return a.ask + ' ' + a.application + ' ' + a.queue; }, { label: 'Pending asks in the order YuniKorn considers them', placeholder: 'Filter asks' });
      box.id = 'asks';
      box.setAttribute('data-rows', String(asks.length));
      return [h('p', { cls: 'count', text: 'In the order YuniKorn considers them now (before anything is placed).' }), box];
    } }];
    var qs = DATA.queues || [];
    list.push({ id: 'queuetable', name: 'Queues (' + qs.length + ')', build: function () {
      return filtered([
        { name: 'queue', get: function (q) { return q.queue; } },
        { name: 'priority', num: true, get: function (q) { return pr(q.priority); } },
        { name: 'offset', num: true, get: function (q) { return String(q.offset); } },
        { name: 'fenced', get: function (q) { return q.fenced ? 'fence' : ''; } },
        { name: 'sort', get: function (q) { return q.sortPolicy; } },
        { name: 'pending', num: true, get: function (q) { return fmtNum(q.pendingAsks); } }], qs, function (q) { return q.queue; }, { label: 'Queues', placeholder: 'Filter queues' });
    } });
    if (DATA.priorityClasses && DATA.priorityClasses.length) list.push({ id: 'classes', name: 'PriorityClasses', build: function () { return generic(DATA.priorityClasses); } });
    if (DATA.rejected && DATA.rejected.length) list.push({ id: 'rejected', name: 'Rejected (' + DATA.rejected.length + ')', build: function () { return generic(DATA.rejected); } });
    others(['queues', 'asks', 'priorityClasses', 'rejected'], list);
    return tabs(list);
  }

  // ---- preempt -------------------------------------------------------------------------------
  function buildPreempt(treeBox) {
    var asks = DATA.asks || {};
    var details = {};
    (CTX.preempt || []).forEach(function (d) { details[d.ask] = details[d.ask] || d; details[d.application + '/' + d.ask] = d; });
    var keys = Object.keys(asks);
    var list = [{ id: 'asks', name: 'Pending asks (' + keys.length + ')', build: function () {
      var box = h('div', { id: 'preempt', 'data-asks': String(keys.length) });
      if (!keys.length) box.appendChild(h('p', { text: 'No pending asks in the snapshot.' }));
      keys.slice(0, 500).forEach(function (k) { box.appendChild(card(k, asks[k], details[k] || {})); });
      if (keys.length > 500) box.appendChild(h('p', { text: (keys.length - 500) + ' more asks: prio preempt --ask ID shows one, -o json all.' }));
      box.appendChild(h('p', { cls: 'count', text: 'prio simulate models preemption inside the run only with nodes; this is what YuniKorn\u2019s preemption would do for each ask as things stand.' }));
      return box;
    } }];
    function card(key, a, d) {
      var cls = a.outcome === 'not placed' ? 'not-placed' : a.outcome;
      // the ask is the preemptor: its badge says so, and what it takes (the victims are in the table)
      var badge = a.outcome === 'preempted' ? '\u26A0 PREEMPTOR: PLACED BY PREEMPTING ' + plural((a.victims || []).length, 'TASK') :
        a.outcome === 'allocated' ? '\u2713 ALLOCATED' : '\u2717 NOT PLACED';
      var c = h('article', { cls: 'card', 'data-ask': key, 'data-outcome': a.outcome },
        h('h3', null, h('span', { cls: 'outcome ' + cls, 'data-badge': a.outcome, title: a.outcome === 'preempted' ? 'This pending ask preempts the victims below to be placed; it is not preempted itself' : null, text: badge }), d.headline || key));
      if (d.checks && d.checks.length) {
        c.appendChild(h('ul', { cls: 'checks' }, d.checks.map(function (x) { return h('li', { cls: x.passed ? 'ok' : 'no', 'data-passed': String(x.passed) }, h('strong', { text: x.check }), ': ' + x.detail); })));
      }
      var dl = h('dl', { cls: 'kv' });
      dl.appendChild(h('dt', { text: 'fence root' }));
      dl.appendChild(h('dd', null, h('a', { href: '#', text: a.fenceRoot, onclick: function (e) { e.preventDefault(); if (treeBox) treeBox.reveal(a.fenceRoot); } }), d.fenceWhy ? ' (' + d.fenceWhy + ')' : ''));
      dl.appendChild(h('dt', { text: 'ask priority by queue' }));
      dl.appendChild(h('dd', { text: Object.keys(a.askPriorityByQueue || {}).map(function (q) { return q + ' ' + a.askPriorityByQueue[q]; }).join(', ') }));
      if (a.reason) { dl.appendChild(h('dt', { text: 'reason' })); dl.appendChild(h('dd', { text: a.reason })); }
      (d.details || []).filter(function (l) { return l.indexOf('why: ') === 0; }).forEach(function (l) { dl.appendChild(h('dt', { text: 'why' })); dl.appendChild(h('dd', { text: l.slice(5) })); });
      if (a.log && a.log.length) { dl.appendChild(h('dt', { text: 'YuniKorn\u2019s log' })); dl.appendChild(h('dd', { text: a.log.join('; ') })); }
      c.appendChild(dl);
      if (a.victims && a.victims.length) {
        var nodeOf = {};
        (d.candidates || []).forEach(function (x) { nodeOf[x.task] = x; });
        c.appendChild(h('p', null, h('strong', { text: 'Victims in YuniKorn\u2019s order' + (a.node ? ', on ' + a.node : '') + ':' })));
        c.appendChild(h('ol', { cls: 'victims' }, a.victims.map(function (v) {
          var x = nodeOf[v];
          return h('li', { 'data-victim': v }, h('code', { cls: 'id', text: v }), x ? ' (' + x.application + ', ' + x.queue + ', node ' + x.node + ', P' + x.priority +
            (x.created ? ', created ' + x.created : '') + (x.allowPreemption === false ? ', allowPreemption: false' : '') + ')' : '');
        })));
      }
      if (d.candidates && d.candidates.length) {
        var t = h('table', { cls: 'cands' }, h('thead', null, h('tr', null, ['task', 'application', 'queue', 'node', 'priority', 'ask priority there', 'verdict'].map(function (n) {
          return h('th', { text: n, cls: n.indexOf('priority') >= 0 ? 'num' : null });
        }))));
        var tb = h('tbody');
        var optedOut = 0;
        d.candidates.forEach(function (x) {
          var out = x.allowPreemption === false;
          if (out) optedOut++;
          tb.appendChild(h('tr', { 'data-verdict': x.verdict, 'data-task': x.task, cls: out ? 'optout' : null, 'data-allow-preemption': out ? 'false' : null },
            h('td', { cls: 'id' }, h('code', { text: x.task }), out ? h('span', { cls: 'tag optout', title: 'allowPreemption: false (yunikorn.apache.org/allow-preemption): YuniKorn takes it only after every candidate that allows preemption', text: 'no preempt' }) : null,
              x.originator ? h('span', { cls: 'tag', title: 'the task that created its application: taken after every other candidate of its kind', text: 'originator' }) : null),
            h('td', { cls: 'id', text: x.application }), h('td', { cls: 'id', text: x.queue }), h('td', { cls: 'id', text: x.node }),
            h('td', { cls: 'num', text: String(x.priority) }), h('td', { cls: 'num', text: pr(x.askPriorityThere === null ? '' : x.askPriorityThere) }),
            h('td', { cls: 'id ' + (x.verdict.indexOf('victim') === 0 ? 'verdict-victim' : x.verdict === 'not eligible' ? 'verdict-not' : ''),
              text: (x.verdict.indexOf('victim') === 0 ? '\u2716 ' : x.verdict === 'candidate' ? '\u25CB ' : '\u2013 ') + x.verdict }),
            ));
          // why, on a line of its own under the task (the ids above stay whole, the words get the width)
          tb.appendChild(h('tr', { cls: 'whyrow' + (out ? ' optout' : ''), 'data-why': x.task }, h('td', { colspan: '7' },
            h('span', { cls: 'whyk', text: 'why: ' }), x.why, x.order ? h('div', { cls: 'order', text: 'victim order: ' + x.order }) : null)));
        });
        if (optedOut) c.appendChild(h('p', { cls: 'count optout-note', text: plural(optedOut, 'task') + ' marked \u201Cno preempt\u201D set allowPreemption: false: YuniKorn takes such a task only after every candidate that allows preemption (the verdict says whether it is a candidate at all).' }));
        t.appendChild(tb);
        if (d.candidates.some(function (x) { return x.order; })) c.appendChild(h('p', { cls: 'count victim-order', text: 'Victims: ' + (CTX.victimOrder || '') + '. Each task\u2019s second line says, under the candidate test, where it stands in that order.' }));
        c.appendChild(h('details', { open: true }, h('summary', { text: 'Running tasks inside the fence root (' + d.candidates.length + ')' + (d.outside ? '; ' + d.outside + ' outside it, never candidates' : '') }), t));
      }
      return c;
    }
    if (DATA.quota) list.push({ id: 'quota', name: 'Quota preemption (' + quotaCount(DATA.quota) + ')', build: function () { return quotaView(DATA.quota, treeBox, 'preempt'); } });
    others(['asks', 'quota'], list);
    return tabs(list);
  }

  // ---- quota-change preemption (preempt's quota, diff's quotaPreemption: one shape) ----------
  function quotaCount(Q) {
    if (!(Q.queues || []).length) return 'none over their max';
    var n = 0; (Q.leaves || []).forEach(function (r) { n += (r.victims || []).length; }); return plural(n, 'victim');
  }
  function resBars(usage, after, max) { // per resource of max: usage (before) against max, after as a tick
    var out = h('span', { cls: 'qbars' });
    Object.keys(max || {}).sort().forEach(function (k) {
      var u = (usage || {})[k] || 0, a = after ? (after[k] || 0) : null, m = max[k];
      var scale = Math.max(u, m, a || 0) || 1;
      var text = k + ': usage ' + showQ(k, u) + ' of max ' + showQ(k, m) + (u > m ? ', over by ' + showQ(k, u - m) : '') + (a !== null ? '; after the victims ' + showQ(k, a) : '');
      var bar = h('span', { cls: 'qbar' + (u > m ? ' over' : ''), title: text, 'aria-label': text, 'data-resource': k });
      bar.appendChild(h('i', { style: 'width:' + (100 * Math.min(u, m) / scale).toFixed(1) + '%' }));
      if (u > m) bar.appendChild(h('u', { style: 'left:' + (100 * m / scale).toFixed(1) + '%;width:' + (100 * (u - m) / scale).toFixed(1) + '%' }));
      bar.appendChild(h('b', { cls: 'max', style: 'left:' + Math.min(99.5, 100 * m / scale).toFixed(1) + '%' }));
      if (a !== null) bar.appendChild(h('s', { style: 'left:' + Math.min(99.5, 100 * a / scale).toFixed(1) + '%' }));
      out.appendChild(h('span', { cls: 'qres' }, h('span', { cls: 'k', text: k }), bar, h('span', { cls: 'v', text: showQ(k, u) + ' / ' + showQ(k, m) + (a !== null && a !== u ? ' \u2192 ' + showQ(k, a) : '') })));
    });
    return out;
  }
  var CAP = 300; // items a list of the quota and gang views draws (the JSON in the file has them all)
  function quotaView(Q, treeBox, where) {
    var box = h('div', { id: 'quota', 'data-armed': (Q.armed || []).join(' '), 'data-enabled': String(!!Q.enabled) });
    var qs = Q.queues || [], leaves = Q.leaves || [];
    var n = 0; leaves.forEach(function (r) { n += (r.victims || []).length; });
    var delays = []; qs.forEach(function (a) { if (a.armed && a.delay && delays.indexOf(a.delay) < 0) delays.push(a.delay); });
    box.appendChild(h('p', { cls: 'qsummary' }, !qs.length ? 'No queue\u2019s running work is over its max: quota preemption has nothing to do.' :
      !(Q.armed || []).length ? plural(qs.length, 'queue') + ' over their max, none armed (no quota.preemption.delay on them or above).' :
      !Q.enabled ? 'Armed: ' + Q.armed.join(', ') + ', but the partition does not set quotapreemptionenabled: true, so YuniKorn preempts nothing.' :
      'Armed: ' + Q.armed.join(', ') + '. After ' + delays.join(' / ') + ' YuniKorn preempts ' + plural(n, 'running task') + ' to bring ' +
        (Q.armed.length === 1 ? 'it' : 'them') + ' within ' + (where === 'diff' ? 'NEW\u2019s' : 'the') + ' max.'));
    if (!qs.length) return box;
    box.appendChild(h('p', { cls: 'count', text: 'partition switch quotapreemptionenabled: ' + (Q.enabled ? 'true (the quota-preemption loop runs)' : 'false (YuniKorn still arms queues, but its loop never runs)') }));
    box.appendChild(h('h3', { text: 'Queues over their ' + (where === 'diff' ? 'new ' : '') + 'max' }));
    var after = Q.usageAfter || {};
    if (qs.length > CAP) box.appendChild(h('p', { cls: 'count', text: 'The first ' + CAP + ' of ' + fmtNum(qs.length) + ' queues over their max:' }));
    qs.slice(0, CAP).forEach(function (a) {
      box.appendChild(h('div', { cls: 'qrow', 'data-queue': a.queue, 'data-armed': String(a.armed) },
        h('a', { href: '#queue=' + encodeURIComponent(a.queue), cls: 'id', text: a.queue, onclick: function (e) { e.preventDefault(); if (treeBox) treeBox.reveal(a.queue); } }),
        h('span', { cls: 'tag' + (a.armed ? ' chg' : ''), text: a.armed ? 'armed' : 'not armed' }),
        resBars(a.usage, after[a.queue], a.max),
        h('div', { cls: 'count', text: 'usage ' + showRes(a.usage) + ', max ' + showRes(a.max) + ', over by ' + showRes(a.over) + '; quota.preemption.delay ' +
          (a.delay ? a.delay + (a.delayFrom === a.queue ? '' : ' (inherited from ' + a.delayFrom + ')') : 'none') + ' \u2014 ' + a.why })));
    });
    if (leaves.length > CAP) box.appendChild(h('p', { cls: 'count', text: 'The first ' + CAP + ' of ' + fmtNum(leaves.length) + ' leaf queues:' }));
    leaves.slice(0, CAP).forEach(function (r) {
      var sec = h('section', { cls: 'qleaf', 'data-leaf': r.leaf });
      sec.appendChild(h('h3', null, 'Leaf ', h('code', { cls: 'id', text: r.leaf }), r['for'] !== r.leaf ? ' (for the lowered parent ' + r['for'] + ')' : ''));
      sec.appendChild(h('p', null, 'Amount to free: ' + (r.amount ? showRes(r.amount) : 'nothing') + ' (' + r.how + '); freed ' + showRes(r.freed) + ' by ' +
        ((r.victims || []).join(', ') || 'no victim') + '.'));
      var cs = r.candidates || [];
      if (cs.length) {
        sec.appendChild(h('p', { cls: 'count', text: 'Candidates in YuniKorn\u2019s order: score higher first (allowPreemption: false 2^34, originator 2^33, % of the resource types to free), then priority lower first, creation hour newer first, ' + (r.leafMax ? 'share of the leaf\u2019s max' : 'size') + ' smaller first. Each victim is taken while, with the victims before it, it does not free more than the amount.' }));
        var ol = h('ol', { cls: 'qcands' });
        cs.slice(0, CAP).forEach(function (v) {
          var taken = v.verdict.indexOf('victim') === 0;
          var score = (v.optedOut ? ['allowPreemption: false'] : []).concat(v.originator ? ['originator'] : []).concat([v.typeMatch + '% of types']).join(' + ');
          ol.appendChild(h('li', { cls: taken ? 'victim' : 'skipped', 'data-allocation': v.allocation, 'data-verdict': v.verdict },
            h('span', { cls: 'outcome ' + (taken ? 'not-placed' : 'allocated'), text: taken ? '\u2716 ' + v.verdict.toUpperCase() : '\u25CB KEPT' }),
            h('code', { cls: 'id', text: v.allocation }), ' ', h('span', { cls: 'count', text: v.application + ' on ' + v.node + ', P' + v.priority + (v.createHour ? ', created ' + v.createHour : '') + '; score ' + score }),
            v.optedOut ? h('span', { cls: 'tag optout', text: 'no preempt' }) : null,
            taken ? null : h('div', { cls: 'msg', text: v.verdict })));
        });
        sec.appendChild(ol);
        if (cs.length > CAP) sec.appendChild(h('p', { cls: 'count', text: fmtNum(cs.length - CAP) + ' more candidates: the -o json document in this file has them all.' }));
      }
      if ((r.notCandidates || []).length) sec.appendChild(h('p', { cls: 'count', text: 'Not candidates: ' + r.notCandidates.map(function (x) { return x.allocation + ' (' + x.why + ')'; }).join(', ') }));
      box.appendChild(sec);
    });
    var before = Q.usageBefore || {}, changed = Object.keys(before).filter(function (k) { return JSON.stringify(before[k]) !== JSON.stringify(after[k]); });
    if (changed.length) {
      box.appendChild(h('h3', { text: 'Usage after the victims are released' }));
      var t = arrayTable([{ name: 'queue', get: function (k) { return k; } }, { name: 'before', get: function (k) { return showRes(before[k]); } },
        { name: 'after', get: function (k) { return showRes(after[k]); } }], changed, { label: 'Usage before and after' });
      t.id = 'quota-usage';
      box.appendChild(t);
    }
    if ((Q.aboveMax || []).length) {
      box.appendChild(h('h3', { text: 'Armed queues still above their max afterwards' }));
      box.appendChild(h('ul', { id: 'quota-above' }, Q.aboveMax.map(function (a) { return h('li', null, h('code', { cls: 'id', text: a.queue }), ': usage ' + showRes(a.usage) + ', max ' + showRes(a.max) + ' \u2014 ' + a.why); })));
    }
    return box;
  }

  // ---- diff ----------------------------------------------------------------------------------
  function addedRemoved(id, title, obj) { // a tab of what NEW adds and removes
    return { id: id, name: title + ' (+' + (obj.added || []).length + ' \u2212' + (obj.removed || []).length + ')', build: function () {
      return h('div', { id: 'diff-' + id }, h('h3', { text: 'Added (' + (obj.added || []).length + ')' }), generic(obj.added || []),
        h('h3', { text: 'Removed (' + (obj.removed || []).length + ')' }), generic(obj.removed || []));
    } };
  }
  function buildDiff(treeBox) {
    var q = DATA.queues || [], asks = DATA.asks || [];
    var un = DATA.unscheduled || { added: [], removed: [] }, fi = DATA.findings || { added: [], removed: [] };
    var later = asks.filter(function (a) { return a.stepBefore !== null && a.stepAfter !== null && a.stepAfter > a.stepBefore; }).length;
    var earlier = asks.filter(function (a) { return a.stepBefore !== null && a.stepAfter !== null && a.stepAfter < a.stepBefore; }).length;
    var list = [{ id: 'summary', name: 'Summary', build: function () {
      var box = h('div', { id: 'diff-summary' });
      box.appendChild(h('ul', null,
        h('li', { 'data-kind': 'config' }, plural((DATA.config || []).length, 'config change')),
        h('li', { 'data-kind': 'priority' }, plural(q.length, 'queue priority change')),
        h('li', { 'data-kind': 'order' }, plural(asks.length, 'ask') + ' move (' + later + ' later, ' + earlier + ' earlier)'),
        h('li', { 'data-kind': 'unscheduled' }, plural((un.added || []).length, 'ask') + ' newly unscheduled, ' + (un.removed || []).length + ' now placed'),
        h('li', { 'data-kind': 'findings' }, plural((fi.added || []).length, 'finding') + ' added, ' + (fi.removed || []).length + ' removed')));
      if (DATA.config && DATA.config.length) {
        box.appendChild(h('h3', { text: 'Config changes' }));
        box.appendChild(generic(DATA.config));
      }
      return box;
    } }];
    list.push({ id: 'priorities', name: 'Priorities (' + q.length + ')', build: function () {
      var t = arrayTable([
        { name: 'queue', get: function (r) { return r.queue; } },
        { name: 'before', num: true, get: function (r) { return pr(r.before); } },
        { name: 'after', num: true, get: function (r) { return pr(r.after); } },
        { name: 'change', get: function (r) {
          if (r.before === null || r.after === null) return r.after === null ? 'no longer pending' : 'now pending';
          var d = r.after - r.before;
          return h('span', { cls: d > 0 ? 'delta-up' : 'delta-down', text: (d > 0 ? '+' : '') + d + (d > 0 ? ' (higher)' : ' (lower)') });
        } }], q, { label: 'Priorities that change' });
      t.id = 'diff-priorities';
      return t;
    } });
    list.push({ id: 'moves', name: 'Asks that move (' + fmtNum(asks.length) + ')', build: function () {
      var maxd = 1;
      asks.forEach(function (a) { if (a.stepBefore !== null && a.stepAfter !== null) maxd = Math.max(maxd, Math.abs(a.stepAfter - a.stepBefore)); });
      var box = filtered([
        { name: 'ask', get: function (a) { return a.ask; } },
        { name: 'application', get: function (a) { return a.application; } },
        { name: 'queue', get: function (a) { return a.queue; } },
        { name: 'step before', num: true, get: function (a) { return a.stepBefore === null ? 'not placed' : String(a.stepBefore); } },
        { name: 'step after', num: true, get: function (a) { return a.stepAfter === null ? 'not placed' : String(a.stepAfter); } },
        { name: 'moves', get: function (a) {
          if (a.stepBefore === null) return 'now placed';
          if (a.stepAfter === null) return 'no longer placed';
          var d = a.stepAfter - a.stepBefore, dir = d > 0 ? 'later' : 'earlier';
          return h('span', null, Math.abs(d) + ' ' + dir, h('span', { cls: 'dist ' + dir, style: 'width:' + Math.max(2, 80 * Math.abs(d) / maxd).toFixed(0) + 'px', 'aria-hidden': 'true' }));
        } }], asks, function (a) { return a.ask + ' ' + a.application + ' ' + a.queue; }, { label: 'Asks that move', placeholder: 'Filter asks' });
      box.id = 'diff-moves';
      box.setAttribute('data-rows', String(asks.length));
      return box;
    } });
    list.push(addedRemoved('unscheduled', 'Unscheduled', un));
    list.push(addedRemoved('findings', 'Findings', fi));
    if (DATA.rejected && ((DATA.rejected.added || []).length || (DATA.rejected.removed || []).length)) list.push(addedRemoved('rejected', 'Rejected', DATA.rejected));
    if (DATA.quotaPreemption) list.push({ id: 'quota', name: 'Quota preemption (' + quotaCount(DATA.quotaPreemption) + ')', build: function () { return quotaView(DATA.quotaPreemption, treeBox, 'diff'); } });
    if (DATA.gangs && DATA.gangs.length) list.push({ id: 'gangs', name: 'Gangs (' + DATA.gangs.length + ')', build: function () {
      function side(g) { // one side's end state of a gang, as yunikorn/render/diff.py's _gang_cell says it
        if (g === null || g === undefined) return 'not a gang here (rejected, or no task groups)';
        return g.state + ', real pods ' + (g.realAsksSent ? 'sent' : 'held') + ', ' + g.placeholdersHeld + ' held, ' + g.placeholdersPending + ' pending';
      }
      var t = arrayTable([
        { name: 'application', get: function (r) { return r.application; } },
        { name: 'before', get: function (r) { return side(r.before); } },
        { name: 'after', get: function (r) { return side(r.after); } }], DATA.gangs, { label: 'Gangs that end otherwise' });
      t.id = 'diff-gangs';
      return t;
    } });
    others(['queues', 'asks', 'unscheduled', 'findings', 'rejected', 'config', 'quotaPreemption', 'gangs'], list);
    return tabs(list);
  }

  // ---- YuniKorn's page -----------------------------------------------------------------------
  // Its steps left to Go's map order, under the header (a preemption step's tie is its own table's).
  function tieSteps() {
    var out = [];
    if (COMMAND === 'simulate') (DATA.steps || []).forEach(function (s) { if (s.tie && !s.preemption) out.push(s.step); });
    return out;
  }
  VIEWS.yunikorn = {
    titles: { explain: 'queue priorities', simulate: 'scheduling order', preempt: 'preemption', diff: 'config change' },
    explain: buildExplain, simulate: buildSimulate, preempt: buildPreempt, diff: buildDiff,
    header: function (top) {
      var ties = tieSteps();
      if (ties.length) {
        top.appendChild(h('div', { cls: 'ties', id: 'ties' },
          h('strong', { text: 'Where YuniKorn itself is nondeterministic: ' }),
          plural(ties.length, 'step') + ' left to Go\u2019s map order (prio takes the name; the real scheduler may take another): ',
          ties.slice(0, 30).map(function (s, i) { return [i ? ', ' : '', h('a', { href: '#step=' + s, text: 'step ' + s })]; }),
          ties.length > 30 ? ' and ' + (ties.length - 30) + ' more (the steps table marks each with *)' : ''));
      }
    }
  };
