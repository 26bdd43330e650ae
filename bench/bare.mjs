// Baseline page for bench/boot.py: boot Pyodide in a plain module worker, then
// <html data-state="ready"> (or "error"). The Pyodide version comes from ?pyodide=.
const version = new URLSearchParams(location.search).get("pyodide");
const worker = new Worker(new URL(`./bare-worker.mjs?pyodide=${encodeURIComponent(version)}`, import.meta.url), {
  type: "module",
});
worker.onmessage = (event) => {
  document.documentElement.dataset.state = event.data.ok ? "ready" : "error";
  if (!event.data.ok) document.body.append(String(event.data.error));
};
worker.onerror = (event) => {
  document.documentElement.dataset.state = "error";
  document.body.append(String(event.message));
};
