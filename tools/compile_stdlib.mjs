// Compile a standard-library zip to bytecode with the Python the browser runs.
//
//   node tools/compile_stdlib.mjs IN_ZIP OUT_ZIP
//
// IN_ZIP holds .py files (tools/build.py's trimmed python_stdlib.zip); OUT_ZIP holds
// the same modules as sourceless .pyc ("os.pyc" where "os.py" was: zipimport imports
// them as they are), compiled by the vendored Pyodide in Node. Unchecked-hash .pyc,
// entries sorted, fixed dates: the same bytes from the same input.
//
// Why: every module Pyodide imports at start-up is otherwise compiled from source at
// every boot; and the memory snapshot is made after those imports, so the compiler's
// freed garbage (source text, syntax trees) would be published in it.
// Compiled as `python -OO` would (optimize=2): no docstrings, no asserts. The snapshot
// holds every module of it, and the docstrings alone were 0.32 MB of it gzipped
// (3.91 -> 3.59 MB). Only the snapshot holds this bytecode: a boot in full compiles the
// library's sources (python_stdlib.zip) as Pyodide always does. The engine's own
// bytecode (tools/compile_engine.mjs) keeps its docstrings and asserts.
import { loadPyodide } from "pyodide";
import fs from "node:fs";

const [inZip, outZip] = process.argv.slice(2);
if (!inZip || !outZip) {
  console.error("usage: node tools/compile_stdlib.mjs IN_ZIP OUT_ZIP");
  process.exit(2);
}
const py = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
py.FS.writeFile("/tmp/in.zip", new Uint8Array(fs.readFileSync(inZip)));
const result = py.runPython(String.raw`
import importlib.util, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

ROOT = "/lib/python314.zip/"  # where Pyodide puts the zip: file names in tracebacks
n = 0
with zipfile.ZipFile("/tmp/in.zip") as src, zipfile.ZipFile("/tmp/out.zip", "w") as dst:
    for name in sorted(src.namelist()):
        data = src.read(name)
        if name.endswith(".py"):
            code = compile(data, ROOT + name, "exec", dont_inherit=True, optimize=2)
            data = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            name += "c"
            n += 1
        info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        dst.writestr(info, data, compresslevel=9)
n
`);
fs.writeFileSync(outZip, py.FS.readFile("/tmp/out.zip"));
console.log(`${result} modules compiled`);
