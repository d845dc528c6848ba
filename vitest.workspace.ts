import { defineWorkspace } from "vitest/config"

// One project per package; the Postgres project sets up (or loudly skips) a fresh database per run.
export default defineWorkspace([
  "packages/core",
  "packages/storage-sqlite",
  "packages/storage-postgres",
  "packages/http",
  "packages/agent",
  "packages/server",
  "examples"
])
