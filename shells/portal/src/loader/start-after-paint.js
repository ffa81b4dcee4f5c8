// The only script of the shell's pages (index.html, app.html), as it is (no bundler, no module):
// it starts the shell once the page the build drew has been painted. main.js and the files of its
// start (listed by the page: <meta name="portal-startup">, main.js first) are then fetched all at
// once, and main.js runs as soon as it is in. Before the paint the page fetches nothing but its
// HTML, so the scripts never hold it back (a phone paints the HTML before any script has run).
(function () {
  var doc = document;
  var meta = doc.querySelector('meta[name="portal-startup"]');
  if (!meta) return;
  var files = meta.getAttribute('content').split(' ');
  var started = false;
  function preload() {
    for (var i = 1; i < files.length; i++) {
      var link = doc.createElement('link');
      link.rel = 'preload';
      link.as = 'script';
      link.href = files[i];
      doc.head.appendChild(link);
    }
  }
  // main.js first; the others in the next task (each task short: the page answers taps meanwhile).
  function start() {
    if (started) return;
    started = true;
    var script = doc.createElement('script');
    script.src = files[0];
    doc.head.appendChild(script);
    setTimeout(preload, 0);
  }
  // At once where no frame is coming: a page opened in the background, and inside another page's
  // iframe (the browser may hold back an embedded page's frames while it is off the screen).
  if (doc.visibilityState === 'hidden' || window.parent !== window) {
    start();
    return;
  }
  // requestAnimationFrame runs just before the next frame is painted: the second one, once the
  // first frame is on the screen; the timer, after that. The page starts within 300 ms whatever
  // happens to the frames.
  requestAnimationFrame(function () {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  });
  setTimeout(start, 300);
})();
