// What a game by link needs from the browser that MicroPython cannot reach by itself
// (docs/link-play.md): random bytes from the cryptographic source for a device's secret
// and the game's id, and the Web Share sheet. The secret is drawn here, passed to the
// engine in the request as hex, and kept in this device's storage only.
//
//   generala.linkSecrets.hex(n)          n random bytes (crypto.getRandomValues), as hex
//   generala.linkSecrets.canShare()      true where the browser has navigator.share
//   generala.linkSecrets.share(title, url) -> Promise of "shared", "cancelled" or "failed"
//   generala.linkSecrets.claim(name)     -> Promise of "held" (this tab now holds the Web Lock
//                                        `name`, or held it already), "taken" (another tab
//                                        holds it) or "none" (no Web Locks here: a cross-site
//                                        iframe, an old browser)
//   generala.linkSecrets.release(name)   let the lock go (another tab may then claim it)
//   generala.linkSecrets.holds(name)     true while this tab holds it
//   generala.linkSecrets.addressToken(prefix, max)
//                                        the address's link (location.hash after `prefix`,
//                                        e.g. "#play="), measured before MicroPython gets
//                                        any of it: {token, length}; token is null when the
//                                        hash does not start with `prefix` or when its
//                                        length is above `max` (an address of megabytes
//                                        is never copied into the page's Python)
//
// One game by link is played in one tab at a time: the tab that opens it claims the lock
// generala-link-<id> and keeps it while the game is on its screen; a tab closed or gone lets
// it go by itself (the browser releases a closed document's locks).

function hex(n) {
  const bytes = new Uint8Array(Number(n));
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function canShare() {
  return typeof navigator !== "undefined" && typeof navigator.share === "function";
}

async function share(title, url) {
  if (!canShare()) return "failed";
  try {
    await navigator.share({ title: String(title), url: String(url) });
    return "shared";
  } catch (err) {
    return err && err.name === "AbortError" ? "cancelled" : "failed";
  }
}

// Copy a text to the clipboard: the Clipboard API, else the field's own selection and
// execCommand (older browsers, pages without clipboard permission). True when copied.
async function copy(field) {
  const text = String(field.value);
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_e) {
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch (_e2) {
      return false;
    }
  }
}

const held = new Map(); // lock name -> the function that lets it go

function claim(name) {
  name = String(name);
  if (held.has(name)) return Promise.resolve("held");
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks || typeof locks.request !== "function") return Promise.resolve("none");
  return new Promise((resolve) => {
    let answered = false;
    const answer = (what) => {
      if (!answered) {
        answered = true;
        resolve(what);
      }
    };
    try {
      locks
        .request(name, { ifAvailable: true }, (lock) => {
          if (!lock) {
            answer("taken");
            return undefined;
          }
          return new Promise((letGo) => {
            held.set(name, letGo);
            answer("held");
          });
        })
        .catch(() => answer("none"));
    } catch (_e) {
      answer("none");
    }
  });
}

function release(name) {
  const letGo = held.get(String(name));
  if (letGo) {
    held.delete(String(name));
    letGo();
  }
}

function holds(name) {
  return held.has(String(name));
}

function addressToken(prefix, max) {
  const hash = String(location.hash || "");
  if (!hash.startsWith(prefix)) return { token: null, length: 0 };
  const length = hash.length - prefix.length;
  return { token: length <= max ? hash.slice(prefix.length) : null, length };
}

export const linkSecrets = { hex, canShare, share, copy, claim, release, holds, addressToken };
(globalThis.generala ||= {}).linkSecrets = linkSecrets;
export default linkSecrets;
