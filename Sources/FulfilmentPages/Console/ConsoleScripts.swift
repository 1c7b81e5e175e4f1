import FulfilmentDomain

/// The console's scripts. Every page works without them (plain forms); they add what only a
/// script can: keeping the scan box focused for a keyboard-wedge scanner, counting a scanner's
/// repeat once, camera scanning where the browser has `BarcodeDetector`, and live updates of the
/// board and the desk from the store's event stream.
enum ConsoleScripts {
    /// Keeps keystrokes going to `#id` (the scanner types into whatever has focus) unless the
    /// person is using another field.
    private static let keepFocus = #"""
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
        """#

    static let desk =
        keepFocus + camera + events + waits + #"""

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
            """#

    /// Shows `button` where the browser can decode `formats` from the camera itself
    /// (`BarcodeDetector`); pressed, it films until a code is read and gives it to `onCode`.
    static let camera = #"""
        function scanWithCamera(button, video, formats, onCode) {
          if (!button || !video || !('BarcodeDetector' in window) || !navigator.mediaDevices) return;
          button.hidden = false;
          button.addEventListener('click', function () {
            var detector = new window.BarcodeDetector({ formats: formats });
            navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } }).then(function (stream) {
              video.srcObject = stream;
              video.hidden = false;
              video.play();
              var timer = setInterval(function () {
                detector.detect(video).then(function (codes) {
                  if (!codes.length) return;
                  clearInterval(timer);
                  stream.getTracks().forEach(function (track) { track.stop(); });
                  onCode(codes[0].rawValue);
                }).catch(function () {});
              }, 250);
            }).catch(function () { button.textContent = 'Camera unavailable'; button.disabled = true; });
          });
        }

        """#

    /// Listens to the store's events (`/console/events`); `onEvent` gets each event's JSON.
    /// Without `EventSource` (or with the stream down) pages still work: they are plain forms.
    private static let events = #"""
        // The stream is opened once the page has loaded, so it never holds up the page (or a
        // driver waiting for the page).
        function onStoreEvents(onEvent) {
          if (!window.EventSource) return null;
          var handle = { readyState: 0 };
          function open() {
            var source = new EventSource('/console/events');
            ['order.placed', 'order.ready_for_pickup', 'order.at_collection_point', 'order.collected', 'order.cancelled',
             'order.substitution_proposed', 'order.substitution_decided', 'order.customer_arrived',
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
        """#

    /// The order board updates its groups when an order of the store changes (a short pause
    /// gathers a burst into one fetch), but not while someone is typing a reason; a slow
    /// refresh covers a stream that is down.
    static let board =
        events + #"""

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
            """# + waits

    /// Counts up every `.wait[data-since]` (milliseconds since 1970) once a second: how long a
    /// customer at the kerb has waited, on the board and the desk.
    private static let waits = #"""

        (function () {
          function tick() {
            document.querySelectorAll('.wait[data-since]').forEach(function (span) {
              var seconds = Math.max(0, Math.floor((Date.now() - Number(span.getAttribute('data-since'))) / 1000));
              var minutes = Math.floor(seconds / 60);
              span.textContent = minutes < 60 ? minutes + ' min ' + (seconds % 60) + ' s'
                                               : Math.floor(minutes / 60) + ' h ' + (minutes % 60) + ' min';
            });
          }
          tick();
          setInterval(tick, 1000);
        })();
        """#

    static let pick =
        keepFocus + #"""

            keepScanFocus('barcode');
            """#
}
