// ESLint's flat config for the HTML report's script as built (prio.render.html script_text: its
// parts in one function, in the page's one script element). The recommended rules (undefined
// names, unused variables, unreachable code, ...) in a browser's globals, as a classic script.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2017, sourceType: "script", globals: { ...globals.browser } },
    rules: {
      // a catch that ignores the error (storage refused under file://) names it and says why in a comment
      "no-unused-vars": ["error", { caughtErrors: "none" }],
    },
  },
];
