/**
 * Inbox test support: notifications are stored through the `InboxDelivery` port on the server's
 * own runtime, as the notifier's `inbox` method does.
 */
import { InboxDelivery, type InboxDeliveryInput } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { ServiceTestServer } from "../support.js"

export const TEMPLATE_A = "3b3e5a3e-0000-4000-8000-00000000000a"
export const TEMPLATE_B = "3b3e5a3e-0000-4000-8000-00000000000b"

let clock = Date.parse("2026-01-01T00:00:00.000Z")

/** Delivers one notification to `userId` through the server's InboxDelivery; answers the input. */
export const deliver = async (
  srv: Pick<ServiceTestServer, "run">,
  userId: string,
  init: Partial<InboxDeliveryInput> = {}
): Promise<InboxDeliveryInput> => {
  const input: InboxDeliveryInput = {
    id: randomUUID(),
    userId,
    templateId: TEMPLATE_A,
    targets: [],
    title: "Workspace **dev** was *deleted*",
    content: "Hi, your workspace [dev](http://example.com/@me/dev) was deleted.",
    icon: "",
    actions: [{ label: "View workspaces", url: "http://example.com/workspaces" }],
    // Distinct, increasing times: the order of the inbox is the order of delivery.
    createdAt: new Date(clock += 1000),
    ...init
  }
  await srv.run(Effect.flatMap(InboxDelivery, (d) => d.deliver(input)))
  return input
}
