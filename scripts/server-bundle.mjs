// What the server's bundles leave out of the script, shared by `npm start`'s (scripts/build.mjs)
// and the tests' (packages/server/test/bundles.ts): these load from node_modules when used.
import { dockerodeLean } from "./dockerode-lean.mjs"

export const serverExternal = [
  // Native and optional modules.
  "better-sqlite3",
  "pg-native",
  "bufferutil",
  "utf-8-validate",
  // Libraries core imports on their first use (packages/core/src/OnDemand.ts): kept out of the
  // script, they cost a start-up neither their evaluation nor the reading of about 0.9 MB.
  "jose",
  "nodemailer",
  "openid-client",
  "pkijs",
  "sshpk",
  "tar",
  // OpenTelemetry's SDK and exporter (about 0.3 MB), which only `--trace` loads (packages/server/src/Tracing.ts).
  // Its API stays in the script: prom-client loads it at every start (copies share their state).
  "@opentelemetry/exporter-trace-otlp-http",
  "@opentelemetry/resources",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/semantic-conventions"
]

/** dockerode without BuildKit's gRPC session, ssh2 loaded only for an ssh:// daemon (dockerode-lean.mjs). */
export const serverPlugins = [dockerodeLean]
