/**
 * How a machine becomes a workspace agent without Node (docs/agents.md, "The agent executable"):
 * the init script (the described system's `GET /api/v2/init-script/{os}/{arch}`) and the agent's
 * executables it downloads, served at the root as the described system's `/bin/coder-<os>-<arch>`
 * file server; and the `workbay` command line's executables beside them, which people download
 * (docs/cli.md). Each file's SHA-256 is its ETag and, as `sha256sum` prints it, at `<file>.sha256`.
 * None takes a token: the machine has none until the agent runs, the person none until they log in.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { BadRequest, NotFound } from "../Common.js"
import { fileSchema } from "../FileAnswer.js"

export const INIT_SCRIPT_CONTENT_TYPE = "text/plain; charset=utf-8"
/** A checksum file: one `<hex SHA-256>  <file name>` line, as `sha256sum` prints it (and `sha256sum -c` reads it). */
export const CHECKSUM_CONTENT_TYPE = "text/plain; charset=utf-8"

/** A platform's name: short (what no platform is, such as a 10,000-character path, is refused before it is echoed). */
const PlatformName = (description: string) =>
  Schema.String.pipe(Schema.maxLength(32, { message: () => "Must be at most 32 characters." })).annotations({
    description
  })

const Platform = Schema.Struct({
  os: PlatformName("Operating system (linux, darwin, windows)"),
  arch: PlatformName("Architecture (amd64, arm64, armv7)")
})

export class AgentBinariesApi extends HttpApiGroup.make("agentBinaries")
  .add(
    HttpApiEndpoint.get("initScript", "/api/v2/init-script/:os/:arch")
      .setPath(Platform)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: INIT_SCRIPT_CONTENT_TYPE }))
      .addError(BadRequest)
  )
  .add(
    // `/bin/workbay-agent-linux-amd64`; Windows' ends in `.exe`, which the handler takes off the arch.
    HttpApiEndpoint.get("binary", "/bin/workbay-agent-:os-:arch")
      .setPath(Platform)
      .addSuccess(fileSchema("application/octet-stream"))
      // If-None-Match names the file's hash (its ETag): 304 with no body.
      .addSuccess(HttpApiSchema.Empty(304))
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("binaryChecksum", "/bin/workbay-agent-:os-:arch.sha256")
      .setPath(Platform)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: CHECKSUM_CONTENT_TYPE }))
      .addError(NotFound)
  )
  .add(
    // `/bin/workbay-linux-amd64`: the command line's.
    HttpApiEndpoint.get("cliBinary", "/bin/workbay-:os-:arch")
      .setPath(Platform)
      .addSuccess(fileSchema("application/octet-stream"))
      .addSuccess(HttpApiSchema.Empty(304))
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("cliBinaryChecksum", "/bin/workbay-:os-:arch.sha256")
      .setPath(Platform)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: CHECKSUM_CONTENT_TYPE }))
      .addError(NotFound)
  )
{}
