// Import files of saved games for static/ui/transfer.py, without routing a
// whole file through MicroPython: its heap failed to take one string of 2 MB
// (MemoryError, measured with a 400-game file), and an export of a full localStorage
// is about 3 MB. So the file is read, sent to the engine and its reply parsed here;
// MicroPython then takes the games one at a time.
//
//   transfer.check(file, maxBytes) -> Promise of the engine's reply to op import, parsed:
//       {ok: true, games: [{id, when, whenMs, finished, save, view}, ...]}
//       {ok: false, error, kind}    kind "TooLarge" (refused unread), "ReadError" (the
//                                   file could not be read), "NoEngine" (it failed to
//                                   boot), "EngineError", or the engine's own (SaveError
//                                   names the problem in the file)
//   A file chosen while the engine boots is read at once and waits for it.
//
// Never throws, never rejects: MicroPython cannot catch a synchronous JS exception.

export async function check(file, maxBytes) {
  if (!(file && typeof file.size === "number")) {
    return { ok: false, kind: "ReadError", error: "no file" };
  }
  if (file.size > maxBytes) {
    return { ok: false, kind: "TooLarge", error: String(file.size) };
  }
  let text;
  try {
    text = await file.text();
  } catch (e) {
    return { ok: false, kind: "ReadError", error: String((e && e.message) || e) };
  }
  const engine = globalThis.generalaEngine;
  try {
    await engine.ready();
  } catch (e) {
    return { ok: false, kind: "NoEngine", error: String((e && e.message) || e) };
  }
  try {
    const reply = JSON.parse(await engine.call(JSON.stringify({ op: "import", text })));
    // When each game was last played, in ms as text (MicroPython's FFI would cut the
    // number to 32 bits): the lists show that time, not the import's.
    for (const game of reply.games || []) {
      const ms = game.when ? Date.parse(game.when) : NaN;
      game.whenMs = Number.isFinite(ms) ? String(ms) : null;
    }
    return reply;
  } catch (e) {
    return { ok: false, kind: "EngineError", error: String((e && e.message) || e) };
  }
}

// Reachable from MicroPython as `js.generalaTransfer`.
globalThis.generalaTransfer = { check };
