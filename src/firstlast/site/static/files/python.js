// Python in a worker of the static site: Pyodide's runtime, then site-packages (this
// package and its wheels, one archive made by `firstlast site build`). Shared by the
// play worker (worker.js) and the computing worker (compute.js).

/** @typedef {import("pyodide").PyodideAPI} Pyodide */

/** Python and the package: the runtime, then site-packages (one archive). @returns {Promise<Pyodide>} */
export async function startPython() {
  const base = new URL("../../", import.meta.url);
  /** @type {{loadPyodide: typeof import("pyodide").loadPyodide}} */
  const mod = await import(new URL("pyodide/pyodide.mjs", base).href);
  const py = await mod.loadPyodide({ indexURL: new URL("pyodide/", base).href, fullStdLib: false });
  const res = await fetch(new URL("py/site-packages.zip", base));
  if (!res.ok) throw new Error(`site-packages.zip: ${res.status}`);
  const target = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(await res.arrayBuffer(), "zip", { extractDir: String(target) });
  return py;
}

