/**
 * A provisioner job's log, live: the lines of a logs route (`/workspacebuilds/{id}/logs`,
 * `/templateversions/{id}/logs`) followed over its WebSocket (`?follow=true`, one
 * ProvisionerJobLog per frame, closed by the service when the job ends).
 *
 * Made for long logs: frames are gathered and shown once per animation frame (a burst of a
 * hundred thousand lines is a few hundred renders, not a hundred thousand), and only the rows in
 * view are in the document (@tanstack/react-virtual). The view keeps to the newest line while it
 * is scrolled to the bottom; scrolled up, it stays where the reader is.
 */
import { useVirtualizer } from "@tanstack/react-virtual"
import { useEffect, useRef, useState } from "react"
import { type Schemas, webSocketUrl } from "../api/client.ts"

export type JobLog = Schemas["ProvisionerJobLog"]

/** A line as the view shows it: a provisioner job's, or an agent's (its source as the stage). */
export interface LogLine {
  readonly created_at: string
  readonly output: string
  readonly log_level: string
  readonly stage: string
}

/** A message of a logs route's follow WebSocket as the view's lines (a job's: one line a message). */
export type LogFrames = (message: unknown) => ReadonlyArray<LogLine>

const jobFrames: LogFrames = (message) => [message as JobLog]

/** A row of the view: a stage's heading or one of its lines. */
type Row = { readonly stage: string } | { readonly line: LogLine }

const ROW_HEIGHT = 20

/**
 * The lines of `path` (an API path of a logs route), following them while the job runs; `done`
 * once the service closed the stream. Undefined `path`: nothing followed.
 */
export const useJobLogs = (path: string | undefined, frames: LogFrames = jobFrames) => {
  const [view, setView] = useState<{ rows: ReadonlyArray<Row>; lines: number }>({ rows: [], lines: 0 })
  const [done, setDone] = useState(false)
  useEffect(() => {
    setView({ rows: [], lines: 0 })
    setDone(false)
    if (path === undefined) return
    const all: Array<Row> = []
    let lines = 0
    let lastStage: string | undefined
    let pending: Array<LogLine> = []
    let frame: number | undefined
    const flush = () => {
      frame = undefined
      for (const line of pending) {
        if (line.stage !== lastStage) {
          lastStage = line.stage
          all.push({ stage: line.stage })
        }
        all.push({ line })
      }
      lines += pending.length
      pending = []
      setView({ rows: all.slice(), lines })
    }
    const socket = new WebSocket(webSocketUrl(`${path}?follow=true`))
    socket.onmessage = (event) => {
      pending.push(...frames(JSON.parse(String(event.data))))
      frame ??= requestAnimationFrame(flush)
    }
    socket.onclose = () => {
      if (frame !== undefined) cancelAnimationFrame(frame)
      flush()
      setDone(true)
    }
    return () => {
      socket.onclose = null
      socket.onmessage = null
      if (frame !== undefined) cancelAnimationFrame(frame)
      socket.close()
    }
  }, [path])
  return { rows: view.rows, lines: view.lines, done }
}

const time = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" })

/**
 * The log of `path`, live, in a scrolling region named `label` (role "log"); `onDone` is called
 * once the service closed the stream (the job ended), to read the job's outcome then.
 */
export const JobLogs = (
  { path, label, onDone, frames }: {
    path: string | undefined
    label: string
    onDone?: () => void
    /** How a message becomes lines (default: a provisioner job's, one line a message). */
    frames?: LogFrames
  }
) => {
  const { rows, lines, done } = useJobLogs(path, frames)
  useEffect(() => {
    if (done) onDone?.()
  }, [done])
  const scroller = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20
  })
  useEffect(() => {
    if (atBottom.current && rows.length > 0) virtual.scrollToIndex(rows.length - 1, { align: "end" })
  }, [rows.length])
  return (
    <>
      <div
        className="logs"
        ref={scroller}
        role="log"
        aria-label={label}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 2
        }}
      >
        <div style={{ height: virtual.getTotalSize(), position: "relative" }}>
          {virtual.getVirtualItems().map((item) => {
            const row = rows[item.index]!
            return (
              <div
                key={item.key}
                className={"line" in row ? `line level-${row.line.log_level}` : "line stage"}
                style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
              >
                {"line" in row
                  ? (
                    <>
                      <time dateTime={row.line.created_at}>{time.format(new Date(row.line.created_at))}</time>
                      <span>{row.line.output}</span>
                    </>
                  )
                  : <span>{row.stage}</span>}
              </div>
            )
          })}
        </div>
      </div>
      <p className="hint" aria-live="polite">
        {lines} {lines === 1 ? "line" : "lines"}
        {done ? "" : ", following…"}
      </p>
    </>
  )
}
