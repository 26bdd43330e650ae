// Reading a file of saved games the player chose, for the engine's import
// (static/js/engine.mjs importFile): in JS, so a file of a few MB never becomes
// one MicroPython string.
//
//   readFile(file, maxBytes) -> Promise of {ok: true, text}, or {ok: false, kind, error}
//       with kind "TooLarge" (refused unread) or "ReadError" (the file could not be read).
//
// Never throws, never rejects.

export async function readFile(file, maxBytes) {
  if (!(file && typeof file.size === "number")) {
    return { ok: false, kind: "ReadError", error: "no file" };
  }
  if (file.size > maxBytes) {
    return { ok: false, kind: "TooLarge", error: String(file.size) };
  }
  try {
    return { ok: true, text: await file.text() };
  } catch (e) {
    return { ok: false, kind: "ReadError", error: String((e && e.message) || e) };
  }
}
