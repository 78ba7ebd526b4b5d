// Lints the page's JavaScript and these tools' tests (docs/page.md): eslint's
// recommended rules, browser globals for the page, node's for the tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    files: ["src/firstlast/web/static/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tools/js/**/*.js"],
    ignores: ["tools/js/node_modules/**"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
