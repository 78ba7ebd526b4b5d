// Lints the page's JavaScript, the static site's workers and these tools' tests
// (docs/page.md, docs/site.md): eslint's recommended rules, browser globals for the
// page, worker globals for the workers, service-worker globals for sw.js, node's for
// the tests and the site build's precompile.mjs.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    files: ["src/firstlast/web/static/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["src/firstlast/site/static/files/**/*.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.worker },
  },
  {
    files: ["src/firstlast/site/static/sw.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["src/firstlast/site/static/precompile.mjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    files: ["tools/js/**/*.js"],
    ignores: ["tools/js/node_modules/**"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
