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
