// "On a wish" (a setting, off by default): before a new deal, the player is asked to
// make a wish, as the book's readers did: a few words, or just "I have made a wish".
// The wish goes with the new game to the server, which keeps it privately (docs/play.md);
// the end panel says whether it will come true (news.js).

import { $, $dialog, $input } from "./store.js";

/** Ask for a wish: answers it ("" when made in silence), or ``undefined`` to deal
 * without one. @returns {Promise<string | undefined>} */
export function askWish() {
  const dlg = $dialog("#dlg-wish");
  const field = $input("#wish-text");
  field.value = "";
  dlg.returnValue = "";
  if (!dlg.open) dlg.showModal();
  field.focus();
  return new Promise((resolve) => {
    dlg.addEventListener("close", () => {
      resolve(dlg.returnValue === "made" ? field.value.trim() : undefined);
    }, { once: true });
  });
}

export function setupWish() {
  const wish = $dialog("#dlg-wish");
  $("#wish-form").addEventListener("submit", (e) => {
    e.preventDefault();
    wish.close("made");
  });
  $("#wish-skip").addEventListener("click", () => wish.close("skip"));
}
