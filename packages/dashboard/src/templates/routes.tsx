import type { RouteObject } from "react-router"
import { lazyPage as page } from "../ui/LazyPage.tsx"
import type { NavEntry } from "../ui/nav.ts"

// The templates' pages are chunks of their own, loaded when a templates page is opened (the
// README's Markdown renderer is a further chunk, loaded when a README is shown).
const list = () => import("./Templates.tsx")
const template = () => import("./Template.tsx")

export const templatesRoutes: Array<RouteObject> = [
  { path: "templates", element: page(list, (m) => m.TemplatesPage) },
  { path: "templates/new", element: page(() => import("./CreateTemplate.tsx"), (m) => m.CreateTemplatePage) },
  // A template of the default organization at /templates/<name>, of another at
  // /templates/<organization>/<name> (the fixed names of the first's pages rank above the second).
  ...["templates/:template", "templates/:organization/:template"].map((path) => ({
    path,
    element: page(template, (m) => m.TemplateLayout),
    children: [
      { index: true, element: page(template, (m) => m.TemplateSummary) },
      { path: "versions", element: page(() => import("./Versions.tsx"), (m) => m.VersionsPage) },
      { path: "versions/:version", element: page(() => import("./Version.tsx"), (m) => m.VersionPage) },
      { path: "settings", element: page(() => import("./Settings.tsx"), (m) => m.SettingsPage) },
      { path: "variables", element: page(() => import("./Variables.tsx"), (m) => m.VariablesPage) },
      { path: "permissions", element: page(() => import("./Permissions.tsx"), (m) => m.PermissionsPage) },
      { path: "insights", element: page(() => import("./Insights.tsx"), (m) => m.InsightsPage) }
    ]
  }))
]

export const templatesNav: Array<NavEntry> = [{ to: "/templates", label: "Templates" }]
