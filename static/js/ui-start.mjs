// PyScript (MicroPython, then the UI of static/ui/) starts once the first screen is
// painted, as the engine worker does (engine.mjs): the plain-HTML home screen is the
// first paint, and none of the runtimes' downloads or start-up work comes before it.
// Lighthouse's simulated paint times depended on it: with PyScript requested before the
// first paint, the first screen's paint was charged with MicroPython's downloads
// (docs/bytes.md). A hidden tab paints no frame: the timer starts it then.
let started = false;
function start() {
  if (started) return;
  started = true;
  import("../../vendor/pyscript/0.7.31/core.js");
}
requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, 250);
