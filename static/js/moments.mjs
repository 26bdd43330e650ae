// Moments at the board's dice table (static/ui/board/render.py says when, and the words):
//   celebrate(json)  {"kind": "five" | "auto" | "over", "title", "line", "text"}: a card over the dice,
//                    confetti on a canvas and a fanfare; the text goes to the live region.
//                    Under reduced motion (dice-motion.still()): the card alone, still and silent.
//   handOver(json)   {"name": ..., "text": ...}: hot-seat, the next person's turn: a card
//                    "Beto's turn — pass the device".
//   stop()           end whatever is shown.
// Both end on any tap or key, or by themselves (confetti within 2.5 s). They never take
// the focus or a click: the card and the canvas are aria-hidden and pointer-events: none.
import { still } from "./dice-motion.mjs";
import { sound } from "./sound.mjs";

const MAX_PARTICLES = 120;
const CONFETTI_MS = 2400;
const CARD_MS = 2400;
const COLOURS = ["#f2c14e", "#e4572e", "#2e86ab", "#6cc793", "#b07bd8", "#ffffff"];

let canvas = null;
let frame = 0;
let card = null;
let cardTimer = 0;

// The cards sit on the board's tray (the felt and Roll), placed by CSS: five alike just
// above the felt, never over the dice it celebrates; a hand-over in the middle of the screen.
function table() {
  return document.querySelector("#board .tray");
}

function showCard(cls, title, line) {
  hideCard();
  const host = table();
  if (!host) return;
  card = document.createElement("div");
  card.className = "moment " + cls + (still() ? "" : " moving");
  card.setAttribute("aria-hidden", "true");
  const big = document.createElement("p");
  big.className = "moment-title";
  big.textContent = title;
  card.appendChild(big);
  if (line) {
    const small = document.createElement("p");
    small.className = "moment-line";
    small.textContent = line;
    card.appendChild(small);
  }
  host.appendChild(card);
  cardTimer = setTimeout(hideCard, CARD_MS);
}

function hideCard() {
  clearTimeout(cardTimer);
  if (card) card.remove();
  card = null;
}

function confetti() {
  stopConfetti();
  canvas = document.createElement("canvas");
  canvas.className = "confetti";
  canvas.setAttribute("aria-hidden", "true");
  // Half resolution, scaled up by CSS: confetti needs no sharp edges, and a quarter of
  // the pixels keeps each frame cheap where the canvas is drawn without a GPU.
  const w = innerWidth;
  const h = innerHeight;
  canvas.width = Math.max(1, Math.round(w / 2));
  canvas.height = Math.max(1, Math.round(h / 2));
  document.body.appendChild(canvas);
  const g = canvas.getContext("2d");
  if (!g) return stopConfetti();
  g.scale(0.5, 0.5);
  // Two bursts from the lower corners, towards the middle.
  const parts = [];
  for (let i = 0; i < MAX_PARTICLES; i++) {
    const left = i % 2 === 0;
    const angle = (left ? -60 : -120) + (Math.random() * 30 - 15);
    const speed = (0.55 + Math.random() * 0.5) * Math.max(h, 480) * 1.6;
    parts.push({
      x: left ? w * 0.05 : w * 0.95,
      y: h * 0.9,
      vx: Math.cos((angle * Math.PI) / 180) * speed,
      vy: Math.sin((angle * Math.PI) / 180) * speed,
      r: Math.random() * Math.PI,
      vr: (Math.random() - 0.5) * 12,
      s: 6 + Math.random() * 6,
      c: COLOURS[i % COLOURS.length],
    });
  }
  const start = performance.now();
  let last = start;
  const step = (now) => {
    const dt = Math.min(0.05, (now - last) / 1000);
    last = now;
    const age = now - start;
    if (age > CONFETTI_MS || !canvas) return stopConfetti();
    g.clearRect(0, 0, w, h);
    g.globalAlpha = age > CONFETTI_MS - 500 ? Math.max(0, (CONFETTI_MS - age) / 500) : 1;
    for (const p of parts) {
      p.vy += 1400 * dt; // gravity, px/s²
      p.vx *= 1 - 1.2 * dt; // air
      p.vy *= 1 - 1.2 * dt;
      p.x += p.vx * dt;
      p.y += p.vy * dt;
      p.r += p.vr * dt;
      if (p.y > h + 20) continue;
      // a paper strip turning over: its width follows the turn (no canvas transforms)
      const sw = p.s * Math.abs(Math.cos(p.r)) + 1;
      g.fillStyle = p.c;
      g.fillRect(p.x - sw / 2, p.y - p.s / 4, sw, p.s / 2);
    }
    frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
}

function stopConfetti() {
  cancelAnimationFrame(frame);
  frame = 0;
  if (canvas) canvas.remove();
  canvas = null;
}

export function stop() {
  stopConfetti();
  hideCard();
}

function say(text) {
  // After the board's own sentence for this reply (written in the same task): one announcement.
  queueMicrotask(() => {
    const live = document.getElementById("announce");
    if (!live || !text) return;
    const now = live.textContent.trim();
    live.textContent = now ? now + " " + text : text;
  });
}

export function celebrate(json) {
  const { kind, title, line, text } = JSON.parse(json);
  say(text);
  showCard("celebrate celebrate-" + kind, title, line);
  if (still()) return;
  confetti();
  sound.fanfare(kind !== "five");
}

export function handOver(json) {
  const { name, text } = JSON.parse(json);
  stop();
  showCard("handover", name, text);
}

export function showing() {
  return { confetti: canvas !== null, card: card ? card.className : "" };
}

for (const type of ["pointerdown", "keydown"]) {
  addEventListener(type, () => {
    if (canvas || card) stop();
  }, { capture: true, passive: true });
}

export const moments = { celebrate, handOver, stop, showing };
(globalThis.generala ||= {}).moments = moments;
export default moments;
