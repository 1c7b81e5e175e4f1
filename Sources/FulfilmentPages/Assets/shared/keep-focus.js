function keepScanFocus(id) {
  var box = document.getElementById(id);
  if (!box) return;
  box.focus();
  document.addEventListener('keydown', function (event) {
    var active = document.activeElement;
    var textual = ['text', 'number', 'search', 'email', 'password', 'tel', 'url'];
    var typing = active && ((active.tagName === 'INPUT' && textual.indexOf(active.type) >= 0) ||
                            active.tagName === 'TEXTAREA' || active.tagName === 'SELECT');
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey) box.focus();
  });
}