// The page's language before its first paint (a classic script in <head>, so the
// plain-HTML first screen is drawn once, in the right words: index.html carries
// each of its texts in the four languages and CSS shows those of <html lang>), and the
// tab's title and the description in it (tools/build.py writes them in data-words-LANG
// attributes; first-tap.mjs shows them again when a language is picked).
// The same choice as static/ui/words/words.py pick_lang, which takes over at boot:
// ?lang= if it names one of ours, else the language picked before (localStorage),
// else the browser's languages, else English.
(function () {
  "use strict";
  var LANGS = ["en", "es", "bg", "ru"];
  function primary(tag) {
    var code = String(tag || "").trim().toLowerCase().replace(/_/g, "-").split("-")[0];
    return LANGS.indexOf(code) >= 0 ? code : null;
  }
  var code = null;
  try {
    code = primary(new URLSearchParams(location.search).get("lang"));
  } catch (e) { /* no URLSearchParams: the browser's language */ }
  if (!code) {
    try {
      var saved = localStorage.getItem("generala.lang");
      if (saved && saved.length < 40) code = primary(saved);
    } catch (e) { /* storage denied (a sandboxed frame): not an error */ }
  }
  if (!code) {
    var browser = navigator.languages || [navigator.language];
    for (var i = 0; i < browser.length && !code; i++) code = primary(browser[i]);
  }
  code = code || "en";
  document.documentElement.lang = code;
  // The title and the description (the UI writes them itself once it runs:
  // static/ui/page/navigation.py translate_page).
  var title = document.querySelector("title[data-words]");
  if (title && title.getAttribute("data-words-" + code)) document.title = title.getAttribute("data-words-" + code);
  var meta = document.querySelector("meta[name=description][data-words]");
  if (meta && meta.getAttribute("data-words-" + code)) meta.setAttribute("content", meta.getAttribute("data-words-" + code));
  // A game in progress opens on the board: the home screen is not flashed first
  // (static/ui/board/controller.py draws one or the other and drops this class).
  try {
    if (localStorage.getItem("generala.current")) document.documentElement.classList.add("resuming");
  } catch (e) { /* storage denied */ }
})();

