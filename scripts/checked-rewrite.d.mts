// Types of scripts/checked-rewrite.mjs.
export declare const rewriteChecked: (
  source: string,
  rewrites: ReadonlyArray<readonly [string | RegExp, string]>,
  names: { readonly plugin: string; readonly file: string; readonly library: string }
) => string
