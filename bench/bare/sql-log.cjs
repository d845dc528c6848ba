// Logs every SQL statement a process runs on better-sqlite3, and every HTTP request it serves,
// one line each, to the file named by SQL_LOG (a discovery tool for the bare servers: which
// statements does a route run?). Load it into the server with `node --require`:
//
//   SQL_LOG=/tmp/sql.log node --require ./bench/bare/sql-log.cjs packages/server/dist/main.mjs ...
//
// Lines: `REQ <method> <url>` when a request arrives; `<method> <sql> <params as JSON>` for each
// statement run (run, get, all, iterate).
const { appendFileSync } = require("node:fs")
const http = require("node:http")
const Database = require("better-sqlite3")

const file = process.env.SQL_LOG
if (file) {
  const write = (line) => appendFileSync(file, line + "\n")
  const wrapped = new WeakSet()
  const prepare = Database.prototype.prepare
  Database.prototype.prepare = function(source, ...rest) {
    const stmt = prepare.call(this, source, ...rest)
    const proto = Object.getPrototypeOf(stmt)
    if (!wrapped.has(proto)) {
      wrapped.add(proto)
      for (const method of ["run", "get", "all", "iterate"]) {
        const original = proto[method]
        proto[method] = function(...params) {
          write(
            `${method} ${this.source.replace(/\s+/g, " ")} ${
              JSON.stringify(
                params,
                (_, v) => (Buffer.isBuffer(v) || v instanceof Uint8Array ? `<${v.length} bytes>` : v)
              )
            }`
          )
          return original.apply(this, params)
        }
      }
    }
    return stmt
  }
  const emit = http.Server.prototype.emit
  http.Server.prototype.emit = function(event, req, ...rest) {
    if (event === "request") write(`REQ ${req.method} ${req.url}`)
    return emit.call(this, event, req, ...rest)
  }
}
