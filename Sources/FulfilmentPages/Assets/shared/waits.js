
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