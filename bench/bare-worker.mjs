// Baseline worker: loadPyodide from the vendored copy, run one line, report.
const version = new URL(import.meta.url).searchParams.get("pyodide");
const indexURL = new URL(`../vendor/pyodide/${version}/`, import.meta.url).href;
try {
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL, packages: [] });
  pyodide.runPython("1 + 1");
  postMessage({ ok: true });
} catch (err) {
  postMessage({ ok: false, error: String((err && err.message) || err) });
}
