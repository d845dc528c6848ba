/** The inbox watch's rules without HTTP or a database: its filters, the plaintext format, the wire record. */
import { describe, expect, it } from "@effect/vitest"
import { type InboxNotificationRecord, matchesWatch } from "@workbay/core"
import { inboxChannel } from "../../src/notifications/InboxNotification.js"
import { inboxWire } from "../../src/notifications/InboxNotifications.js"
import { toPlainText } from "../../src/notifications/Render.js"
import { PUBSUB_CHANNEL_PATTERN } from "../../src/PubSub.js"

const T1 = "11111111-1111-4111-8111-111111111111"
const T2 = "22222222-2222-4222-8222-222222222222"
const X = "33333333-3333-4333-8333-333333333333"
const Y = "44444444-4444-4444-8444-444444444444"

const record = (over: Partial<InboxNotificationRecord> = {}): InboxNotificationRecord => ({
  id: "55555555-5555-4555-8555-555555555555",
  user_id: T1,
  template_id: T1,
  targets: [X, Y],
  title: "**Hi**",
  content: "A [link](http://example.com) and `code`",
  icon: "",
  actions: [],
  read_at: null,
  created_at: new Date("2026-01-01T00:00:00.000Z"),
  ...over
})

describe("inbox rules", () => {
  it("a watcher's filters: every target, any template, the read status; none given matches all", () => {
    expect(matchesWatch(record(), {})).toBe(true)
    expect(matchesWatch(record(), { targets: [X] })).toBe(true)
    expect(matchesWatch(record(), { targets: [X, Y.toUpperCase()] })).toBe(true)
    expect(matchesWatch(record({ targets: [X] }), { targets: [X, Y] })).toBe(false)
    expect(matchesWatch(record(), { templates: [T2, T1] })).toBe(true)
    expect(matchesWatch(record(), { templates: [T2] })).toBe(false)
    expect(matchesWatch(record(), { read_status: "unread" })).toBe(true)
    expect(matchesWatch(record(), { read_status: "read" })).toBe(false)
    expect(matchesWatch(record({ read_at: new Date() }), { read_status: "read" })).toBe(true)
    expect(matchesWatch(record(), { read_status: "all", targets: [], templates: [] })).toBe(true)
  })

  it("plaintext drops markdown, keeping the words", () => {
    // The same text as the mail's text part (one conversion, Render.ts).
    expect(toPlainText("Workspace **dev** was *deleted*")).toBe("Workspace dev was deleted")
    expect(toPlainText("A [link](http://example.com) and `code`")).toBe("A link (http://example.com) and code")
    expect(toPlainText("# Title\n\n- one\n- two")).toBe("Title\n\n- one\n- two")
    expect(toPlainText("plain")).toBe("plain")
  })

  it("the wire record in each format", () => {
    expect(inboxWire(record()).title).toBe("**Hi**")
    const plain = inboxWire(record(), "plaintext")
    expect(plain.title).toBe("Hi")
    expect(plain.content).toBe("A link (http://example.com) and code")
    expect(plain.targets).toEqual([X, Y])
  })

  it("a user's channel is a valid PubSub channel name", () => {
    expect(inboxChannel("AAAAAAAA-1111-4111-8111-111111111111")).toBe("inbox_aaaaaaaa111141118111111111111111")
    expect(PUBSUB_CHANNEL_PATTERN.test(inboxChannel(T1))).toBe(true)
  })
})
