// When the page's UI (PyScript, MicroPython, then static/ui/) starts.
//
// The home screen is plain HTML, drawn at the first paint in the page's language, and
// the engine worker boots behind it (engine.mjs). The UI costs the page's thread about
// a second of work on a phone (MicroPython's start, PyScript, the UI's modules), so it
// starts when it has something to do:
// - at once (after the first paint) when there is something only it can draw: a game
//   in progress or saved games in storage, or a URL that carries a game (?variant=,
//   ?seed=, a link's #hash);
// - else at the first sign of a person: a pointer moving or pressed, a key, a focus,
//   a wheel, a scroll, a click, a change. What is tapped or picked before the UI is
//   ready is kept (first-tap.mjs).
// A reader who scrolls past an embedded game, and a first visit that is only looked
// at, never pay for it. Once the engine is ready, the UI's files are fetched into the
// HTTP cache at low priority, so a late first tap waits for start-up work, not the
// network.
import engine from "./engine.mjs";
import storage from "./storage.mjs";

const root = document.documentElement;
const LIST_URL = new URL("../../ui-files.json", import.meta.url);
const CORE_URL = new URL("../../vendor/pyscript/0.7.31/core.js", import.meta.url);
// Stored values that only set preferences (no screen lists them). generala.quick (the
// last one-tap game and level) is not one of them: the UI shows it in the lists.
const PREFERENCES = new Set(["generala.lang", "generala.motion", "generala.sound", "generala.sound.embed", "generala.coach"]);
// URL parameters the plain page answers itself (page-lang.js, embed.mjs).
const PAGE_PARAMS = new Set(["lang", "embed"]);
// A click and a change come without a pointer or a key from a screen reader's browse
// mode (it activates the button itself), so they count too.
const INTENT = ["pointerdown", "pointermove", "keydown", "touchstart", "focusin", "wheel", "scroll", "click", "change"];

let started = false;

function start() {
  if (started) return;
  started = true;
  for (const type of INTENT) removeEventListener(type, start, true);
  root.setAttribute("data-ui", "starting");
  import(CORE_URL.href);
}

/** True when storage or the URL holds something only the UI can draw. */
function needed() {
  // Key names only (storage.mjs: denied storage has none); no value is read.
  if (storage.keys("generala.").some((key) => !PREFERENCES.has(key))) return true;
  if (location.hash.length > 1) return true;
  for (const name of new URLSearchParams(location.search).keys()) {
    if (!PAGE_PARAMS.has(name)) return true;
  }
  return false;
}

/** The files the UI's start fetches (tools/build.py lists them) into the HTTP cache, at
 * low priority and a few at a time: the player's own requests come first. Stops when
 * the UI starts (it fetches the rest itself). */
async function warm() {
  let list;
  try {
    list = (await (await fetch(LIST_URL, { priority: "low" })).json()).files || [];
  } catch (_e) {
    return;  // a prefetch only: the UI fetches what it needs when it starts
  }
  const next = async () => {
    while (list.length && !started) {
      try {
        await (await fetch(new URL(list.shift(), LIST_URL), { priority: "low" })).arrayBuffer();
      } catch (_e) { /* the same */ }
    }
  };
  await Promise.all([next(), next(), next(), next()]);
}

if (needed()) {
  // After the first paint, as the engine worker: the first screen comes first. A
  // hidden tab paints no frame: the timer starts it then.
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, document.visibilityState === "hidden" ? 250 : 2000);
} else {
  for (const type of INTENT) addEventListener(type, start, { capture: true, passive: true });
  // onState, not ready(): ready() would start the worker before the first paint.
  const stop = engine.onState((state) => {
    if (state !== "ready") return;
    queueMicrotask(() => stop());
    if (started) return;
    // Nothing is loading any more until the player acts: the status line goes quiet,
    // and the footer names the engine (as static/ui/page/page_boot.py does once it runs).
    const status = document.getElementById("engine-status");
    if (status) status.textContent = "";
    const version = document.getElementById("engine-version");
    if (version) version.textContent = engine.version;
    warm();
  });
}
