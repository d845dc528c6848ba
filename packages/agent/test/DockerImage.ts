/**
 * A Docker image with no Node in it, for the tests that run the agent's executable the way a
 * workspace does (Executable.test.ts, and the Docker provisioner's tests). No registry is
 * reachable, so nothing is pulled: the image's root file system is made from this machine's own
 * files (a shell, wget, the coreutils the init script uses, and every shared library `ldd` names
 * for them, for Node's executable, which is what the agent's executable links, and for node-pty's
 * pty.node, which its terminals load: glibc's libutil) and imported
 * through the Engine API (`POST /images/create?fromSrc=-`). Its users: root and `workbay` (1000,
 * home /home/workbay); /tmp is 1777. It is tagged with a hash of its
 * contents and labelled, so a second run finds it and imports nothing.
 */
import type Docker from "dockerode"
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, join, resolve } from "node:path"
import { PassThrough } from "node:stream"
import { pack } from "tar-stream"

/** The label every such image carries (its value: the content hash). */
export const NODELESS_LABEL = "workbay.test.nodeless"

/** What the init script and the agent run, found on this machine's PATH. */
const TOOLS = [
  "sh",
  "head",
  "wc",
  "awk",
  "df",
  "tail",
  "cut",
  "tr",
  "wget",
  "sha256sum",
  "mktemp",
  "chmod",
  "rm",
  "mkdir",
  "ls",
  "cat",
  "echo",
  "sleep",
  "id",
  "env",
  "uname",
  "which",
  "true",
  "stty",
  "tty",
  "false",
  "install"
]

const which = (tool: string): string | undefined => {
  for (const dir of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    if (existsSync(`${dir}/${tool}`)) return `${dir}/${tool}`
  }
  return undefined
}

/** The shared libraries `ldd` names for `file` (the dynamic loader included), as real paths. */
const librariesOf = (file: string): Array<string> => {
  let out: string
  try {
    out = execFileSync("ldd", [file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
  } catch {
    // Not a dynamic executable (a script such as `which`, or a static binary).
    return []
  }
  const libs: Array<string> = []
  for (const line of out.split("\n")) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line)
    if (m !== null) libs.push(m[1]!)
  }
  return libs
}

interface Entry {
  readonly name: string
  readonly mode: number
  readonly data?: Buffer | undefined
  readonly type: "file" | "directory" | "symlink"
  readonly target?: string | undefined
}

/**
 * How the image's init script can download: `wget` (the default), or `perl` only: no curl, wget
 * or busybox, but perl-base, as in plain Debian and Ubuntu images (the init script's last resort),
 * or `curl` (no wget), as a person's machine that follows the README's download of `workbay`.
 */
export type DownloadTool = "wget" | "perl" | "curl"

/** Every file of Debian's perl-base (the interpreter and its core modules). */
const perlBase = (): Array<string> =>
  execFileSync("dpkg", ["-L", "perl-base"], { encoding: "utf8" }).split("\n")
    .filter((p) =>
      p.startsWith("/usr/") && !p.startsWith("/usr/share/") && existsSync(p) && !lstatSync(p).isDirectory()
    )

/** The root file system's entries, sorted (so that the hash depends on contents only). */
const rootFileSystem = (download: DownloadTool): Array<Entry> => {
  const entries = new Map<string, Entry>()
  const dir = (name: string, mode = 0o755) => {
    if (name === "/" || entries.has(name)) return
    dir(dirname(name))
    entries.set(name, { name, mode, type: "directory" })
  }
  const file = (name: string, data: Buffer, mode: number) => {
    dir(dirname(name))
    entries.set(name, { name, mode, data, type: "file" })
  }
  /** Places `path` at its place here: links as links (their targets placed too), files as copies. */
  const place = (path: string): void => {
    const at = join(realpathSync(dirname(path)), basename(path))
    if (entries.has(at)) return
    const stat = lstatSync(at)
    if (stat.isSymbolicLink()) {
      const target = readlinkSync(at)
      dir(dirname(at))
      entries.set(at, { name: at, mode: 0o777, type: "symlink", target })
      place(resolve(dirname(at), target))
    } else if (stat.isDirectory()) {
      dir(at)
    } else {
      file(at, readFileSync(at), stat.mode & 0o777)
    }
  }

  // Debian links /bin to /usr/bin, /lib to /usr/lib and /lib64 to /usr/lib64: kept as links.
  for (const top of ["/bin", "/lib", "/lib64", "/sbin"]) if (existsSync(top)) place(top)
  const tools = download === "wget" ? TOOLS : [...TOOLS.filter((t) => t !== "wget"), download]
  const binaries = tools.map((tool) => {
    const path = which(tool)
    if (path === undefined && tool !== "which") throw new Error(`${tool} is not on this machine`)
    return path
  }).filter((p): p is string => p !== undefined)
  for (const path of binaries) place(path)
  const modules = download === "perl" ? perlBase() : []
  for (const path of modules) place(path)
  // The agent's terminals load node-pty's pty.node (from the executable's assets): its libraries too.
  const ptyNode = createRequire(import.meta.url).resolve(`@lydell/node-pty-linux-${process.arch}/pty.node`)
  const linked = [...binaries, ...modules.filter((p) => p.endsWith(".so")), process.execPath, ptyNode]
  for (const lib of new Set(linked.flatMap(librariesOf))) place(lib)

  file(
    "/etc/passwd",
    Buffer.from("root:x:0:0:root:/root:/bin/sh\nworkbay:x:1000:1000:workbay:/home/workbay:/bin/sh\n"),
    0o644
  )
  file("/etc/group", Buffer.from("root:x:0:\nworkbay:x:1000:\n"), 0o644)
  file("/etc/nsswitch.conf", Buffer.from("passwd: files\ngroup: files\nhosts: files dns\n"), 0o644)
  file("/etc/hosts", Buffer.from("127.0.0.1 localhost\n"), 0o644)
  dir("/tmp", 0o1777)
  dir("/root", 0o700)
  dir("/home/workbay")
  dir("/proc")
  dir("/dev")
  dir("/sys")
  return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name))
}

const contentHash = (entries: ReadonlyArray<Entry>) => {
  const hash = createHash("sha256")
  for (const e of entries) {
    hash.update(`${e.type}\0${e.name}\0${e.mode}\0${e.target ?? ""}\0`)
    if (e.data !== undefined) hash.update(e.data)
  }
  return hash.digest("hex").slice(0, 16)
}

/** The entries as a tar stream. */
const tarOf = (entries: ReadonlyArray<Entry>) => {
  const tar = pack()
  for (const e of entries) {
    const header = { name: e.name.slice(1), mode: e.mode, uid: 0, gid: 0, mtime: new Date(0) }
    if (e.type === "directory") tar.entry({ ...header, type: "directory" })
    else if (e.type === "symlink") tar.entry({ ...header, type: "symlink", linkname: e.target! })
    else tar.entry({ ...header, type: "file" }, e.data!)
  }
  tar.finalize()
  return tar.pipe(new PassThrough())
}

/**
 * The tag of an image with no Node (`workbay-test/nodeless:<content hash>`), imported into
 * `docker` unless it has one of that tag already.
 */
export const nodeLessImage = async (docker: Docker, download: DownloadTool = "wget"): Promise<string> => {
  const entries = rootFileSystem(download)
  const hash = contentHash(entries)
  const repo = download === "wget" ? "workbay-test/nodeless" : `workbay-test/nodeless-${download}`
  const tag = `${repo}:${hash}`
  try {
    await docker.getImage(tag).inspect()
    return tag
  } catch {
    // Not there yet: imported below.
  }
  const stream = await docker.importImage(tarOf(entries), {
    repo,
    tag: hash,
    changes: [
      `LABEL ${NODELESS_LABEL}=${hash}`,
      "ENV PATH=/usr/local/bin:/usr/bin:/bin",
      "CMD [\"/bin/sh\"]"
    ]
  } as Record<string, unknown>)
  // The import's progress: read to its end, failing on an error message.
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(stream, (error: Error | null, output: Array<{ error?: string }>) => {
      const failed = error ?? output.find((o) => o.error !== undefined)?.error
      if (failed) reject(failed instanceof Error ? failed : new Error(String(failed)))
      else resolve()
    })
  })
  await docker.getImage(tag).inspect()
  // Earlier contents' images of this kind (labelled, so made here) go, so that changes do not pile up.
  const earlier = await docker.listImages({ filters: JSON.stringify({ label: [NODELESS_LABEL] }) })
  for (const image of earlier) {
    const tags = image.RepoTags ?? []
    if (tags.includes(tag) || !tags.some((t) => t.startsWith(`${repo}:`))) continue
    await docker.getImage(image.Id).remove({ force: false }).catch(() => undefined)
  }
  return tag
}
