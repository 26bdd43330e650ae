// Embed mode (?embed=1; any other value is ignored): <html class="embed"> for the
// compact layout of static/css/site.css, the "Open the full game" link pointed at
// this URL without embed=1, and the page height posted to the host page
// ({type: "generala:height", height: px}, targetOrigin "*": it is only a number).
const params = new URLSearchParams(location.search);

if (params.get("embed") === "1") {
  const root = document.documentElement;
  root.classList.add("embed");

  const link = document.getElementById("embed-open");
  if (link) {
    const full = new URL(location.href);
    full.searchParams.delete("embed");
    link.href = full.href;
    link.parentElement.hidden = false;
  }

  // The README's sandbox has no allow-forms: the browser would block (and log) every
  // form submission. The page never submits anywhere, so do it by hand: the setup
  // form gets a plain "submit" event, a <form method="dialog"> closes its dialog.
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button, input[type=submit]");
    const form = button && button.form;
    if (!form || button.type !== "submit" || event.defaultPrevented) return;
    event.preventDefault();
    if (form.getAttribute("method") === "dialog") {
      const dialog = form.closest("dialog");
      if (dialog) dialog.close(button.value);
    } else {
      form.dispatchEvent(new SubmitEvent("submit", { bubbles: true, cancelable: true, submitter: button }));  // bubbles, as a real one
    }
  }, true);

  let last = -1;
  const report = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last || parent === window) return false;
    last = height;
    parent.postMessage({ type: "generala:height", height }, "*");
    return true;
  };
  if (typeof ResizeObserver === "function") {
    // A height told, the page stops watching until the next frame: a second change in
    // the same frame (a font that lands, a scrollbar that comes and goes) would be a
    // "ResizeObserver loop" error. Watching again reports the height of that moment.
    const observer = new ResizeObserver(() => {
      if (!report()) return;
      observer.unobserve(root);
      requestAnimationFrame(() => observer.observe(root));
    });
    observer.observe(root);
  }
  report();
}
