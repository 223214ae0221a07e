// eslint (flat config, `npm run lint`): typescript-eslint's recommended rules on the TypeScript and JavaScript
// sources and tests. Layout is prettier's (`npm run format`), so there are no stylistic rules here.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const NODE_GLOBALS = [
  "process",
  "console",
  "Buffer",
  "URL",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "__dirname",
  "require",
  "module",
  "fetch",
];

export default tseslint.config(
  { ignores: ["dist/", "out/", "native/build/", "node_modules/", "test/fixtures/", ".vscode-test/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Node's globals, for the .mjs/.cjs scripts (TypeScript checks names in .ts files itself).
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: Object.fromEntries(NODE_GLOBALS.map((g) => [g, "readonly"])) },
    rules: {
      // `_`-prefixed names are deliberately unused (a rest sibling left out, a parameter an interface requires).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // Jinja2's, Python's and JSON's string rules are about control characters: the regexes name them on purpose.
      "no-control-regex": "off",
      // Native addons (.node files) and a JSON schema outside the bundle are loaded with require, the only way Node loads an addon.
      "@typescript-eslint/no-require-imports": "off",
      // The interpreter's scope chain walks from `this` up its parents with a local cursor.
      "@typescript-eslint/no-this-alias": "off",
      // A variable a cleanup closure reads before its one assignment cannot be a const.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read the endpoint's JSON answers field by field.
    files: ["test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
