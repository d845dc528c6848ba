/**
 * A move's link (core's `MoveLink`, docs/provisioner-daemons.md "Moving a workspace") over a
 * WebSocket of the `ws` library, as a daemon opens it: frames as they come (binary as bytes, text
 * as text), back-pressure both ways. While more than {@link LINK_HIGH_WATER_BYTES} wait to be
 * written, `send` waits for its frame to be written; while more than {@link LINK_QUEUE_FRAMES}
 * received frames wait to be taken, the socket is not read (its sender slows down).
 */
import type { MoveLink } from "./Provisioner.js"

/** The part of a `ws` WebSocket the link uses. */
export interface LinkSocket {
  readonly readyState: number
  readonly bufferedAmount: number
  send(data: Uint8Array | string, options: { binary: boolean }, cb: (error?: Error) => void): void
  on(event: "message", listener: (data: unknown, isBinary: boolean) => void): unknown
  once(event: "close", listener: (code: number, reason: Buffer) => void): unknown
  on(event: "error", listener: (error: Error) => void): unknown
  pause(): void
  resume(): void
  close(code?: number, reason?: string): void
}

export const LINK_HIGH_WATER_BYTES = 1024 * 1024
export const LINK_QUEUE_FRAMES = 64

const OPEN = 1

const bytesOf = (data: unknown): Uint8Array =>
  Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
    ? Buffer.concat(data as Array<Buffer>)
    : Buffer.from(data as ArrayBuffer)

/** The link over `socket` (open; paused or not: it is resumed here). */
export const moveLinkOf = (socket: LinkSocket): MoveLink => {
  const frames: Array<Uint8Array | string> = []
  let paused = false
  let ended: { readonly code: number; readonly reason: string } | undefined
  let waiter: { resolve: (f: Uint8Array | string | undefined) => void; reject: (e: Error) => void } | undefined
  const settle = () => {
    if (waiter === undefined) return
    const w = waiter
    const frame = frames.shift()
    if (frame !== undefined) {
      waiter = undefined
      if (paused && frames.length < LINK_QUEUE_FRAMES / 2) {
        paused = false
        socket.resume()
      }
      return w.resolve(frame)
    }
    if (ended === undefined) return
    waiter = undefined
    if (ended.code === 1000) w.resolve(undefined)
    else w.reject(new Error(`the link closed (${ended.code}${ended.reason === "" ? "" : `: ${ended.reason}`})`))
  }
  socket.on("message", (data, isBinary) => {
    frames.push(isBinary ? bytesOf(data) : bytesOf(data).toString())
    if (!paused && frames.length >= LINK_QUEUE_FRAMES) {
      paused = true
      socket.pause()
    }
    settle()
  })
  socket.once("close", (code, reason) => {
    ended = { code, reason: reason.toString() }
    settle()
  })
  socket.on("error", () => {})
  socket.resume()
  return {
    send: (data) =>
      new Promise<void>((resolve, reject) => {
        if (socket.readyState !== OPEN || ended !== undefined) return reject(new Error("the link is closed"))
        let early = false
        socket.send(data, { binary: typeof data !== "string" }, (error) => {
          if (error !== undefined && error !== null) return early ? undefined : reject(error)
          if (!early) resolve()
        })
        if (socket.bufferedAmount <= LINK_HIGH_WATER_BYTES) {
          early = true
          resolve()
        }
      }),
    next: () =>
      new Promise((resolve, reject) => {
        waiter = { resolve, reject }
        settle()
      }),
    close: (code = 1000, reason = "") => {
      if (socket.readyState === OPEN) socket.close(code, reason)
    }
  }
}
