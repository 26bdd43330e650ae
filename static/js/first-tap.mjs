// What a person does on the plain-HTML home screen before the UI has taken over is
// kept, not lost (the UI starts once the page is idle, or at the first input if sooner:
// ui-start.mjs):
// - a tap on a play choice or on Records goes to <html data-first-tap> (which also
//   shows "Starting the game…"); static/ui/screens/home_screen.py plays it once it is ready;
// - a game or level picked in the quick-play lists is marked data-picked, and the UI
//   keeps it instead of the last quick game's;
// - a language picked is shown at once (CSS shows the texts of <html lang>, and the
//   lists' options and the tab's title are relabelled here) and kept (keepLanguage,
//   which the UI's picker uses too): the UI boots in it.
const html = document.documentElement;
const LANG_KEY = "generala.lang";

document.addEventListener("click", (event) => {
  if (window.generala?.home) return;  // the UI has taken over: home_screen.py answers
  const target = event.target instanceof Element ? event.target.closest("[data-play]") : null;
  if (!target) return;
  html.setAttribute("data-first-tap", target.getAttribute("data-play"));
});

document.addEventListener("change", (event) => {
  if (window.generala?.home) return;
  const target = event.target;
  if (!(target instanceof HTMLSelectElement)) return;
  if (target.id === "quick-game" || target.id === "quick-level") {
    target.setAttribute("data-picked", "");
  } else if (target.id === "lang-pick") {
    html.lang = target.value;
    showOptionWords();
    keepLanguage(target.value);
  }
});

/** A language picked is kept: saved for the next visits, and a ?lang= in the address
 * (which would override it at the next load) dropped. The UI's picker calls it too
 * (static/ui/page/navigation.py on_lang). */
function keepLanguage(code) {
  globalThis.generala?.storage?.set(LANG_KEY, code);
  const search = new URLSearchParams(location.search);
  if (search.has("lang")) {
    search.delete("lang");
    const rest = search.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }
}
(globalThis.generala ||= {}).keepLanguage = keepLanguage;

/** The lists' options and the tab's title in the page's language: an option and the
 * title hold text only, so the build writes their words in data-words-LANG attributes
 * (page-lang.js shows the title's first; the UI relabels them all once it runs). */
function showOptionWords() {
  if (window.generala?.home) return;
  for (const option of document.querySelectorAll("option[data-words]")) {
    const text = option.getAttribute(`data-words-${html.lang}`);
    if (text) option.textContent = text;
  }
  const title = document.querySelector("title[data-words]")?.getAttribute(`data-words-${html.lang}`);
  if (title) document.title = title;
  const meta = document.querySelector("meta[name=description][data-words]");
  const description = meta?.getAttribute(`data-words-${html.lang}`);
  if (description) meta.setAttribute("content", description);
}

// The picker shows the page's language (page-lang.js chose it before the first paint).
const pick = document.getElementById("lang-pick");
if (pick) pick.value = html.lang;
showOptionWords();
