/**
 * The SSH `sftp` subsystem over node:fs (ssh2's SFTP server API), enough for OpenSSH's `sftp` and
 * `scp` (which speaks SFTP since OpenSSH 9): files (open, read, write, close, stat, set their
 * attributes), directories (list, make, remove), rename, remove, links. Relative paths are from
 * `home`, as OpenSSH's sftp-server starts there. Handles are 4-byte numbers, per connection.
 */
import { constants as fsConstants, type Dir, type Stats } from "node:fs"
import {
  chmod,
  chown,
  lstat,
  mkdir,
  open,
  opendir,
  readlink,
  realpath,
  rename,
  rmdir,
  stat,
  symlink,
  truncate,
  unlink,
  utimes
} from "node:fs/promises"
import type { FileHandle } from "node:fs/promises"
import { resolve } from "node:path"
import type { Attributes, InputAttributes, SFTPWrapper } from "ssh2"

/** ssh2's `utils.sftp` constants (SFTP protocol version 3), named here to keep types and code apart. */
const OPEN_MODE = { READ: 0x1, WRITE: 0x2, APPEND: 0x4, CREAT: 0x8, TRUNC: 0x10, EXCL: 0x20 } as const
const STATUS = { OK: 0, EOF: 1, NO_SUCH_FILE: 2, PERMISSION_DENIED: 3, FAILURE: 4, OP_UNSUPPORTED: 8 } as const
/** The most one READ answers (OpenSSH asks 32 KiB; a shorter answer makes it ask for the rest). */
const MAX_READ_BYTES = 64 * 1024
const DIR_BATCH = 100

type Open =
  | { readonly kind: "file"; readonly file: FileHandle }
  | { readonly kind: "dir"; readonly path: string; readonly dir: Dir }

const attrsOf = (s: Stats): Attributes => ({
  mode: s.mode,
  uid: s.uid,
  gid: s.gid,
  size: s.size,
  atime: Math.floor(s.atimeMs / 1000),
  mtime: Math.floor(s.mtimeMs / 1000)
})

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/** An `ls -l` line, as sftp-server's long names are. */
const longname = (name: string, s: Stats): string => {
  const type = s.isDirectory() ? "d" : s.isSymbolicLink() ? "l" : s.isFIFO() ? "p" : s.isSocket() ? "s" : "-"
  let perms = ""
  for (let i = 8; i >= 0; i--) perms += (s.mode & (1 << i)) !== 0 ? "rwx"[(8 - i) % 3] : "-"
  const d = s.mtime
  const recent = Math.abs(Date.now() - d.getTime()) < 180 * 24 * 3600 * 1000
  const when = `${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2)} ${
    recent
      ? `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`
      : ` ${d.getFullYear()}`
  }`
  return `${type}${perms} ${String(s.nlink).padStart(4)} ${String(s.uid).padEnd(8)} ${String(s.gid).padEnd(8)} ${
    String(s.size).padStart(8)
  } ${when} ${name}`
}

const openFlags = (pflags: number): number => {
  const rw = (pflags & OPEN_MODE.READ) !== 0 && (pflags & OPEN_MODE.WRITE) !== 0
    ? fsConstants.O_RDWR
    : (pflags & OPEN_MODE.WRITE) !== 0
    ? fsConstants.O_WRONLY
    : fsConstants.O_RDONLY
  return rw |
    ((pflags & OPEN_MODE.APPEND) !== 0 ? fsConstants.O_APPEND : 0) |
    ((pflags & OPEN_MODE.CREAT) !== 0 ? fsConstants.O_CREAT : 0) |
    ((pflags & OPEN_MODE.TRUNC) !== 0 ? fsConstants.O_TRUNC : 0) |
    ((pflags & OPEN_MODE.EXCL) !== 0 ? fsConstants.O_EXCL : 0)
}

/**
 * Sends the subsystem's exit status, as sshd does when sftp-server exits (scp fails without it).
 * ssh2's SFTP object has no method for it: its channel's protocol does.
 */
const exitStatus = (sftp: SFTPWrapper, code: number) => {
  const channel = sftp as unknown as {
    _protocol?: { exitStatus?: (id: number, code: number) => void }
    outgoing?: { id: number; state: string }
  }
  if (channel.outgoing?.state === "open") channel._protocol?.exitStatus?.(channel.outgoing.id, code)
}

/** Serves SFTP requests on `sftp` until it closes. */
export const serveSftp = (sftp: SFTPWrapper, home: string): void => {
  const handles = new Map<number, Open>()
  let nextHandle = 1
  const path = (p: string) => resolve(home, p === "" ? "." : p)

  const handleOf = (open: Open) => {
    const id = nextHandle++
    handles.set(id, open)
    const b = Buffer.alloc(4)
    b.writeUInt32BE(id)
    return b
  }
  /** A handle's number, read when the request arrives (ssh2 lends the packet's memory). */
  const handleKey = (handle: Buffer): number => (handle.length === 4 ? handle.readUInt32BE(0) : 0)

  const fail = (reqId: number, e: unknown) => {
    const code = (e as NodeJS.ErrnoException)?.code
    const message = e instanceof Error ? e.message : String(e)
    sftp.status(
      reqId,
      code === "ENOENT" || code === "ENOTDIR"
        ? STATUS.NO_SUCH_FILE
        : code === "EACCES" || code === "EPERM"
        ? STATUS.PERMISSION_DENIED
        : STATUS.FAILURE,
      message
    )
  }
  /**
   * Runs `work` after the requests before it, answering its failure as a status. One at a time,
   * as OpenSSH's sftp-server: its client takes answers out of order as a sign of trouble (it
   * truncates what it transferred at the last point answered in order, and reports success).
   */
  let queue = Promise.resolve()
  const serve = (reqId: number, work: () => Promise<void>) => {
    queue = queue.then(work).catch((e) => fail(reqId, e))
  }
  const ok = (reqId: number) => sftp.status(reqId, STATUS.OK)
  const badHandle = (reqId: number) => sftp.status(reqId, STATUS.FAILURE, "No such handle.")

  const setAttrs = async (target: string | FileHandle, attrs: InputAttributes) => {
    const isFile = typeof target !== "string"
    if (attrs.size !== undefined) isFile ? await target.truncate(attrs.size) : await truncate(target, attrs.size)
    if (attrs.uid !== undefined && attrs.gid !== undefined) {
      isFile ? await target.chown(attrs.uid, attrs.gid) : await chown(target, attrs.uid, attrs.gid)
    }
    if (attrs.mode !== undefined) {
      const mode = typeof attrs.mode === "string" ? Number.parseInt(attrs.mode, 8) : attrs.mode
      isFile ? await target.chmod(mode & 0o7777) : await chmod(target, mode & 0o7777)
    }
    if (attrs.atime !== undefined && attrs.mtime !== undefined) {
      isFile ? await target.utimes(attrs.atime, attrs.mtime) : await utimes(target, attrs.atime, attrs.mtime)
    }
  }

  sftp.on("OPEN", (reqId, filename, flags, attrs) =>
    serve(reqId, async () => {
      const mode = typeof attrs.mode === "number" ? attrs.mode & 0o7777 : 0o666
      const file = await open(path(filename), openFlags(flags), mode)
      sftp.handle(reqId, handleOf({ kind: "file", file }))
    }))
  sftp.on("READ", (reqId, handle, offset, length) => {
    const key = handleKey(handle)
    serve(reqId, async () => {
      const h = handles.get(key)
      if (h?.kind !== "file") return badHandle(reqId)
      const buffer = Buffer.alloc(Math.min(length, MAX_READ_BYTES))
      const { bytesRead } = await h.file.read(buffer, 0, buffer.length, Number(offset))
      if (bytesRead === 0) sftp.status(reqId, STATUS.EOF)
      else sftp.data(reqId, buffer.subarray(0, bytesRead))
    })
  })
  sftp.on("WRITE", (reqId, handle, offset, incoming) => {
    // ssh2 lends the packet's memory, which a later packet may reuse; the write waits, so it copies.
    const data = Buffer.from(incoming)
    const key = handleKey(handle)
    serve(reqId, async () => {
      const h = handles.get(key)
      if (h?.kind !== "file") return badHandle(reqId)
      let written = 0
      while (written < data.length) {
        const { bytesWritten } = await h.file.write(data, written, data.length - written, Number(offset) + written)
        written += bytesWritten
      }
      ok(reqId)
    })
  })
  sftp.on("FSTAT", (reqId, handle) => {
    const key = handleKey(handle)
    serve(reqId, async () => {
      const h = handles.get(key)
      if (h === undefined) return badHandle(reqId)
      sftp.attrs(reqId, attrsOf(h.kind === "file" ? await h.file.stat() : await stat(h.path)))
    })
  })
  sftp.on("FSETSTAT", (reqId, handle, attrs) => {
    const key = handleKey(handle)
    serve(reqId, async () => {
      const h = handles.get(key)
      if (h === undefined) return badHandle(reqId)
      await setAttrs(h.kind === "file" ? h.file : h.path, attrs)
      ok(reqId)
    })
  })
  sftp.on("CLOSE", (reqId, handle) => {
    const key = handleKey(handle)
    serve(reqId, async () => {
      const h = handles.get(key)
      if (h === undefined) return badHandle(reqId)
      handles.delete(key)
      await (h.kind === "file" ? h.file.close() : h.dir.close())
      ok(reqId)
    })
  })
  sftp.on("OPENDIR", (reqId, dirPath) =>
    serve(reqId, async () => {
      const full = path(dirPath)
      const dir = await opendir(full)
      sftp.handle(reqId, handleOf({ kind: "dir", path: full, dir }))
    }))
  sftp.on("READDIR", (reqId, handle) => {
    const key = handleKey(handle)
    serve(reqId, async () => {
      const h = handles.get(key)
      if (h?.kind !== "dir") return badHandle(reqId)
      const names = []
      for (let i = 0; i < DIR_BATCH; i++) {
        const entry = await h.dir.read()
        if (entry === null) break
        const s = await lstat(resolve(h.path, entry.name)).catch(() => undefined)
        if (s === undefined) continue
        names.push({ filename: entry.name, longname: longname(entry.name, s), attrs: attrsOf(s) })
      }
      if (names.length === 0) sftp.status(reqId, STATUS.EOF)
      else sftp.name(reqId, names)
    })
  })
  sftp.on("STAT", (reqId, p) => serve(reqId, async () => void sftp.attrs(reqId, attrsOf(await stat(path(p))))))
  sftp.on("LSTAT", (reqId, p) => serve(reqId, async () => void sftp.attrs(reqId, attrsOf(await lstat(path(p))))))
  sftp.on("SETSTAT", (reqId, p, attrs) =>
    serve(reqId, async () => {
      await setAttrs(path(p), attrs)
      ok(reqId)
    }))
  sftp.on("REMOVE", (reqId, p) => serve(reqId, async () => void (await unlink(path(p)), ok(reqId))))
  sftp.on("RMDIR", (reqId, p) => serve(reqId, async () => void (await rmdir(path(p)), ok(reqId))))
  sftp.on("MKDIR", (reqId, p, attrs) =>
    serve(reqId, async () => {
      await mkdir(path(p), typeof attrs.mode === "number" ? attrs.mode & 0o7777 : 0o777)
      ok(reqId)
    }))
  sftp.on("RENAME", (reqId, from, to) => serve(reqId, async () => void (await rename(path(from), path(to)), ok(reqId))))
  sftp.on("REALPATH", (reqId, p) =>
    serve(reqId, async () => {
      const full = path(p)
      // A path that does not exist (yet) is answered as written, normalized.
      const real = await realpath(full).catch(() => full)
      sftp.name(reqId, [{ filename: real, longname: real, attrs: {} as Attributes }])
    }))
  sftp.on("READLINK", (reqId, p) =>
    serve(reqId, async () => {
      const target = await readlink(path(p))
      sftp.name(reqId, [{ filename: target, longname: target, attrs: {} as Attributes }])
    }))
  // ssh2 puts the link first whichever order the client sent (OpenSSH's is the reverse of the draft's).
  sftp.on(
    "SYMLINK",
    (reqId, linkPath, targetPath) =>
      serve(reqId, async () => void (await symlink(targetPath, path(linkPath)), ok(reqId)))
  )
  const release = () => {
    for (const h of handles.values()) void (h.kind === "file" ? h.file.close() : h.dir.close()).catch(() => undefined)
    handles.clear()
  }
  // The client's EOF ends the subsystem: the channel closes (OpenSSH's sftp waits for it).
  sftp.on("end", () => {
    release()
    exitStatus(sftp, 0)
    sftp.end()
  })
  sftp.on("close", release)
}
