/**
 * `stat`: run inside a workspace, what its machine uses, as the described system's `coder stat`:
 * the host's CPU (over `--sample`) and memory, the disk holding `--path` (default the home folder),
 * and in a container (Docker's `/.dockerenv`, Podman's `/run/.containerenv`, or `container` in the
 * environment) the container's CPU and memory from its cgroup (v2, else v1) against its limits
 * (the host's when it has none). Read from /proc, /sys/fs/cgroup and statfs: it asks no deployment.
 */
import { existsSync, readFileSync, statfsSync } from "node:fs"
import { homedir } from "node:os"
import type { Context } from "../Context.js"
import { usageError } from "../Errors.js"
import { parseDuration } from "../Flags.js"
import { printJson, printTable } from "../Output.js"

const GIB = 1024 ** 3

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8").trim()
  } catch {
    return undefined
  }
}

/** Busy and total jiffies of all CPUs, and their number (/proc/stat). */
const hostCpu = () => {
  const lines = (read("/proc/stat") ?? "").split("\n")
  const all = lines[0]!.split(/\s+/).slice(1).map(Number)
  const idle = (all[3] ?? 0) + (all[4] ?? 0)
  const total = all.reduce((a, b) => a + b, 0)
  const cores = lines.filter((l) => /^cpu\d+ /.test(l)).length
  return { busy: total - idle, total, cores }
}

const hostMemory = () => {
  const info = new Map(
    (read("/proc/meminfo") ?? "").split("\n").map((l) => {
      const [k, v] = l.split(":")
      return [k!, Number.parseInt(v ?? "0", 10) * 1024] as const
    })
  )
  const total = info.get("MemTotal") ?? 0
  return { used: total - (info.get("MemAvailable") ?? 0), total }
}

const inContainer = () =>
  existsSync("/.dockerenv") || existsSync("/run/.containerenv") || (process.env.container ?? "") !== ""

/** The cgroup's CPU time so far (µs) and its CPU limit in cores (undefined: none). */
const cgroupCpu = (): { readonly usageMicros: number; readonly limit: number | undefined } | undefined => {
  const v2 = read("/sys/fs/cgroup/cpu.stat")
  if (v2 !== undefined) {
    const usage = Number(/usage_usec (\d+)/.exec(v2)?.[1] ?? Number.NaN)
    const [quota, period] = (read("/sys/fs/cgroup/cpu.max") ?? "max").split(/\s+/)
    const limit = quota === "max" || period === undefined ? undefined : Number(quota) / Number(period)
    return Number.isNaN(usage) ? undefined : { usageMicros: usage, limit }
  }
  const v1 = read("/sys/fs/cgroup/cpuacct/cpuacct.usage") ?? read("/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage")
  if (v1 === undefined) return undefined
  const quota = Number(read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us") ?? "-1")
  const period = Number(read("/sys/fs/cgroup/cpu/cpu.cfs_period_us") ?? "100000")
  return { usageMicros: Number(v1) / 1000, limit: quota > 0 ? quota / period : undefined }
}

const cgroupMemory = (): { readonly used: number; readonly limit: number | undefined } | undefined => {
  const current = read("/sys/fs/cgroup/memory.current")
  if (current !== undefined) {
    const max = read("/sys/fs/cgroup/memory.max")
    return { used: Number(current), limit: max === undefined || max === "max" ? undefined : Number(max) }
  }
  const used = read("/sys/fs/cgroup/memory/memory.usage_in_bytes")
  if (used === undefined) return undefined
  const limit = Number(read("/sys/fs/cgroup/memory/memory.limit_in_bytes") ?? "0")
  // cgroup v1 writes "no limit" as a number near 2^63.
  return { used: Number(used), limit: limit > 0 && limit < 2 ** 60 ? limit : undefined }
}

interface Usage {
  readonly used: number
  readonly total: number
  readonly unit: "cores" | "GiB"
}

const show = (u: Usage) =>
  `${u.used.toFixed(1)}/${u.total.toFixed(u.unit === "cores" ? 0 : 1)} ${u.unit} (${
    u.total === 0 ? 0 : Math.round((100 * u.used) / u.total)
  }%)`

export interface StatFlags {
  readonly sample: string
  readonly path?: string
}

export const stat = async (ctx: Context, flags: StatFlags) => {
  const sampleMs = parseDuration(flags.sample, "--sample")
  const path = flags.path ?? homedir()
  let disk: ReturnType<typeof statfsSync>
  try {
    disk = statfsSync(path)
  } catch (e) {
    throw usageError(`Cannot read the disk of ${path}: ${e instanceof Error ? e.message : e}`)
  }
  const container = inContainer()
  const cpu0 = hostCpu()
  const cg0 = container ? cgroupCpu() : undefined
  const t0 = performance.now()
  await new Promise((resolve) => setTimeout(resolve, sampleMs))
  const cpu1 = hostCpu()
  const cg1 = container ? cgroupCpu() : undefined
  const elapsedMicros = (performance.now() - t0) * 1000
  const hostShare = cpu1.total === cpu0.total ? 0 : (cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total)
  const mem = hostMemory()
  const stats: Record<string, Usage> = {
    host_cpu: { used: hostShare * cpu1.cores, total: cpu1.cores, unit: "cores" },
    host_memory: { used: mem.used / GIB, total: mem.total / GIB, unit: "GiB" },
    disk: {
      used: ((disk.blocks - disk.bfree) * disk.bsize) / GIB,
      total: (disk.blocks * disk.bsize) / GIB,
      unit: "GiB"
    }
  }
  if (cg0 !== undefined && cg1 !== undefined) {
    stats.container_cpu = {
      used: Math.max(0, cg1.usageMicros - cg0.usageMicros) / elapsedMicros,
      total: cg1.limit ?? cpu1.cores,
      unit: "cores"
    }
  }
  const cgMem = container ? cgroupMemory() : undefined
  if (cgMem !== undefined) {
    stats.container_memory = { used: cgMem.used / GIB, total: (cgMem.limit ?? mem.total) / GIB, unit: "GiB" }
  }
  if (ctx.output === "json") return printJson({ ...stats, disk_path: path })
  const labels: Record<string, string> = {
    host_cpu: "host cpu",
    host_memory: "host memory",
    disk: "disk",
    container_cpu: "container cpu",
    container_memory: "container memory"
  }
  printTable(Object.keys(stats).map((k) => labels[k]!), [Object.values(stats).map(show)], "stats")
}
