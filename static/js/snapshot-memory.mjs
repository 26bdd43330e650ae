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
  if (globalThis.crypto && globalThis.crypto.subtle) return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return sha256Plain(bytes);  // no SubtleCrypto (the Bot lab's sandbox: an opaque origin)
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

/** SHA-256 (FIPS 180-4) in plain JavaScript, for where SubtleCrypto is not (~0.15 s for the 3.8 MB image). */
function sha256Plain(bytes) {
  const n = bytes.length;
  const padded = new Uint8Array(Math.ceil((n + 9) / 64) * 64);
  padded.set(bytes);
  padded[n] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(n / 0x20000000), false);
  view.setUint32(padded.length - 4, (n * 8) >>> 0, false);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, k) => (x >>> k) | (x << (32 - k));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i, false);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => outView.setUint32(4 * i, word, false));
  return out;
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
