/**
 * The agent's executables a deployment serves at `/bin/workbay-agent-<os>-<arch>` (the described
 * system's `/bin/coder-<os>-<arch>`), which the init script downloads (InitScript.ts). A port:
 * the http package reads them from a folder (`agentBinariesFromDirectory`); `none` serves none.
 */
import { Context, Effect, Layer, Option } from "effect"
import { NotFound } from "../Errors.js"

/** One executable: its platform in Go's names (`linux`, `amd64`), its size, hash and file. */
export interface AgentBinary {
  readonly os: string
  readonly arch: string
  readonly size: number
  /** Hex SHA-256 of the file: the init script checks it, `/bin` answers it as the ETag. */
  readonly sha256: string
  readonly path: string
}

export class AgentBinaries extends Context.Tag("@workbay/core/AgentBinaries")<AgentBinaries, {
  readonly find: (os: string, arch: string) => Effect.Effect<Option.Option<AgentBinary>>
  readonly list: Effect.Effect<ReadonlyArray<AgentBinary>>
}>() {
  /** No executables: `/bin` answers 404 for every platform. */
  static readonly none: Layer.Layer<AgentBinaries> = Layer.succeed(AgentBinaries, {
    find: () => Effect.succeedNone,
    list: Effect.succeed([])
  })
}

/** The executable for `os`-`arch`, or 404 naming the platforms served. */
export const agentBinary = (os: string, arch: string): Effect.Effect<AgentBinary, NotFound, AgentBinaries> =>
  Effect.flatMap(AgentBinaries, (binaries) =>
    Effect.flatMap(binaries.find(os, arch), (found) =>
      Option.isSome(found)
        ? Effect.succeed(found.value)
        : Effect.flatMap(binaries.list, (all) =>
          Effect.fail(
            new NotFound({
              message: `No agent binary for ${os}-${arch}.`,
              detail: all.length === 0
                ? "This deployment serves no agent binaries."
                : `This deployment serves: ${all.map((b) => `${b.os}-${b.arch}`).join(", ")}.`
            })
          ))))
