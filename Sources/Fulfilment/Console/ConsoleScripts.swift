/// The console's scripts. Every page works without them (plain forms); they add what only a
/// script can: keeping the scan box focused for a keyboard-wedge scanner, counting a scanner's
/// repeat once, camera scanning where the browser has `BarcodeDetector`, and refreshing the board.
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

    static let desk = keepFocus + #"""

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
      var button = document.getElementById('camera');
      var video = document.getElementById('camera-view');
      if (!button || !video || !('BarcodeDetector' in window) || !navigator.mediaDevices) return;
      button.hidden = false;
      button.addEventListener('click', function () {
        var detector = new window.BarcodeDetector({ formats: ['qr_code'] });
        navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } }).then(function (stream) {
          video.srcObject = stream;
          video.hidden = false;
          video.play();
          var timer = setInterval(function () {
            detector.detect(video).then(function (codes) {
              if (!codes.length) return;
              clearInterval(timer);
              stream.getTracks().forEach(function (track) { track.stop(); });
              box.value = codes[0].rawValue;
              form.requestSubmit();
            }).catch(function () {});
          }, 250);
        }).catch(function () { button.textContent = 'Camera unavailable'; button.disabled = true; });
      });
    })();
    """#

    /// The order board refreshes itself every 15 s, unless someone is typing a reason.
    static let board = #"""
    (function () {
      setInterval(function () {
        var active = document.activeElement;
        if (active && active.tagName === 'INPUT') return;
        var typed = Array.prototype.some.call(document.querySelectorAll('input[name=reason]'), function (i) { return i.value; });
        // Always a fresh GET of the board: after a move the address is the form's POST target.
        if (!typed) location.assign('/console/orders');
      }, 15000);
    })();
    """#

    static let pick = keepFocus + #"""

    keepScanFocus('barcode');
    """#
}
