/** Deployment setting flags and variables (sign-in, appearance, proxies): parsed into settings by name, refused with the flag named when malformed. */
import { defaultSettings, deploymentConfig } from "@workbay/core"
import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import { helpText, loadConfig, options } from "../src/Config.js"

describe("sign-in configuration", () => {
  it("is empty when nothing is given", () => {
    expect(loadConfig([], {}).settings).toEqual({})
  })

  it("reads flags and variables of each kind", () => {
    const config = loadConfig(
      [
        "--oidc-issuer-url",
        "https://idp.example",
        "--oidc-email-domain",
        "corp.example, @other.example",
        "--oidc-group-mapping",
        "{\"a\":\"b\"}"
      ],
      { WORKBAY_OAUTH2_GITHUB_ALLOW_SIGNUPS: "true", WORKBAY_OAUTH2_GITHUB_CLIENT_SECRET: "s3cret" }
    )
    expect(config.settings).toEqual({
      oidcIssuerUrl: { value: "https://idp.example", source: "flag" },
      oidcEmailDomain: { value: ["corp.example", "@other.example"], source: "flag" },
      oidcGroupMapping: { value: { a: "b" }, source: "flag" },
      oauth2GithubAllowSignups: { value: true, source: "env" },
      oauth2GithubClientSecret: { value: "s3cret", source: "env" }
    })
  })

  it("refuses a malformed switch or map, naming the flag", () => {
    expect(() => loadConfig(["--oauth2-github-device-flow", "maybe"], {})).toThrow(/--oauth2-github-device-flow/)
    expect(() => loadConfig(["--oidc-user-role-mapping", "[1]"], {})).toThrow(/--oidc-user-role-mapping/)
  })
})

describe("appearance and proxy settings", () => {
  it("reads support links and the proxy health interval", () => {
    const links = [{ name: "On call", target: "https://pager.example.com", icon: "chat" }]
    const config = loadConfig(["--proxy-health-interval", "30s"], { WORKBAY_SUPPORT_LINKS: JSON.stringify(links) })
    expect(config.settings).toEqual({
      supportLinks: { value: links, source: "env" },
      proxyHealthStatusInterval: { value: Duration.seconds(30), source: "flag" }
    })
  })

  it("refuses links that are not a list of links, and a bad interval", () => {
    expect(() => loadConfig(["--support-links", "{\"name\":\"x\"}"], {})).toThrow(/--support-links/)
    expect(() => loadConfig(["--support-links", "[{\"name\":\"x\",\"target\":\"y\"}]"], {})).toThrow(/--support-links/)
    expect(() => loadConfig(["--proxy-health-interval", "often"], {})).toThrow(/--proxy-health-interval/)
  })
})

describe("one declaration per setting", () => {
  it("reports, for every setting the server takes, the flag and variable the server reads", () => {
    const reported = new Map(deploymentConfig(defaultSettings).options.map((o) => [o.flag, o.env]))
    const taken = options.filter((o) => o.setting !== undefined && reported.has(o.flag))
    expect(taken.length).toBeGreaterThan(70)
    for (const o of taken) expect(reported.get(o.flag), o.flag).toBe(o.env)
  })

  it("lists every flag once in --help, and reads every variable it lists", () => {
    const text = helpText()
    for (const o of options) {
      expect(text.split("\n").filter((line) => line.startsWith(`  --${o.flag} `)), o.flag).toHaveLength(1)
    }
    expect(loadConfig([], { WORKBAY_EMAIL_TLS_SERVERNAME: "smtp.example.com" }).settings).toEqual({
      emailTlsServerName: { value: "smtp.example.com", source: "env" }
    })
  })
})
