// Runs precompile.py in Pyodide under node, over the archives in the work folder
// (firstlast.site.build.precompile; docs/site.md, "Build").
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [pyodideDir, work] = process.argv.slice(2);
try {
  const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
  const py = await loadPyodide({ indexURL: pyodideDir + "/" });
  py.FS.mkdirTree("/build");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: work }, "/build");
  const target = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(new Uint8Array(fs.readFileSync(work + "/site-packages.zip")), "zip", { extractDir: target });
  py.runPython(fs.readFileSync(work + "/precompile.py", "utf8"));
  await py.runPythonAsync("used = await exercise()");
  py.runPython(`
import sys, sysconfig
stdlib = next(p for p in sys.path if p.endswith(".zip")) + "/"
print(*compile_archive("/build/python_stdlib.zip", "/build/out-python_stdlib.zip", stdlib, used, UNUSED_STDLIB))
print(*compile_archive("/build/site-packages.zip", "/build/out-site-packages.zip",
                       sysconfig.get_paths()["purelib"] + "/", used))
`);
} catch (e) {
  // One readable line (an uncaught error would print Pyodide's minified source).
  const text = String(e && e.message ? e.message : e).trim().split(/\r?\n/);
  process.stderr.write("PRECOMPILE: " + text.slice(-3).join(" | ") + String.fromCharCode(10));
  process.exit(1);
}
