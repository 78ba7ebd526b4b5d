// The language the page starts in, decided in one place: the page (i18n.js) and the
// static site's loading screen (site.js), which speaks before the catalogs are loaded.
// Pure of the DOM: it reads localStorage and navigator when called.

/** The language to start in: the last chosen here, else the browser's.
 * @returns {"ru" | "en"} */
export function detectLang() {
  const stored = localStorage.getItem("fl_lang");
  if (stored === "ru" || stored === "en") return stored;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("ru") ? "ru" : "en";
}
