// A key press as the one table of keys names it (vocabulary.js's KEYMAP): kept apart from keys.js so
// that it can be tested without a page.

/** The table's name of a key press: ``KeyboardEvent.key`` for a character (a letter in
 * the case Shift asks for, whatever Caps Lock says), a lower-case name otherwise, with
 * ``ctrl+`` (and ``shift+``) before it for a combination.
 * @param {{key: string, shiftKey: boolean, ctrlKey: boolean, metaKey: boolean}} e */
export function keyName(e) {
  let k = e.key;
  if (k.length === 1 && k.toLowerCase() !== k.toUpperCase()) k = e.shiftKey ? k.toUpperCase() : k.toLowerCase();
  else if (k === " ") k = "space";
  else if (k.length > 1) k = k.toLowerCase();
  if (e.ctrlKey || e.metaKey) return `ctrl+${e.shiftKey ? "shift+" : ""}${k.toLowerCase()}`;
  return k;
}
