/** Tag tests over JSON text columns, one expression per dialect: jsonb containment on Postgres, `json_each` anti-joins on SQLite. */
import type { SqlClient, Statement } from "@effect/sql"
import type { ProvisionerTags } from "@workbay/core"

export const tagConditions = (sql: SqlClient.SqlClient) => ({
  /** `column`'s tags (JSON text) include every entry of `tags`. */
  include: (column: string, tags: ProvisionerTags): Statement.Fragment => {
    const json = JSON.stringify(tags)
    return sql.onDialectOrElse({
      pg: () => sql`${sql(column)}::jsonb @> ${json}::jsonb`,
      orElse: () =>
        sql`NOT EXISTS (SELECT 1 FROM json_each(${json}) w WHERE NOT EXISTS (
          SELECT 1 FROM json_each(${sql(column)}) j WHERE j.key = w.key AND j.value = w.value))`
    })
  },
  /** `column`'s tags (JSON text) are all among `tags`. */
  within: (column: string, tags: ProvisionerTags): Statement.Fragment => {
    const json = JSON.stringify(tags)
    return sql.onDialectOrElse({
      pg: () => sql`${sql(column)}::jsonb <@ ${json}::jsonb`,
      orElse: () =>
        sql`NOT EXISTS (SELECT 1 FROM json_each(${sql(column)}) j WHERE NOT EXISTS (
          SELECT 1 FROM json_each(${json}) w WHERE w.key = j.key AND w.value = j.value))`
    })
  }
})
