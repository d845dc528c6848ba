/**
 * A build's timings as a timeline chart: one bar a step (the provisioner's stages, each agent's
 * connection, each of its scripts), from its start to its end on one time axis that runs from the
 * build's first start to its last end, coloured by stage, in the order they started. Drawn here as
 * SVG (a chart library's axes are for categories and series, not for spans over time). The chart
 * is an image with a name; its figures are the timings table beside it, which screen readers read.
 */
export interface TimelineStep {
  readonly key: string
  readonly stage: string
  readonly what: string
  readonly started: string
  readonly ended: string
}

const ROW = 22
const LABEL = 300
const LEFT = LABEL + 10
const RIGHT = 990
const AXIS = 24

/** A time in seconds as the axis shows it: `0 s`, `1.5 s`, `12 s`. */
const secondsLabel = (s: number) => `${s < 10 && s !== Math.round(s) ? s.toFixed(1) : Math.round(s)} s`

/** At most about five round ticks between 0 and `total` seconds. */
const ticksOf = (total: number): Array<number> => {
  if (total <= 0) return [0]
  const raw = total / 4
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw
  const out: Array<number> = []
  for (let t = 0; t <= total + 1e-9; t += step) out.push(Number(t.toFixed(6)))
  return out
}

export const BuildTimeline = ({ title, steps }: { title: string; steps: ReadonlyArray<TimelineStep> }) => {
  const spans = steps
    .map((s) => ({ ...s, from: new Date(s.started).getTime(), to: new Date(s.ended).getTime() }))
    .filter((s) => Number.isFinite(s.from) && Number.isFinite(s.to) && s.to >= s.from)
    .sort((a, b) => a.from - b.from || a.to - b.to)
  if (spans.length === 0) return null
  const start = Math.min(...spans.map((s) => s.from))
  const end = Math.max(...spans.map((s) => s.to))
  const total = (end - start) / 1000
  const x = (t: number) => LEFT + (total === 0 ? 0 : ((t - start) / 1000 / total) * (RIGHT - LEFT))
  const height = spans.length * ROW + AXIS
  const stages = [...new Set(spans.map((s) => s.stage))]
  return (
    <figure className="timeline">
      <svg
        viewBox={`0 0 1000 ${height}`}
        role="img"
        aria-label={`${title}: a timeline of ${spans.length} steps over ${
          secondsLabel(total)
        } (the table that follows holds each step's duration)`}
      >
        {ticksOf(total).map((t) => {
          const at = LEFT + (total === 0 ? 0 : (t / total) * (RIGHT - LEFT))
          return (
            <g key={t} className="tick">
              <line x1={at} x2={at} y1={0} y2={spans.length * ROW} />
              <text x={at} y={spans.length * ROW + 16} textAnchor="middle">{secondsLabel(t)}</text>
            </g>
          )
        })}
        {spans.map((s, i) => (
          <g key={s.key} className={`step stage-${stages.indexOf(s.stage) % 6}`}>
            <text x={LABEL} y={i * ROW + 15} textAnchor="end">
              {s.what.length > 42 ? `${s.what.slice(0, 41)}…` : s.what}
            </text>
            <rect x={x(s.from)} y={i * ROW + 4} width={Math.max(2, x(s.to) - x(s.from))} height={ROW - 8} rx={3}>
              <title>{`${s.stage}: ${s.what}, ${secondsLabel((s.to - s.from) / 1000)}`}</title>
            </rect>
          </g>
        ))}
      </svg>
      <figcaption className="legend">
        {stages.map((stage, i) => (
          <span key={stage} className={`swatch stage-${i % 6}`}>
            {stage}
          </span>
        ))}
      </figcaption>
    </figure>
  )
}
