// The linter: syntax-level rules only (no type information, so it runs in seconds). Formatting is
// dprint's (dprint.json); the dependency order of areas is dependency-cruiser's (see docs/architecture.md).
import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.workbay/**",
      "bench/results/**",
      "bench/.scratch/**",
      "coverage/**"
    ]
  },
  {
    files: ["**/*.ts", "**/*.mts", "**/*.cts"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A name used only as a type is imported as one (`type X`), so nothing is loaded for it at run time.
      "@typescript-eslint/consistent-type-imports": ["error", {
        prefer: "type-imports",
        fixStyle: "inline-type-imports"
      }],
      "@typescript-eslint/no-import-type-side-effects": "error",
      // Packages meet through their names and their `exports`, never through each other's files.
      "no-restricted-imports": ["error", {
        patterns: [
          {
            regex: "^(\\.\\./)+(core|http|storage-sql|storage-sqlite|storage-postgres|server|agent)/src/",
            message: "Import another package by its name (@workbay/...), not by a path into its files."
          },
          {
            regex: "^@workbay/[a-z-]+/(src|dist|internal)(/|$)",
            message: "Import a package through its public exports, not its files."
          }
        ]
      }],
      "no-duplicate-imports": "off",
      "@typescript-eslint/no-unused-vars": "off"
    }
  }
)
