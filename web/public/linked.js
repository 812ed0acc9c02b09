// Read before the body, and render-blocking, so kept short: what it does is said in vite.config.js.
(function () {
  var root = document.documentElement, script = document.currentScript;
  var model = /model=tiny-lm/.test(location.hash), linked = location.hash.length > 1, first = linked && !model;
  if (linked) root.setAttribute('data-linked', '');
  if (first) root.setAttribute('data-first-heatmap', '');
  var preload = function (href, rel, as) {
    if (!href) return;
    var link = document.createElement('link');
    link.rel = rel;
    if (as) link.as = as, link.type = /\.wasm$/.test(href) ? 'application/wasm' : '';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  };
  var named = function (attribute) { return script && script.getAttribute(attribute) || ''; };
  preload(named(first ? 'data-first' : 'data-core'), 'preload', 'fetch');
  if (model) preload(named('data-weights'), 'preload', 'fetch');
  if (!first) {
    preload(named('data-core-code'), 'modulepreload');  // (the first heatmap's module has no JS of its own)
    named('data-later').split(' ').forEach(function (href) { preload(href, 'modulepreload'); });
  }
})();
