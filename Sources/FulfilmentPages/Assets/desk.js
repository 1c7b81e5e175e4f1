
// Customers at the kerb (issue 27): an arrival, or an order handed over, refreshes the list.
(function () {
  if (!document.getElementById('arrivals')) return;
  onStoreEvents(function (event) {
    var type = event.type || '';
    if (type !== 'order.customer_arrived' && type !== 'order.collected' && type !== 'order.cancelled') return;
    fetch('/console/desk', { credentials: 'same-origin' })
      .then(function (r) { return r.text(); })
      .then(function (html) { if (replaceFrom(html, 'arrivals')) document.body.setAttribute('data-arrivals', String(Date.now())); })
      .catch(function () {});
  });
})();

// A scanned order that changes while the customer waits (packed, paid online) is checked
// again, and its verdict replaced in place.
(function () {
  var verdict = document.getElementById('verdict');
  if (!verdict || !verdict.getAttribute('data-order-id')) return;
  var orderId = verdict.getAttribute('data-order-id'), token = verdict.getAttribute('data-token');
  var csrf = document.querySelector('input[name=_csrf]');
  onStoreEvents(function (event) {
    var data = event.data || {};
    var about = (data.order && data.order.id) || (data.payment && data.payment.orderId);
    if (about !== orderId || !csrf) return;
    var body = new URLSearchParams();
    body.append('_csrf', csrf.value);
    body.append('token', token);
    fetch('/console/desk/scan', { method: 'POST', body: body, credentials: 'same-origin' })
      .then(function (r) { return r.text(); })
      .then(function (html) { if (replaceFrom(html, 'verdict')) document.body.setAttribute('data-updated', String(Date.now())); })
      .catch(function () {});
  });
})();

(function () {
  var form = document.getElementById('scan-form');
  var box = document.getElementById('token');
  if (!form || !box) return;
  keepScanFocus('token');
  // Scanners repeat: the same code again within the window, with nothing done in between, counts once.
  form.addEventListener('submit', function (event) {
    var windowMs = Number(form.getAttribute('data-repeat-window-ms') || '2000');
    var code = box.value.trim();
    var last = null;
    try { last = JSON.parse(sessionStorage.getItem('desk.lastScan') || 'null'); } catch (e) { last = null; }
    if (code && last && last.code === code && Date.now() - last.at < windowMs) {
      event.preventDefault();
      box.value = '';
      var note = document.getElementById('repeat-note');
      if (note) note.hidden = false;
      return;
    }
    sessionStorage.setItem('desk.lastScan', JSON.stringify({ code: code, at: Date.now() }));
  });
  document.querySelectorAll('form[data-desk-action]').forEach(function (other) {
    other.addEventListener('submit', function () { sessionStorage.removeItem('desk.lastScan'); });
  });
  // Camera scanning, only where the browser can decode QR codes itself.
  scanWithCamera(document.getElementById('camera'), document.getElementById('camera-view'), ['qr_code'], function (code) {
    box.value = code;
    form.requestSubmit();
  });
})();