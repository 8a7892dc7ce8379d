// ESLint over the pages' ES modules (make lint). Tools only: nothing here is served.
import js from "@eslint/js";
import globals from "globals";

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
];
