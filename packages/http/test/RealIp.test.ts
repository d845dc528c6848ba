/** The client's address behind proxies (RealIp.ts): the rules alone; RateLimit.test.ts has them over HTTP. */
import { describe, expect, it } from "vitest"
import { makeClientAddress, parseAddress } from "../src/RealIp.js"

const behind = makeClientAddress({
  proxyTrustedHeaders: ["CF-Connecting-IP", "X-Forwarded-For"],
  proxyTrustedOrigins: ["10.0.0.0/8", "fd00::/8"]
})

describe("the client's address", () => {
  it("is the peer's when no proxy is trusted, whatever the headers say; without its port, IPv4-mapped as IPv4", () => {
    const direct = makeClientAddress({ proxyTrustedHeaders: ["X-Forwarded-For"], proxyTrustedOrigins: [] })
    expect(direct("203.0.113.5", { "x-forwarded-for": "192.0.2.1" })).toBe("203.0.113.5")
    expect(direct("::ffff:203.0.113.5", {})).toBe("203.0.113.5")
    expect(direct("2001:DB8::1", {})).toBe("2001:db8::1")
    expect(direct("", {})).toBe("")
    expect(parseAddress("192.0.2.1:8080")).toBe("192.0.2.1")
    expect(parseAddress("[2001:db8::1]:443")).toBe("2001:db8::1")
    expect(parseAddress("fe80::1%eth0")).toBe("fe80::1")
    expect(parseAddress("unknown")).toBeUndefined()
  })

  it("ignores the headers from a peer outside the trusted origins (a spoofing client)", () => {
    expect(behind("203.0.113.5", { "x-forwarded-for": "192.0.2.1", "cf-connecting-ip": "192.0.2.2" })).toBe(
      "203.0.113.5"
    )
    expect(behind("2001:db8::5", { "x-forwarded-for": "192.0.2.1" })).toBe("2001:db8::5")
  })

  it("takes the first trusted header that holds an address, from a trusted peer of either family", () => {
    expect(behind("10.1.2.3", { "cf-connecting-ip": "192.0.2.2", "x-forwarded-for": "192.0.2.1" })).toBe("192.0.2.2")
    expect(behind("10.1.2.3", { "cf-connecting-ip": "garbage", "x-forwarded-for": "192.0.2.1" })).toBe("192.0.2.1")
    expect(behind("fd12::7", { "x-forwarded-for": "2001:db8::9" })).toBe("2001:db8::9")
    // A dual-stack socket reports IPv4 peers IPv4-mapped: still inside 10.0.0.0/8.
    expect(behind("::ffff:10.1.2.3", { "x-forwarded-for": "::ffff:192.0.2.1" })).toBe("192.0.2.1")
    expect(behind("10.1.2.3", { "x-forwarded-for": "[2001:db8::9]:5000" })).toBe("2001:db8::9")
    // No header, or none that parses: the peer.
    expect(behind("10.1.2.3", {})).toBe("10.1.2.3")
    expect(behind("10.1.2.3", { "x-forwarded-for": "unknown, ," })).toBe("10.1.2.3")
  })

  it("reads X-Forwarded-For from the right: the first address not a trusted proxy, across every line", () => {
    // The client prepended 1.1.1.1; the proxies appended what they saw.
    expect(behind("10.0.0.1", { "x-forwarded-for": "1.1.1.1, 192.0.2.1, 10.0.0.2" })).toBe("192.0.2.1")
    expect(behind("10.0.0.1", { "x-forwarded-for": ["1.1.1.1", "192.0.2.1, 10.0.0.2"] })).toBe("192.0.2.1")
    // Every hop trusted: the leftmost.
    expect(behind("10.0.0.1", { "x-forwarded-for": "10.0.0.9, fd00::2" })).toBe("10.0.0.9")
    // Another header's repeated lines: the first.
    expect(behind("10.0.0.1", { "cf-connecting-ip": ["192.0.2.7", "192.0.2.8"] })).toBe("192.0.2.7")
  })

  it("refuses a trusted origin that is not a CIDR", () => {
    for (const origin of ["10.0.0.0", "10.0.0.0/33", "fd00::/129", "example.com/8", "10.0.0.0/x"]) {
      expect(() => makeClientAddress({ proxyTrustedHeaders: ["X-Forwarded-For"], proxyTrustedOrigins: [origin] }))
        .toThrow(/is not a CIDR/)
    }
  })
})
