// Compile the engine package to bytecode with the Python the browser runs.
//
//   node tools/compile_engine.mjs SRC_DIR OUT_DIR
//
// Loads the vendored Pyodide (node_modules/pyodide) in Node, compiles every module of
// SRC_DIR (the `generala` package) and writes each as OUT_DIR/<module path>.pyc, beside
// where its source would be: tools/build.py publishes generala.zip with that bytecode
// and without the sources (Python imports a lone .pyc: its sourceless loader). The
// engine worker imports bytecode instead of compiling ~100 kB of source at every boot
// (~100 ms of the worker's start), and downloads no source.
//
// Docstrings are left out (they were ~20% of the bytecode, and they sit in the memory
// snapshot too); asserts are kept (an optimize level would drop both). A traceback of
// the engine names the file and line, without the line's text. The example bots
// (bot_examples/) are not compiled: they are text the Bot lab shows and runs.
//
// The .pyc are "unchecked hash" files: Python uses them without comparing them with
// a source, and they are byte-for-byte reproducible. They only fit this Pyodide's
// Python (magic number).
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
import ast, importlib.util, os, sys
from importlib._bootstrap_external import _code_to_hash_pyc

ENGINE = "/home/pyodide/engine/generala"  # where the worker unpacks it: tracebacks name it


class NoDocstrings(ast.NodeTransformer):
    def strip(self, node):
        self.generic_visit(node)
        first = node.body[0] if node.body else None
        if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
        return node

    visit_Module = visit_ClassDef = visit_FunctionDef = visit_AsyncFunctionDef = strip


written = []
for folder, dirs, files in os.walk("/host/src"):
    dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "bot_examples"))
    for name in sorted(files):
        if not name.endswith(".py"):
            continue
        rel = os.path.relpath(os.path.join(folder, name), "/host/src")
        with open(os.path.join(folder, name), "rb") as f:
            source = f.read()
        tree = NoDocstrings().visit(ast.parse(source, rel))
        code = compile(tree, f"{ENGINE}/{rel}", "exec", dont_inherit=True, optimize=0)
        data = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        out = os.path.join("/host/out", rel[:-3] + ".pyc")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)
        written.append(rel)
f"ok {len(written)} {sys.version.split()[0]}"
`);
console.log(result);
process.exit(result.startsWith("ok") ? 0 : 1);
