// The QR code of a link (globalThis.generala.qr, js.generala.qr in the page's MicroPython),
// drawn into an element the screen owns. DOM only: the Python side needs no return value.
//
//   show(figure, text)  draws `text` (UTF-8, byte mode, error correction L, the smallest
//                       version that holds it) into a <canvas> it keeps inside `figure`.
//                       figure.dataset.qr: "loading", then "drawn"; "too-long" (more than
//                       version 40-L holds: 2,953 bytes; the canvas is hidden), "offline"
//                       (no network and the encoder not kept yet: nothing is requested) or
//                       "failed" (the encoder did not load; the canvas is hidden). When it
//                       draws nothing, the figure's caption says why: figure.dataset.qrTooLong
//                       or figure.dataset.qrMissing (worded by the Python side). A later call
//                       replaces the drawing. Never throws; its promise never rejects.
//   clear(figure)       removes the canvas and data-qr.
//
// The encoder (qrcode-generator, vendored by tools/build.py) is imported on the first
// show(): a visit that never shows a QR code downloads nothing of it. The symbol is black
// on white with its quiet zone of 4 modules, whatever the page's theme (readers want dark
// on light), each module a whole number of device pixels (crisp), at most 300 CSS px wide
// (202-300 at 1x, 230-300 at 2x; at 1x, version 32 and up keep 2 px a module: 306-370). Its name for screen readers is the figure's data-qr-label (worded by the Python
// side in the page's language).
const LIBRARY_URL = new URL("../../vendor/qrcode-generator/2.0.4/qrcode.mjs", import.meta.url).href;
const QUIET = 4;          // modules of white around the symbol, as the standard asks
const WIDTH_CSS = 300;    // the widest symbol, CSS px, when its modules can be that small
const MODULE_MIN = 2;     // the smallest module, device px (a 1x screen's big symbols pass 300)
const NAMES = { en: "QR code", es: "Código QR", bg: "QR код", ru: "QR-код" };  // no data-qr-label

let library = null;             // the import's promise; forgotten when it failed, to try again
let failures = 0;               // a browser may keep a failed module import: retry as another URL
const shown = new WeakMap();    // figure -> its latest call (an older one finishing draws nothing)

// Offline, an encoder no cache holds cannot load: say so without a request bound to fail.
class Offline extends Error {}

async function kept() {
  if (globalThis.navigator?.onLine !== false || !globalThis.caches) return true;
  try {
    return Boolean(await caches.match(LIBRARY_URL, { ignoreSearch: true }));
  } catch {
    return true;  // storage we may not read: let the import try
  }
}

function load() {
  library ||= kept().then((ok) => {
    if (!ok) throw new Offline("offline, and the QR encoder is not kept for offline use yet");
    return import(failures ? `${LIBRARY_URL}?retry=${failures}` : LIBRARY_URL);
  }).then((m) => m.qrcode, (err) => { library = null; failures++; throw err; });
  return library;
}

// The figure's caption: why nothing is drawn (`text`), or none.
function caption(figure, text) {
  let cap = figure.querySelector(":scope > figcaption[data-qr-caption]");
  if (!text) {
    cap?.remove();
    return;
  }
  if (!cap) {
    cap = document.createElement("figcaption");
    cap.dataset.qrCaption = "";
    cap.className = "help";
    figure.append(cap);
  }
  cap.textContent = text;
}

function canvasOf(figure) {
  let canvas = figure.querySelector(":scope > canvas[data-qr-canvas]");
  if (!canvas) {
    canvas = document.createElement("canvas");
    canvas.dataset.qrCanvas = "";
    canvas.setAttribute("role", "img");
    figure.prepend(canvas);
  }
  const lang = (document.documentElement.lang || "en").slice(0, 2);
  canvas.setAttribute("aria-label", figure.dataset.qrLabel || NAMES[lang] || NAMES.en);
  return canvas;
}

// The symbol of `text`, or null when it does not fit version 40-L.
function encode(qrcode, text) {
  // The library turns each character into one byte: give it the UTF-8 bytes as characters.
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const qr = qrcode(0, "L");  // 0: the smallest version that holds the data
  qr.addData(binary, "Byte");
  try {
    qr.make();
  } catch (err) {
    if (/overflow/.test(String(err))) return null;
    throw err;
  }
  return qr;
}

function draw(canvas, qr) {
  const count = qr.getModuleCount();
  const side = count + 2 * QUIET;
  const dpr = globalThis.devicePixelRatio || 1;
  const unit = Math.max(MODULE_MIN, Math.floor((WIDTH_CSS * dpr) / side));  // device px a module
  canvas.width = canvas.height = side * unit;
  const ctx = canvas.getContext("2d", { alpha: false });
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#000";
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < count; c++) {
      if (!qr.isDark(r, c)) continue;
      let end = c + 1;  // a run of dark modules is one rectangle
      while (end < count && qr.isDark(r, end)) end++;
      ctx.fillRect((QUIET + c) * unit, (QUIET + r) * unit, (end - c) * unit, unit);
      c = end;
    }
  }
  // One canvas pixel on one device pixel; narrower figures shrink it, still square and sharp.
  Object.assign(canvas.style, { width: `${(side * unit) / dpr}px`, height: "auto", maxWidth: "100%",
    imageRendering: "pixelated" });
  canvas.dataset.version = String((count - 17) / 4);
  canvas.hidden = false;
}

function blank(canvas) {
  canvas.width = canvas.height = 0;
  canvas.hidden = true;
  delete canvas.dataset.version;
}

async function show(figure, text) {
  const call = {};
  try {
    if (!figure || typeof figure.querySelector !== "function") return;
    shown.set(figure, call);
    figure.dataset.qr = "loading";
    let qrcode;
    try {
      qrcode = await load();
    } catch (err) {
      if (shown.get(figure) !== call) return;
      blank(canvasOf(figure));
      figure.dataset.qr = err instanceof Offline ? "offline" : "failed";
      caption(figure, figure.dataset.qrMissing);
      console.warn("QR code: the encoder did not load", err);
      return;
    }
    if (shown.get(figure) !== call) return;  // a later show() or clear() came meanwhile
    const canvas = canvasOf(figure);
    const qr = encode(qrcode, String(text ?? ""));
    if (qr) {
      draw(canvas, qr);
      figure.dataset.qr = "drawn";
      caption(figure, null);
    } else {
      blank(canvas);
      figure.dataset.qr = "too-long";
      caption(figure, figure.dataset.qrTooLong);
    }
  } catch (err) {
    try {
      figure.dataset.qr = "failed";
      blank(canvasOf(figure));
      caption(figure, figure.dataset.qrMissing);
    } catch { /* not an element after all */ }
    console.warn("QR code: not drawn", err);
  }
}

function clear(figure) {
  try {
    if (!figure || typeof figure.querySelector !== "function") return;
    shown.set(figure, {});
    figure.querySelector(":scope > canvas[data-qr-canvas]")?.remove();
    caption(figure, null);
    delete figure.dataset.qr;
  } catch { /* never throws */ }
}

// Kept for offline once a game is playing: when the board first draws a game (its
// data-rendered), the encoder's file is fetched at idle, not run, through the service
// worker, which keeps it (sw.js, ON_DEMAND_PREFIXES). A hand-over made offline later still
// draws its QR code. A visit that plays no game fetches nothing of it; an embedded game
// (no service worker) neither.
function keepOncePlaying() {
  const board = document.getElementById("board");
  const sw = globalThis.navigator?.serviceWorker;
  if (!board || !sw) return;
  const fetchIt = async () => {
    try {
      await sw.ready;
      if (!sw.controller || navigator.onLine === false || library) return;
      if (await caches.match(LIBRARY_URL, { ignoreSearch: true })) return;
      await fetch(LIBRARY_URL);
    } catch { /* offline or storage refused: the first QR code fetches it */ }
  };
  const observer = new MutationObserver(() => {
    if (!board.hasAttribute("data-rendered")) return;
    observer.disconnect();
    if (globalThis.requestIdleCallback) requestIdleCallback(fetchIt, { timeout: 10_000 });
    else setTimeout(fetchIt, 2_000);
  });
  observer.observe(board, { attributes: true, attributeFilter: ["data-rendered"] });
}

keepOncePlaying();

export const qr = { show, clear };
(globalThis.generala ||= {}).qr = qr;
