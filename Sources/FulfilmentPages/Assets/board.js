
(function () {
  var timer = null, owed = false;
  function typing() {
    var active = document.activeElement;
    if (active && active.tagName === 'INPUT') return true;
    return Array.prototype.some.call(document.querySelectorAll('input[name=reason]'), function (i) { return i.value; });
  }
  function refresh() {
    if (typing()) { owed = true; return; }
    owed = false;
    fetch('/console/orders', { credentials: 'same-origin' }).then(function (r) { return r.text(); }).then(function (html) {
      if (replaceFrom(html, 'board-live')) document.body.setAttribute('data-updated', String(Date.now()));
    }).catch(function () { owed = true; });
  }
  var live = onStoreEvents(function () { clearTimeout(timer); timer = setTimeout(refresh, 150); });
  setInterval(function () { if (owed || !live || live.readyState === 2) refresh(); }, 15000);
})();