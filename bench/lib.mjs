// Helpers shared by the benchmarks: free ports, spawning and waiting for
// servers, reading a process's resident set, and driving autocannon.
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A port free on 127.0.0.1 right now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status), or undefined off Linux. */
export const rssMb = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m ? Number(m[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

/** One request; resolves to { status, body } (never rejects on HTTP errors). */
export const request = async (url, init = {}) => {
  const res = await fetch(url, init)
  const text = await res.text()
  let body
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: res.status, body }
}

/**
 * Spawns `node args...` and polls `readyUrl` every 5 ms until it answers 200.
 * Resolves with the child, the time from spawn to the first 200 (ms), and the
 * child's stdout so far. Fails after `timeoutMs`.
 */
export const spawnServer = async (args, readyUrl, { env = process.env, timeoutMs = 20_000 } = {}) => {
  const t0 = performance.now()
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout.on("data", (d) => (output += d))
  child.stderr.on("data", (d) => (output += d))
  let exited = false
  child.once("exit", () => (exited = true))
  while (true) {
    if (exited) throw new Error(`Server exited before it was ready:\n${output}`)
    if (performance.now() - t0 > timeoutMs) {
      child.kill("SIGKILL")
      throw new Error(`Server not ready after ${timeoutMs} ms:\n${output}`)
    }
    try {
      const res = await fetch(readyUrl)
      await res.arrayBuffer()
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    await sleep(5)
  }
  const startupMs = performance.now() - t0
  // The "ready in" line is printed right after listen; give it a moment to arrive.
  for (let i = 0; i < 50 && !/ready in/.test(output) && args.some((a) => a.includes("main.mjs")); i++) await sleep(10)
  return { child, startupMs, output: () => output }
}

/** Stops a child we spawned (SIGTERM, then SIGKILL after 3 s). */
export const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGTERM")
  })

/** Runs autocannon against a 127.0.0.1 url and returns the figures we report. */
export const load = (url, { connections, duration, headers = {} }) => {
  if (!new URL(url).hostname.startsWith("127.")) throw new Error(`Load goes to 127.0.0.1 only, not ${url}`)
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers, timeout: 10 }, (error, result) => {
      if (error) return reject(error)
      resolve({
        rps: result.requests.average,
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
        total: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts
      })
    })
  })
}

/** Latency of `n` sequential requests (ms): median and p99. No concurrency: the cost of one request. */
export const sequential = async (url, headers, n) => {
  const times = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    const res = await fetch(url, { headers })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return { median: times[Math.floor(n / 2)], p99: times[Math.min(n - 1, Math.floor(n * 0.99))] }
}

export const fmt = (n, digits = 1) => (n === undefined || Number.isNaN(n) ? "n/a" : n.toFixed(digits))
