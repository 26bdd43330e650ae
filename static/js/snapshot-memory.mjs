// The engine's memory snapshot as published (generala.snapshot.gz), and back.
//
// Pyodide's snapshot (loadPyodide's `_makeSnapshot` / `_loadSnapshot`) is a header and
// the interpreter's whole memory, 30 MiB. Its first 3.8 MB are mostly Pyodide's static
// data: the bytes the data segments of pyodide.asm.wasm put in the memory of every new
// instance. Published, the memory is XOR-ed with that initial image, so the bytes that
// are the same become zeros (gzip: 5.4 -> 4.0 MB). A worker restoring it undoes the XOR
// with the image its own instance holds: the memory of the WebAssembly instance, read the
// moment it is made, before any of its code runs (Pyodide instantiates the module only
// after it has the snapshot in hand, and copies the snapshot into the memory later still,
// once its start-up JavaScript has run). Nothing is downloaded for it: the image is the
// module's, which the worker loads anyway.
//
// The published form: a header of HEADER bytes (MAGIC, the length of the image used, the
// SHA-256 of those bytes) and Pyodide's snapshot, its memory XOR-ed with the image. The
// worker checks the image of its instance against that SHA-256 before undoing anything:
// another Pyodide, or any difference at all, throws, and the worker boots in full. A
// published form read as Pyodide's own snapshot (an older worker) is refused by Pyodide
// (its magic number is not at the start).
//
// Used by tools/make_snapshot.mjs (Node, at build time), static/js/engine-worker.mjs and
// the Bot lab's sandbox (static/js/bot-worker.js, which imports this file's bytes).

const MAGIC = 0x31534d47;  // "GMS1", little-endian
const HEADER = 48;  // magic, image length, SHA-256, padding: the snapshot stays 4-byte aligned
const ALIGN = 64;

/** A createPyodideModule that calls `use(memory)` (may be async) with the memory of its
 *  WebAssembly instance as it comes, before the module's code runs; a throw of `use`
 *  makes the module's creation throw (loadPyodide then rejects). `create`: Pyodide's own
 *  (pyodide.asm.mjs's default export). */
export function withInitialMemory(create, use) {
  return async (settings) => {
    const instantiate = settings.instantiateWasm;
    if (typeof instantiate !== "function") throw new Error("this Pyodide instantiates its WebAssembly itself: no initial memory to read");
    let seen = false;
    let failed = null;
    settings.instantiateWasm = (imports, receive) => instantiate(imports, (instance, module) => {
      seen = true;
      Promise.resolve()
        .then(() => use(new Uint8Array(instance.exports.memory.buffer)))
        .catch((err) => { failed = err; })
        .finally(() => receive(instance, module));
    });
    const pyodideModule = await create(settings);
    if (!seen) throw new Error("Pyodide's WebAssembly memory was never seen");
    if (failed) throw failed;
    return pyodideModule;
  };
}

/** For the build: {createPyodideModule, memory()}: memory() is a copy of the instance's
 *  initial memory once the module is made. */
export function capturingInitialMemory(create) {
  let copy = null;
  const createPyodideModule = withInitialMemory(create, (memory) => { copy = memory.slice(); });
  return { createPyodideModule, memory: () => copy };
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** Where the memory starts in Pyodide's snapshot (its header: magic, that offset, ...). */
function memoryStart(snapshot) {
  const start = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  if (start % 4 !== 0 || start >= snapshot.length) throw new Error("not a Pyodide snapshot");
  return start;
}

function xorInto(target, image) {
  if (target.length < image.length) throw new Error("the snapshot's memory is smaller than the initial image");
  if (target.byteOffset % 4 === 0 && image.byteOffset % 4 === 0 && image.length % 4 === 0) {
    const t = new Uint32Array(target.buffer, target.byteOffset, image.length / 4);
    const b = new Uint32Array(image.buffer, image.byteOffset, image.length / 4);
    for (let i = 0; i < b.length; i++) t[i] ^= b[i];
  } else {
    for (let i = 0; i < image.length; i++) target[i] ^= image[i];
  }
}

/** The published form of Pyodide's `snapshot`, given the module's `initial` memory. */
export async function publishedSnapshot(snapshot, initial) {
  let top = initial.length;
  while (top > 0 && initial[top - 1] === 0) top--;
  const length = Math.min(initial.length, Math.ceil(top / ALIGN) * ALIGN);
  const image = initial.subarray(0, length);
  const out = new Uint8Array(HEADER + snapshot.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, length, true);
  out.set(await sha256(image), 8);
  out.set(snapshot, HEADER);
  const restored = out.subarray(HEADER);
  xorInto(restored.subarray(memoryStart(restored)), image);
  return out;
}

/** The options of loadPyodide that restore the published snapshot `published` (a promise
 *  of its unzipped bytes): {createPyodideModule, _loadSnapshot}. `create`: Pyodide's own
 *  createPyodideModule. loadPyodide rejects when the bytes are not a published snapshot
 *  or the instance's initial memory is not the one it was made against. */
export function restoringSnapshot(create, published) {
  const parts = Promise.resolve(published).then((bytes) => {
    if (!(bytes instanceof Uint8Array) || bytes.length <= HEADER || bytes.byteOffset % 4 !== 0) throw new Error("not a published snapshot");
    const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER);
    if (view.getUint32(0, true) !== MAGIC) throw new Error("not a published snapshot (no magic number)");
    const snapshot = bytes.subarray(HEADER);
    return { length: view.getUint32(4, true), hash: bytes.slice(8, 40), snapshot, start: memoryStart(snapshot) };
  });
  const createPyodideModule = withInitialMemory(create, async (memory) => {
    const { length, hash, snapshot, start } = await parts;
    if (length % 4 !== 0 || length > memory.length) throw new Error("the snapshot wants a larger initial memory");
    const image = memory.subarray(0, length);
    const got = await sha256(image);
    if (got.some((b, i) => b !== hash[i])) throw new Error("this Pyodide's initial memory is not the one the snapshot was made against");
    xorInto(snapshot.subarray(start), image);
  });
  return { createPyodideModule, _loadSnapshot: parts.then((p) => p.snapshot) };
}
