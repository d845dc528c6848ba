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

/**
 * An executable's file (`name` at `path`, Windows' ending in `.exe`, which the handler takes off the
 * arch): 200 with it, or 304 with no body when If-None-Match names its hash (its ETag).
 */
const fileEndpoint = <const Name extends string, const Path extends HttpApiEndpoint.PathSegment>(
  name: Name,
  path: Path
) =>
  HttpApiEndpoint.get(name, path)
    .setPath(Platform)
    .addSuccess(fileSchema("application/octet-stream"))
    .addSuccess(HttpApiSchema.Empty(304))
    .addError(NotFound)

/** An executable's checksum file (`<path>.sha256`). */
const checksumEndpoint = <const Name extends string, const Path extends HttpApiEndpoint.PathSegment>(
  name: Name,
  path: Path
) =>
  HttpApiEndpoint.get(name, path)
    .setPath(Platform)
    .addSuccess(HttpApiSchema.Uint8Array({ contentType: CHECKSUM_CONTENT_TYPE }))
    .addError(NotFound)

export class AgentBinariesApi extends HttpApiGroup.make("agentBinaries")
  .add(
    HttpApiEndpoint.get("initScript", "/api/v2/init-script/:os/:arch")
      .setPath(Platform)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: INIT_SCRIPT_CONTENT_TYPE }))
      .addError(BadRequest)
  )
  // `/bin/workbay-agent-linux-amd64`: the agent's.
  .add(fileEndpoint("binary", "/bin/workbay-agent-:os-:arch"))
  .add(checksumEndpoint("binaryChecksum", "/bin/workbay-agent-:os-:arch.sha256"))
  // `/bin/workbay-linux-amd64`: the command line's.
  .add(fileEndpoint("cliBinary", "/bin/workbay-:os-:arch"))
  .add(checksumEndpoint("cliBinaryChecksum", "/bin/workbay-:os-:arch.sha256"))
{}
