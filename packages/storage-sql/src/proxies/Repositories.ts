/**
 * Workspace proxies on @effect/sql. Reads of live proxies go along `workspace_proxies_lower_name`;
 * the health checker's verdicts are written in one transaction per tick, each UPDATE conditional
 * on the proxy being live, so a proxy deleted during a check keeps its empty status.
 */
import { SqlClient } from "@effect/sql"
import {
  type PrimaryProxyConfig,
  type ProxyHealthReportRecord,
  ProxyHealthStatuses,
  type WorkspaceProxyRecord,
  WorkspaceProxyRepo
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { bool, columns, date, first, json, literal, type Row, text } from "../Columns.js"
import { bind } from "../Rows.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"

const PRIMARY_DISPLAY_NAME_KEY = "default_proxy_display_name"
const PRIMARY_ICON_KEY = "default_proxy_icon_url"

const NO_REPORT: ProxyHealthReportRecord = { errors: [], warnings: [] }

const rowToProxy = columns<WorkspaceProxyRecord>("workspace_proxies", {
  id: text,
  name: text,
  display_name: text,
  icon: text,
  url: text,
  wildcard_hostname: text,
  derp_enabled: bool,
  derp_only: bool,
  version: text,
  deleted: bool,
  token_hashed_secret: text,
  created_at: date,
  updated_at: date,
  status: literal(ProxyHealthStatuses),
  status_report: json(NO_REPORT),
  status_checked_at: date
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)
  const one = (rs: ReadonlyArray<Row>) => first(rs, rowToProxy)

  return WorkspaceProxyRepo.of({
    insert: (p) =>
      unique(
        sql`INSERT INTO workspace_proxies (id, name, display_name, icon, url, wildcard_hostname, derp_enabled, derp_only,
          version, deleted, token_hashed_secret, created_at, updated_at, status, status_report, status_checked_at)
        VALUES (${p.id}, ${p.name}, ${p.display_name}, ${p.icon}, ${p.url}, ${p.wildcard_hostname}, ${
          bind(p.derp_enabled)
        },
          ${bind(p.derp_only)}, ${p.version}, ${bind(p.deleted)}, ${p.token_hashed_secret}, ${bind(p.created_at)},
          ${bind(p.updated_at)}, ${p.status}, ${JSON.stringify(p.status_report)}, ${bind(p.status_checked_at)})`
      ).pipe(Effect.asVoid),
    findById: (id) => run(sql<Row>`SELECT * FROM workspace_proxies WHERE id = ${id}`).pipe(Effect.map(one)),
    findByName: (name) =>
      run(
        sql<Row>`SELECT * FROM workspace_proxies WHERE lower(name) = ${name.toLowerCase()} AND deleted = FALSE`
      ).pipe(
        Effect.map(one)
      ),
    list: (limit) =>
      run(
        sql<Row>`SELECT * FROM workspace_proxies WHERE deleted = FALSE ORDER BY lower(name), id LIMIT ${limit}`
      ).pipe(
        Effect.map((rs) => rs.map(rowToProxy))
      ),
    update: (id, f, at) =>
      unique(
        f.token_hashed_secret === undefined
          ? sql<Row>`UPDATE workspace_proxies SET name = ${f.name}, display_name = ${f.display_name}, icon = ${f.icon},
              updated_at = ${bind(at)} WHERE id = ${id} AND deleted = FALSE RETURNING *`
          : sql<Row>`UPDATE workspace_proxies SET name = ${f.name}, display_name = ${f.display_name}, icon = ${f.icon},
              token_hashed_secret = ${f.token_hashed_secret}, updated_at = ${bind(at)}
              WHERE id = ${id} AND deleted = FALSE RETURNING *`
      ).pipe(Effect.map(one)),
    markDeleted: (id, at) =>
      run(sql<Row>`UPDATE workspace_proxies SET deleted = TRUE, updated_at = ${bind(at)}
        WHERE id = ${id} AND deleted = FALSE RETURNING id`).pipe(Effect.map((rs) => rs.length > 0)),
    register: (id, r, at) =>
      run(sql<Row>`UPDATE workspace_proxies SET url = ${r.url}, wildcard_hostname = ${r.wildcard_hostname},
          derp_enabled = ${bind(r.derp_enabled)}, derp_only = ${
        bind(r.derp_only)
      }, version = ${r.version}, updated_at = ${bind(at)}
        WHERE id = ${id} AND deleted = FALSE RETURNING *`).pipe(Effect.map(one)),
    setStatuses: (updates) =>
      updates.length === 0 ?
        Effect.void :
        run(withTransaction(Effect.forEach(updates, (u) =>
          sql`UPDATE workspace_proxies SET status = ${u.status}, status_report = ${JSON.stringify(u.report)},
            status_checked_at = ${bind(u.checked_at)} WHERE id = ${u.id} AND deleted = FALSE`, {
          discard: true
        }))),
    getPrimary: run(
      sql<Row>`SELECT key, value FROM site_configs WHERE key IN (${PRIMARY_DISPLAY_NAME_KEY}, ${PRIMARY_ICON_KEY})`
    ).pipe(
      Effect.map((rs): Option.Option<PrimaryProxyConfig> => {
        if (rs.length === 0) return Option.none()
        const get = (key: string, fallback: string) => {
          const r = rs.find((r) => r.key === key)
          return r === undefined ? fallback : text(r.value, "site_configs.value")
        }
        return Option.some({
          display_name: get(PRIMARY_DISPLAY_NAME_KEY, "Default"),
          icon: get(PRIMARY_ICON_KEY, "/emojis/1f3e1.png")
        })
      })
    ),
    setPrimary: (c) =>
      run(
        withTransaction(
          Effect.forEach(
            [[PRIMARY_DISPLAY_NAME_KEY, c.display_name], [PRIMARY_ICON_KEY, c.icon]] as const,
            ([key, value]) =>
              sql`INSERT INTO site_configs (key, value) VALUES (${key}, ${value})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
            { discard: true }
          )
        )
      )
  })
})

export const layer = Layer.effect(WorkspaceProxyRepo, make)
