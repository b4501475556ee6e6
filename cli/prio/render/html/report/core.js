/* prio's HTML report: draws the page from two JSON documents in this file, prio-data (the
   command's own -o json document) and prio-context (the header, the queue tree and what the JSON
   leaves out). No library, nothing fetched. Long lists are virtualised, a run with more steps than
   pixels is drawn in bins. Tests read the DOM after this ran: body[data-ready], data-* counts.

   The page's one script is built from parts (prio.render.html script_text), in this order, inside
   this one function: report/core.js (this: helpers, theme, header, the queue tree, tables, tabs,
   bands), report/yunikorn.js (YuniKorn's views), each backend's view (a row of prio.backends
   names its file: `view`, in its own package), report/page.js (the page, and the function's
   end). Each view part registers itself in VIEWS[model]: its builders per command and, where its
   page differs from YuniKorn's, its hooks (titles, header, aside, search, steps, pathOf, follow). */
(function () {
  'use strict';
  var errors = [];
  function report(msg) {
    errors.push(String(msg));
    var bar = document.getElementById('prio-errors');
    if (bar) bar.textContent = 'The report hit a script error: ' + errors.join('; ');
    document.body.setAttribute('data-errors', String(errors.length));
  }
  window.addEventListener('error', function (e) { report(e.message || e); });

  // ---- small helpers -------------------------------------------------------------------------
  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'text') el.textContent = v;
        else if (k === 'cls') el.className = v;
        else if (k === 'style') el.style.cssText = v; // CSSOM: allowed by the page's style-src, a style attribute would not be
        else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
        else el.setAttribute(k, v === true ? '' : v);
      }
    }
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function add(el, kid) {
    if (kid === null || kid === undefined || kid === false) return;
    if (Array.isArray(kid)) { kid.forEach(function (k) { add(el, k); }); return; }
    el.appendChild(typeof kid === 'object' ? kid : document.createTextNode(String(kid)));
  }
  function readJSON(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }
  function pr(v) { return v === null || v === undefined ? 'n/a' : String(v); }
  function short(path) { var i = path.lastIndexOf('.'); return i < 0 ? path : path.slice(i + 1); }
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : (many || one + 's')); }
  function fmtNum(n) { return Number(n).toLocaleString('en'); }
  // a YuniKorn quantity as prio's text writes it (prio.yunikorn.quantity.show_quantity): vcore in
  // cores (or m), memory and storage in the shortest exact binary or decimal suffix
  var SIZES = [['Ti', Math.pow(2, 40)], ['T', 1e12], ['Gi', Math.pow(2, 30)], ['G', 1e9], ['Mi', Math.pow(2, 20)], ['M', 1e6], ['Ki', 1024], ['k', 1e3]];
  function showQ(k, v) {
    if (typeof v !== 'number') return pr(v);
    if (k === 'vcore') return v % 1000 === 0 ? String(v / 1000) : v + 'm';
    if (k === 'memory' || /storage$/.test(k)) {
      var best = null;
      SIZES.forEach(function (m) { if (v && v % m[1] === 0) { var f = (v / m[1]) + m[0]; if (best === null || f.length < best.length) best = f; } });
      return best === null ? String(v) : best;
    }
    return String(v);
  }
  function showRes(r) {
    var ks = Object.keys(r || {}).sort();
    return ks.length ? '{' + ks.map(function (k) { return k + ': ' + showQ(k, r[k]); }).join(', ') + '}' : '{}';
  }
  function cssVar(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
  function debounce(fn, ms) { var t; return function () { var a = arguments; clearTimeout(t); t = setTimeout(function () { fn.apply(null, a); }, ms); }; }

  var DATA = readJSON('prio-data') || {};
  var CTX = readJSON('prio-context') || {};
  var COMMAND = CTX.command || document.body.getAttribute('data-command') || '';
  var app = document.getElementById('app');
  app.textContent = '';
  app.removeAttribute('aria-live');
  var errBar = h('div', { id: 'prio-errors', role: 'alert' });
  app.appendChild(errBar);
  if (errors.length) report(errors.pop());

  // ---- theme ---------------------------------------------------------------------------------
  var THEMES = ['auto', 'light', 'dark'];
  var theme = 'auto';
  try { theme = localStorage.getItem('prio-theme') || 'auto'; } catch (e) { /* file:// without storage */ }
  function applyTheme() {
    if (theme === 'auto') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
    if (themeBtn) themeBtn.textContent = 'Theme: ' + theme;
    redrawAll();
  }
  var redraws = [];
  function redrawAll() { redraws.forEach(function (f) { f(); }); }
  var themeBtn = null;

  // ---- the views ---------------------------------------------------------------------------
  // VIEWS[model]: what each part registers (above); own() the page's (CTX.model, absent for YuniKorn).
  var VIEWS = {};
  var prioViews = {}; // views that draw their page alone, given an api (prioViews[model] = function (api))
  function own() { return VIEWS[CTX.model || 'yunikorn'] || VIEWS.yunikorn; }

  // ---- header --------------------------------------------------------------------------------
  function buildHeader() {
    themeBtn = h('button', { type: 'button', title: 'Light, dark, or as the system says (key: t)', onclick: function () {
      theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
      try { localStorage.setItem('prio-theme', theme); } catch (e) { /* ignore */ }
      applyTheme();
    } });
    var meta = h('dl', { cls: 'meta' });
    function item(k, v) { if (v !== null && v !== undefined && v !== '') meta.appendChild(h('div', null, h('dt', { text: k }), h('dd', null, v))); }
    if (COMMAND === 'diff') { item('OLD', h('code', { text: CTX.old })); item('NEW', h('code', { text: CTX.new })); }
    var inputs = (CTX.inputs || []).filter(function (i) { return COMMAND !== 'diff' || (i.name !== CTX.old && i.name !== CTX.new); });
    if (inputs.length) {
      item(inputs.length === 1 ? 'input' : 'inputs', inputs.map(function (i, n) {
        return [n ? ', ' : '', h('code', { text: i.name }), i.bundled ? ' (shipped with prio)' : i.modified ? ' (modified ' + i.modified + ')' : ''];
      }));
    }
    if (CTX.live) item('YuniKorn', [h('code', { text: CTX.live }), ' (read ' + CTX.read + ')']);
    item('partition', CTX.partition);
    if (CTX.queue) item('subtree', CTX.queue);
    item('prio', CTX.prio);
    item('written', CTX.generated);
    var top = h('header', { cls: 'top' },
      h('h1', null, 'prio ' + COMMAND, h('span', { cls: 'what', text: (own().titles || VIEWS.yunikorn.titles)[COMMAND] || '' }), h('span', { cls: 'tools' }, themeBtn)),
      meta);
    var notes = CTX.notes || [];
    if (notes.length) {
      top.appendChild(h('div', { cls: 'notes', id: 'notes' }, h('strong', { text: 'What prio said on stderr' }),
        h('ul', null, notes.map(function (n) { return h('li', { text: n }); }))));
    }
    if (own().header) own().header(top); // a view's own lines under the header (where the scheduler is nondeterministic)
    return top;
  }
  var selectStep = null; // YuniKorn's timeline (#step=N); a backend's view keeps its own (its follow hook)

  // ---- the queue tree ------------------------------------------------------------------------
  // queues: [{queue: PATH, depth, ...}] in tree order. opts.sep: the path's separator ('.' for
  // YuniKorn's root.a.b, '/' for a path such as /org/team-a); opts.content(q): the row's items after the
  // name (YuniKorn's priority, tags and bars by default); opts.changes: diff's priority changes.
  function buildTree(queues, opts) {
    opts = opts || {};
    var sep = opts.sep || '.';
    function parentOf(path) { var i = path.lastIndexOf(sep); return i > 0 ? path.slice(0, i) : null; }
    function leaf(path) { var i = path.lastIndexOf(sep); return i < 0 ? path : path.slice(i + 1); }
    var byPath = {}, roots = [];
    queues.forEach(function (q) { q.kids = []; byPath[q.queue] = q; });
    queues.forEach(function (q) {
      var up = parentOf(q.queue);
      var parent = up === null ? null : byPath[up];
      if (parent) parent.kids.push(q); else roots.push(q);
    });
    var openAll = queues.length <= 300;
    var tree = h('div', { role: 'tree', 'aria-label': opts.label || 'Queues', id: 'tree', cls: opts.cls, 'data-queues': String(queues.length) });
    var items = {}; // path -> element, for those drawn
    function bars(q) {
      var res = q.resources;
      if (!res) return null;
      var out = h('span', { cls: 'bars' });
      var words = [];
      Object.keys(res).sort().forEach(function (k, n) {
        var r = res[k];
        var scale = r.max || Math.max(r.guaranteed || 0, r.usage || 0) * 1.25;
        var text = k + ': ' + (r.usageShown || '0') + ' used' + (r.guaranteed !== undefined ? ', guaranteed ' + r.guaranteedShown : '') +
          (r.max !== undefined ? ', max ' + r.maxShown : '');
        words.push(text);
        if (!scale || n > 1) return;
        var bar = h('span', { cls: 'bar' + (r.max !== undefined && (r.usage || 0) > r.max ? ' over' : ''), title: text });
        bar.appendChild(h('i', { style: 'width:' + Math.min(100, 100 * (r.usage || 0) / scale).toFixed(1) + '%' }));
        if (r.guaranteed !== undefined) bar.appendChild(h('b', { style: 'left:' + Math.min(99, 100 * r.guaranteed / scale).toFixed(1) + '%' }));
        out.appendChild(bar);
      });
      out.setAttribute('title', words.join('\n'));
      out.setAttribute('aria-label', words.join('; '));
      return out;
    }
    function yunikornContent(q) {
      var changed = opts.changes && opts.changes[q.queue];
      return [
        h('span', { cls: 'pr' + (q.priority === null ? ' na' : ''), title: 'effective priority (what the parent sees)', text: 'P ' + pr(q.priority) }),
        changed ? h('span', { cls: 'tag chg', title: 'priority before \u2192 after', text: pr(changed[0]) + ' \u2192 ' + pr(changed[1]) }) : null,
        q.offset ? h('span', { cls: 'tag', title: 'priority.offset', text: 'offset ' + (q.offset > 0 ? '+' : '') + q.offset }) : null,
        q.fenced ? h('span', { cls: 'tag fence', title: 'priority.policy: fence', text: 'fence' }) : null,
        h('span', { cls: 'tag', title: 'application sort policy' + (q.sortPriority === false ? ' (priority sorting off)' : ''), text: q.sortPolicy + (q.sortPriority === false ? ', no prio' : '') }),
        q.pendingAsks ? h('span', { cls: 'tag', title: 'pending asks in this subtree', text: fmtNum(q.pendingAsks) + ' pending' }) : null,
        q.dynamic ? h('span', { cls: 'tag', text: 'dynamic' }) : null,
        bars(q)];
    }
    function row(q) {
      var el = h('div', { role: 'treeitem', cls: 'ti', tabindex: '-1', 'aria-level': String(q.depth + 1),
        'data-queue': q.queue, 'data-priority': opts.content ? null : pr(q.priority) });
      var tw = h('span', { cls: 'tw', 'aria-hidden': 'true', text: q.kids.length ? '\u25B8' : '' });
      var why = q.why ? h('button', { type: 'button', cls: 'why', title: opts.whyTitle || 'How this priority was derived (prio explain --why)', text: opts.whyLabel || 'why' }) : null;
      var r = h('div', { cls: 'row' }, tw,
        h('span', { cls: 'qname', title: q.queue, text: q.depth === 0 && sep === '.' ? q.queue : leaf(q.queue) }),
        opts.content ? opts.content(q) : yunikornContent(q), why);
      el.appendChild(r);
      var wt = null;
      if (why) {
        why.addEventListener('click', function (e) { e.stopPropagation(); toggleWhy(); });
      }
      function toggleWhy() {
        if (!q.why) return;
        if (!wt) { wt = h('div', { cls: 'whytext', text: q.why.join('\n') }); el.insertBefore(wt, el.children[1] || null); return; }
        wt.hidden = !wt.hidden;
      }
      el._why = toggleWhy;
      el._q = q;
      if (q.kids.length) {
        el.setAttribute('aria-expanded', 'false');
        tw.addEventListener('click', function (e) { e.stopPropagation(); toggle(el); });
      }
      r.addEventListener('click', function () { focusItem(el); if (opts.onSelect) opts.onSelect(q.queue); });
      r.addEventListener('dblclick', function () { toggle(el); });
      items[q.queue] = el;
      return el;
    }
    function expand(el, open) {
      var q = el._q;
      if (!q.kids.length) return;
      var group = el._group;
      if (open && !group) {
        group = el._group = h('div', { role: 'group' });
        if (q.fenced && q.depth > 0) {
          group.classList.add('fenced');
          group.setAttribute('data-fence', 'fenced: outside this box only ' + short(q.queue) + '\u2019s offset (' + q.offset + ') counts');
        }
        q.kids.forEach(function (k) { group.appendChild(row(k)); });
        el.appendChild(group);
      }
      if (group) group.hidden = !open;
      el.setAttribute('aria-expanded', open ? 'true' : 'false');
      el.firstChild.firstChild.textContent = open ? '\u25BE' : '\u25B8';
    }
    function toggle(el) { expand(el, el.getAttribute('aria-expanded') !== 'true'); }
    function reveal(path) { // expand every ancestor of `path`, drawing rows as needed
      var up = [];
      for (var p = parentOf(path); p !== null; p = parentOf(p)) up.unshift(p);
      up.forEach(function (a) { if (items[a]) expand(items[a], true); });
      return items[path];
    }
    var current = null;
    function focusItem(el, keepFocus) { // keepFocus: mark it (a step picked elsewhere), leave the keys where they are
      if (current) { current.tabIndex = -1; current.classList.remove('sel'); }
      current = el;
      el.tabIndex = 0;
      el.classList.add('sel');
      if (!keepFocus) el.focus({ preventScroll: false });
    }
    function visible() { return Array.prototype.filter.call(tree.querySelectorAll('[role="treeitem"]'), function (e) { return e.offsetParent !== null; }); }
    tree.addEventListener('keydown', function (e) {
      var el = document.activeElement;
      if (!el || !el._q) return;
      var list, i;
      switch (e.key) {
        case 'ArrowDown': list = visible(); i = list.indexOf(el); if (i < list.length - 1) focusItem(list[i + 1]); break;
        case 'ArrowUp': list = visible(); i = list.indexOf(el); if (i > 0) focusItem(list[i - 1]); break;
        case 'ArrowRight':
          if (el._q.kids.length && el.getAttribute('aria-expanded') !== 'true') expand(el, true);
          else if (el._group) focusItem(el._group.firstChild);
          break;
        case 'ArrowLeft':
          if (el.getAttribute('aria-expanded') === 'true') expand(el, false);
          else { var p = el.parentNode && el.parentNode.parentNode; if (p && p._q) focusItem(p); }
          break;
        case 'Home': list = visible(); focusItem(list[0]); break;
        case 'End': list = visible(); focusItem(list[list.length - 1]); break;
        case 'Enter': case ' ': el._why(); break;
        default: return;
      }
      e.preventDefault();
    });
    roots.forEach(function (q) { tree.appendChild(row(q)); });
    queues.forEach(function (q) { if (items[q.queue] && (openAll || q.depth < 1)) expand(items[q.queue], true); });
    if (tree.firstChild) tree.firstChild.tabIndex = 0;

    // search by name: matches revealed and marked, the first focused on Enter
    var count = h('span', { cls: 'count', 'aria-live': 'polite' });
    var marked = [];
    var input = h('input', { type: 'search', id: 'tree-search', placeholder: opts.searchLabel || 'Search queues (key: /)', 'aria-label': 'Search ' + (opts.label || 'queues').toLowerCase() + ' by name' });
    var search = debounce(function () {
      marked.forEach(function (el) { el.classList.remove('match'); });
      marked = [];
      var t = input.value.trim().toLowerCase();
      if (!t) { count.textContent = ''; return; }
      var hits = queues.filter(function (q) { return (sep === '.' ? q.queue : leaf(q.queue)).toLowerCase().indexOf(t) >= 0; });
      hits.slice(0, 200).forEach(function (q) { var el = reveal(q.queue); if (el) { el.classList.add('match'); marked.push(el); } });
      count.textContent = plural(hits.length, 'match', 'matches') + (hits.length > 200 ? ' (the first 200 shown)' : '');
    }, 150);
    input.addEventListener('input', search);
    input.addEventListener('keydown', function (e) { if (e.key === 'Enter' && marked.length) { e.preventDefault(); focusItem(marked[0]); } });
    var box = h('div', null, h('div', { cls: 'searchbar' }, input, count), tree);
    box.reveal = function (path, keepFocus) { var el = reveal(path); if (el) { focusItem(el, keepFocus); el.scrollIntoView({ block: 'nearest' }); } };
    return box;
  }

  // ---- tables --------------------------------------------------------------------------------
  // A virtualised table: `rows` an array (or a length and a getter), fixed row height, only the
  // rows in view are in the DOM. cols: [{name, get(row) -> text|node, num}].
  function vtable(cols, count, get, opts) {
    opts = opts || {};
    var RH = 25, OVER = 12;
    var wrap = h('div', { cls: 'vt', tabindex: '0', role: 'region', 'aria-label': opts.label || 'table' });
    var table = h('table', { 'aria-rowcount': String(count() + 1) });
    var head = h('tr', null, cols.map(function (c) { return h('th', { cls: c.num ? 'num' : null, scope: 'col', text: c.name }); }));
    var body = h('tbody');
    table.appendChild(h('thead', null, head));
    table.appendChild(body);
    wrap.appendChild(table);
    var selected = -1, first = -1, last = -1;
    function draw(force) {
      var n = count();
      var top = Math.max(0, Math.floor(wrap.scrollTop / RH) - OVER);
      var view = Math.ceil((wrap.clientHeight || 520) / RH) + 2 * OVER;
      var end = Math.min(n, top + view);
      if (!force && top === first && end === last) return;
      first = top; last = end;
      body.textContent = '';
      if (top > 0) body.appendChild(h('tr', { cls: 'pad', 'aria-hidden': 'true' }, h('td', { colspan: String(cols.length), style: 'height:' + (top * RH) + 'px' })));
      for (var i = top; i < end; i++) {
        var r = get(i);
        var tr = h('tr', { cls: 'r' + (i === selected ? ' sel' : ''), 'aria-rowindex': String(i + 2), 'data-i': String(i) });
        for (var c = 0; c < cols.length; c++) {
          var v = cols[c].get(r, i);
          var td = h('td', { cls: cols[c].num ? 'num' : null });
          add(td, v);
          if (typeof v === 'string') td.title = v;
          tr.appendChild(td);
        }
        body.appendChild(tr);
      }
      if (end < n) body.appendChild(h('tr', { cls: 'pad', 'aria-hidden': 'true' }, h('td', { colspan: String(cols.length), style: 'height:' + ((n - end) * RH) + 'px' })));
      table.setAttribute('aria-rowcount', String(n + 1));
    }
    wrap.addEventListener('scroll', function () { draw(false); });
    body.addEventListener('click', function (e) {
      var tr = e.target.closest('tr.r');
      if (tr && opts.onPick) opts.onPick(+tr.getAttribute('data-i'));
    });
    wrap.addEventListener('keydown', function (e) {
      if (!opts.onPick) return;
      var n = count();
      if (e.key === 'ArrowDown' || e.key === 'j') { opts.onPick(Math.min(n - 1, selected + 1)); e.preventDefault(); }
      else if (e.key === 'ArrowUp' || e.key === 'k') { opts.onPick(Math.max(0, selected - 1)); e.preventDefault(); }
    });
    wrap.refresh = function () { draw(true); };
    wrap.select = function (i) {
      selected = i;
      if (i >= 0) {
        var y = i * RH;
        if (y < wrap.scrollTop || y > wrap.scrollTop + wrap.clientHeight - 2 * RH) wrap.scrollTop = Math.max(0, y - 3 * RH);
      }
      draw(true);
    };
    requestAnimationFrame(function () { draw(true); });
    draw(true);
    return wrap;
  }
  function arrayTable(cols, rows, opts) { return vtable(cols, function () { return rows.length; }, function (i) { return rows[i]; }, opts); }

  // A filter box over an array: a virtual table of the rows whose text contains the words.
  function filtered(cols, rows, text, opts) {
    var idx = null;
    var shown = h('span', { cls: 'count', 'aria-live': 'polite' });
    var t = vtable(cols, function () { return idx ? idx.length : rows.length; }, function (i) { return rows[idx ? idx[i] : i]; }, opts);
    var input = h('input', { type: 'search', placeholder: opts.placeholder || 'Filter', 'aria-label': opts.placeholder || 'Filter' });
    input.addEventListener('input', debounce(function () {
      var w = input.value.trim().toLowerCase();
      if (!w) { idx = null; shown.textContent = ''; }
      else {
        idx = [];
        for (var i = 0; i < rows.length; i++) if (text(rows[i]).toLowerCase().indexOf(w) >= 0) idx.push(i);
        shown.textContent = fmtNum(idx.length) + ' of ' + fmtNum(rows.length);
      }
      t.scrollTop = 0;
      t.refresh();
    }, 200));
    var box = h('div', null, h('div', { cls: 'searchbar' }, input, shown), t);
    box.table = t;
    box.index = function (i) { return idx ? idx[i] : i; };
    box.position = function (row) { if (!idx) return row; return idx.indexOf(row); };
    return box;
  }

  // Anything the page does not know (a newer prio's keys): a table of a list of objects, a
  // definition list of an object, the value itself otherwise.
  function generic(v, depth) {
    depth = depth || 0;
    if (Array.isArray(v)) {
      if (!v.length) return h('p', { cls: 'count', text: 'none' });
      if (v.every(function (x) { return x && typeof x === 'object' && !Array.isArray(x); })) {
        var keys = [];
        v.forEach(function (x) { Object.keys(x).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); }); });
        return arrayTable(keys.map(function (k) {
          return { name: k, num: typeof v[0][k] === 'number', get: function (r) { var x = r[k]; return x === undefined ? '' : typeof x === 'object' && x !== null ? JSON.stringify(x) : pr(x); } };
        }), v, { label: 'list' });
      }
      return h('p', { text: v.map(function (x) { return typeof x === 'object' ? JSON.stringify(x) : pr(x); }).join(', ') });
    }
    if (v && typeof v === 'object') {
      if (depth > 3) return h('code', { text: JSON.stringify(v) });
      var dl = h('dl', { cls: 'kv' });
      Object.keys(v).forEach(function (k) { dl.appendChild(h('dt', { text: k })); dl.appendChild(h('dd', null, generic(v[k], depth + 1))); });
      return dl;
    }
    return h('span', { text: pr(v) });
  }

  // ---- tabs ----------------------------------------------------------------------------------
  function tabs(list) {
    var bar = h('div', { role: 'tablist', 'aria-label': 'Views' });
    var panels = h('div');
    var btns = [];
    list.forEach(function (t, i) {
      var id = 'tab-' + t.id;
      var b = h('button', { type: 'button', role: 'tab', id: id, 'aria-controls': 'panel-' + t.id, 'aria-selected': i === 0 ? 'true' : 'false', tabindex: i === 0 ? '0' : '-1', text: t.name });
      var p = h('section', { role: 'tabpanel', id: 'panel-' + t.id, 'aria-labelledby': id, hidden: i !== 0 });
      add(p, t.build()); // every panel is built at once: print and tests read them all; big ones draw lazily inside
      b._show = function () {
        btns.forEach(function (o) { o.setAttribute('aria-selected', 'false'); o.tabIndex = -1; o._panel.hidden = true; });
        b.setAttribute('aria-selected', 'true'); b.tabIndex = 0; p.hidden = false;
        if (t.shown) t.shown();
      };
      b._panel = p;
      b.addEventListener('click', b._show);
      btns.push(b);
      bar.appendChild(b);
      panels.appendChild(p);
    });
    bar.addEventListener('keydown', function (e) {
      var i = btns.indexOf(document.activeElement);
      if (i < 0) return;
      var j = e.key === 'ArrowRight' ? (i + 1) % btns.length : e.key === 'ArrowLeft' ? (i + btns.length - 1) % btns.length :
        e.key === 'Home' ? 0 : e.key === 'End' ? btns.length - 1 : -1;
      if (j < 0) return;
      e.preventDefault();
      btns[j].focus();
      btns[j]._show();
    });
    var box = h('div', null, bar, panels);
    box.show = function (id) { btns.forEach(function (b) { if (b.id === 'tab-' + id) b._show(); }); };
    if (btns.length) btns[0]._show();
    return box;
  }

  // ---- priority bands (colour and pattern: readable without colour) -------------------------
  var BAND_NAMES = ['highest', 'high', 'low', 'lowest'];
  function bandsOf(values) { // up to 4 bands over the distinct priorities, by count
    var counts = new Map();
    for (var i = 0; i < values.length; i++) counts.set(values[i], (counts.get(values[i]) || 0) + 1);
    var keys = Array.from(counts.keys()).sort(function (a, b) { return b - a; });
    var edges = []; // band b holds priorities >= edges[b] (descending)
    if (keys.length <= 4) edges = keys.slice();
    else {
      var total = values.length, acc = 0, want = 1;
      for (var k = 0; k < keys.length && edges.length < 3; k++) {
        acc += counts.get(keys[k]);
        if (acc >= total * want / 4) { edges.push(keys[k]); want = Math.floor(acc * 4 / total) + 1; }
      }
      edges.push(keys[keys.length - 1]);
    }
    function band(p) { for (var b = 0; b < edges.length; b++) if (p >= edges[b]) return b; return edges.length - 1; }
    function label(b) {
      var hi = b === 0 ? keys[0] : null;
      var lo = edges[b];
      if (b > 0) { var above = edges[b - 1]; hi = keys.filter(function (x) { return x < above; })[0]; }
      return (hi === lo ? 'P ' + lo : 'P ' + lo + '\u2026' + hi);
    }
    return { band: band, count: edges.length, label: label };
  }
  function pattern(ctx, b) { // band 0 solid, 1 stripes, 2 dots, 3 hollow (drawn as an outline)
    var c = document.createElement('canvas');
    c.width = c.height = 6;
    var g = c.getContext('2d');
    g.fillStyle = cssVar('--band' + b);
    if (b === 0) g.fillRect(0, 0, 6, 6);
    else if (b === 1) { g.fillRect(0, 0, 6, 6); g.clearRect(0, 3, 6, 1); g.clearRect(0, 0, 6, 1); }
    else if (b === 2) { g.fillRect(0, 0, 6, 6); g.clearRect(0, 0, 3, 3); g.clearRect(3, 3, 3, 3); }
    else { g.fillRect(0, 0, 6, 6); g.clearRect(1, 1, 4, 4); }
    return ctx.createPattern(c, 'repeat');
  }
  function swatch(b) {
    var c = h('canvas', { width: '18', height: '12', 'aria-hidden': 'true' });
    var g = c.getContext('2d');
    g.fillStyle = pattern(g, b);
    g.fillRect(0, 0, 18, 12);
    return c;
  }
