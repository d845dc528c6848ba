/**
 * The executables a deployment serves at `/bin/<program>-<os>-<arch>` (the described system's
 * `/bin/coder-<os>-<arch>`): the agent's (`workbay-agent-<os>-<arch>`), which the init script
 * downloads (InitScript.ts), and the command line's (`workbay-<os>-<arch>`), which people download
 * with `curl`. A port: the http package reads them from folders (`binariesFromDirectories`);
 * `none` serves none.
 */
import { Context, Effect, Layer, Option } from "effect"
import { NotFound } from "../Errors.js"

/** The programs served: the reference agent and the `workbay` command line. */
export type BinaryProgram = "workbay-agent" | "workbay"

/** One executable: its program, its platform in Go's names (`linux`, `amd64`), its size, hash and file. */
export interface ServedBinary {
  readonly program: BinaryProgram
  readonly os: string
  readonly arch: string
  readonly size: number
  /** Hex SHA-256 of the file: the init script checks it, `/bin` answers it as the ETag and at `.sha256`. */
  readonly sha256: string
  readonly path: string
}

export class Binaries extends Context.Tag("@workbay/core/Binaries")<Binaries, {
  readonly find: (program: BinaryProgram, os: string, arch: string) => Effect.Effect<Option.Option<ServedBinary>>
  readonly list: Effect.Effect<ReadonlyArray<ServedBinary>>
}>() {
  /** No executables: `/bin` answers 404 for every program and platform. */
  static readonly none: Layer.Layer<Binaries> = Layer.succeed(Binaries, {
    find: () => Effect.succeedNone,
    list: Effect.succeed([])
  })
}

const PROGRAM_NAMES: Record<BinaryProgram, string> = { "workbay-agent": "agent", workbay: "workbay command" }

/** The executable of `program` for `os`-`arch`, or 404 naming the platforms served of that program. */
export const servedBinary = (
  program: BinaryProgram,
  os: string,
  arch: string
): Effect.Effect<ServedBinary, NotFound, Binaries> =>
  Effect.flatMap(
    Binaries,
    (binaries) =>
      Effect.flatMap(binaries.find(program, os, arch), (found) =>
        Option.isSome(found)
          ? Effect.succeed(found.value)
          : Effect.flatMap(binaries.list, (all) => {
            const served = all.filter((b) => b.program === program)
            return Effect.fail(
              new NotFound({
                message: `No ${PROGRAM_NAMES[program]} binary for ${os}-${arch}.`,
                detail: served.length === 0
                  ? `This deployment serves no ${PROGRAM_NAMES[program]} binaries.`
                  : `This deployment serves: ${served.map((b) => `${b.os}-${b.arch}`).join(", ")}.`
              })
            )
          }))
  )
