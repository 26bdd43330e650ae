// Baseline worker: loadPyodide from the vendored copy, run one line, report.
// The site publishes a trimmed standard library; bare Pyodide loads its own whole
// python_stdlib.zip, served by bench/boot.py at /bench/pyodide/.
const version = new URL(import.meta.url).searchParams.get("pyodide");
const indexURL = new URL(`../vendor/pyodide/${version}/`, import.meta.url).href;
try {
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const stdLibURL = new URL("./pyodide/python_stdlib.zip", import.meta.url).href;
  const pyodide = await loadPyodide({ indexURL, stdLibURL, packages: [] });
  pyodide.runPython("1 + 1");
  postMessage({ ok: true });
} catch (err) {
  postMessage({ ok: false, error: String((err && err.message) || err) });
}
