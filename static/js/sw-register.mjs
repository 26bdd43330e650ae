// Registers /sw.js once the first roll is possible (<html data-state="ready">), so
// its precache never competes with the boot for bandwidth, and offers "new version — reload" when a newer build has
// installed beside the running one. The new version takes over only when the
// player asks (a game in progress is never swapped underneath).
//
// When the player takes it in another tab, the new worker becomes this page's
// controller too (the browser moves every page to it), but it goes on serving this
// page the files of the build it was loaded with (static/js/sw.js, ONE BUILD PER
// PAGE): nothing here reloads on its own. The banner stays (or shows) and reloads
// this page into the new build when the player asks. A reload writes the game's last
// move first (static/ui/page/page_input.py saves on "pagehide"; every move is saved anyway).
//
// Where service workers are unavailable (a storage-denied iframe, an old browser,
// Playwright's service_workers="block") this does nothing but say so in the console.
// In embed mode (?embed=1, see embed.mjs) it registers nothing: a game embedded in
// another site downloads what that game needs and no more (the HTTP cache serves a
// second visit); the full game, opened once, installs the service worker.

const SW_URL = new URL("../../sw.js", import.meta.url);
let userAskedReload = false;

function offerReload(worker) {
  // index.html's banner, in the page's language (its data-words texts).
  const banner = document.getElementById("update-banner");
  if (!banner) return;
  banner.hidden = false;
  document.getElementById("update-reload").onclick = () => {
    if (worker && worker.state === "installed") {
      // Still waiting: it takes over, then this page reloads (controllerchange).
      userAskedReload = true;
      worker.postMessage({ type: "SKIP_WAITING" });
    } else {
      location.reload();  // it took over already (from another tab): load its build
    }
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
    let controlled = Boolean(container.controller);
    container.addEventListener("controllerchange", () => {
      if (userAskedReload) location.reload();
      // A newer build took over from another tab: this page goes on with its own build
      // and is offered the new one. (Not at a first install: the page had no worker.)
      else if (controlled) offerReload(null);
      controlled = true;
    });
    // A newer build may have taken over before this page registered (it was booting):
    // the worker says which build it serves this page, and its own.
    container.addEventListener("message", (event) => {
      const data = event.data;
      if (data && data.type === "VERSION" && data.version !== data.worker) offerReload(null);
    });
    container.controller?.postMessage({ type: "VERSION" });
    // This page has started: pages closed since may free an older build's cache.
    container.controller?.postMessage({ type: "TIDY" });
    (globalThis.generala ||= {}).serviceWorker = reg;
  } catch (e) {
    console.info(`service worker not registered: ${(e && e.message) || e}`);
  }
}

/** Resolves once the page is ready, its UI and its engine: <html data-state="ready"> (the
 * UI starts by itself once the engine is ready: ui-start.mjs; the precache waits for
 * both, so it never competes with their downloads). Never resolves if the boot ends in
 * "error". */
function firstRollPossible() {
  const root = document.documentElement;
  return new Promise((resolve) => {
    const check = () => {
      if (root.getAttribute("data-state") !== "ready") return false;
      observer.disconnect();
      resolve();
      return true;
    };
    const observer = new MutationObserver(check);
    if (!check()) observer.observe(root, { attributes: true, attributeFilter: ["data-state"] });
  });
}

const embedded = new URLSearchParams(location.search).get("embed") === "1";
if (embedded) console.info("embed mode: no service worker (the full game installs it)");
else firstRollPossible().then(register);
