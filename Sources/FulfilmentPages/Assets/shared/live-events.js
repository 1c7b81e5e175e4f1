// The stream is opened once the page has loaded, so it never holds up the page (or a
// driver waiting for the page).
function onStoreEvents(onEvent) {
  if (!window.EventSource) return null;
  var handle = { readyState: 0 };
  function open() {
    var source = new EventSource('/console/events');
    ['order.placed', 'order.ready_for_pickup', 'order.at_collection_point', 'order.collected', 'order.cancelled',
     'order.substitution_proposed', 'order.substitution_decided', 'order.customer_arrived', 'order.changed', 'order.at_risk', 'order.late',
     'payment.succeeded'].forEach(function (type) {
      source.addEventListener(type, function (message) {
        try { onEvent(JSON.parse(message.data)); } catch (e) {}
      });
    });
    source.addEventListener('open', function () { document.body.setAttribute('data-live', 'open'); });
    // Leaving the page closes the stream: a page kept in the back-forward cache with its
    // stream open would hold one of the browser's six connections to the service.
    window.addEventListener('pagehide', function () { source.close(); });
    window.addEventListener('pageshow', function (event) { if (event.persisted) location.reload(); });
    handle.source = source;
    Object.defineProperty(handle, 'readyState', { get: function () { return source.readyState; } });
  }
  if (document.readyState === 'complete') setTimeout(open, 0);
  else window.addEventListener('load', function () { setTimeout(open, 0); });
  return handle;
}

function replaceFrom(html, id) {
  var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById(id);
  var here = document.getElementById(id);
  if (fresh && here) here.replaceWith(fresh);
  return !!(fresh && here);
}