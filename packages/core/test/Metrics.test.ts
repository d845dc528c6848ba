import { describe, expect, it } from "vitest"
import { isWriteStatement } from "../src/Metrics.js"

describe("isWriteStatement", () => {
  it("counts statements that change data, and not reads", () => {
    for (
      const sql of ["INSERT INTO t VALUES (1)", "  update t set a = 1", "DELETE FROM t", "REPLACE INTO t VALUES (1)"]
    ) {
      expect(isWriteStatement(sql), sql).toBe(true)
    }
    expect(isWriteStatement("WITH x AS (SELECT 1) UPDATE t SET a = 1 FROM x")).toBe(true)
    for (
      const sql of [
        "SELECT 1",
        "  select * from t where name = 'INSERT'",
        "WITH x AS (SELECT 1) SELECT * FROM x",
        "BEGIN"
      ]
    ) {
      expect(isWriteStatement(sql), sql).toBe(false)
    }
  })
})
