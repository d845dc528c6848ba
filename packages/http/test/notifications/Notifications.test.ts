/**
 * Black-box tests of the notification routes over real HTTP and a fresh SQLite database, with
 * real receivers: an SMTP server (smtp-server) and a webhook endpoint (node:http) in the test
 * process. The notifier's periodic fiber is off; the tests run one fetch at a time
 * (`Notifier.dispatchOnce`) on the server's runtime, so nothing waits on a timer.
 */
import { type NotificationMessageRecord, NotificationRepo, Notifier, TemplateIds } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  tokenClient,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { startSmtp, startWebhook } from "./fixtures.js"

/** A success: the status, with the body in the failure message. */
const expect2xx = (r: { status: number; body: unknown }, status: number) =>
  expect(r.status, JSON.stringify(r.body)).toBe(status)

describe("notifications", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let dev: TestUser
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  let hook: Awaited<ReturnType<typeof startWebhook>>

  const dispatchOnce = () => srv.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))
  /** Fetches until nothing is left to lease; the sums of the fetches. */
  const dispatch = async () => {
    const total = { paused: false, leased: 0, sent: 0, failed: 0 }
    for (;;) {
      const r = await dispatchOnce()
      total.paused = r.paused
      total.leased += r.leased
      total.sent += r.sent
      total.failed += r.failed
      if (r.leased === 0) return total
    }
  }
  const messagesOf = (userId: string): Promise<ReadonlyArray<NotificationMessageRecord>> =>
    srv.run(Effect.flatMap(NotificationRepo, (r) => r.messagesOf(userId)))

  beforeAll(async () => {
    smtp = await startSmtp({ user: "mailer", pass: "s3cret" })
    hook = await startWebhook()
    ;({ srv, owner, ownerId, orgId } = await startWithOwner({
      notifier: false,
      settings: {
        emailSmarthost: smtp.smarthost,
        emailFrom: "workbay@example.com",
        emailHello: "workbay.test",
        emailAuthUsername: "mailer",
        emailAuthPassword: "s3cret",
        notificationsWebhookEndpoint: hook.url,
        notificationsRetryInterval: 0 as never,
        notificationsMaxSendAttempts: 2
      }
    }))
    dev = await createUser(owner, { username: "nt-dev" })
  })
  afterAll(async () => {
    await srv.close()
    await smtp.close()
    await hook.close()
  })

  describe("templates", () => {
    it("lists the system templates with the described system's ids to every user", async () => {
      const r = await dev.client.get("/notifications/templates/system")
      expect2xx(r, 200)
      const deleted = r.body.find((t: any) => t.id === TemplateIds.workspaceDeleted)
      expect(deleted).toMatchObject({
        name: "Workspace Deleted",
        group: "Workspace Events",
        kind: "system",
        method: "",
        enabled_by_default: true,
        title_template: "Workspace \"{{labels.name}}\" deleted"
      })
      expect(JSON.parse(deleted.actions)).toEqual([
        { label: "View workspaces", url: "{{base_url}}/workspaces" },
        { label: "View templates", url: "{{base_url}}/templates" }
      ])
      expect(r.body.every((t: any) => t.kind === "system")).toBe(true)
      expect(r.body.map((t: any) => t.id)).toContain(TemplateIds.userAccountSuspended)
    })

    it("lists the custom template", async () => {
      const r = await dev.client.get("/notifications/templates/custom")
      expect2xx(r, 200)
      expect(r.body).toEqual([
        expect.objectContaining({ id: TemplateIds.customNotification, kind: "custom", name: "Custom Notification" })
      ])
    })

    it("answers 403 to a token whose scopes leave the templates out", async () => {
      const narrow = await tokenClient(dev.client, { scopes: ["workspace:read"] })
      expectResponse(await narrow.get("/notifications/templates/system"), 403)
      expectResponse(await narrow.get("/notifications/templates/custom"), 403)
      expectResponse(await narrow.get("/users/me/notifications/preferences"), 403)
      const scoped = await tokenClient(dev.client, {
        scopes: ["notification_template:read", "notification_preference:*"]
      })
      expect2xx(await scoped.get("/notifications/templates/system"), 200)
      expect2xx(await scoped.get("/users/me/notifications/preferences"), 200)
    })

    it("answers 401 without a session", async () => {
      expect((await srv.anonymous.get("/notifications/templates/system")).status).toBe(401)
      expect((await srv.anonymous.get("/notifications/templates/custom")).status).toBe(401)
    })

    it("sets, keeps (304) and resets a template's method, audited", async () => {
      const path = `/notifications/templates/${TemplateIds.templateDeleted}/method`
      expect((await owner.put(path, { method: "webhook" })).status).toBe(200)
      const listed = (await dev.client.get("/notifications/templates/system")).body.find((t: any) =>
        t.id === TemplateIds.templateDeleted
      )
      expect(listed.method).toBe("webhook")
      const again = await owner.put(path, { method: "webhook" })
      expect(again.status).toBe(304)
      expect(again.body).toBeUndefined()
      expect((await owner.put(path, { method: "" })).status).toBe(200)
      expect((await owner.put(path, {})).status).toBe(304)
      const audit = await owner.get("/audit?limit=10&q=resource_type:notification_template")
      expect(audit.body.audit_logs.some((e: any) => e.status_code === 304)).toBe(false)
      const entries = audit.body.audit_logs.filter((e: any) => e.status_code === 200)
      expect(entries[0]).toMatchObject({
        action: "write",
        resource_id: TemplateIds.templateDeleted,
        diff: { method: { old: "webhook", new: "" } }
      })
    })

    it("refuses a method that is none (400), an unknown template (404), a bad id (400), a member (403)", async () => {
      const path = `/notifications/templates/${TemplateIds.templateDeleted}/method`
      expectValidations(await owner.put(path, { method: "carrier-pigeon" }), ["method"])
      expectValidations(await owner.put(path, { method: 7 }), ["method"])
      expect((await owner.put(`/notifications/templates/${UNKNOWN_ID}/method`, { method: "smtp" })).status).toBe(404)
      expectValidations(await owner.put("/notifications/templates/nope/method", { method: "smtp" }), [
        "notification_template"
      ])
      expectResponse(await dev.client.put(path, { method: "smtp" }), 403)
      expect((await srv.anonymous.put(path, { method: "smtp" })).status).toBe(401)
    })
  })

  describe("preferences", () => {
    it("starts empty, stores what the user sets, and answers it", async () => {
      const me = await createUser(owner, { username: "nt-prefs" })
      expect((await me.client.get("/users/me/notifications/preferences")).body).toEqual([])
      const r = await me.client.put("/users/me/notifications/preferences", {
        template_disabled_map: { [TemplateIds.workspaceDeleted]: true, [TemplateIds.workspaceCreated]: false }
      })
      expect2xx(r, 200)
      expect(r.body).toHaveLength(2)
      expect(r.body.find((p: any) => p.id === TemplateIds.workspaceDeleted)).toMatchObject({ disabled: true })
      expect((await me.client.get(`/users/${me.user.username}/notifications/preferences`)).body).toEqual(r.body)
      // Owners read and change anyone's.
      expect((await owner.get(`/users/${me.user.id}/notifications/preferences`)).body).toEqual(r.body)
      const changed = await owner.put(`/users/${me.user.id}/notifications/preferences`, {
        template_disabled_map: { [TemplateIds.workspaceDeleted]: false }
      })
      expect(changed.body.find((p: any) => p.id === TemplateIds.workspaceDeleted).disabled).toBe(false)
      const audit = await owner.get(`/audit?limit=1&q=resource_type:user resource_id:${me.user.id}`)
      expect(audit.body.audit_logs[0].diff.notification_preferences).toBeDefined()
    })

    it("hides another user's preferences (404) and refuses to change them (403)", async () => {
      expectResponse(await dev.client.get(`/users/${ownerId}/notifications/preferences`), 404)
      expectResponse(
        await dev.client.put(`/users/${ownerId}/notifications/preferences`, { template_disabled_map: {} }),
        403
      )
      expectResponse(await dev.client.get(`/users/${UNKNOWN_ID}/notifications/preferences`), 404)
      expectResponse(
        await owner.put(`/users/nobody-here/notifications/preferences`, { template_disabled_map: {} }),
        404
      )
      expect((await srv.anonymous.get("/users/me/notifications/preferences")).status).toBe(401)
      expect((await srv.anonymous.put("/users/me/notifications/preferences", { template_disabled_map: {} })).status)
        .toBe(401)
    })

    it("refuses unknown templates and values that are not booleans, one validation each", async () => {
      expectValidations(
        await dev.client.put("/users/me/notifications/preferences", {
          template_disabled_map: { [UNKNOWN_ID]: true, "not-a-uuid": false }
        }),
        [`template_disabled_map.${UNKNOWN_ID}`, "template_disabled_map.not-a-uuid"]
      )
      expectValidations(
        await dev.client.put("/users/me/notifications/preferences", {
          template_disabled_map: { [TemplateIds.workspaceDeleted]: "yes" }
        }),
        [`template_disabled_map.${TemplateIds.workspaceDeleted}`]
      )
      expectValidations(await dev.client.put("/users/me/notifications/preferences", {}), ["template_disabled_map"])
    })
  })

  describe("settings and dispatch methods", () => {
    it("reads the settings and the methods as any user", async () => {
      expect((await dev.client.get("/notifications/settings")).body).toEqual({ notifier_paused: false })
      expect((await dev.client.get("/notifications/dispatch-methods")).body).toEqual({
        available: ["smtp", "webhook", "inbox"],
        default: "smtp"
      })
      expect((await srv.anonymous.get("/notifications/settings")).status).toBe(401)
      expect((await srv.anonymous.get("/notifications/dispatch-methods")).status).toBe(401)
    })

    it("pauses and resumes for owners only (304 when unchanged), audited", async () => {
      expectResponse(await dev.client.put("/notifications/settings", { notifier_paused: true }), 403)
      expect((await srv.anonymous.put("/notifications/settings", { notifier_paused: true })).status).toBe(401)
      expectValidations(await owner.put("/notifications/settings", { notifier_paused: "yes" }), ["notifier_paused"])
      expect((await owner.put("/notifications/settings", { notifier_paused: false })).status).toBe(304)
      const paused = await owner.put("/notifications/settings", { notifier_paused: true })
      expect2xx(paused, 200)
      expect(paused.body).toEqual({ notifier_paused: true })
      expect((await owner.put("/notifications/settings", { notifier_paused: true })).status).toBe(304)
      expect((await owner.put("/notifications/settings", { notifier_paused: false })).body).toEqual({
        notifier_paused: false
      })
      const audit = await owner.get("/audit?limit=10&q=resource_type:notifications_settings")
      // The requests that changed nothing (304) wrote no entry.
      expect(audit.body.audit_logs.some((e: any) => e.status_code === 304)).toBe(false)
      expect(audit.body.audit_logs.filter((e: any) => e.status_code === 200)[0].diff).toEqual({
        notifier_paused: { old: true, new: false, secret: false }
      })
    })
  })

  describe("custom notifications and the notifier", () => {
    it("refuses a notification without a title or a message, and a body without content", async () => {
      expectValidations(await dev.client.post("/notifications/custom", { content: { title: " ", message: "" } }), [
        "content.title",
        "content.message"
      ])
      expectValidations(await dev.client.post("/notifications/custom", {}), ["content"])
      expectValidations(await dev.client.post("/notifications/custom", { content: { title: 3 } }), ["content.title"])
      expect((await srv.anonymous.post("/notifications/custom", { content: { title: "x" } })).status).toBe(401)
    })

    it("refuses service accounts (403)", async () => {
      const robot = await owner.post("/users", {
        email: "nt-robot@example.com",
        username: "nt-robot",
        login_type: "none",
        service_account: true
      })
      expect(robot.status, JSON.stringify(robot.body)).toBe(201)
      const key = await owner.post(`/users/${robot.body.id}/keys`)
      const r = await owner.as(key.body.key).post("/notifications/custom", { content: { title: "Beep" } })
      expectResponse(r, 403)
    })

    it("sends a custom notification by mail (authenticated, from the configured address) and to the inbox", async () => {
      const r = await dev.client.post("/notifications/custom", {
        content: { title: "Deploy **done**", message: "All green. See [the log](https://example.com/log)." }
      })
      expect(r.status).toBe(204)
      const queued = (await messagesOf(dev.user.id)).filter((m) => m.template_id === TemplateIds.customNotification)
      expect(queued.map((m) => m.method).sort()).toEqual(["inbox", "smtp"])
      expect(queued.every((m) => m.status === "pending")).toBe(true)
      const before = smtp.mails.length
      const report = await dispatch()
      // What the routes enqueued before (accounts created) goes out too.
      expect(report).toMatchObject({ paused: false, failed: 0 })
      expect(report.sent).toBeGreaterThanOrEqual(queued.length)
      const mail = smtp.mails.slice(before).find((m) => m.to.includes(dev.user.email))!
      expect(mail).toMatchObject({ from: "workbay@example.com", user: "mailer", hello: "workbay.test" })
      expect(mail.subject).toBe("Deploy done")
      expect(mail.text).toBe("All green. See the log (https://example.com/log).")
      expect(mail.html).toContain("<a href=\"https://example.com/log\">the log</a>")
      expect(mail.raw).toContain(`Message-ID: <`)
      const sent = (await messagesOf(dev.user.id)).filter((m) => m.template_id === TemplateIds.customNotification)
      expect(sent.every((m) => m.status === "sent" && m.attempt_count === 1 && m.sent_at !== null)).toBe(true)
      // The inbox method stored it in the user's inbox, under the message's id, unread.
      const inboxMessage = sent.find((m) => m.method === "inbox")!
      const inbox = await dev.client.get(`/notifications/inbox?templates=${TemplateIds.customNotification}`)
      expect(inbox.status).toBe(200)
      expect(inbox.body.notifications.map((n: any) => n.id)).toContain(inboxMessage.id)
      const stored = inbox.body.notifications.find((n: any) => n.id === inboxMessage.id)
      expect(stored).toMatchObject({
        user_id: dev.user.id,
        template_id: TemplateIds.customNotification,
        title: "Deploy **done**",
        read_at: null
      })
      expect(inbox.body.unread_count).toBeGreaterThanOrEqual(1)
    })

    it("sends by webhook when the template's method says so, with the described system's body", async () => {
      expect(
        (await owner.put(`/notifications/templates/${TemplateIds.customNotification}/method`, { method: "webhook" }))
          .status
      ).toBe(200)
      try {
        expect(
          (await dev.client.post("/notifications/custom", { content: { title: "Hook", message: "Body **bold**" } }))
            .status
        ).toBe(204)
        const before = hook.received.length
        await dispatch()
        const got = hook.received.slice(before)
        expect(got).toHaveLength(1)
        expect(got[0]!.headers["content-type"]).toBe("application/json")
        expect(got[0]!.body).toMatchObject({
          _version: "1.1",
          title: "Hook",
          title_markdown: "Hook",
          body: "Body bold",
          body_markdown: "Body **bold**",
          payload: {
            _version: "1.2",
            notification_name: "Custom Notification",
            notification_template_id: TemplateIds.customNotification,
            user_id: dev.user.id,
            user_username: dev.user.username,
            labels: { custom_title: "Hook", custom_message: "Body **bold**" },
            actions: []
          }
        })
        expect(got[0]!.headers["x-message-id"]).toBe(got[0]!.body.msg_id)
      } finally {
        await owner.put(`/notifications/templates/${TemplateIds.customNotification}/method`, { method: "" })
      }
    })

    it("retries a failed send, then fails it for good with the reason", async () => {
      await owner.put(`/notifications/templates/${TemplateIds.customNotification}/method`, { method: "webhook" })
      hook.answer(500)
      try {
        expect((await dev.client.post("/notifications/custom", { content: { title: "Doomed" } })).status).toBe(204)
        const find = async () =>
          (await messagesOf(dev.user.id)).find((m) =>
            m.method === "webhook" && m.payload.labels.custom_title === "Doomed"
          )!
        await dispatchOnce()
        expect(await find()).toMatchObject({
          status: "temporary_failure",
          attempt_count: 1,
          status_reason: "The webhook endpoint answered 500."
        })
        await dispatchOnce()
        expect(await find()).toMatchObject({
          status: "permanent_failure",
          attempt_count: 2,
          status_reason: "The webhook endpoint answered 500."
        })
        const received = hook.received.length
        await dispatchOnce()
        expect(hook.received.length).toBe(received)
      } finally {
        hook.answer(200)
        await owner.put(`/notifications/templates/${TemplateIds.customNotification}/method`, { method: "" })
      }
    })

    it("holds messages while paused and sends them on resume", async () => {
      expect((await owner.put("/notifications/settings", { notifier_paused: true })).status).toBe(200)
      try {
        expect((await dev.client.post("/notifications/custom", { content: { title: "Later" } })).status).toBe(204)
        expect(await dispatch()).toEqual({ paused: true, leased: 0, sent: 0, failed: 0 })
        const waiting = (await messagesOf(dev.user.id)).filter((m) => m.payload.labels.custom_title === "Later")
        expect(waiting.every((m) => m.status === "pending")).toBe(true)
      } finally {
        await owner.put("/notifications/settings", { notifier_paused: false })
      }
      await dispatch()
      const sent = (await messagesOf(dev.user.id)).filter((m) => m.payload.labels.custom_title === "Later")
      expect(sent.every((m) => m.status === "sent")).toBe(true)
    })

    it("enqueues nothing for a template the user turned off", async () => {
      const quiet = await createUser(owner, { username: "nt-quiet" })
      await quiet.client.put("/users/me/notifications/preferences", {
        template_disabled_map: { [TemplateIds.customNotification]: true }
      })
      expect((await quiet.client.post("/notifications/custom", { content: { title: "Shh" } })).status).toBe(204)
      expect(await messagesOf(quiet.user.id)).toEqual([])
    })
  })

  describe("events of the users area", () => {
    it("tells the user admins of accounts created, suspended, activated and deleted, and the user of their own", async () => {
      const admin = await createUser(owner, { username: "nt-useradmin", roles: ["user-admin"] })
      const subject = await createUser(owner, { username: "nt-subject" })
      expect((await owner.put(`/users/${subject.user.id}/status/suspend`)).status).toBe(200)
      expect((await owner.put(`/users/${subject.user.id}/status/activate`)).status).toBe(200)
      expect((await owner.delete(`/users/${subject.user.id}`)).status).toBe(200)
      const about = (ms: ReadonlyArray<NotificationMessageRecord>) =>
        ms.filter((m) => m.method === "smtp" && m.targets.includes(subject.user.id)).map((m) => m.template_id)
      const expected = [
        TemplateIds.userAccountCreated,
        TemplateIds.userAccountSuspended,
        TemplateIds.userAccountActivated,
        TemplateIds.userAccountDeleted
      ]
      expect(about(await messagesOf(admin.user.id))).toEqual(expected)
      expect(about(await messagesOf(ownerId))).toEqual(expected)
      // The user heard of their own suspension and activation (their messages stay even once they are deleted).
      const own = await messagesOf(subject.user.id)
      expect(about(own)).toEqual([TemplateIds.yourAccountSuspended, TemplateIds.yourAccountActivated])
      const suspended = (await messagesOf(admin.user.id)).find((m) =>
        m.template_id === TemplateIds.userAccountSuspended
      )!
      expect(suspended.payload.labels).toEqual({
        suspended_account_name: "nt-subject",
        suspended_account_user_name: "",
        initiator: "admin"
      })
      await dispatch()
      const mail = smtp.mails.find((m) =>
        m.to.includes(admin.user.email) && m.subject === "User account \"nt-subject\" suspended"
      )!
      expect(mail.text).toContain("User account nt-subject has been suspended.\n\nThe account was suspended by admin.")
      expect(mail.html).toContain("<strong>nt-subject</strong>")
      expect(mail.text).toContain(`View suspended accounts: ${srv.url}/deployment/users?filter=status%3Asuspended`)
    })
  })

  describe("one-time passcodes", () => {
    it("mails the passcode through the notifier (smtp only, never the inbox), and it resets the password", async () => {
      const user = await createUser(owner, { username: "nt-forgetful" })
      expect((await srv.anonymous.post("/users/otp/request", { email: user.email })).status).toBe(204)
      const queued = (await messagesOf(user.user.id)).filter((m) => m.template_id === TemplateIds.oneTimePasscode)
      expect(queued.map((m) => m.method)).toEqual(["smtp"])
      await dispatch()
      const mail = smtp.mails.find((m) => m.to.includes(user.email) && m.subject === "Your One-Time Passcode")!
      const passcode = mail.text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)![0]
      const changed = await srv.anonymous.post("/users/otp/change-password", {
        email: user.email,
        one_time_passcode: passcode,
        password: "Another-Horse-Battery-7"
      })
      expect(changed.status).toBe(204)
      const login = await srv.anonymous.post("/users/login", { email: user.email, password: "Another-Horse-Battery-7" })
      expect(login.status).toBe(201)
      const inbox = await user.client.as(login.body.session_token).get(
        `/notifications/inbox?templates=${TemplateIds.oneTimePasscode}`
      )
      expect(inbox.status).toBe(200)
      expect(inbox.body.notifications).toEqual([])
    })
  })

  describe("events of the workspaces and templates areas", () => {
    it("tells template admins of a workspace created and of a manual build that failed; the owner of a deletion by someone else", async () => {
      const tadmin = await createUser(owner, { username: "nt-tadmin", roles: ["template-admin"] })
      const maker = await createUser(owner, { username: "nt-maker" })
      const template = await makeTemplate(
        srv,
        owner,
        orgId,
        `${FREE_TEMPLATE}  fail:\n    transition: stop\n    message: The disk is stuck.\n`
      )
      const ws = await makeWorkspace(srv, owner, orgId, template.id, {}, maker.user.id)
      const created = (await messagesOf(tadmin.user.id)).filter((m) =>
        m.method === "smtp" && m.template_id === TemplateIds.workspaceCreated
      )
      expect(created.map((m) => m.payload.labels)).toEqual([
        {
          workspace: ws.name,
          template: template.name,
          version: expect.any(String),
          workspace_owner_username: "nt-maker"
        }
      ])
      // A manual stop that fails: the template admins hear of it.
      expect((await maker.client.post(`/workspaces/${ws.id}/builds`, { transition: "stop" })).status).toBe(200)
      await runJobs(srv)
      const failed = (await messagesOf(tadmin.user.id)).filter((m) =>
        m.method === "smtp" && m.template_id === TemplateIds.workspaceManualBuildFailed
      )
      expect(failed.map((m) => m.payload.labels)).toEqual([{
        name: ws.name,
        template_name: template.name,
        template_version_name: expect.any(String),
        initiator: "nt-maker",
        workspace_owner_username: "nt-maker",
        workspace_build_number: "2"
      }])
      // Deleted by the owner of the deployment: the workspace's owner hears of it.
      expect((await owner.post(`/workspaces/${ws.id}/builds`, { transition: "delete", orphan: true })).status).toBe(200)
      await runJobs(srv)
      const deleted = (await messagesOf(maker.user.id)).filter((m) =>
        m.method === "smtp" && m.template_id === TemplateIds.workspaceDeleted
      )
      expect(deleted.map((m) => m.payload.labels)).toEqual([{
        name: ws.name,
        reason: "initiated by user",
        initiator: "admin"
      }])
      expect(deleted[0]!.targets).toEqual([ws.id, template.id])
      await dispatch()
      expect(smtp.mails.some((m) => m.to.includes(maker.user.email) && m.subject === `Workspace "${ws.name}" deleted`))
        .toBe(true)
      // The template deleted: its admins hear of it, but the one who deleted it.
      expect((await owner.delete(`/templates/${template.id}`)).status).toBe(200)
      const gone = (await messagesOf(tadmin.user.id)).filter((m) =>
        m.method === "smtp" && m.template_id === TemplateIds.templateDeleted
      )
      expect(gone.map((m) => m.payload.labels)).toEqual([{ name: template.name, initiator: "admin" }])
      expect((await messagesOf(ownerId)).filter((m) => m.template_id === TemplateIds.templateDeleted)).toEqual([])
    })

    it("does not tell an owner who deleted their own workspace", async () => {
      const self = await createUser(owner, { username: "nt-self" })
      const template = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
      const ws = await makeWorkspace(srv, owner, orgId, template.id, {}, self.user.id)
      expect((await self.client.post(`/workspaces/${ws.id}/builds`, { transition: "delete" })).status).toBe(200)
      await runJobs(srv)
      expect((await messagesOf(self.user.id)).filter((m) => m.template_id === TemplateIds.workspaceDeleted)).toEqual([])
    })
  })

  describe("test notifications", () => {
    it("sends the test notification to the owner who asks, each time", async () => {
      expectResponse(await dev.client.post("/notifications/test"), 403)
      expect((await srv.anonymous.post("/notifications/test")).status).toBe(401)
      const before = smtp.mails.length
      expect((await owner.post("/notifications/test")).status).toBe(200)
      expect((await owner.post("/notifications/test")).status).toBe(200)
      await dispatch()
      const mails = smtp.mails.slice(before).filter((m) => m.subject === "A test notification")
      expect(mails).toHaveLength(2)
      expect(mails[0]!.text).toBe(
        `This is a test notification.\n\nView notification settings: ${srv.url}/deployment/notifications?tab=settings`
      )
    })
  })
})
