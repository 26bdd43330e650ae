// The page's UI: MicroPython, loaded here, runs static/ui/ (ui-start.mjs says when).
//
// ui.json (written by tools/build.py from static/ui/modules.toml) names MicroPython's
// module and WebAssembly, and where each of the UI's modules (bytecode, .mpy; main.mpy,
// the entry point, among them) is in one file, static/ui/modules.bin. loadUI(): that
// file is fetched while MicroPython's runtime loads (its WebAssembly is compiled while it
// downloads), and the modules are written to the root of MicroPython's file system, where
// `import render` finds them. startUI(): then main.run() boots the page (it imports the
// modules in slices, then runs page_boot.py). Each step is a browser task of its own, so
// the page answers input between them. Nothing is compiled from source: MicroPython's
// compiler, a large part of its WebAssembly, is never started.
//
// The UI uses MicroPython's own `js` and `jsffi` modules and nothing else of the
// browser's. print() goes to the console, and so does a Python error (its traceback,
// on stderr); one that stops the page before it is ready is also shown on it
// (engine.mjs showBootError: the boot's error state).
import engine from "./engine.mjs";

const MANIFEST = new URL("../../ui.json", import.meta.url);

/** The next browser task: scheduler.yield() where the browser has it, else a timer. */
function nextTask() {
  if (globalThis.scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function fetched(path, priority) {
  const response = await fetch(new URL(path, MANIFEST), { priority });
  if (!response.ok) throw new Error(`cannot fetch ${path} (${response.status})`);
  return response.arrayBuffer();
}

function failed(error) {
  const text = String((error && error.message) || error);
  console.error(`the page's UI failed: ${text}`);
  const state = document.documentElement.dataset.state;
  if (state === "loading" || state === "ui-ready") engine.showBootError(text.trim().split("\n").pop(), "The page could not start");
}

let loaded = null;  // the promise of MicroPython with the UI's modules in its file system

/** MicroPython loaded and the UI's modules written to its file system: downloads, its
 * WebAssembly compiled beside the page's thread, a few short tasks. ui-start.mjs asks for
 * it while the engine boots, at `priority` "low" (the engine's download comes first);
 * once only. */
export function loadUI(priority = "auto") {
  loaded ||= (async () => {
    const ui = await (await fetch(MANIFEST, { priority })).json();
    const bundle = fetched(ui.bundle, priority);
    bundle.catch(() => {});  // awaited below: a failure is reported there
    const { loadMicroPython } = await import(new URL(ui.interpreter, MANIFEST).href);
    await nextTask();
    const mp = await loadMicroPython({
      url: new URL(ui.wasm, MANIFEST).href,
      stdout: (line) => console.log(line),
      stderr: (line) => console.error(line),
    });
    const bytes = await bundle;
    await nextTask();
    for (const [name, [offset, length]] of Object.entries(ui.modules)) {
      mp.FS.writeFile(`/${name}`, new Uint8Array(bytes, offset, length));
    }
    return mp;
  })();
  return loaded;
}

/** The UI runs: main.run() imports its modules and boots the page. */
export async function startUI() {
  try {
    const mp = await loadUI();
    await nextTask();
    await mp.pyimport("main").run();
  } catch (error) {
    failed(error);
  }
}
