/**
 * What a scaletest measures: latencies by kind of request (each kept whole, for exact percentiles,
 * and as a histogram of fixed bounds for `--output json`), counts and errors; the summary table
 * printed at the end and the JSON document (docs/scaletest.md).
 */

/** The histogram's upper bounds in milliseconds (the last bucket holds everything above). */
export const BUCKETS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 300, 500, 1000, 2000, 5000, 10_000, 30_000] as const

/** The first errors kept per kind, for the summary (the rest are counted). */
const KEPT_ERRORS = 5

class Series {
  private samples = new Float64Array(1024)
  count = 0
  errors = 0
  readonly firstErrors: Array<string> = []

  add(ms: number) {
    if (this.count === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2)
      grown.set(this.samples)
      this.samples = grown
    }
    this.samples[this.count++] = ms
  }

  fail(error: string) {
    this.errors++
    if (this.firstErrors.length < KEPT_ERRORS) this.firstErrors.push(error)
  }

  summary(): KindSummary {
    const sorted = this.samples.slice(0, this.count).sort()
    const at = (q: number) =>
      sorted.length === 0 ? null : round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!)
    const histogram = BUCKETS_MS.map((le) => ({ le: le as number | null, count: 0 }))
    histogram.push({ le: null, count: 0 })
    let bucket = 0
    for (const ms of sorted) {
      while (bucket < BUCKETS_MS.length && ms > BUCKETS_MS[bucket]!) bucket++
      histogram[bucket]!.count++
    }
    return {
      count: this.count,
      errors: this.errors,
      p50_ms: at(0.5),
      p90_ms: at(0.9),
      p95_ms: at(0.95),
      p99_ms: at(0.99),
      max_ms: sorted.length === 0 ? null : round(sorted[sorted.length - 1]!),
      histogram,
      first_errors: this.firstErrors
    }
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100

export interface KindSummary {
  readonly count: number
  readonly errors: number
  readonly p50_ms: number | null
  readonly p90_ms: number | null
  readonly p95_ms: number | null
  readonly p99_ms: number | null
  readonly max_ms: number | null
  /** Requests per bucket: `le` its upper bound in milliseconds, null for the last (everything above). */
  readonly histogram: ReadonlyArray<{ readonly le: number | null; readonly count: number }>
  readonly first_errors: ReadonlyArray<string>
}

/** Latencies and errors by kind (`agent:update_stats`, `user:list workspaces`, `traffic:pty echo`, ...). */
export class Metrics {
  private readonly series = new Map<string, Series>()

  private of(kind: string): Series {
    let s = this.series.get(kind)
    if (s === undefined) this.series.set(kind, s = new Series())
    return s
  }

  /** A request of `kind` that took `ms`, failed when `error` is given. */
  record(kind: string, ms: number, error?: string) {
    const s = this.of(kind)
    if (error === undefined) s.add(ms)
    else s.fail(error)
  }

  /** Times `run` as a request of `kind`; a rejection is its error, and is thrown on. */
  async time<A>(kind: string, run: () => Promise<A>): Promise<A> {
    const started = performance.now()
    try {
      const a = await run()
      this.record(kind, performance.now() - started)
      return a
    } catch (e) {
      this.record(kind, performance.now() - started, e instanceof Error ? e.message : String(e))
      throw e
    }
  }

  get errors(): number {
    let n = 0
    for (const s of this.series.values()) n += s.errors
    return n
  }

  /** Each kind's summary, by kind's name. */
  summaries(): Record<string, KindSummary> {
    return Object.fromEntries(
      [...this.series.entries()].sort(([a], [b]) => a.localeCompare(b)).map((
        [k, s]
      ) => [k, s.summary()])
    )
  }
}

/** The kind under which `probeLoopDelay` records. */
export const LOOP_DELAY_KIND = "process:event loop delay"

/**
 * How late the process's own timers run (its event loop's delay), sampled every `everyMs` into
 * `into()` as `process:event loop delay`: a stall here delays every request the process measures,
 * so the run's summary says which process a tail came from (the server reports its own as
 * `nodejs_eventloop_lag_*`). Answers the function that stops the probe.
 */
export const probeLoopDelay = (into: () => Pick<Metrics, "record">, everyMs = 100): () => void => {
  let expected = performance.now() + everyMs
  let timer: NodeJS.Timeout | undefined
  const tick = () => {
    const now = performance.now()
    into().record(LOOP_DELAY_KIND, Math.max(0, now - expected))
    expected = now + everyMs
    timer = setTimeout(tick, everyMs).unref()
  }
  timer = setTimeout(tick, everyMs).unref()
  return () => clearTimeout(timer)
}

const ms = (v: number | null) => (v === null ? "-" : v < 10 ? v.toFixed(1) : String(Math.round(v)))

/** The summary table's rows: one per kind of request. */
export const summaryRows = (summaries: Record<string, KindSummary>): Array<Array<string>> =>
  Object.entries(summaries).map(([kind, s]) => [
    kind,
    String(s.count),
    String(s.errors),
    ms(s.p50_ms),
    ms(s.p90_ms),
    ms(s.p95_ms),
    ms(s.p99_ms),
    ms(s.max_ms)
  ])

export const SUMMARY_HEADERS = ["request", "count", "errors", "p50 ms", "p90 ms", "p95 ms", "p99 ms", "max ms"]
