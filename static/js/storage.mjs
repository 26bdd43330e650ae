// A localStorage wrapper that never throws.
//
// The page's MicroPython (main thread) cannot catch an exception thrown
// synchronously by a JS call: the script just dies. In a cross-site iframe whose
// storage the browser denies, merely reading `window.localStorage` throws a
// SecurityError; `setItem` throws QuotaExceededError when full. So every call
// here catches, and falls back to an in-memory Map.
//
//   storage.persistent  -> true when values survive a reload (localStorage works)
//   storage.get(key)    -> string, or null when absent
//   storage.set(key, v) -> true when stored (durably if persistent), false on failure
//   storage.head(key, n) -> the first n characters of the value, or null when absent
//   storage.remove(key) -> true when removed (or absent)
//   storage.keys(prefix?) -> array of keys (optionally only those with the prefix)
//   storage.now()       -> the time in ms since 1970, as text: MicroPython's FFI turns a
//                          JS integer into a 32-bit int, so Date.now() arrives truncated
//   storage.size(key)   -> the value's length in characters, -1 when absent
//   storage.oversized(prefix) -> [[key, length], ...] of the values longer than MAX_VALUE
//   storage.release(key) -> let set/remove change a key found too long (deleting it on request)
//
// Keys and values are strings (values are String()-converted).
//
// Too long to read: a value longer than MAX_VALUE characters (no save of a game comes
// near it) is never handed to the page: get() answers null for it, as if absent, and the
// page learns of it from size()/oversized(). Copied into MicroPython, a string of a few
// MB exhausts its heap and the page dies. Such a value is left as it is: set() and
// remove() refuse to change it (false) until release(key), so nothing written by the
// page replaces what the player may still want to recover (export, devtools).
export const MAX_VALUE = 1000000;
const held = new Set();

const memory = new Map();

function probe() {
  try {
    const ls = globalThis.localStorage;
    if (!ls) return null;
    const k = "__generala_probe__";
    ls.setItem(k, "1");
    ls.removeItem(k);
    return ls;
  } catch (_e) {
    return null;
  }
}

let ls = probe();

export const storage = {
  get persistent() {
    return ls !== null;
  },
  /** Why storage is not persistent ("" when it is). */
  get reason() {
    return ls !== null ? "" : "storage unavailable (denied by the browser or disabled)";
  },
  /** The whole value, in JS only (raw() is not for the page: see MAX_VALUE). */
  raw(key) {
    key = String(key);
    if (ls !== null) {
      try {
        return ls.getItem(key);
      } catch (_e) {
        /* fall through to memory */
      }
    }
    return memory.has(key) ? memory.get(key) : null;
  },
  get(key) {
    const value = storage.raw(key);
    if (value !== null && value.length > MAX_VALUE) {
      held.add(String(key));
      return null;
    }
    return value;
  },
  size(key) {
    const value = storage.raw(key);
    return value === null ? -1 : value.length;
  },
  oversized(prefix = "") {
    const out = [];
    for (const k of storage.keys(prefix)) {
      const n = storage.size(k);
      if (n > MAX_VALUE) {
        held.add(k);
        out.push([k, n]);
      }
    }
    return out;
  },
  release(key) {
    held.delete(String(key));
  },
  head(key, n) {
    const value = storage.raw(key);
    return value === null ? null : value.slice(0, Number(n) || 0);
  },
  set(key, value) {
    key = String(key);
    value = String(value);
    if (held.has(key)) return false;
    if (ls !== null) {
      try {
        ls.setItem(key, value);
        return true;
      } catch (_e) {
        // Quota exceeded or storage revoked: report failure, keep nothing half-written.
        return false;
      }
    }
    try {
      memory.set(key, value);
      return true;
    } catch (_e) {
      return false;
    }
  },
  remove(key) {
    key = String(key);
    if (held.has(key)) return false;
    let ok = true;
    if (ls !== null) {
      try {
        ls.removeItem(key);
      } catch (_e) {
        ok = false;
      }
    }
    memory.delete(key);
    return ok;
  },
  now() {
    return String(Date.now());
  },
  keys(prefix = "") {
    prefix = String(prefix ?? "");
    const out = [];
    if (ls !== null) {
      try {
        for (let i = 0; i < ls.length; i++) {
          const k = ls.key(i);
          if (k !== null && k.startsWith(prefix)) out.push(k);
        }
        return out.sort();
      } catch (_e) {
        /* fall through to memory */
      }
    }
    for (const k of memory.keys()) if (k.startsWith(prefix)) out.push(k);
    return out.sort();
  },
};

// Reachable from MicroPython as `js.generala.storage`.
(globalThis.generala ||= {}).storage = storage;
export default storage;
