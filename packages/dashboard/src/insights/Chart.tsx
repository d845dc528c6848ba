/**
 * A chart (uPlot, on a canvas) with an accessible name, and a table of the same figures for
 * screen readers (visually hidden: the chart shows them to the eye). Categories on the x axis
 * (days, users), one or more series as lines or bars; colours from the page's variables, so light
 * and dark both read.
 */
import { useEffect, useId, useRef } from "react"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"

export interface Series {
  readonly label: string
  readonly values: ReadonlyArray<number>
}

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback

export const Chart = (props: {
  readonly title: string
  readonly categories: ReadonlyArray<string>
  /** The table's header of the categories' column ("Day", "User"). */
  readonly categoryLabel: string
  readonly series: ReadonlyArray<Series>
  readonly kind: "line" | "bars"
  readonly unit?: string
}) => {
  const box = useRef<HTMLDivElement>(null)
  const titleId = useId()
  useEffect(() => {
    const el = box.current
    if (el === null) return
    const fg = cssVar("--fg", "#1b1f24")
    const line = cssVar("--line", "#d0d7de")
    const colours = [cssVar("--accent", "#0a58ca"), cssVar("--muted", "#57606a")]
    const labels = props.categories
    const xs = labels.map((_, i) => i)
    // Two series of bars side by side (the first to the left of the category, the second to the right).
    const side = props.series.length > 1
    const bars = (i: number) =>
      uPlot.paths.bars!(side ? { size: [0.3, 24], align: i === 0 ? -1 : 1 } : { size: [0.6, 48] })
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 220,
        legend: { show: props.series.length > 1 },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: false, range: [-0.5, Math.max(0.5, labels.length - 0.5)] } },
        axes: [
          {
            stroke: fg,
            grid: { stroke: line },
            ticks: { stroke: line },
            values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? labels[s] ?? "" : ""))
          },
          { stroke: fg, grid: { stroke: line }, ticks: { stroke: line } }
        ],
        series: [
          {},
          ...props.series.map((s, i) => ({
            label: s.label,
            stroke: colours[i % colours.length]!,
            width: 2,
            ...(props.kind === "bars"
              ? { fill: colours[i % colours.length]!, paths: bars(i), points: { show: false } }
              : {})
          }))
        ]
      },
      [xs, ...props.series.map((s) => [...s.values])],
      el
    )
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: 220 }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [JSON.stringify(props.series), props.categories.join("\u0000"), props.kind])
  return (
    <figure className="chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>{props.title}</figcaption>
      <div ref={box} role="img" aria-label={`${props.title}: chart (its figures are in the table that follows)`} />
      <table className="visually-hidden">
        <caption>{props.title}</caption>
        <thead>
          <tr>
            <th scope="col">{props.categoryLabel}</th>
            {props.series.map((s) => <th scope="col" key={s.label}>{s.label}</th>)}
          </tr>
        </thead>
        <tbody>
          {props.categories.map((c, i) => (
            <tr key={c}>
              <th scope="row">{c}</th>
              {props.series.map((s) => <td key={s.label}>{s.values[i]}{props.unit ?? ""}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
