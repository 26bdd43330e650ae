// A tap on one of the home screen's play choices made before the UI has booted is
// kept, not lost: the choice goes to <html data-first-tap> (which also shows
// "Starting the game…"), and static/ui/home_screen.py plays it once it is ready.
const html = document.documentElement;

document.addEventListener("click", (event) => {
  if (window.generalaHome) return;  // the UI has taken over: home_screen.py answers
  const target = event.target instanceof Element ? event.target.closest("[data-play]") : null;
  if (!target) return;
  html.setAttribute("data-first-tap", target.getAttribute("data-play"));
});
