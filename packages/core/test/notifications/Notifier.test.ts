/**
 * The notification queue and the notifier on the real services over an in-memory SQLite
 * storage, driven by the TestClock, with recording senders (smtp, webhook) and a recording
 * inbox: which methods a message goes out by, preferences and defaults, the once-a-day dedupe,
 * retries after `retry_interval` up to `max_send_attempts`, a lease that runs out, the pause, the
 * dispatch timeout, leases handed back when the notifier stops, and rendering with the catalog's templates.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  DeliveryFailure,
  InboxDelivery,
  type InboxDeliveryInput,
  NotificationQueue,
  NotificationRepo,
  Notifications,
  NotificationSenders,
  Notifier,
  type OutgoingNotification,
  type SettingsShape,
  TemplateIds,
  UserRepo,
  Users
} from "@workbay/core"
import { Clock, Duration, Effect, Fiber, Layer, Option, Queue } from "effect"
import * as TestClock from "effect/TestClock"
import { services, signedInOwner } from "../services.js"

const T0 = Date.parse("2024-03-01T10:00:00Z")

/** What the fake senders saw, and how they answer. */
const recorder = () => {
  const smtp: Array<OutgoingNotification> = []
  const webhook: Array<OutgoingNotification> = []
  const inbox: Array<InboxDeliveryInput> = []
  const state = { failWebhook: false, hangSmtp: false }
  const layer = Layer.merge(
    Layer.succeed(NotificationSenders, {
      smtp: (m) => (state.hangSmtp ? Effect.never : Effect.sync(() => void smtp.push(m))),
      webhook: (m) =>
        state.failWebhook
          ? Effect.fail(new DeliveryFailure({ reason: "endpoint down" }))
          : Effect.sync(() => void webhook.push(m))
    }),
    Layer.succeed(InboxDelivery, { deliver: (input) => Effect.sync(() => void inbox.push(input)) })
  )
  return { smtp, webhook, inbox, state, layer }
}

const configured: Partial<SettingsShape> = {
  accessUrl: "https://workbay.example.com/",
  emailSmarthost: "mail.example.com:25",
  emailFrom: "workbay@example.com",
  notificationsWebhookEndpoint: "https://hooks.example.com/in",
  notificationsRetryInterval: Duration.minutes(5),
  notificationsLeasePeriod: Duration.minutes(2),
  notificationsMaxSendAttempts: 3,
  notificationsDispatchTimeout: Duration.seconds(30)
}

const withNotifier = (rec: ReturnType<typeof recorder>, settings: Partial<SettingsShape> = configured) =>
  // The recording senders and inbox first, in place of the services' own (the real inbox's tests are the inbox's).
  Notifier.Default.pipe(Layer.provide(rec.layer), Layer.provideMerge(services(settings)), Layer.provideMerge(rec.layer))

const dispatch = Effect.flatMap(Notifier, (n) => n.dispatchOnce)
const enqueue = (input: Parameters<NotificationQueue["enqueue"]>[0]) =>
  Effect.flatMap(NotificationQueue, (q) => q.enqueue(input))
const messages = (userId: string) => Effect.flatMap(NotificationRepo, (r) => r.messagesOf(userId))

/** The signed-in owner and their record. */
const setup = Effect.gen(function*() {
  const owner = yield* signedInOwner(T0)
  const user = Option.getOrThrow(yield* Effect.flatMap(UserRepo, (r) => r.findById(owner.userId)))
  return { ...owner, user }
})

const deleted = (userId: string) => ({
  templateId: TemplateIds.workspaceDeleted,
  userId,
  labels: { name: "ws-1", reason: "autodeleted due to dormancy", initiator: "autobuild" },
  targets: ["11111111-1111-4111-8111-111111111111"],
  createdBy: "test"
})

describe("NotificationQueue", () => {
  it.scoped("enqueues one message per method: the default (smtp) and the inbox; the override replaces the default", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { as, userId } = yield* setup
      const first = yield* enqueue(deleted(userId))
      expect((yield* messages(userId)).map((m) => m.method).sort()).toEqual(["inbox", "smtp"])
      expect(first).toHaveLength(2)
      yield* as(Effect.flatMap(Notifications, (n) => n.updateTemplateMethod(TemplateIds.workspaceDeleted, "webhook")))
      const second = yield* enqueue({ ...deleted(userId), labels: { name: "ws-2", reason: "x" } })
      expect((yield* messages(userId)).filter((m) => second.includes(m.id)).map((m) => m.method).sort()).toEqual([
        "inbox",
        "webhook"
      ])
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("skips methods that are not configured, and the inbox when it is off", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { userId } = yield* setup
      expect(yield* enqueue(deleted(userId))).toEqual([])
      expect(yield* messages(userId)).toEqual([])
    }).pipe(Effect.provide(withNotifier(rec, { notificationsInboxEnabled: false })))
  })

  it.scoped("enqueues nothing for a template the user turned off, or one off by default they did not turn on", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { as, userId } = yield* setup
      yield* as(
        Effect.flatMap(Notifications, (n) => n.updatePreferences("me", { [TemplateIds.workspaceDeleted]: true }))
      )
      expect(yield* enqueue(deleted(userId))).toEqual([])
      const working = {
        templateId: TemplateIds.taskWorking,
        userId,
        labels: { task: "t", workspace: "w" },
        createdBy: "test"
      }
      expect(yield* enqueue(working)).toEqual([])
      yield* as(Effect.flatMap(Notifications, (n) => n.updatePreferences("me", { [TemplateIds.taskWorking]: false })))
      expect(yield* enqueue(working)).toHaveLength(2)
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("stores the same message once a day", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { userId } = yield* setup
      expect(yield* enqueue(deleted(userId))).toHaveLength(2)
      yield* TestClock.adjust(Duration.hours(1))
      expect(yield* enqueue(deleted(userId))).toEqual([])
      yield* TestClock.adjust(Duration.days(1))
      expect(yield* enqueue(deleted(userId))).toHaveLength(2)
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("enqueues nothing for a deleted user", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { as } = yield* setup
      const other = yield* as(
        Effect.flatMap(Users, (u) =>
          u.create({
            email: "gone@example.com",
            username: "gone",
            password: "Correct-Horse-Battery-9",
            login_type: "password"
          }))
      )
      yield* as(Effect.flatMap(Users, (u) => u.delete(other.id)))
      expect(yield* enqueue(deleted(other.id))).toEqual([])
    }).pipe(Effect.provide(withNotifier(rec)))
  })
})

describe("Notifier", () => {
  it.scoped("renders with the catalog's template and sends by every method; the inbox gets the message id", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { user, userId } = yield* setup
      const ids = yield* enqueue(deleted(userId))
      const report = yield* dispatch
      expect(report).toEqual({ paused: false, leased: 2, sent: 2, failed: 0 })
      expect(rec.smtp).toHaveLength(1)
      expect(rec.smtp[0]).toMatchObject({
        title: "Workspace \"ws-1\" deleted",
        body:
          "Your workspace **ws-1** was deleted.\n\nThe specified reason was \"**autodeleted due to dormancy (autobuild)**\".",
        actions: [
          { label: "View workspaces", url: "https://workbay.example.com/workspaces" },
          { label: "View templates", url: "https://workbay.example.com/templates" }
        ]
      })
      expect(rec.smtp[0]!.payload).toMatchObject({
        user_email: user.email,
        user_username: user.username,
        notification_name: "Workspace Deleted"
      })
      expect(rec.inbox).toEqual([expect.objectContaining({
        id: ids[1],
        userId,
        templateId: TemplateIds.workspaceDeleted,
        targets: ["11111111-1111-4111-8111-111111111111"],
        title: "Workspace \"ws-1\" deleted",
        icon: "DEFAULT_ICON_WORKSPACE"
      })])
      expect((yield* messages(userId)).map((m) => m.status)).toEqual(["sent", "sent"])
      // Nothing left to send.
      expect(yield* dispatch).toEqual({ paused: false, leased: 0, sent: 0, failed: 0 })
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("retries a failed send after retry_interval, and fails it for good after max_send_attempts", () => {
    const rec = recorder()
    rec.state.failWebhook = true
    return Effect.gen(function*() {
      const { as, userId } = yield* setup
      yield* as(Effect.flatMap(Notifications, (n) => n.updateTemplateMethod(TemplateIds.workspaceDeleted, "webhook")))
      yield* enqueue(deleted(userId))
      const webhookMessage = Effect.map(messages(userId), (ms) => ms.find((m) => m.method === "webhook")!)
      expect(yield* dispatch).toMatchObject({ leased: 2, sent: 1, failed: 1 })
      expect(yield* webhookMessage).toMatchObject({
        status: "temporary_failure",
        attempt_count: 1,
        status_reason: "endpoint down"
      })
      // Not before the retry interval.
      yield* TestClock.adjust(Duration.minutes(4))
      expect(yield* dispatch).toMatchObject({ leased: 0 })
      yield* TestClock.adjust(Duration.minutes(1))
      expect(yield* dispatch).toMatchObject({ leased: 1, failed: 1 })
      yield* TestClock.adjust(Duration.minutes(5))
      expect(yield* dispatch).toMatchObject({ leased: 1, failed: 1 })
      expect(yield* webhookMessage).toMatchObject({
        status: "permanent_failure",
        attempt_count: 3,
        status_reason: "endpoint down"
      })
      yield* TestClock.adjust(Duration.hours(1))
      expect(yield* dispatch).toMatchObject({ leased: 0 })
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("a send that outlasts dispatch_timeout fails and is retried", () => {
    const rec = recorder()
    rec.state.hangSmtp = true
    return Effect.gen(function*() {
      const { userId } = yield* setup
      yield* enqueue(deleted(userId))
      const fiber = yield* Effect.fork(dispatch)
      yield* TestClock.adjust(Duration.seconds(30))
      const report = yield* fiber.await
      expect(report._tag).toBe("Success")
      const smtp = (yield* messages(userId)).find((m) => m.method === "smtp")!
      expect(smtp.status).toBe("temporary_failure")
      expect(smtp.status_reason).toContain("longer than")
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("a notifier stopped mid-send hands what it leased and did not send back to pending; sent ones stay sent", () => {
    const rec = recorder()
    rec.state.hangSmtp = true
    return Effect.gen(function*() {
      const { userId } = yield* setup
      yield* enqueue(deleted(userId))
      const fiber = yield* Effect.fork(dispatch)
      // The inbox copy is sent; the smtp one hangs until the notifier is stopped.
      yield* TestClock.adjust(Duration.seconds(1))
      yield* Fiber.interrupt(fiber)
      const all = yield* messages(userId)
      expect(all).toHaveLength(2)
      expect(all.find((m) => m.method === "smtp")).toMatchObject({
        status: "pending",
        leased_until: null,
        attempt_count: 0
      })
      expect(all.find((m) => m.method !== "smtp")).toMatchObject({ status: "sent" })
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("a lease that runs out is leased again; the first notifier's late outcome is not recorded", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { userId } = yield* setup
      yield* enqueue(deleted(userId))
      const repo = yield* NotificationRepo
      const now = new Date(T0)
      const leased = yield* repo.lease({ now, leasedUntil: new Date(T0 + 120_000), count: 10, maxAttempts: 3 })
      expect(leased).toHaveLength(2)
      // Still leased: nothing for another notifier.
      yield* TestClock.adjust(Duration.minutes(1))
      expect(yield* dispatch).toMatchObject({ leased: 0 })
      // The lease ran out: another notifier sends them.
      yield* TestClock.adjust(Duration.minutes(1))
      expect(yield* dispatch).toMatchObject({ leased: 2, sent: 2 })
      expect(yield* repo.markFailed(leased[0]!.id, leased[0]!.leased_until!, "late", null, new Date(T0 + 180_000)))
        .toBe(false)
      expect((yield* messages(userId)).map((m) => m.status)).toEqual(["sent", "sent"])
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("leases nothing while paused", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { as, userId } = yield* setup
      yield* enqueue(deleted(userId))
      yield* as(Effect.flatMap(Notifications, (n) => n.updateSettings({ notifier_paused: true })))
      expect(yield* dispatch).toEqual({ paused: true, leased: 0, sent: 0, failed: 0 })
      yield* as(Effect.flatMap(Notifications, (n) => n.updateSettings({ notifier_paused: false })))
      expect(yield* dispatch).toMatchObject({ paused: false, sent: 2 })
    }).pipe(Effect.provide(withNotifier(rec)))
  })

  it.scoped("leases at most lease_count messages a fetch, oldest first", () => {
    const rec = recorder()
    return Effect.gen(function*() {
      const { userId } = yield* setup
      for (let i = 0; i < 5; i++) {
        yield* enqueue({ ...deleted(userId), labels: { name: `ws-${i}`, reason: "r" } })
        yield* TestClock.adjust(Duration.seconds(1))
      }
      expect(yield* dispatch).toMatchObject({ leased: 3 })
      expect(rec.smtp.map((m) => m.payload.labels.name)).toEqual(["ws-0", "ws-1", "ws-2"])
      expect(yield* dispatch).toMatchObject({ leased: 2 })
    }).pipe(
      Effect.provide(withNotifier(rec, { ...configured, notificationsInboxEnabled: false, notificationsLeaseCount: 3 }))
    )
  })
})

describe("Notifier.run", () => {
  /** An inbox that hands each delivery to the test, and holds deliveries while `gate` is closed. */
  const gatedInbox = Effect.gen(function*() {
    const delivered = yield* Queue.unbounded<InboxDeliveryInput>()
    const gate = yield* Effect.makeLatch(true)
    const layer = Layer.mergeAll(
      Layer.succeed(NotificationSenders, { smtp: () => Effect.void, webhook: () => Effect.void }),
      Layer.succeed(InboxDelivery, { deliver: (input) => Effect.zipRight(gate.await, Queue.offer(delivered, input)) })
    )
    return { delivered, gate, layer }
  })
  const inboxOnly: Partial<SettingsShape> = { ...configured, notificationsMethod: "inbox" }
  const named = (userId: string, name: string) => ({ ...deleted(userId), labels: { name, reason: "r" } })
  const withGated = (layer: Layer.Layer<NotificationSenders | InboxDelivery>) =>
    Notifier.Default.pipe(Layer.provide(layer), Layer.provideMerge(services(inboxOnly)), Layer.provideMerge(layer))

  it.scoped("a message enqueued wakes the running notifier: it is sent without the clock reaching the fetch interval", () =>
    Effect.gen(function*() {
      const inbox = yield* gatedInbox
      return yield* Effect.gen(function*() {
        const { userId } = yield* setup
        yield* enqueue(named(userId, "before"))
        yield* Effect.forkScoped(Effect.flatMap(Notifier, (n) => n.run(Duration.minutes(10))))
        // The first fetch, when the notifier starts.
        expect((yield* Queue.take(inbox.delivered)).title).toContain("before")
        // Later messages do not wait for the fetch interval: the clock stays where it is.
        for (const name of ["first", "second"]) {
          yield* enqueue(named(userId, name))
          expect((yield* Queue.take(inbox.delivered)).title).toContain(name)
        }
        expect(yield* Clock.currentTimeMillis).toBe(T0)
      }).pipe(Effect.provide(withGated(inbox.layer)))
    }))

  it.scoped("wake-ups during a fetch cause one more fetch after it, which sends what they announced", () =>
    Effect.gen(function*() {
      const inbox = yield* gatedInbox
      return yield* Effect.gen(function*() {
        const { userId } = yield* setup
        yield* Effect.forkScoped(Effect.flatMap(Notifier, (n) => n.run(Duration.minutes(10))))
        // Held in the middle of a fetch (its send waits at the gate), until the fetch has leased it.
        yield* inbox.gate.close
        yield* enqueue(named(userId, "held"))
        for (
          let i = 0;
          i < 50 &&
          (yield* NotificationRepo.pipe(Effect.flatMap((r) => r.messagesOf(userId)))).every((m) =>
            m.leased_until === null
          );
          i++
        ) {
          yield* Effect.sleep(Duration.millis(1)).pipe(Effect.withClock(Clock.make()))
        }
        for (const name of ["b1", "b2", "b3"]) yield* enqueue(named(userId, name))
        yield* inbox.gate.open
        const titles: Array<string> = []
        for (let i = 0; i < 4; i++) titles.push((yield* Queue.take(inbox.delivered)).title)
        expect(titles.map((t) => /"(.*)"/.exec(t)![1]).sort()).toEqual(["b1", "b2", "b3", "held"])
        expect(yield* Clock.currentTimeMillis).toBe(T0)
      }).pipe(Effect.provide(withGated(inbox.layer)))
    }))
})
