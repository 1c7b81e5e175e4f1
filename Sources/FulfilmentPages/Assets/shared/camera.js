// Shown only where the browser can read one of `formats` off the camera: a BarcodeDetector that
// exists but supports none of them (desktop Linux, most of Windows) leaves the button hidden.
function scanWithCamera(button, video, formats, onCode) {
  if (!button || !video || !('BarcodeDetector' in window) || !navigator.mediaDevices) return;
  var supported = window.BarcodeDetector.getSupportedFormats ? window.BarcodeDetector.getSupportedFormats() : Promise.resolve([]);
  supported.then(function (known) {
    if (!formats.some(function (format) { return known.indexOf(format) >= 0; })) return;
    button.hidden = false;
    button.setAttribute('data-scan', 'ready');
  }).catch(function () {});
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
