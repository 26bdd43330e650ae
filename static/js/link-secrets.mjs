// What a game by link needs from the browser that MicroPython cannot reach by itself
// (docs/link-play.md): random bytes from the cryptographic source for a device's secret
// and the game's id, and the Web Share sheet. The secret is drawn here, passed to the
// engine in the request as hex, and kept in this device's storage only.
//
//   generala.linkSecrets.hex(n)          n random bytes (crypto.getRandomValues), as hex
//   generala.linkSecrets.canShare()      true where the browser has navigator.share
//   generala.linkSecrets.share(title, url) -> Promise of "shared", "cancelled" or "failed"

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

export const linkSecrets = { hex, canShare, share, copy };
(globalThis.generala ||= {}).linkSecrets = linkSecrets;
export default linkSecrets;
