function replaceFrom(doc, id) {
  var fresh = doc.getElementById(id), here = document.getElementById(id);
  if (fresh && here) here.replaceWith(fresh);
  return !!(fresh && here);
}

// Live tracking of an order.
(function () {
  var live = document.getElementById('order-live');
  if (!live || !window.EventSource) return;
  var url = live.getAttribute('data-events');
  function redraw() {
    fetch(location.pathname, { credentials: 'same-origin' }).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      if (replaceFrom(doc, 'order-live')) document.body.setAttribute('data-updated', String(Date.now()));
    }).catch(function () {});
  }
  function open() {
    var source = new EventSource(url);
    ['order.placed', 'order.ready_for_pickup', 'order.at_collection_point', 'order.collected', 'order.cancelled',
     'order.substitution_proposed', 'order.substitution_decided', 'order.customer_arrived', 'order.changed', 'order.at_risk', 'order.late',
     'payment.succeeded'
    ].forEach(function (type) { source.addEventListener(type, redraw); });
    source.addEventListener('open', function () { document.body.setAttribute('data-live', 'open'); });
    window.addEventListener('pagehide', function () { source.close(); });
  }
  if (document.readyState === 'complete') setTimeout(open, 0);
  else window.addEventListener('load', function () { setTimeout(open, 0); });
})();

// Forms that change the cart, posted without leaving the page.
document.addEventListener('submit', function (event) {
  var form = event.target;
  if (!form.hasAttribute || !form.hasAttribute('data-inline') || !window.fetch) return;
  event.preventDefault();
  var button = form.querySelector('button[type=submit]');
  if (button) button.disabled = true;
  fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), credentials: 'same-origin' })
    .then(function (r) { return r.text(); })
    .then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      var found = replaceFrom(doc, 'shop-notice');
      replaceFrom(doc, 'cart-count');
      replaceFrom(doc, 'cart');
      if (!found) { form.submit(); return; }
      document.body.setAttribute('data-updated', String(Date.now()));
      var notice = document.getElementById('notice');
      if (notice) { notice.setAttribute('tabindex', '-1'); }
    })
    .catch(function () { form.submit(); })
    .then(function () { if (button && document.contains(button)) button.disabled = false; });
});

// One order per click.
(function () {
  var form = document.getElementById('checkout-form');
  if (!form) return;
  form.addEventListener('submit', function () {
    var button = document.getElementById('place-order');
    setTimeout(function () { button.disabled = true; button.textContent = 'Placing your order…'; }, 0);
  });
})();

// A barcode from the camera finds its product.
scanWithCamera(document.getElementById('scan-barcode'), document.getElementById('barcode-view'),
  ['ean_13', 'ean_8', 'upc_a', 'upc_e'], function (code) {
    location.href = '/shop?barcode=' + encodeURIComponent(code);
  });