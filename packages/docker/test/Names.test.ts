/**
 * The Engine's grammar of names and references (Names.ts), with no daemon: real-world values pass;
 * values that would change a request path or a request (`..`, `/`, `%2F`, `@`, `?`, `#`,
 * whitespace, control characters, 10 KB) are refused with what the value must be.
 */
import { describe, expect, it } from "vitest"
import {
  absolutePath,
  containerName,
  hostname,
  imageReference,
  labelKey,
  labelValue,
  mountTarget,
  type NameRule,
  networkName,
  showValue,
  userName,
  volumeName
} from "../src/Names.js"

const HEX = "a".repeat(32) + "0123456789abcdef".repeat(2)
const HOSTILE = [
  "",
  ".",
  "..",
  "../x",
  "x/../y",
  "../../127.0.0.1:9/x",
  "/",
  "/var/run/docker.sock",
  "a/b",
  "a%2Fb",
  "%2e%2e",
  "a@b",
  "a?b",
  "a#b",
  "a b",
  " a",
  "a\tb",
  "a\nb",
  "a\u0000b",
  "a\u007fb",
  "a\u2028b",
  "x".repeat(10 * 1024)
]

const accepts = (rule: NameRule, values: ReadonlyArray<string>) => {
  for (const value of values) expect(rule(value), JSON.stringify(value)).toBeUndefined()
}
const refuses = (rule: NameRule, values: ReadonlyArray<string>, message: RegExp) => {
  for (const value of values) expect(rule(value), JSON.stringify(value.slice(0, 40))).toMatch(message)
}

describe("container and volume names (moby's restricted names)", () => {
  it("accepts names of letters, digits, _ . - starting with a letter or digit", () => {
    for (const rule of [containerName, volumeName]) {
      accepts(rule, ["ab", "workbay-alice-dev-1a2b3c4d", "Home_1.data", "0x", "a.-_b"])
    }
    accepts(containerName, ["c".repeat(128)])
    accepts(volumeName, ["v".repeat(255)])
  })

  it("refuses paths, escapes, query and fragment characters, whitespace, control characters and long values", () => {
    for (const rule of [containerName, volumeName]) {
      refuses(
        rule,
        [...HOSTILE, "a", "-a", "_a", ".a", "a:b", "a,b", "é1"],
        /^must be a (container|volume) name of 2 to/
      )
    }
    expect(containerName("c".repeat(129))).toMatch(/longer than 128 characters/)
    expect(volumeName("v".repeat(256))).toMatch(/longer than 255 characters/)
    expect(volumeName("x".repeat(10 * 1024))).toMatch(/longer than 255 characters/)
  })
})

describe("image references (distribution/reference)", () => {
  it("accepts real-world references and image ids", () => {
    accepts(imageReference, [
      "ubuntu",
      "ubuntu:24.04",
      "library/ubuntu:latest",
      "docker.io/library/ubuntu:24.04",
      "ghcr.io/coder/coder:v2.1.0",
      "registry.example.com:443/team/img",
      "registry.example.com:5000/team/sub/img:1.0_rc-2",
      `localhost:5000/a/b@sha256:${HEX}`,
      `ubuntu:24.04@sha256:${HEX}`,
      "[::1]:5000/a/b:c",
      "127.0.0.1:5000/a",
      "a__b/c---d/e.f",
      "workbay-test/not-here:nope",
      HEX,
      `sha256:${HEX}`,
      "a".repeat(255)
    ])
  })

  it("refuses what is not a reference, uppercase paths, bad tags and digests", () => {
    refuses(imageReference, [
      // `a/b` is a repository path: the one hostile value that is an image's name.
      ...HOSTILE.filter((v) => v !== "a/b"),
      "Ubuntu",
      "ubuntu:",
      "ubuntu:-x",
      "ubuntu:a/b",
      `ubuntu:${"t".repeat(129)}`,
      "ubuntu@sha256:abc",
      "ubuntu@",
      "a//b",
      "a/",
      "/a",
      "-a",
      "a-/b",
      "a..b",
      "a___b",
      "http://registry/x",
      "registry:port/x",
      "a:1:2"
    ], /^must be an image reference/)
    expect(imageReference("a".repeat(256))).toMatch(/repository path is longer than 255 characters/)
    expect(imageReference("x".repeat(10 * 1024))).toMatch(/longer than 1,024 characters/)
  })

  it("answers at once on long near-misses (no backtracking blow-up)", () => {
    const started = performance.now()
    for (const value of ["a-".repeat(500), "a.".repeat(500) + "!", "a".repeat(1000) + "!", "a_".repeat(500) + "/"]) {
      expect(imageReference(value)).toBeDefined()
    }
    // Far above what the four take (well under a millisecond each): a sanity bound, not a measure.
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe("the other values the Engine is given", () => {
  it("networks: bridge, host, none, container:<name> or a network's name", () => {
    accepts(networkName, ["bridge", "host", "none", "container:dev-1", "my_net.1", "container:" + "c".repeat(128)])
    refuses(networkName, [...HOSTILE, "container:", "container:/x", "container:../x", "a"], /^must be bridge, host/)
  })

  it("label keys and values", () => {
    accepts(labelKey, ["team", "com.example.team", "a/b", "k".repeat(255)])
    refuses(labelKey, ["", "a b", "a=b", "a\u0000", "k".repeat(256)], /^must be a label key/)
    accepts(labelValue, ["", "platform", "a b = c / ? # @ %2F ..", "v".repeat(4096)])
    refuses(labelValue, ["a\nb", "a\u0000", "v".repeat(4097)], /^must be a label value/)
  })

  it("paths: mount targets, host sources and working folders", () => {
    accepts(absolutePath, ["/", "/home/workbay", "/a b/c", "/x/../y"])
    refuses(
      absolutePath,
      ["", "relative", "../x", "a/b", "/a\u0000", "/a\nb", "/" + "p".repeat(4096)],
      /^must be an absolute path/
    )
    accepts(mountTarget, ["/home/workbay", "/scratch"])
    refuses(mountTarget, ["/", "//"], /other than "\/"/)
  })

  it("host names (RFC 1123) and users", () => {
    accepts(hostname, ["dev", "a", "dev-1.example.com", "h".repeat(63)])
    refuses(hostname, [...HOSTILE, "-a", "a-", "a..b", "a_b", "h".repeat(64)], /^must be a host name/)
    accepts(userName, ["dev", "1000", "dev:dev", "1000:1000", "_apt", "www-data"])
    refuses(userName, [...HOSTILE, "a:b:c", "u".repeat(33)], /^must be a user/)
  })
})

describe("a value in a message", () => {
  it("is quoted with control characters escaped, and cut short with its length", () => {
    expect(showValue("/var/run/docker.sock")).toBe("\"/var/run/docker.sock\"")
    expect(showValue("a\nb\u0000")).toBe("\"a\\nb\\u0000\"")
    const long = showValue("x".repeat(10 * 1024))
    expect(long).toBe(`"${"x".repeat(60)}…" (10,240 characters)`)
  })
})
