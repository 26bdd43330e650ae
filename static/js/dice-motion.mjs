// Dice on the table: each die of the board's tray (static/ui/board/render.py) is a button
// holding a small 3D cube, and a roll is seen: the dice that roll are tossed and
// tumble, then land on the faces the engine chose. Held dice stay still.
//
// The engine's faces are in the DOM at once (data-face, set by the renderer when the
// reply is drawn: CSS turns the cube to that face); the animation is only looks.
// Every moving part is transform/opacity, animated with element.animate() (the CSP
// forbids style attributes; computed angles cannot be class keyframes).
//
//   dress(box)        build the cubes inside the tray's die buttons (once per board)
//   toss(json)        Roll pressed: the dice [indices] leave the table (before the reply)
//   land(json)        the reply: {"dice": [indices], "faces": [all faces], "quick": a computer's
//                     roll (tossed in QUICK_MS: its turn is paced, players/computer.py)}; they land
//   moved(json)       held state changed for [indices]: they slide to or from the kept row
//   finish()          land everything now (a tap on the board, any key but R; R too
//                     while a computer plays: it hurries the computer's turn)
//   still()           true when motion is off (prefers-reduced-motion, or the switch)
//   tumbling()        true while dice are in the air
//
// While dice are in the air the board carries data-dice-air: the sheet shows what each box
// would earn only once they have landed (game.css). Motion off: no toss, never set.
//
// A Roll click (or the R key) while dice are in the air is queued, once: it is sent
// when they land; the second click of a double click is ignored (never a double roll).
// Not while a computer plays: there R hurries its turn (static/ui/players/computer.py).
// Motion: the system's prefers-reduced-motion, unless the board's switch stored a choice.
import { storage } from "./storage.mjs";
import { sound } from "./sound.mjs";

const MOTION_KEY = "generala.motion"; // "still" | "moving"; absent: follow the system
const media = globalThis.matchMedia ? matchMedia("(prefers-reduced-motion: reduce)") : null;

// The cube's rest for each face ([rotateX, rotateY], degrees): game.css has the same.
const REST = { 1: [0, 0], 2: [0, -90], 3: [-90, 0], 4: [90, 0], 5: [0, 90], 6: [0, 180] };
// Pips of each face on a 3 x 3 grid (1 = top left, 9 = bottom right), as the flat dice.
const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

const TOSS_MS = 640;
const QUICK_MS = 200;
const STAGGER_MS = 35;
const SLIDE_MS = 200;

let dice = []; // the tray's die buttons, by index
let angles = []; // each cube's rest as last landed ([x, y]) or null
let tops = []; // each button's offsetTop when last seen (the slide between rows starts there)
const running = new Set(); // the animations under way
const flying = new Map(); // die index -> end time of its toss (performance.now())
let queued = false; // a Roll pressed while the dice were in the air

function stored() {
  const v = storage.get(MOTION_KEY);
  return v === "still" || v === "moving" ? v : null;
}

export function still() {
  const v = stored();
  if (v) return v === "still";
  return !!(media && media.matches);
}

function mark() {
  document.documentElement.dataset.motion = still() ? "still" : "moving";
  for (const b of document.querySelectorAll('[data-action="motion"]')) {
    b.setAttribute("aria-checked", still() ? "false" : "true"); // the Dice motion switch: checked = moving
  }
}

function el(tag, cls) {
  const n = document.createElement(tag);
  n.className = cls;
  return n;
}

export function dress(box) {
  finish();
  dice = [...box.querySelectorAll("button.die[data-die]")];
  angles = dice.map(() => null);
  tops = [];
  for (const die of dice) {
    if (die.querySelector(".die-body")) continue;
    const body = el("span", "die-body");
    const cube = el("span", "cube");
    for (let f = 1; f <= 6; f++) {
      const face = el("span", "face f" + f);
      for (const p of PIPS[f]) face.appendChild(el("span", "pip p" + p));
      cube.appendChild(face);
    }
    body.appendChild(cube);
    die.prepend(body);
  }
  requestAnimationFrame(remember); // after the first draw
  mark();
}

function track(anim) {
  running.add(anim);
  const done = () => {
    running.delete(anim);
    if (!running.size) settle();
  };
  anim.finished.then(done, done);
  return anim;
}

function tossOne(i, ms, stagger = STAGGER_MS) {
  const body = dice[i] && dice[i].querySelector(".die-body");
  if (!body) return;
  // Up by a third of the die's size or so, but never off the felt (the room above it).
  const room = dice[i].offsetTop / Math.max(1, dice[i].offsetHeight);
  const lift = Math.min(0.3 + Math.random() * 0.15, Math.max(0.06, room - 0.06)); // of the die's size
  const turn = (Math.random() * 40 - 20).toFixed(1);
  const k = [
    { transform: "translateY(0) rotate(0deg) scale(1)", easing: "cubic-bezier(.2,.8,.4,1)" },
    { transform: `translateY(-${(lift * 100).toFixed(0)}%) rotate(${turn}deg) scale(1.14)`, offset: 0.38, easing: "cubic-bezier(.6,0,.9,.5)" },
    { transform: "translateY(0) rotate(0deg) scale(1)", offset: 0.78, easing: "ease-out" },
    { transform: "translateY(-5%) rotate(0deg) scale(1.02)", offset: 0.88, easing: "ease-in" },
    { transform: "translateY(0) rotate(0deg) scale(1)" },
  ];
  const delay = i * stagger;
  flying.set(i, performance.now() + delay + ms);
  air(true);
  track(body.animate(k, { duration: ms, delay, fill: "backwards" }));
}

/** Roll pressed: the dice that roll leave the table now; land() spins them to their faces. */
export function toss(json) {
  const which = JSON.parse(json);
  finish();
  sound.rattle(still() ? 250 : TOSS_MS + which.length * STAGGER_MS);
  if (still()) return;
  for (const i of which) tossOne(i, TOSS_MS);
}

function spin(from, to) {
  // End on the face's rest plus one or two whole turns per axis, away from where it was.
  const turns = (a, b) => {
    const dir = Math.random() < 0.5 ? -1 : 1;
    let end = b + dir * 360 * (1 + Math.floor(Math.random() * 2));
    if (Math.abs(end - a) < 300) end += dir * 360;
    return end;
  };
  return [turns(from[0], to[0]), turns(from[1], to[1])];
}

/** The reply is drawn: the dice [indices] land on their faces (data-face already set). */
export function land(json) {
  const { dice: which, faces, quick } = JSON.parse(json);
  const toss = quick ? QUICK_MS : TOSS_MS;
  const now = performance.now();
  if (still()) {
    finish();
    for (const i of which) angles[i] = REST[faces[i]] || null;
    return;
  }
  const tossed = which.every((i) => flying.has(i));
  if (!tossed) {
    finish();
    sound.rattle(toss + which.length * STAGGER_MS);
  }
  for (const i of which) {
    const cube = dice[i] && dice[i].querySelector(".cube");
    const to = REST[faces[i]];
    if (!cube || !to) continue;
    if (!flying.has(i)) tossOne(i, toss, quick ? 10 : STAGGER_MS);
    const from = angles[i] || [Math.random() * 360 - 180, Math.random() * 360 - 180];
    const [x, y] = spin(from, to);
    const ends = flying.get(i);
    const ms = Math.max(quick ? 180 : 260, ends - now);
    const k = [
      { transform: `rotateX(${from[0].toFixed(1)}deg) rotateY(${from[1].toFixed(1)}deg)` },
      { transform: `rotateX(${x}deg) rotateY(${y}deg)` },
    ];
    track(cube.animate(k, { duration: ms, easing: "cubic-bezier(.25,.7,.3,1)" }));
    angles[i] = to;
  }
}

/** Held dice change rows: each slides from where it was (its body; the button is already
 * there). Measured in the next frame, not in the click: no forced layout in the handler. */
let sliding = null;
let slideFrame = 0;
export function moved(json) {
  const which = still() ? [] : JSON.parse(json);
  if (sliding === null) {
    sliding = new Set();
    slideFrame = requestAnimationFrame(slide);
  }
  for (const i of which) sliding.add(i);
}

function slide() {
  const which = sliding;
  sliding = null;
  slideFrame = 0;
  for (const i of which) {
    const die = dice[i];
    const body = die && die.querySelector(".die-body");
    if (!body || flying.has(i)) continue;
    const was = tops[i] === undefined ? null : tops[i];
    const now = die.offsetTop;
    if (was === null || was === now) continue;
    track(body.animate([{ transform: `translateY(${was - now}px)` }, { transform: "translateY(0)" }],
      { duration: SLIDE_MS, easing: "cubic-bezier(.3,.7,.4,1)" }));
  }
  remember();
}

function remember() {
  tops = dice.map((die) => die.offsetTop);
}

/** Land everything now. */
export function finish() {
  if (slideFrame) { // a slide not begun: the dice are where they belong already
    cancelAnimationFrame(slideFrame);
    slideFrame = 0;
    sliding = null;
    requestAnimationFrame(remember);
  }
  if (!running.size) return;
  for (const anim of [...running]) {
    try {
      anim.finish();
    } catch (_e) {
      anim.cancel();
    }
  }
  running.clear();
  settle();
}

export function tumbling() {
  return flying.size > 0;
}

// The board says whether dice are in the air (the sheet's points wait for them).
function air(on) {
  const board = document.getElementById("board");
  if (board) board.toggleAttribute("data-dice-air", on);
}

function settle() {
  flying.clear();
  air(false);
  if (dice.length) remember();
  if (queued) {
    queued = false;
    fire(40);
  }
}

// The queued Roll: sent once the dice are down and the previous reply has come.
function fire(tries) {
  const board = document.getElementById("board");
  const roll = document.getElementById("roll");
  if (!roll || !board || board.hidden) return;
  if (board.hasAttribute("aria-busy") && tries > 0) {
    setTimeout(() => fire(tries - 1), 50);
    return;
  }
  if (!roll.disabled && !roll.hidden) roll.click();
}

function typing(target) {
  return target instanceof Element && target.closest("input, select, textarea, [contenteditable]");
}

// A Roll while the dice are in the air waits for them (capture: before the board's own handler).
document.addEventListener("click", (event) => {
  const t = event.target;
  if (!(t instanceof Element) || !t.closest("#roll") || !tumbling()) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  if (event.detail <= 1) queued = true; // detail 2+: the second click of a double click
}, true);

// A tap anywhere on the board but Roll lands the dice at once (the tap then does its job).
document.addEventListener("pointerdown", (event) => {
  const t = event.target;
  if (!running.size || !(t instanceof Element) || !t.closest("#board") || t.closest("#roll")) return;
  finish();
}, true);

window.addEventListener("keydown", (event) => {
  if (!running.size) return;
  const key = event.key;
  const board = document.getElementById("board");
  const rollKey = (key === "r" || key === "R") && !event.ctrlKey && !event.metaKey && !event.altKey;
  // A computer's turn (its Skip shown): R queues no roll, it hurries the turn (computer.py).
  const skip = document.getElementById("ai-skip");
  const computer = !!skip && !skip.hidden;
  if (rollKey && tumbling() && board && !board.hidden && !typing(event.target) && !computer
      && !document.querySelector("dialog[open]")) {
    event.stopImmediatePropagation();
    event.preventDefault();
    if (!event.repeat) queued = true;
    return;
  }
  finish();
}, true);

// Keyboard players see each die's key under it (board-layout.css): <html data-input> says
// whether the last input was a key or a pointer.
addEventListener("keydown", (event) => {
  if (event.key === "Tab" || (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey)) {
    document.documentElement.dataset.input = "keys";
  }
}, true);
addEventListener("pointerdown", () => { document.documentElement.dataset.input = "pointer"; }, true);

// The Dice motion switch in the board's menu: stored; checked = moving.
document.addEventListener("click", (event) => {
  const t = event.target;
  const b = t instanceof Element && t.closest('[data-action="motion"]');
  if (!b) return;
  storage.set(MOTION_KEY, still() ? "moving" : "still");
  if (still()) finish();
  mark();
});

addEventListener("resize", () => {
  if (dice.length && !running.size) remember(); // the rows moved: slides start from here
});

if (media) {
  const changed = () => {
    if (still()) finish();
    mark();
  };
  if (media.addEventListener) media.addEventListener("change", changed);
  else if (media.addListener) media.addListener(changed);
}
mark();

export const diceMotion = { dress, toss, land, moved, finish, still, tumbling };
(globalThis.generala ||= {}).dice = diceMotion;
export default diceMotion;
