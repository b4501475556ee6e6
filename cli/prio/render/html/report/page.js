  // ---- the page ------------------------------------------------------------------------------
  // The main view per scheduler model (CTX.model, absent for YuniKorn) and command: each builder
  // takes the tree box beside it and returns the view (tabs). A view that draws its page alone
  // (prioViews[model](api)) is registered here for explain and simulate.
  Object.keys(prioViews).forEach(function (m) { if (!VIEWS[m]) VIEWS[m] = { explain: otherView, simulate: otherView }; });
  function otherView() { return prioViews[CTX.model]({ h: h, plural: plural, data: DATA, ctx: CTX, command: COMMAND }); }
  function build() {
    app.appendChild(buildHeader());
    var layout = h('div', { cls: 'layout' });
    var aside = h('aside', { id: 'queues', 'aria-label': 'Queue tree' });
    var treeBox = null;
    var treeData = CTX.tree;
    var changes = null;
    if (COMMAND === 'diff') {
      var trees = CTX.trees || {};
      treeData = trees.NEW || trees.OLD;
      changes = {};
      (DATA.queues || []).forEach(function (r) { changes[r.queue] = [r.before, r.after]; });
    }
    var view = own();
    if (view.aside) treeBox = view.aside(aside); // a view's own tree (its scheduler's, not YuniKorn's queues)
    else if (treeData && treeData.queues && treeData.queues.length) {
      aside.appendChild(h('h2', { text: COMMAND === 'diff' ? 'Queues (NEW, before the run; changes marked)' : COMMAND === 'simulate' ? 'Queues (before the run)' : 'Queues' }));
      treeBox = buildTree(treeData.queues, { changes: changes });
      aside.appendChild(treeBox);
      if (treeData.whyNote) aside.appendChild(h('p', { cls: 'count', text: treeData.whyNote }));
      aside.appendChild(h('p', { cls: 'count' }, 'Bars: usage against max (a tick at guaranteed); hatched when over max. ', h('kbd', { text: '\u2191\u2193\u2190\u2192' }), ' move and open, ', h('kbd', { text: 'Enter' }), ' shows why.'));
    } else {
      aside.appendChild(h('p', { cls: 'count', text: 'No queue tree in this report.' }));
    }
    var main = h('main', { id: 'main' });
    var shown = (view[COMMAND] || view.explain)(treeBox);
    main.appendChild(shown);
    main.appendChild(h('p', { cls: 'printnote', text: 'Printed: long tables show the rows drawn on screen; the file holds every row (its prio-data element is the -o json document).' }));
    layout.appendChild(aside);
    layout.appendChild(main);
    app.appendChild(layout);
    var steps = view.steps !== false; // a view without steps has no timeline to zoom
    app.appendChild(h('footer', null, 'Keys: ', h('kbd', { text: '/' }), view.search || ' search queues, ', h('kbd', { text: 't' }), ' theme, ',
      h('kbd', { text: '\u2190\u2192' }), steps ? ' tabs and steps, ' : ' tabs. ', steps ? [h('kbd', { text: '+ \u2212 0' }), ' zoom the timeline. '] : null,
      'Written by prio ' + (CTX.prio || '') + '; the data is this command\u2019s -o json document, inside this file.'));
    document.addEventListener('keydown', function (e) {
      var tag = (e.target && e.target.tagName) || '';
      if (tag === 'INPUT' || tag === 'TEXTAREA' || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === '/') { var s = document.getElementById('tree-search'); if (s) { e.preventDefault(); s.focus(); } }
      else if (e.key === 't') themeBtn.click();
    });
    applyTheme();
    followHash(treeBox, shown);
    window.addEventListener('hashchange', function () { followHash(treeBox, shown); });
  }

  // The address can say what to show: #step=N, #tab=ID, #queue=PATH, #search=TEXT, #theme=dark;
  // a view's own keys, which its follow hook reads (e.g. #cycle=N); #queue through its pathOf
  // (a link into a report pasted in a channel; the tests drive the page with it too).
  function followHash(treeBox, view) {
    var args = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) args[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    if (args.theme && THEMES.indexOf(args.theme) >= 0) { theme = args.theme; applyTheme(); }
    if (args.tab && view.show) view.show(args.tab);
    if (args.step && selectStep) selectStep(+args.step, !args.tab);
    if (own().follow) own().follow(args);
    if (args.queue && treeBox) treeBox.reveal(own().pathOf ? own().pathOf(args.queue) : args.queue);
    if (args.search !== undefined) {
      var s = document.getElementById('tree-search');
      if (s) { s.value = args.search; s.dispatchEvent(new Event('input')); }
    }
  }

  try {
    build();
  } catch (e) {
    report(e && e.stack ? e.message + ' at ' + e.stack.split('\n')[1] : e);
    throw e;
  }
  document.body.setAttribute('data-ready', '1');
  if (!errors.length) document.body.setAttribute('data-errors', '0');
  // how long the page took to open, for the benchmark (benchmarks/run.py reads Chromium's log)
  var built = Math.round(performance.now());
  document.body.setAttribute('data-built-ms', String(built));
  console.info('prio report: built in ' + built + ' ms');
})();
