// Registers /sw.js once the engine is ready (so precaching never competes with the
// boot for bandwidth), and offers "new version — reload" when a newer build has
// installed beside the running one. The new version takes over only when the
// player asks (a game in progress is never swapped underneath).
//
// Where service workers are unavailable (a storage-denied iframe, an old browser,
// Playwright's service_workers="block") this does nothing but say so in the console.

const SW_URL = new URL("../../sw.js", import.meta.url);
let userAskedReload = false;

function offerReload(worker) {
  let banner = document.getElementById("update-banner");
  if (!banner) {
    banner = document.createElement("div");
    banner.id = "update-banner";
    banner.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = "A new version of the game is ready. ";
    const button = document.createElement("button");
    button.type = "button";
    button.id = "update-reload";
    button.className = "btn";
    button.textContent = "Reload";
    banner.append(text, button);
    document.body.prepend(banner);
  }
  banner.hidden = false;
  document.getElementById("update-reload").onclick = () => {
    userAskedReload = true;
    worker.postMessage({ type: "SKIP_WAITING" });
  };
}

async function register() {
  let container;
  try {
    container = navigator.serviceWorker;
  } catch (_e) {
    container = undefined;
  }
  if (!container) {
    console.info("service worker unavailable: the game will not work offline here");
    return;
  }
  try {
    const reg = await container.register(SW_URL.href, { scope: new URL("../../", import.meta.url).href });
    if (!reg) {
      console.info("service worker not registered (blocked): the game will not work offline here");
      return;
    }
    const watch = (worker) => {
      if (!worker) return;
      const check = () => {
        // "installed" with a controller in place = an update waiting (not a first install).
        if (worker.state === "installed" && container.controller) offerReload(worker);
      };
      worker.addEventListener("statechange", check);
      check();
    };
    watch(reg.waiting);
    reg.addEventListener("updatefound", () => watch(reg.installing));
    container.addEventListener("controllerchange", () => {
      if (userAskedReload) location.reload();
    });
    globalThis.generalaServiceWorker = reg;
  } catch (e) {
    console.info(`service worker not registered: ${(e && e.message) || e}`);
  }
}

const engine = globalThis.generalaEngine;
if (engine) engine.ready().then(register, () => {});
else addEventListener("load", register);
