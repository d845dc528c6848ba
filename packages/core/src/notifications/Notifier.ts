/**
 * The notifier: the background work that sends queued notification messages
 * (docs/notifications.md). Every fetch interval it leases up to `lease_count` messages (pending,
 * due for a retry, or whose lease ran out), renders each with its template and sends it by its
 * method within `dispatch_timeout`: `inbox` through the `InboxDelivery` port, `smtp` and
 * `webhook` through `NotificationSenders`. A success marks the message sent; a failure is
 * retried after `retry_interval` until `max_send_attempts`, then the message fails for good
 * with the reason. While the notifier is paused (`notifier_paused`) nothing is leased.
 *
 * Several processes on one Postgres each run a notifier: the lease is one statement with
 * `FOR UPDATE SKIP LOCKED`, so a message is leased by one of them; a process that dies
 * mid-send leaves its lease to run out (`lease_period`), and another sends the message then; a
 * notifier that is stopped hands back what it leased and has not sent (pending again).
 *
 * Besides the periodic fetch (the fallback), `run` fetches as soon as a message is enqueued: the
 * queue publishes a wake-up on `NOTIFIER_WAKE_CHANNEL`, which reaches every replica's notifier.
 * Wake-ups coalesce: those that arrive while a fetch runs cause one more fetch after it, not one
 * each. A fetch that leased a full batch is followed by another at once (more may be waiting).
 */
import { Clock, Context, Data, Duration, Effect, Layer, Option, Queue } from "effect"
import { readFileSync } from "node:fs"
import type * as Nodemailer from "nodemailer"
import { Metrics, secondsSince } from "../Metrics.js"
import { nodemailerModule } from "../OnDemand.js"
import { PubSub } from "../PubSub.js"
import { Settings, type SettingsShape } from "../Settings.js"
import { span } from "../Tracing.js"
import { InboxDelivery } from "./InboxDelivery.js"
import {
  type NotificationMessageRecord,
  type NotificationPayload,
  NotificationRepo,
  withoutSecretLabels
} from "./NotificationMessage.js"
import { NOTIFIER_WAKE_CHANNEL } from "./NotificationQueue.js"
import { NOTIFIER_PAUSED_KEY } from "./Notifications.js"
import { findTemplate, type TemplateAction } from "./NotificationTemplate.js"
import { renderTemplate, toHtml, toPlainText } from "./Render.js"

/** A rendered message, ready for a sender. */
export interface OutgoingNotification {
  readonly id: string
  readonly payload: NotificationPayload
  /** Markdown. */
  readonly title: string
  /** Markdown. */
  readonly body: string
  readonly actions: ReadonlyArray<TemplateAction>
  readonly targets: ReadonlyArray<string>
  readonly createdAt: Date
}

/** Why a send failed (the message's `status_reason`). */
export class DeliveryFailure extends Data.TaggedError("DeliveryFailure")<{ readonly reason: string }> {}

/** The smtp and webhook methods; the inbox method is `InboxDelivery`. */
export class NotificationSenders extends Context.Tag("@workbay/core/NotificationSenders")<NotificationSenders, {
  readonly smtp: (message: OutgoingNotification) => Effect.Effect<void, DeliveryFailure>
  readonly webhook: (message: OutgoingNotification) => Effect.Effect<void, DeliveryFailure>
}>() {
  /** Mail by nodemailer through the deployment's smarthost; webhooks by fetch. */
  static readonly live: Layer.Layer<NotificationSenders, never, Settings> = Layer.effect(
    NotificationSenders,
    Effect.map(Settings, (settings) => ({ smtp: smtpSender(settings), webhook: webhookSender(settings) }))
  )
}

/** A failure's reason: the error's message, with its cause's (fetch's "fetch failed" says nothing alone). */
const failure = (e: unknown) => {
  if (!(e instanceof Error)) return new DeliveryFailure({ reason: String(e) })
  const cause = e.cause instanceof Error ? `: ${(e.cause as Error & { code?: string }).code ?? e.cause.message}` : ""
  return new DeliveryFailure({ reason: `${e.message}${cause}` })
}

/** `host:port` (port 587 when absent, 465 with forced TLS). */
export const parseSmarthost = (smarthost: string, forceTls: boolean): { host: string; port: number } | undefined => {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(smarthost.trim())
  if (m === null || m[1] === undefined || m[1] === "") return undefined
  const port = m[2] === undefined ? (forceTls ? 465 : 587) : Number(m[2])
  return port > 0 && port < 65536 ? { host: m[1], port } : undefined
}

const readOptional = (path: string) => (path === "" ? undefined : readFileSync(path))

/**
 * Mail through the smarthost: TLS from the start with `force_tls`, STARTTLS required with
 * `tls.start_tls` (else used when the server offers it), PLAIN/LOGIN auth when a username is set.
 * The transport is made once and keeps no connection open between messages.
 */
const smtpSender = (settings: SettingsShape) => {
  let transport: Nodemailer.Transporter | undefined
  const transportOf = (nodemailer: Pick<typeof Nodemailer, "createTransport">) => {
    if (transport !== undefined) return transport
    const target = parseSmarthost(settings.emailSmarthost, settings.emailForceTls)
    if (target === undefined) throw new Error(`The smarthost "${settings.emailSmarthost}" is not host:port.`)
    const ca = readOptional(settings.emailTlsCaFile)
    const cert = readOptional(settings.emailTlsCertFile)
    const key = readOptional(settings.emailTlsKeyFile)
    transport = nodemailer.createTransport({
      host: target.host,
      port: target.port,
      secure: settings.emailForceTls,
      requireTLS: settings.emailTlsStartTls,
      name: settings.emailHello,
      connectionTimeout: Duration.toMillis(settings.notificationsDispatchTimeout),
      ...(settings.emailAuthUsername === ""
        ? {}
        : { auth: { user: settings.emailAuthUsername, pass: settings.emailAuthPassword } }),
      tls: {
        rejectUnauthorized: !settings.emailTlsInsecureSkipVerify,
        ...(settings.emailTlsServerName === "" ? {} : { servername: settings.emailTlsServerName }),
        ...(ca === undefined ? {} : { ca }),
        ...(cert === undefined ? {} : { cert }),
        ...(key === undefined ? {} : { key })
      }
    })
    return transport
  }
  return (message: OutgoingNotification) =>
    Effect.flatMap(nodemailerModule, (nodemailer) =>
      Effect.tryPromise({
        try: async (signal) => {
          if (message.payload.user_email === "") throw new Error("The recipient has no email address.")
          const actionsText = message.actions.map((a) => `${a.label}: ${a.url}`).join("\n")
          const actionsHtml = message.actions.map((a) =>
            `<p><a href="${escapeHtml(a.url)}">${escapeHtml(a.label)}</a></p>`
          ).join("")
          const sending = transportOf(nodemailer).sendMail({
            from: settings.emailFrom,
            to: message.payload.user_email,
            subject: toPlainText(message.title),
            text: [toPlainText(message.body), actionsText].filter((s) => s !== "").join("\n\n"),
            html: `${toHtml(message.body)}${actionsHtml}`,
            messageId: `<${message.id}@${settings.emailHello}>`
          })
          signal.addEventListener("abort", () => transport?.close())
          await sending
        },
        catch: failure
      }))
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** The webhook body (the described system's `WebhookPayload`, version 1.1). */
export const webhookBody = (message: OutgoingNotification) => ({
  _version: "1.1",
  msg_id: message.id,
  payload: { ...message.payload, actions: message.actions },
  title: toPlainText(message.title),
  title_markdown: message.title,
  body: toPlainText(message.body),
  body_markdown: message.body
})

/** POSTs the JSON body to the endpoint; anything but 2xx fails. */
const webhookSender = (settings: SettingsShape) => (message: OutgoingNotification) =>
  Effect.tryPromise({
    try: async (signal) => {
      const res = await fetch(settings.notificationsWebhookEndpoint, {
        method: "POST",
        headers: { "content-type": "application/json", "x-message-id": message.id },
        body: JSON.stringify(webhookBody(message)),
        signal
      })
      await res.arrayBuffer().catch(() => undefined)
      if (res.status < 200 || res.status > 299) throw new Error(`The webhook endpoint answered ${res.status}.`)
    },
    catch: failure
  })

/** The inbox's fallback icon of a template group (the described system's `DEFAULT_ICON_*`). */
const iconOf = (group: string) =>
  group === "Workspace Events" || group === "Task Events"
    ? "DEFAULT_ICON_WORKSPACE"
    : group === "User Events"
    ? "DEFAULT_ICON_ACCOUNT"
    : group === "Template Events"
    ? "DEFAULT_ICON_TEMPLATE"
    : "DEFAULT_ICON_OTHER"

/** What one fetch did. */
export interface DispatchReport {
  /** True when the notifier is paused (nothing was leased). */
  readonly paused: boolean
  readonly leased: number
  readonly sent: number
  /** Failed sends (retried later or failed for good). */
  readonly failed: number
}

/** How many leased messages are sent at once. */
export const DISPATCH_CONCURRENCY = 10

export class Notifier extends Effect.Service<Notifier>()("@workbay/core/Notifier", {
  effect: Effect.gen(function*() {
    const repo = yield* NotificationRepo
    const settings = yield* Settings
    const senders = yield* NotificationSenders
    const inbox = yield* InboxDelivery
    const metrics = yield* Metrics
    const pubsub = yield* PubSub
    const baseUrl = settings.accessUrl.replace(/\/+$/, "")

    const send = (message: NotificationMessageRecord, out: OutgoingNotification, icon: string) => {
      switch (message.method) {
        case "smtp":
          return senders.smtp(out)
        case "webhook":
          return senders.webhook(out)
        case "inbox":
          return inbox.deliver({
            id: message.id,
            userId: message.user_id,
            templateId: message.template_id,
            targets: message.targets,
            title: out.title,
            content: out.body,
            icon,
            actions: out.actions,
            createdAt: message.created_at
          })
      }
    }

    /** Renders and sends one leased message, then records the outcome. True when it was sent. */
    const dispatch = (message: NotificationMessageRecord) =>
      Effect.gen(function*() {
        const leasedUntil = message.leased_until!
        const template = findTemplate(message.template_id)
        const started = metrics.enabled ? performance.now() : 0
        const outcome = yield* Effect.gen(function*() {
          if (template === undefined) {
            return yield* new DeliveryFailure({ reason: `Unknown template ${message.template_id}.` })
          }
          const p = message.payload
          const rendered = yield* Effect.try({
            try: () =>
              renderTemplate(template, {
                labels: p.labels,
                data: p.data ?? {},
                user_name: p.user_name,
                user_username: p.user_username,
                user_email: p.user_email,
                base_url: baseUrl
              }),
            catch: failure
          })
          const out: OutgoingNotification = {
            id: message.id,
            payload: p,
            ...rendered,
            targets: message.targets,
            createdAt: message.created_at
          }
          yield* send(message, out, iconOf(template.group)).pipe(
            Effect.timeoutFail({
              duration: settings.notificationsDispatchTimeout,
              onTimeout: () =>
                new DeliveryFailure({
                  reason: `Sending took longer than ${Duration.format(settings.notificationsDispatchTimeout)}.`
                })
            })
          )
        }).pipe(Effect.either)
        const now = new Date(yield* Clock.currentTimeMillis)
        if (outcome._tag === "Right") {
          // A secret the message carried (a one-time passcode) is not kept once it went out.
          if (metrics.enabled) {
            metrics.notificationDispatched(message.method, message.template_id, "success", secondsSince(started))
          }
          yield* repo.markSent(message.id, leasedUntil, now, withoutSecretLabels(message.payload))
          return true
        }
        const permanent = template === undefined || message.attempt_count + 1 >= settings.notificationsMaxSendAttempts
        if (metrics.enabled) {
          metrics.notificationDispatched(
            message.method,
            message.template_id,
            permanent ? "permanent_failure" : "temporary_failure",
            secondsSince(started)
          )
        }
        const retryAt = permanent
          ? null
          : new Date(now.getTime() + Duration.toMillis(settings.notificationsRetryInterval))
        yield* repo.markFailed(
          message.id,
          leasedUntil,
          outcome.left.reason,
          retryAt,
          now,
          permanent ? withoutSecretLabels(message.payload) : undefined
        )
        yield* Effect.logWarning(`Notification ${message.id} (${message.method}) failed: ${outcome.left.reason}`)
        return false
      })

    /** One fetch: lease, send, record. Nothing while paused. */
    const dispatchOnce: Effect.Effect<DispatchReport> = Effect.gen(function*() {
      const paused = Option.getOrUndefined(yield* repo.siteConfig(NOTIFIER_PAUSED_KEY)) === "true"
      if (paused) return { paused: true, leased: 0, sent: 0, failed: 0 }
      const now = new Date(yield* Clock.currentTimeMillis)
      const leased = yield* repo.lease({
        now,
        leasedUntil: new Date(now.getTime() + Duration.toMillis(settings.notificationsLeasePeriod)),
        count: settings.notificationsLeaseCount,
        maxAttempts: settings.notificationsMaxSendAttempts
      })
      // Stopped mid-way (a shutdown): what was not sent or failed yet goes back to pending at once,
      // instead of waiting out the lease. A send under way is abandoned; it may be sent again.
      const open = new Set(leased.map((m) => m.id))
      const results = yield* Effect.forEach(
        leased,
        (m) => Effect.tap(dispatch(m), () => Effect.sync(() => open.delete(m.id))),
        { concurrency: DISPATCH_CONCURRENCY }
      ).pipe(
        Effect.onInterrupt(() =>
          open.size === 0 ?
            Effect.void :
            Effect.flatMap(Clock.currentTimeMillis, (ms) =>
              repo.release([...open], leased[0]!.leased_until!, new Date(ms)).pipe(
                Effect.flatMap((n) =>
                  Effect.logInfo(`Handed ${n} leased notification(s) back to the queue.`)
                )
              ))
        )
      )
      const sent = results.filter((r) => r).length
      return { paused: false, leased: leased.length, sent, failed: leased.length - sent }
    }).pipe(span("Notifier.dispatchOnce"))

    /**
     * Fetches forever (fork it): at once, then whenever a message is enqueued (on any replica), and
     * at the latest `interval` after the last fetch. A failed fetch is logged; the next runs on time.
     */
    const run = (interval: Duration.DurationInput = settings.notificationsFetchInterval): Effect.Effect<never> =>
      Effect.scoped(Effect.gen(function*() {
        // Subscribed before the first fetch, so nothing enqueued from then on waits for the interval.
        const wakes = yield* pubsub.subscribe(NOTIFIER_WAKE_CHANNEL)
        const fetch = dispatchOnce.pipe(
          Effect.map((r) => r.leased > 0 && r.leased >= settings.notificationsLeaseCount),
          Effect.catchAllCause((cause) => Effect.as(Effect.logError("Notification dispatch failed", cause), false))
        )
        return yield* Effect.forever(Effect.gen(function*() {
          const full = yield* fetch
          if (full) return
          // A wake-up already waiting (it came during the fetch) ends this at once: one more fetch.
          yield* Effect.raceFirst(Queue.take(wakes), Effect.sleep(interval))
          yield* Queue.takeAll(wakes)
        }))
      }))

    return { dispatchOnce, run } as const
  })
}) {}

/** Options of the notifier's background work. */
export interface NotifierOptions {
  /** Time between fetches. Default: the `notifications.fetch_interval` setting (15 s). */
  readonly interval?: Duration.DurationInput | undefined
}

/** A layer whose fiber fetches and sends every `interval` until its scope closes. */
export const notifierPeriodic = (options: NotifierOptions = {}): Layer.Layer<never, never, Notifier> =>
  Layer.scopedDiscard(Effect.flatMap(Notifier, (n) => Effect.forkScoped(n.run(options.interval))))
