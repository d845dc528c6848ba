/** The server's notification settings: flags and variables (flags win), checked, reported with their source. */
import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../src/index.js"

describe("notification settings of the server", () => {
  it("reads flags and variables with their source; none given leaves the defaults", () => {
    expect(loadConfig([], {}).settings).toEqual({})
    const config = loadConfig(
      [
        "--notifications-method",
        "webhook",
        "--email-smarthost",
        "mail.example.com:587",
        "--notifications-retry-interval",
        "30s"
      ],
      {
        WORKBAY_NOTIFICATIONS_METHOD: "smtp",
        WORKBAY_NOTIFICATIONS_WEBHOOK_ENDPOINT: "https://hooks.example.com/in",
        WORKBAY_NOTIFICATIONS_LEASE_COUNT: "50",
        WORKBAY_NOTIFICATIONS_INBOX_ENABLED: "false",
        WORKBAY_EMAIL_AUTH_PASSWORD: "hunter2",
        WORKBAY_EMAIL_TLS_STARTTLS: "true"
      }
    )
    expect(config.settings).toEqual({
      notificationsMethod: { value: "webhook", source: "flag" },
      emailSmarthost: { value: "mail.example.com:587", source: "flag" },
      notificationsRetryInterval: { value: Duration.seconds(30), source: "flag" },
      notificationsWebhookEndpoint: { value: "https://hooks.example.com/in", source: "env" },
      notificationsLeaseCount: { value: 50, source: "env" },
      notificationsInboxEnabled: { value: false, source: "env" },
      emailAuthPassword: { value: "hunter2", source: "env" },
      emailTlsStartTls: { value: true, source: "env" }
    })
  })

  it("refuses values that are not of their kind, naming the flag", () => {
    expect(() => loadConfig(["--notifications-method", "pigeon"], {})).toThrow(/--notifications-method/)
    expect(() => loadConfig(["--notifications-fetch-interval", "soon"], {})).toThrow(/--notifications-fetch-interval/)
    expect(() => loadConfig([], { WORKBAY_NOTIFICATIONS_MAX_SEND_ATTEMPTS: "0" })).toThrow(
      /--notifications-max-send-attempts/
    )
    expect(() => loadConfig(["--notifications-webhook-endpoint", "ftp://x"], {})).toThrow(
      /--notifications-webhook-endpoint/
    )
    expect(() => loadConfig(["--email-force-tls", "maybe"], {})).toThrow(/--email-force-tls/)
  })
})
