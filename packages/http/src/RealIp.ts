/**
 * The client's address behind a load balancer, as the described system finds it (its
 * `httpmw.ExtractRealIP`, driven by the `proxyTrustedHeaders` and `proxyTrustedOrigins`
 * settings; docs/operations.md, "Behind a load balancer").
 *
 * - Only when the immediate peer (the socket's address) is inside one of the trusted origins
 *   (CIDRs) are the trusted headers read; from anybody else they are ignored, so a client cannot
 *   choose the address its requests are counted and audited under.
 * - The trusted headers are tried in their order; the first one that holds an address wins.
 *   Its value is read as a comma-separated list (every `X-Forwarded-For` line joined) from the
 *   right: the first address that is not itself a trusted origin is the client (proxies append
 *   the peer they saw, so whatever a client prepends sits further left and is passed over). When
 *   every listed address is trusted, the leftmost one is taken.
 * - Otherwise the peer's address is the client's.
 *
 * Addresses lose their port (`1.2.3.4:80`, `[2001:db8::1]:443`) and an IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`, what a dual-stack socket reports) is written as the IPv4 address it is,
 * so one client has one rate-limit key and one way of appearing in the audit log.
 */
import { BlockList, isIP, isIPv4 } from "node:net"

/** The headers of a request as the adapters hand them over (lower-case names). */
export type RequestHeaders = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** Finds the client's address from the peer's and the request's headers. */
export interface ClientAddress {
  (peer: string, headers: RequestHeaders): string
  /** Whether `peer` is a trusted proxy, whose trusted headers are believed. */
  readonly trusts: (peer: string) => boolean
  /** The trusted headers (lower-case): from anybody but a trusted proxy they are dropped before a request is passed on (the app proxy). */
  readonly trustedHeaders: ReadonlyArray<string>
}

/** Which proxies are trusted, and which of their headers (the settings of the same names). */
export interface RealIpConfig {
  /** Header names, e.g. `X-Forwarded-For`, `CF-Connecting-IP`, `True-Client-IP`. */
  readonly proxyTrustedHeaders: ReadonlyArray<string>
  /** CIDRs of the proxies allowed to name the client, e.g. `10.0.0.0/8`, `fd00::/8`. */
  readonly proxyTrustedOrigins: ReadonlyArray<string>
}

const MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

/** `address` without its port, IPv4-mapped addresses as IPv4; undefined when it is not an IP address. */
export const parseAddress = (address: string): string | undefined => {
  let host = address.trim()
  if (host.startsWith("[")) {
    // `[v6]` or `[v6]:port`
    const end = host.indexOf("]")
    if (end < 0) return undefined
    host = host.slice(1, end)
  } else if (host.indexOf(":") > 0 && host.indexOf(":") === host.lastIndexOf(":")) {
    // One colon: `v4:port` (an IPv6 address has at least two).
    host = host.slice(0, host.indexOf(":"))
  }
  // A zone (`fe80::1%eth0`) does not name another client.
  const zone = host.indexOf("%")
  if (zone >= 0) host = host.slice(0, zone)
  const version = isIP(host)
  if (version === 0) return undefined
  if (version === 4) return host
  const mapped = MAPPED.exec(host)
  return mapped !== null && isIPv4(mapped[1]!) ? mapped[1]! : host.toLowerCase()
}

/** A CIDR as the block list takes it; throws with the setting's name when it is not one. */
const parseCidr = (
  cidr: string
): { readonly network: string; readonly prefix: number; readonly family: "ipv4" | "ipv6" } => {
  const slash = cidr.indexOf("/")
  const network = slash < 0 ? "" : cidr.slice(0, slash).trim()
  const bits = slash < 0 ? "" : cidr.slice(slash + 1).trim()
  const version = isIP(network)
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : -1
  if (version === 0 || prefix < 0 || prefix > (version === 4 ? 32 : 128)) {
    throw new Error(`proxy_trusted_origins: "${cidr}" is not a CIDR (e.g. 10.0.0.0/8 or fd00::/8).`)
  }
  return { network, prefix, family: version === 4 ? "ipv4" : "ipv6" }
}

/**
 * The client-address function of `config`. Throws when a trusted origin is not a CIDR (the
 * described system refuses to start then too).
 */
export const makeClientAddress = (config: RealIpConfig): ClientAddress => {
  const normalize = (peer: string) => parseAddress(peer) ?? peer
  const headers = config.proxyTrustedHeaders.map((h) => h.trim().toLowerCase()).filter((h) => h !== "")
  const origins = config.proxyTrustedOrigins
    .map((o) => o.trim())
    .filter((o) => o !== "")
    .map(parseCidr)
  if (headers.length === 0 || origins.length === 0) {
    return Object.assign(normalize, { trusts: () => false, trustedHeaders: headers })
  }
  const trusted = new BlockList()
  for (const o of origins) trusted.addSubnet(o.network, o.prefix, o.family)
  // An IPv4 rule also covers the IPv4-mapped form of its addresses (the block list checks both).
  const isTrusted = (ip: string) => trusted.check(ip, isIPv4(ip) ? "ipv4" : "ipv6")

  /** The rightmost address not trusted, else the leftmost; undefined when none parses. */
  const forwarded = (value: string): string | undefined => {
    const parts = value.split(",")
    let leftmost: string | undefined
    for (let i = parts.length - 1; i >= 0; i--) {
      const ip = parseAddress(parts[i]!)
      if (ip === undefined) continue
      leftmost = ip
      if (!isTrusted(ip)) return ip
    }
    return leftmost
  }

  const trusts = (peer: string) => {
    const from = parseAddress(peer)
    return from !== undefined && isTrusted(from)
  }
  return Object.assign((peer: string, requestHeaders: RequestHeaders) => {
    const from = parseAddress(peer)
    if (from === undefined || !isTrusted(from)) return from ?? peer
    for (const name of headers) {
      const given = requestHeaders[name]
      if (given === undefined) continue
      // X-Forwarded-For's lines are one list (RFC 9110); other headers are one proxy's value.
      const value = typeof given === "string" ? given : name === "x-forwarded-for" ? given.join(",") : (given[0] ?? "")
      const ip = forwarded(value)
      if (ip !== undefined) return ip
    }
    return from
  }, { trusts, trustedHeaders: headers })
}
