// The statistics dialog's backup buttons (docs/backup.md): all of the player's games and
// settings saved as one file, and a file restored, merged with them without duplicates.
// Both go through the api layer: on the static site a worker answers the API, so the
// file is handed to the browser from a Blob URL, never from a link to the API.

import { ApiError, api } from "./api.js";
import { plural, t } from "./i18n.js";
import { loadSettings } from "./settings.js";
import { $, $input, onFileText, saveFile } from "./store.js";

/** @typedef {import("./i18n.js").Args} Args */

/**
 * What the buttons ask of the dialog.
 * @typedef {object} BackupContext
 * @property {(text: string, kind?: "info" | "error") => void} toast said to screen readers too
 * @property {() => Promise<void>} reload redraw the statistics after a restore
 */

/** A refusal of a backup in the page's language: the server's words for it.
 * @param {unknown} err */
export function backupError(err) {
  if (!(err instanceof ApiError)) return String(err instanceof Error ? err.message : err);
  if (err.status === 0) return t("err_network");
  return err.text;
}

/** The file's name: the day it was made. */
function fileName() {
  return `firstlast-backup-${new Date().toISOString().slice(0, 10)}.json`;
}

/** Wire the two buttons (once). @param {BackupContext} ctx */
export function wireBackup(ctx) {
  const save = $("#backup-save");
  save.addEventListener("click", async () => {
    try {
      const text = await api.backup();
      const file = JSON.parse(text);
      saveFile(fileName(), text, "application/json");
      let said = t("backup_saved", { games: plural("count.games", file.games.length) });
      // Games an import would refuse (their stored moves damaged) are left out, named in the file.
      const leftOut = Array.isArray(file.left_out) ? file.left_out.length : 0;
      if (leftOut) said += " " + plural("backup.left_out", leftOut);
      ctx.toast(said);
    } catch (err) {
      ctx.toast(t("backup_failed", { error: backupError(err) }), "error");
    }
  });
  onFileText($input("#backup-file"), async (text) => {
    try {
      const report = await api.restoreBackup(text);
      if (report.settings.length) await loadSettings(); // the language or the speed may be the file's now
      ctx.toast(report.text); // what it did, in the player's language: the server's words
      await ctx.reload();
    } catch (err) {
      ctx.toast(t("backup_bad", { error: backupError(err) }), "error");
    }
  });
}
