// The rewriting the bundles' plugins share (dockerode-lean.mjs, router-lean.mjs, schema-lean.mjs):
// a library's source with some of its text replaced, where each replaced text must be found as
// written (a string exactly once, a pattern at least once, its first match replaced). Another
// version of the library fails the build, naming the plugin, the file and the text looked for.

/**
 * `source` with each `[before, after]` of `rewrites` applied in order; `plugin` (its file name),
 * `file` (what `source` is) and `library` (to update the plugin to) name a failure.
 */
export const rewriteChecked = (source, rewrites, { plugin, file, library }) =>
  rewrites.reduce((text, [before, after]) => {
    const found = typeof before === "string"
      ? text.split(before).length === 2
      : before.test(text)
    if (!found) {
      const lookedFor = typeof before === "string" ? before.split("\n")[0].trim() : String(before).slice(0, 80)
      throw new Error(
        `scripts/${plugin}: ${file} is not the text this plugin rewrites (another version?); ` +
          `update the plugin to the installed ${library} (looked for: ${lookedFor})`
      )
    }
    return text.replace(before, () => after)
  }, source)
