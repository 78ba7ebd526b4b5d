// The computing worker of the static site (docs/site.md): its own Pyodide with the same
// package, running the chance estimates and stories the play worker hands it
// (firstlast.runtime.run_cpu, set_offload by worker.js), one at a time, so that the
// play worker stays free for moves. Messages: {id, call} in, {id, outcome} or {id, error} out.

import { startPython } from "./python.js";

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));
/** @type {Promise<(call: string) => string>} */
const ready = startPython().then((py) => {
  // The play layer only, not the web app the play worker serves.
  py.pyimport("firstlast.play.chance").warm(); // the fast forced line loaded now, not in the first estimate
  const runtime = py.pyimport("firstlast.runtime");
  return (/** @type {string} */ call) => String(runtime.call_pickled(call));
});
/** @type {Promise<void>} */
let queue = Promise.resolve();

scope.onmessage = (/** @type {MessageEvent} */ e) => {
  const { id, call } = e.data;
  queue = queue.then(async () => {
    try {
      const run = await ready;
      scope.postMessage({ id, outcome: run(call) });
    } catch (err) {
      scope.postMessage({ id, error: String(err && /** @type {Error} */ (err).message ? /** @type {Error} */ (err).message : err) });
    }
  });
};
