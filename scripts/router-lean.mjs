// An esbuild plugin for the server's bundles (scripts/server-bundle.mjs): find-my-way, the
// service's router (packages/http/src/dispatch/Route.ts), registers its routes without `new Function`.
//
// For each route it registers, find-my-way compiles small functions from generated source: one per
// static node of its tree (comparing the node's characters one by one) and two per route (building
// its parameters' object, and choosing among its handlers by constraints, which the service's
// routes have none of). The service registers 329 routes at every start; that was about 1,300
// compilations of generated code, most of the registration's 30-45 ms, and a code cache cannot
// hold them. In the bundle each becomes a closure doing the same:
// - a static node's prefix is compared with `String.prototype.startsWith` at the same position (its
//   first character is already matched by the parent, and startsWith compares it again, equally);
// - a route's parameters object is built from its parameter names, in order, from the same arguments
//   (the first four values, then the array of further ones);
// - the handler matching derived constraints is found with the same bit masks, read from a list
//   of the constraints instead of from generated lines.
// Lookups find the same routes with the same parameters: packages/http/test/dispatch/RouterLean.test.ts
// runs the stock router and the bundled one on the service's own routes and compares their answers.
// The replaced text is checked: a find-my-way whose source differs fails the build, saying so.
import { readFile } from "node:fs/promises"
import { rewriteChecked } from "./checked-rewrite.mjs"

const NODE_BEFORE =
  /function compilePrefixMatch \(prefix\) \{\n[\s\S]*?\n  return new Function\('path', 'i'[^\n]*\n\}\n/
const NODE_AFTER = `function compilePrefixMatch (prefix) {
  if (prefix.length === 1) {
    return matchSingleCharPrefix
  }
  return function matchPrefix (path, i) {
    return path.startsWith(prefix, i)
  }
}
`

const PARAMS_BEFORE =
  /  _compileCreateParamsObject \(params\) \{\n[\s\S]*?\n    return new Function\('NullObject', fnBody\.join\('\\n'\)\)\(NullObject\)[^\n]*\n  \}\n/
const PARAMS_AFTER = `  _compileCreateParamsObject (params) {
    const names = params.slice()
    const count = names.length
    return function _createParamsObject (param0, param1, param2, param3, extraParams) {
      const out = new NullObject()
      if (count > 0) out[names[0]] = param0
      if (count > 1) out[names[1]] = param1
      if (count > 2) out[names[2]] = param2
      if (count > 3) out[names[3]] = param3
      for (let i = 4; i < count; i++) out[names[i]] = extraParams[i - 4]
      return out
    }
  }
`

const MATCHING_BEFORE =
  /  _compileGetHandlerMatchingConstraints \(constrainer\) \{\n[\s\S]*?\n    this\._getHandlerMatchingConstraints = new Function\('derivedConstraints', lines\.join\('\\n'\)\)[^\n]*\n  \}\n/
const MATCHING_AFTER = `  _compileGetHandlerMatchingConstraints (constrainer) {
    this.constrainedHandlerStores = {}
    for (const constraint of this.constraints) {
      const store = constrainer.newStoreForConstraint(constraint)
      this.constrainedHandlerStores[constraint] = store
      this._buildConstraintStore(store, constraint)
    }
    const all = (1 << this.handlers.length) - 1
    const checks = this.constraints.map((constraint) => ({
      constraint,
      mask: this._constrainedIndexBitmask(constraint),
      mustMatch: constrainer.strategies[constraint].mustMatchWhenDerived,
      store: this.constrainedHandlerStores[constraint]
    }))
    const mustBeUnset = []
    for (const constraint in constrainer.strategies) {
      if (!Object.hasOwn(constrainer.strategies, constraint)) continue
      const strategy = constrainer.strategies[constraint]
      if (strategy.mustMatchWhenDerived && !this.constraints.includes(constraint)) mustBeUnset.push(constraint)
    }
    this._getHandlerMatchingConstraints = function (derivedConstraints) {
      let candidates = all
      for (const check of checks) {
        const value = derivedConstraints[check.constraint]
        if (value === undefined) {
          candidates &= check.mask
        } else {
          const matches = check.store.get(value) || 0
          candidates &= check.mustMatch ? matches : (matches | check.mask)
        }
        if (candidates === 0) return null
      }
      for (const constraint of mustBeUnset) {
        if (derivedConstraints[constraint] !== undefined) return null
      }
      return this.handlers[31 - Math.clz32(candidates)]
    }
  }
`

/** The rewrites: file (under find-my-way/lib) → what is replaced and by what. */
const REWRITES = {
  "node.js": [[NODE_BEFORE, NODE_AFTER]],
  "handler-storage.js": [[PARAMS_BEFORE, PARAMS_AFTER], [MATCHING_BEFORE, MATCHING_AFTER]]
}

/** find-my-way's `file` source with its compiled functions replaced by closures; throws when its text differs. */
export const leanRouterSource = (file, source) =>
  rewriteChecked(source, REWRITES[file], {
    plugin: "router-lean.mjs",
    file: `find-my-way's lib/${file}`,
    library: "find-my-way"
  })

/** @type {import("esbuild").Plugin} */
export const routerLean = {
  name: "router-lean",
  setup(build) {
    build.onLoad({ filter: /[\\/]find-my-way[\\/]lib[\\/](node|handler-storage)\.js$/ }, async (args) => ({
      contents: leanRouterSource(
        args.path.endsWith("node.js") ? "node.js" : "handler-storage.js",
        await readFile(args.path, "utf8")
      ),
      loader: "js"
    }))
  }
}
