/**
 * The dependency order of the areas, checked by `npm run check:layers` (part of `npm test`).
 * docs/architecture.md, "Dependency order", says why and how.
 *
 * - No package has an import cycle (src and test).
 * - In core, storage-sql and http an area imports only areas below it in `LEVELS`; areas on one
 *   level do not import each other. The listeners (audit, notifications, insights) sit on top: they
 *   subscribe to the events the areas publish (core/src/Events.ts); no area names them.
 * - A package's root machinery (Errors, Actor, Rbac, ...) imports no area; only its assembly files do.
 *
 * Type-only imports count: the order is about what an area knows, not only what it loads.
 */

/** Bottom to top. Each entry is one level: a list of areas that do not import each other. */
const LEVELS = [
  ["enterprise"],
  ["users"],
  ["organizations"],
  ["groups"],
  ["externalauth"],
  ["provisioners"],
  ["templates"],
  ["workspaces"],
  ["agents"],
  ["tasks"],
  ["general", "proxies", "applications", "oauth2"],
  ["debug"],
  ["audit", "notifications", "insights"]
]

/** The packages whose src is laid out by area. */
const LAYERED = ["core", "storage-sql", "http"]

/** Per package, folders of shared machinery (not areas): they count as the package's root. */
const MACHINERY = {
  core: ["settings"],
  "storage-sql": ["migrations"],
  http: ["dispatch"]
}

/** Per package, the root files that assemble the areas (and so may import every area). */
const ASSEMBLY = {
  core: ["Services.ts", "index.ts"],
  "storage-sql": ["Storage.ts", "index.ts"],
  http: ["Api.ts", "Handlers.ts", "Workbay.ts", "index.ts"]
}

/**
 * Known exceptions, each with its reason: `from` and `to` are path regexes of one import.
 * Keep this list short; an entry here is a debt, not a permission.
 */
const EXCEPTIONS = [
  {
    fromFile: "packages/http/src/dispatch/Route.ts",
    toFile: "packages/http/src/enterprise/Features.ts",
    reason: "A route's licensed feature is read from the enterprise area's annotation when routes are "
      + "compiled; the annotation should move down into the dispatch machinery (issue 30, left for later)."
  },
  {
    fromFile: "packages/http/src/dispatch/Gate.ts",
    toFile: "packages/http/src/enterprise/Features.ts",
    reason: "The license gate's refusal message comes from the enterprise area; it moves with the "
      + "annotation above."
  },
  {
    fromFile: "packages/storage-sql/src/workspaces/BuildRepositories.ts",
    toFile: "packages/storage-sql/src/agents/LogRepositories.ts",
    reason: "Row mappers of the app statuses and log sources stored on agent rows (toAppStatuses, "
      + "toLogSources): they move to workspaces with the rework of the row mappers (issue 30)."
  },
  {
    fromFile: "packages/storage-sql/src/workspaces/Repositories.ts",
    toFile: "packages/storage-sql/src/agents/LogRepositories.ts",
    reason: "The row mapper of a workspace's latest app status (toLatestAppStatus): it moves to "
      + "workspaces with the rework of the row mappers (issue 30)."
  }
]

const packages = `packages/(${LAYERED.join("|")})/src`
const areaPath = (areas) => `^${packages}/(${areas.join("|")})/`
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** `rule`, split so that the listed exceptions (from-file, to-file) do not match it. */
const withExceptions = (rule) => {
  const matches = (e) => new RegExp(rule.from.path).test(e.fromFile) && new RegExp(rule.to.path).test(e.toFile)
  const own = EXCEPTIONS.filter(matches)
  if (own.length === 0) return [rule]
  const fromFiles = [...new Set(own.map((e) => e.fromFile))]
  return [
    {
      ...rule,
      from: { ...rule.from, pathNot: [...(rule.from.pathNot ?? []), ...fromFiles.map((f) => `^${escape(f)}$`)] }
    },
    ...fromFiles.map((f) => ({
      ...rule,
      from: { path: `^${escape(f)}$` },
      to: {
        ...rule.to,
        pathNot: [
          ...(rule.to.pathNot ?? []),
          ...own.filter((e) => e.fromFile === f).map((e) => `^${escape(e.toFile)}$`)
        ]
      }
    }))
  ]
}

const upward = LEVELS.flatMap((level, i) => {
  const above = LEVELS.slice(i + 1).flat()
  return level.map((area) => {
    const forbidden = [...above, ...level.filter((a) => a !== area)]
    return {
      name: `order-${area}`,
      comment: `${area} imports only the areas below it (${LEVELS.slice(0, i).flat().join(", ") || "none"}) `
        + "and the root machinery; see docs/architecture.md, \"Dependency order\".",
      severity: "error",
      from: { path: areaPath([area]) },
      to: { path: areaPath(forbidden) }
    }
  })
})

const rootMachinery = LAYERED.map((pkg) => ({
  name: `root-machinery-${pkg}`,
  comment: `${pkg}'s root machinery imports no area; only its assembly files (${ASSEMBLY[pkg].join(", ")}) do.`,
  severity: "error",
  from: {
    path: `^packages/${pkg}/src/([^/]+\\.ts$${MACHINERY[pkg].map((d) => `|${d}/`).join("")})`,
    pathNot: ASSEMBLY[pkg].map((f) => `^packages/${pkg}/src/${escape(f)}$`)
  },
  to: {
    path: `^packages/${pkg}/src/[^/]+/`,
    pathNot: MACHINERY[pkg].map((d) => `^packages/${pkg}/src/${d}/`)
  }
}))

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycles in any package: break one by moving code down or by an event/port.",
      severity: "error",
      from: { path: "^packages/[^/]+/(src|test)/" },
      to: { circular: true }
    },
    ...[...upward, ...rootMachinery].flatMap(withExceptions)
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@workbay/source", "import", "types", "default"],
      extensions: [".ts", ".js", ".mjs"]
    },
    cache: false,
    reporterOptions: {
      text: { highlightFocused: true }
    }
  }
}
