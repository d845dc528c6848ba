/** Server configuration from flags and environment variables (flags win). */
import { parseArgs } from "node:util"
import { join, resolve } from "node:path"

export interface ServerConfig {
  readonly port: number
  readonly host: string | undefined
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly accessUrl: string
  readonly sessionHeader: string | undefined
  readonly sessionCookie: string | undefined
  readonly swaggerEnable: boolean
  readonly experiments: ReadonlyArray<string>
  readonly logLevel: string
  readonly help: boolean
}

/** Every option: flag, environment variable, default and meaning. Drives parsing and `--help`. */
export const options = [
  { flag: "port", env: "PORT", default: "3000", help: "Port to listen on." },
  { flag: "host", env: "HOST", default: "", help: "Address to bind (default: all interfaces)." },
  { flag: "data-dir", env: "WORKBAY_DATA_DIR", default: ".workbay", help: "Folder of the SQLite database (workbay.db)." },
  { flag: "database-url", env: "DATABASE_URL", default: "", help: "postgres://... to store in PostgreSQL instead of SQLite." },
  { flag: "access-url", env: "WORKBAY_ACCESS_URL", default: "", help: "Public URL of the deployment (default http://localhost:PORT)." },
  { flag: "session-header", env: "WORKBAY_SESSION_HEADER", default: "Service-Session-Token", help: "Header carrying session and API tokens." },
  { flag: "session-cookie", env: "WORKBAY_SESSION_COOKIE", default: "service_session_token", help: "Cookie carrying the session token." },
  { flag: "swagger-enable", env: "WORKBAY_SWAGGER_ENABLE", default: "false", help: "Serve the OpenAPI document at /swagger/doc.json." },
  { flag: "experiments", env: "WORKBAY_EXPERIMENTS", default: "", help: "Comma-separated experiments to enable ('*' for all)." },
  { flag: "log-level", env: "WORKBAY_LOG_LEVEL", default: "info", help: "debug, info, warning or error." }
] as const

export const helpText = () =>
  [
    "Usage: npm start -- [flags]   (or: node packages/server/dist/main.mjs [flags])",
    "",
    "Serves the Workbay API (/api/v2). Every flag can also be set by its environment variable.",
    "",
    ...options.map((o) => `  --${o.flag.padEnd(16)} ${o.env.padEnd(24)} ${o.help}${o.default ? ` Default: ${o.default}.` : ""}`),
    "  --help                                            Show this help."
  ].join("\n")

const truthy = (s: string) => ["1", "true", "yes", "on"].includes(s.toLowerCase())

/** Reads flags from `argv` and the environment from `env`. Throws on unknown flags or a bad port. */
export const loadConfig = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): ServerConfig => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ...Object.fromEntries(options.map((o) => [o.flag, { type: "string" as const }])),
      help: { type: "boolean" as const }
    },
    strict: true,
    allowPositionals: false
  })
  const get = (flag: (typeof options)[number]["flag"]): string => {
    const o = options.find((x) => x.flag === flag)!
    return ((values as Record<string, string | boolean | undefined>)[flag] as string | undefined) ?? env[o.env] ?? o.default
  }
  const port = Number(get("port"))
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port "${get("port")}".`)
  const dataDir = resolve(get("data-dir"))
  return {
    port,
    host: get("host") || undefined,
    dataDir,
    databaseUrl: get("database-url") || undefined,
    accessUrl: get("access-url") || `http://localhost:${port}`,
    sessionHeader: get("session-header"),
    sessionCookie: get("session-cookie"),
    swaggerEnable: truthy(get("swagger-enable")),
    experiments: get("experiments").split(",").map((s) => s.trim()).filter((s) => s !== ""),
    logLevel: get("log-level"),
    help: values.help === true
  }
}

export const sqlitePath = (config: ServerConfig) => join(config.dataDir, "workbay.db")

/** A connection URL with its password replaced, for logs. */
export const redactUrl = (url: string) => url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1****@")
