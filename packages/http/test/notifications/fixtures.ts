/** Real receivers for the notifier's tests: an SMTP server (smtp-server) and a webhook endpoint (node:http), in the test process. */
import { simpleParser } from "mailparser"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

/** A mail as the SMTP server received it. */
export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  /** The message as sent (headers and MIME body). */
  readonly raw: string
  /** The decoded subject, text part and HTML part. */
  readonly subject: string
  readonly text: string
  readonly html: string
  /** The credentials the client authenticated with, if any. */
  readonly user: string | undefined
  /** The client's EHLO name. */
  readonly hello: string
}

/**
 * An SMTP server on a random local port that keeps every mail. With `auth`, it takes PLAIN and
 * LOGIN and accepts only those credentials. STARTTLS is off (the tests send in clear text).
 */
export const startSmtp = async (auth?: { readonly user: string; readonly pass: string }) => {
  const mails: Array<ReceivedMail> = []
  const server = new SMTPServer({
    disabledCommands: auth === undefined ? ["STARTTLS", "AUTH"] : ["STARTTLS"],
    authMethods: ["PLAIN", "LOGIN"],
    allowInsecureAuth: true,
    authOptional: auth === undefined,
    logger: false,
    onAuth(a, _session, callback) {
      if (auth !== undefined && a.username === auth.user && a.password === auth.pass) {
        return callback(null, { user: a.username })
      }
      return callback(new Error("Invalid username or password"))
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (c: Buffer) => chunks.push(c))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks)
        simpleParser(raw).then((parsed) => {
          mails.push({
            from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: raw.toString("utf8"),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: parsed.html || "",
            user: session.user as string | undefined,
            hello: session.hostNameAppearsAs
          })
          callback()
        }, callback)
      })
    }
  })
  // A client that goes away mid-session (a server under test stopped while it sends) resets the
  // connection: the mail is not kept, and the reset is no failure of the test server.
  server.on("error", () => undefined)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return {
    mails,
    smarthost: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** A webhook request as the endpoint received it. */
export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders
  readonly body: any
}

/** An HTTP endpoint on a random local port that keeps every POST and answers `status()` (200 unless changed). */
export const startWebhook = async () => {
  const received: Array<ReceivedWebhook> = []
  let status = 200
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
      res.statusCode = status
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    answer: (s: number) => void (status = s),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
