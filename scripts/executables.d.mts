// Types of scripts/executables.mjs, for the tests that build the agent's and the command line's executables.
export interface AgentBinaryEntry {
  readonly os: string
  readonly arch: string
  readonly file: string
  readonly size: number
  readonly sha256: string
  /** The Node version whose executable it is. */
  readonly node: string
  /** How the build checked it: run here, run under qemu, or its ELF header and SEA blob only. */
  readonly verified: "run" | "qemu" | "structure"
}
export interface AgentBinariesManifest {
  readonly node: string
  readonly inputs: string
  readonly version: string
  readonly binaries: ReadonlyArray<AgentBinaryEntry>
  /** Platforms not built this time, and why (the arm64 Node could not be fetched, or its executable failed). */
  readonly skipped: ReadonlyArray<{ readonly os: string; readonly arch: string; readonly reason: string }>
  /** Platforms built without node-pty's pty.node (it could not be fetched): their terminals fail, saying so. */
  readonly no_terminals?: ReadonlyArray<{ readonly os: string; readonly arch: string; readonly reason: string }>
}
export declare const DEFAULT_OUT_DIR: string
export declare const CLI_OUT_DIR: string
export declare const MANIFEST: string
export interface BuildOptions {
  readonly outDir?: string
  readonly log?: (line: string) => void
  readonly warn?: (line: string) => void
}
export declare function buildExecutables(
  which: "agent" | "cli",
  options?: BuildOptions
): Promise<AgentBinariesManifest & { readonly built: boolean }>
export declare function buildAgentBinaries(
  options?: BuildOptions
): Promise<AgentBinariesManifest & { readonly built: boolean }>
export declare function buildCliBinaries(
  options?: BuildOptions
): Promise<AgentBinariesManifest & { readonly built: boolean }>
/** The command that runs a Linux executable of `arch` (Node's name: "arm64", "x64") here: qemu-user-static and the cross libraries' folder; undefined when not installed. */
export declare const emulatorFor: (arch: string) => ReadonlyArray<string> | undefined
