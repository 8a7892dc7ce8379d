// ESLint over the pages' ES modules (make lint). Tools only: nothing here is served.
import js from "@eslint/js";
import globals from "globals";

// Page controllers keep their state in a class (or a function's scope), never in a module's
// top-level `let`/`var` (issue 36.6): state that lives as long as the page, written from
// anywhere in the file, is what made the old controllers hard to follow. core/ holds shared
// helpers, not pages (a lazily made AudioContext may live there).

const NO_TOP_LEVEL_STATE = "A page controller keeps its state in a class, not a top-level";

export default [
  { ignores: ["node_modules/**", "staticfiles/**", ".venv/**"] },
  js.configs.recommended,
  {
    files: ["frontend/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    files: ["frontend/static/frontend/js/**/*.js"],
    ignores: ["frontend/static/frontend/js/core/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "Program > VariableDeclaration[kind='let']", message: `${NO_TOP_LEVEL_STATE} let.` },
        { selector: "Program > VariableDeclaration[kind='var']", message: `${NO_TOP_LEVEL_STATE} var.` },
        {
          selector: "Program > ExportNamedDeclaration > VariableDeclaration[kind='let']",
          message: `${NO_TOP_LEVEL_STATE} let.`,
        },
      ],
    },
  },
];
