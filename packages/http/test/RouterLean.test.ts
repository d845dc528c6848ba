/**
 * The server's bundle registers its routes in find-my-way without compiling generated code
 * (scripts/router-lean.mjs). Here find-my-way is bundled with that plugin, as the server's script
 * is, and run beside the stock one on the service's own routes: both find the same route with the
 * same parameters, or none, for every route's path with generated parameter values and for
 * generated paths (percent-encodings good and bad, trailing and doubled slashes, unknown methods).
 */
import { FastCheck as fc } from "effect"
import { build } from "esbuild"
import FindMyWay from "find-my-way"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { leanRouterSource, routerLean } from "../../../scripts/router-lean.mjs"
import { WorkbayApi } from "../src/Api.js"
import { rootFormOf, ROUTER_OPTIONS } from "../src/dispatch/Route.js"

type Router = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>

/** Every registration the service makes (Route.ts): each endpoint's method and path, and its root form. */
const registrations = (): Array<readonly [string, string]> =>
  Object.values(WorkbayApi.groups).flatMap((group) =>
    Object.values(group.endpoints).flatMap((endpoint) => {
      const root = rootFormOf(endpoint.path)
      return [
        [endpoint.method, endpoint.path] as const,
        ...(root === undefined ? [] : [[endpoint.method, root] as const])
      ]
    })
  )

/** Calls of the global `Function` constructor while `f` runs. */
const functionCompilations = (f: () => void): number => {
  const original = globalThis.Function
  let calls = 0
  globalThis.Function = new Proxy(original, {
    construct: (target, args) => {
      calls++
      return Reflect.construct(target, args)
    },
    apply: (target, self, args) => {
      calls++
      return Reflect.apply(target, self, args)
    }
  })
  try {
    f()
  } finally {
    globalThis.Function = original
  }
  return calls
}

const register = (make: typeof FindMyWay): Router => {
  const router = make(ROUTER_OPTIONS)
  for (const [method, path] of registrations()) {
    router.on(method as FindMyWay.HTTPMethod, path, () => undefined, { route: `${method} ${path}` })
  }
  return router
}

/** What a lookup answers, comparable: the route, its parameters as a plain object, or null. */
const lookup = (router: Router, method: string, path: string) => {
  const found = router.find(method as FindMyWay.HTTPMethod, path)
  return found === null ? null : { store: found.store, params: { ...found.params } }
}

describe("find-my-way as the server's bundle has it (scripts/router-lean.mjs)", () => {
  let dir: string
  let lean: typeof FindMyWay
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "router-lean-"))
    const outfile = join(dir, "find-my-way.cjs")
    await build({
      stdin: { contents: "module.exports = require(\"find-my-way\")", resolveDir: process.cwd() },
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile,
      logLevel: "warning",
      plugins: [routerLean]
    })
    lean = createRequire(import.meta.url)(outfile) as typeof FindMyWay
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("registers the service's routes without compiling code, where the stock router compiles hundreds of functions", () => {
    expect(registrations().length).toBeGreaterThan(300)
    expect(functionCompilations(() => register(lean))).toBe(0)
    expect(functionCompilations(() => register(FindMyWay))).toBeGreaterThan(500)
  })

  const segment = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      "",
      ".",
      "..",
      "%2F",
      "%2f",
      "%zz",
      "%",
      "%E2%82%AC",
      "%C3",
      "a%20b",
      "é",
      "linux-amd64",
      "me",
      "*"
    ),
    fc.webSegment()
  )

  it("finds the same route and parameters as the stock router for every route's path", () => {
    const stock = register(FindMyWay)
    const bundled = register(lean)
    const routes = registrations()
    fc.assert(
      fc.property(
        fc.constantFrom(...routes),
        fc.array(segment, { minLength: 4, maxLength: 4 }),
        fc.constantFrom("", "/", "//", "?x=1", "/x"),
        ([method, template], values, tail) => {
          let i = 0
          const path = template.replace(/:[A-Za-z0-9_]+/g, () => encodeURIComponent(values[i++ % values.length]!)) +
            tail
          expect(lookup(bundled, method, path), `${method} ${path}`).toStrictEqual(lookup(stock, method, path))
          expect(lookup(bundled, method, path.replace(/%/g, "%25")), path).toStrictEqual(
            lookup(stock, method, path.replace(/%/g, "%25"))
          )
        }
      ),
      { numRuns: 3000 }
    )
  })

  it("finds the same for generated paths, methods and raw segments", () => {
    const stock = register(FindMyWay)
    const bundled = register(lean)
    const words = [...new Set(registrations().flatMap(([, path]) => path.split("/")))]
    fc.assert(
      fc.property(
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "FOO"),
        fc.array(fc.oneof(fc.constantFrom(...words), segment), { maxLength: 9 }),
        (method, parts) => {
          const path = `/${parts.join("/")}`
          expect(lookup(bundled, method, path), `${method} ${path}`).toStrictEqual(lookup(stock, method, path))
        }
      ),
      { numRuns: 3000 }
    )
  })

  it("chooses the same handler by host and version constraints (which the service's routes do not use)", () => {
    const constrained = (make: typeof FindMyWay): Router => {
      const router = make()
      const paths = ["/a", "/a/:id", "/b/*"]
      for (const path of paths) {
        router.on("GET", path, () => undefined, { route: `${path} any` })
        for (const host of ["one.example", "two.example"]) {
          router.on("GET", path, { constraints: { host } }, () => undefined, { route: `${path} ${host}` })
          for (const version of ["1.2.0", "2.0.0"]) {
            router.on("GET", path, { constraints: { host, version } }, () => undefined, {
              route: `${path} ${host} ${version}`
            })
          }
        }
        router.on("GET", path, { constraints: { version: "3.1.4" } }, () => undefined, { route: `${path} 3.1.4` })
      }
      return router
    }
    const stock = constrained(FindMyWay)
    const bundled = constrained(lean)
    fc.assert(
      fc.property(
        fc.constantFrom("/a", "/a/7", "/b/x/y", "/c"),
        fc.option(fc.constantFrom("one.example", "two.example", "three.example"), { nil: undefined }),
        fc.option(fc.constantFrom("1.x", "1.2.0", "2", "3.1.4", "4"), { nil: undefined }),
        (path, host, version) => {
          const constraints = { ...(host === undefined ? {} : { host }), ...(version === undefined ? {} : { version }) }
          const found = (router: Router) => {
            const f = router.find("GET", path, constraints)
            return f === null ? null : { store: f.store, params: { ...f.params } }
          }
          expect(found(bundled), JSON.stringify({ path, constraints })).toStrictEqual(found(stock))
        }
      ),
      { numRuns: 500 }
    )
  })

  it("refuses to rewrite a find-my-way whose source is not the one it knows", () => {
    expect(() => leanRouterSource("node.js", "function compilePrefixMatch (prefix) { return null }")).toThrow(
      /not the text this plugin rewrites/
    )
    expect(() => leanRouterSource("handler-storage.js", "class HandlerStorage {}")).toThrow(
      /not the text this plugin rewrites/
    )
  })
})
