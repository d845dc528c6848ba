// @vitest-environment happy-dom
/**
 * The inbox without a browser: the cache updates of the watch and of marking read, and the
 * markdown renderer's handling of what a notification may carry.
 */
import { cleanup, render } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import type { InboxNotification } from "../../src/notifications/api.ts"
import { addToInbox, type InboxData, mapInbox } from "../../src/notifications/inbox.ts"
import { Markdown } from "../../src/ui/Markdown.tsx"

afterEach(cleanup)

const note = (id: string, read = false): InboxNotification => ({
  id,
  user_id: "u",
  template_id: "t",
  targets: [],
  title: `Title ${id}`,
  content: "",
  icon: "",
  actions: [],
  read_at: read ? "2026-01-01T00:00:00.000Z" : null,
  created_at: "2026-01-01T00:00:00.000Z"
})

const data = (...pages: Array<Array<InboxNotification>>): InboxData => ({
  pages: pages.map((notifications) => ({ notifications, unread_count: 9 })),
  pageParams: pages.map((_, i) => (i === 0 ? undefined : `p${i}`))
})

describe("the inbox's cache", () => {
  it("puts a new notification on top of the first page, with the new unread count, once", () => {
    const before = data([note("b"), note("a")], [note("z")])
    const after = addToInbox(before, note("c"), 3)!
    expect(after.pages[0]!.notifications.map((n) => n.id)).toEqual(["c", "b", "a"])
    expect(after.pages[0]!.unread_count).toBe(3)
    expect(after.pages[1]).toBe(before.pages[1])
    const again = addToInbox(after, note("c"), 3)!
    expect(again.pages[0]!.notifications.map((n) => n.id)).toEqual(["c", "b", "a"])
    expect(addToInbox(undefined, note("c"), 1)).toBeUndefined()
  })

  it("replaces a notification wherever it is and sets the count on the first page", () => {
    const before = data([note("b")], [note("a")])
    const after = mapInbox(before, (n) => (n.id === "a" ? note("a", true) : n), 1)!
    expect(after.pages[1]!.notifications[0]!.read_at).not.toBeNull()
    expect(after.pages[0]!.notifications[0]!.read_at).toBeNull()
    expect(after.pages[0]!.unread_count).toBe(1)
  })
})

describe("Markdown", () => {
  it("renders emphasis, lists and links", () => {
    const { container } = render(<Markdown>{"**bold** and [a link](https://example.com/x)\n\n- one\n- two"}</Markdown>)
    expect(container.querySelector("strong")?.textContent).toBe("bold")
    expect(container.querySelector("a")?.getAttribute("href")).toBe("https://example.com/x")
    expect(container.querySelectorAll("li").length).toBe(2)
  })

  it("shows raw HTML as text, drops images and script addresses", () => {
    const { container } = render(
      <Markdown>
        {`<img src=x onerror="alert(1)">\n\n<script>alert(2)</script>\n\n![pixel](https://tracker.example/p.png) [click](javascript:alert(3))`}
      </Markdown>
    )
    expect(container.querySelector("img")).toBeNull()
    expect(container.querySelector("script")).toBeNull()
    expect(container.textContent).toContain(`<img src=x onerror="alert(1)">`)
    expect(container.textContent).toContain("pixel")
    const link = container.querySelector("a")
    expect(link?.textContent).toBe("click")
    expect(link?.getAttribute("href") ?? "").not.toContain("javascript")
  })

  it("inline: no paragraphs or headings, only their text", () => {
    const { container } = render(<Markdown inline>{"# Workspace **dev** was *deleted*"}</Markdown>)
    expect(container.querySelector("p, h1")).toBeNull()
    expect(container.textContent).toBe("Workspace dev was deleted")
    expect(container.querySelector("strong")?.textContent).toBe("dev")
  })
})
