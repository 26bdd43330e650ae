// The table's sounds, synthesized with Web Audio (no sound files):
//   rattle(ms)  dice shaken and thrown: short band-passed noise bursts at random gaps
//   tick()      a box filled: one short click
//   fanfare(big) five alike (a short rising arpeggio); big: a win (longer, a chord at the end)
//
// The AudioContext is created and resumed only at a user gesture (a trusted pointerdown,
// keydown or click; see OFF_BOARD_DELAY_MS): before the first one nothing exists and
// nothing plays.
// The board's mute button ([data-action="sound"], aria-pressed = muted) is remembered in
// localStorage (through storage.mjs, which never throws); in embed mode (?embed=1) the
// sound is off until the player turns it on there (a key of its own).
import { storage } from "./storage.mjs";

const embed = new URLSearchParams(location.search).get("embed") === "1";
const KEY = embed ? "generala.sound.embed" : "generala.sound"; // "on" | "off"

let muted = (() => {
  const v = storage.get(KEY);
  if (v === "on") return false;
  if (v === "off") return true;
  return embed;
})();
let ctx = null;
let master = null;
let noise = null;

function unlock() {
  if (muted) return;
  const AC = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!AC) return;
  try {
    if (!ctx) {
      ctx = new AC();
      master = ctx.createGain();
      master.gain.value = 0.45;
      master.connect(ctx.destination);
      noise = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * 0.06), ctx.sampleRate);
      const data = noise.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
  } catch (_e) {
    ctx = null;
  }
}

// Making the context costs the page's thread tens of milliseconds (60 ms measured in
// Chromium on Linux, twice that at a 4x CPU slow-down): at a gesture while the board is
// not shown (a play choice on the home screen, a saved game opened) it is made a little
// later, so the board that gesture opens is not kept waiting. WebKit counts a timer of
// up to a second set in a gesture as part of it; Chromium and Firefox let a page that
// has had one play.
const OFF_BOARD_DELAY_MS = 400;
let later = null;

for (const type of ["pointerdown", "keydown", "click"]) {
  addEventListener(type, (event) => {
    if (!event.isTrusted) return;
    const board = document.getElementById("board");
    if (ctx || (board && !board.hidden)) unlock();
    else later ??= setTimeout(() => { later = null; unlock(); }, OFF_BOARD_DELAY_MS);
  }, { capture: true, passive: true });
}

function live() {
  return !muted && ctx !== null && ctx.state === "running";
}

function burst(at, freq, len, gain) {
  const src = ctx.createBufferSource();
  src.buffer = noise;
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = freq;
  band.Q.value = 1.6;
  const env = ctx.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.002);
  env.gain.exponentialRampToValueAtTime(0.0001, at + len);
  src.connect(band).connect(env).connect(master);
  src.start(at);
  src.stop(at + len + 0.01);
}

function note(at, freq, len, gain, type = "triangle") {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.value = freq;
  const env = ctx.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.012);
  env.gain.exponentialRampToValueAtTime(0.0001, at + len);
  osc.connect(env).connect(master);
  osc.start(at);
  osc.stop(at + len + 0.02);
}

export function rattle(ms = 700) {
  if (!live()) return;
  const t0 = ctx.currentTime + 0.01;
  const span = Math.max(0.2, ms / 1000) * 0.85;
  const n = 7 + Math.floor(Math.random() * 5);
  for (let i = 0; i < n; i++) {
    // denser at the start (the shake), a few knocks as the dice land
    const at = t0 + span * Math.pow(i / n, 1.4) + Math.random() * 0.015;
    burst(at, 2000 + Math.random() * 2000, 0.012 + Math.random() * 0.02, 0.35 + Math.random() * 0.4);
  }
}

export function tick() {
  if (!live()) return;
  const at = ctx.currentTime + 0.005;
  burst(at, 3200, 0.015, 0.5);
  note(at, 1320, 0.05, 0.12, "sine");
}

export function fanfare(big = false) {
  if (!live()) return;
  const t0 = ctx.currentTime + 0.02;
  const notes = big ? [523.25, 659.25, 783.99, 1046.5, 783.99, 1046.5] : [523.25, 659.25, 783.99, 1046.5];
  const step = big ? 0.11 : 0.09;
  notes.forEach((f, i) => note(t0 + i * step, f, 0.22, 0.22));
  const end = t0 + notes.length * step;
  if (big) for (const f of [523.25, 659.25, 783.99]) note(end, f, 0.8, 0.14);
  else note(end, 1046.5, 0.45, 0.18);
}

function mark() {
  for (const b of document.querySelectorAll('[data-action="sound"]')) {
    b.setAttribute("aria-pressed", muted ? "true" : "false");
  }
}

export function setMuted(value) {
  muted = !!value;
  storage.set(KEY, muted ? "off" : "on");
  if (muted && master) master.gain.value = 0;
  if (!muted) {
    unlock(); // inside the click that unmuted
    if (master) master.gain.value = 0.45;
  }
  mark();
}

document.addEventListener("click", (event) => {
  const t = event.target;
  if (t instanceof Element && t.closest('[data-action="sound"]')) setMuted(!muted);
});

export const sound = {
  rattle,
  tick,
  fanfare,
  setMuted,
  get muted() {
    return muted;
  },
  /** "none" before the first gesture (no AudioContext yet), else the context's state. */
  state() {
    return ctx ? ctx.state : "none";
  },
};
(globalThis.generala ||= {}).sound = sound;
export default sound;
