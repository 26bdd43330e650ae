// Make the engine's memory snapshot: Pyodide booted, the engine imported, frozen.
//
//   node tools/make_snapshot.mjs ENGINE_ZIP OUT_GZ STDLIB_ZIP [MODULES_JSON]
//
// MODULES_JSON: where to write the names of the engine's modules the snapshot holds
// imported (tools/build.py publishes the others in generala.lazy.zip: all a restored
// worker still needs of the engine's files).
//
// Booting Pyodide runs Python's whole start-up in WebAssembly: ~4.5 s on the test
// machine, before the engine is even imported. A memory snapshot taken after that
// start-up (and after `import generala.app`) lets the browser's worker restore the
// interpreter's memory instead of running it again: the engine answers in ~2 s.
// The snapshot is Pyodide's own (loadPyodide's `_makeSnapshot` / `_loadSnapshot`,
// checked by Pyodide against its build id); it is made here in Node with the same
// Pyodide the site publishes, and loads in a browser worker.
//
// Published gzipped (DecompressionStream("gzip") in the worker): 30 MiB of memory,
// ~4 MB on the wire. Its first 3.8 MB are mostly Pyodide's static data, the bytes the
// WebAssembly module's data segments put in a new instance's memory: the published form
// (static/js/snapshot-memory.mjs) holds the memory XOR-ed with that initial image (the
// same bytes become zeros: 5.4 -> 4.0 MB gzipped), and the worker undoes it with the
// image its own instance of Pyodide's module holds before any of its code runs. The
// image is taken here the same way (snapshot-memory.mjs captures it in both places). The snapshot must not depend on the machine that built it:
//  - the same bytes from the same sources (a new snapshot would be a new release):
//    a fixed hash seed, `random` seeded with 0 (the worker reseeds it from the OS),
//    no import caches holding directory times, a fixed clock while Python runs;
//  - nothing of the build environment: Pyodide gets a fixed, minimal `env`.
// It records the engine build it holds (the BUILD file of the zip) as
// `generala.SNAPSHOT_BUILD`: the worker compares it with the zip it fetched and
// boots without the snapshot when they differ.
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import zlib from "node:zlib";
import nodeCrypto from "node:crypto";
import { capturingInitialMemory, publishedSnapshot } from "../static/js/snapshot-memory.mjs";

// STDLIB_ZIP: the standard library the engine uses as bytecode (tools/build.py: traced,
// then tools/compile_stdlib.mjs). Every module in it is imported before the snapshot
// (compiled bytecode: no compiler garbage left in the memory), so a worker restoring
// the snapshot needs no library files: it loads an empty zip instead.
const [zipPath, outPath, stdlibPath, modulesPath] = process.argv.slice(2);
if (!zipPath || !outPath || !stdlibPath) {
  console.error("usage: node tools/make_snapshot.mjs ENGINE_ZIP OUT_GZ STDLIB_ZIP");
  process.exit(2);
}

// What Python would learn of this machine, made the same everywhere:
//  - the program name and arguments (Emscripten reads process.argv: sys.argv, $_),
//    as in a browser;
//  - the clocks: Emscripten stamps files with Date.now(), Python's import system
//    keeps directory times, the allocator seeds itself from performance.now();
//  - the OS's random bytes (os.urandom, the seeding of `random` at import): a fixed
//    stream. Freed memory keeps what it held, so reseeding afterwards is not enough.
//    The browser's worker reseeds `random` from its own OS at every boot.
process.argv = [process.argv[0], "./this.program"];
const FIXED_NOW = Date.UTC(2020, 0, 1);
Date.now = () => FIXED_NOW;
let ticks = 0;  // the allocator (mimalloc) seeds its own generator from this clock
performance.now = () => (ticks += 0.001);
let state = 0x9e3779b9;
nodeCrypto.randomFillSync = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5;  // xorshift32
    bytes[i] = state & 0xff;
  }
  return view;
};

// Pyodide's module, its WebAssembly instance's memory seen as it comes (before any code).
const initial = capturingInitialMemory((await import("pyodide/pyodide.asm.mjs")).default);
const py = await loadPyodide({
  createPyodideModule: initial.createPyodideModule,
  _makeSnapshot: true,
  stdLibURL: stdlibPath,
  env: { PYTHONHASHSEED: "0", HOME: "/home/pyodide" },
  stdout: () => {},
  stderr: (line) => console.error(line),
});
py.unpackArchive(new Uint8Array(fs.readFileSync(zipPath)), "zip", { extractDir: "/home/pyodide/engine" });
const build = py.runPython(`
import gc, importlib, random, sys, zipfile, zipimport
sys.path.insert(0, "/home/pyodide/engine")
import generala, generala.app
with open("/home/pyodide/engine/generala/BUILD", encoding="ascii") as f:
    generala.SNAPSHOT_BUILD = f.read().strip()
# Every module of the standard library given (the ones the engine uses): restored,
# the interpreter reads no library file, so the worker gives it an empty one.
with zipfile.ZipFile(sys.path[[p.endswith(".zip") for p in sys.path].index(True)]) as zf:
    modules = sorted(n[:-4].replace("/", ".").removesuffix(".__init__") for n in zf.namelist() if n.endswith(".pyc"))
for name in modules:
    importlib.import_module(name)
random.seed(0)
_engine_modules = "\\n".join(sorted(n for n in sys.modules if n == "generala" or n.startswith("generala.")))
# The finders, the directory times they keep, and the library zip's directory (the
# worker mounts another zip there): a later import reads the zip it is given.
sys.path_importer_cache.clear()
zipimport._zip_directory_cache.clear()
gc.collect()
generala.SNAPSHOT_BUILD
`);
const engineModules = py.runPython("_engine_modules").split("\n");
py.runPython("del _engine_modules");
// Freed memory keeps what it held, and that garbage costs bytes to download. Blocks of
// zeros allocated and freed again take the freed places of their size and leave zeros
// there (64 KiB ones: ~140 kB less gzipped, measured). At most ZEROED of them, and no more
// once the memory grows (the snapshot would be larger: it is the whole memory).
const ZEROED = 64;
const memorySize = () => py._module.HEAP8.length;
const size = memorySize();
py.runPython("_zeroed = []");
for (let i = 0; i < ZEROED && memorySize() === size; i++) py.runPython("_zeroed.append(bytearray(1 << 16))");
py.runPython("del _zeroed");
const snapshot = py.makeMemorySnapshot();
const published = await publishedSnapshot(snapshot, initial.memory());
const gz = zlib.gzipSync(published, { level: 9 });  // no name, no time: the same bytes
fs.writeFileSync(outPath, gz);
if (modulesPath) fs.writeFileSync(modulesPath, JSON.stringify(engineModules) + "\n");
console.log(`snapshot of engine build ${build}: ${snapshot.length} bytes, ${gz.length} gzipped `
  + `(${zlib.gzipSync(snapshot, { level: 9 }).length} without the initial memory taken out)`);
