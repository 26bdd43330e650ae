// Compile the engine package to bytecode with the Python the browser runs.
//
//   node tools/compile_engine.mjs SRC_DIR OUT_DIR
//
// Loads the vendored Pyodide (node_modules/pyodide) in Node, compiles every module of
// SRC_DIR (the `generala` package) with compileall, and writes the .pyc files into
// OUT_DIR/__pycache__/... (the same tree as SRC_DIR). tools/build.py puts them in
// generala.zip beside the sources: the engine worker then imports bytecode instead of
// compiling ~100 kB of source at every boot (~100 ms of the worker's start).
//
// The .pyc are "unchecked hash" files: Python uses them without comparing them with
// the source's modification time (the zip's extraction sets new times), and they are
// byte-for-byte reproducible. They only fit this Pyodide's Python (magic number).
import { loadPyodide } from "pyodide";
import path from "node:path";

const [src, out] = process.argv.slice(2).map((p) => path.resolve(p));
if (!src || !out) {
  console.error("usage: node tools/compile_engine.mjs SRC_DIR OUT_DIR");
  process.exit(2);
}
const py = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
py.FS.mkdirTree("/host/src");
py.FS.mkdirTree("/host/out");
py.FS.mount(py.FS.filesystems.NODEFS, { root: src }, "/host/src");
py.FS.mount(py.FS.filesystems.NODEFS, { root: out }, "/host/out");
const result = py.runPython(`
import compileall, os, py_compile, shutil, sys

shutil.copytree("/host/src", "/work", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
ok = compileall.compile_dir("/work", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
written = []
for folder, _, files in os.walk("/work"):
    for name in files:
        if name.endswith(".pyc"):
            rel = os.path.relpath(os.path.join(folder, name), "/work")
            os.makedirs(os.path.dirname(os.path.join("/host/out", rel)), exist_ok=True)
            shutil.copyfile(os.path.join(folder, name), os.path.join("/host/out", rel))
            written.append(rel)
f"{'ok' if ok else 'failed'} {len(written)} {sys.version.split()[0]}"
`);
console.log(result);
process.exit(result.startsWith("ok") ? 0 : 1);
