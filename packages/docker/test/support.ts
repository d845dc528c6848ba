/**
 * What the Docker tests share: a run id that labels everything they make (and the cleanup that
 * removes only what carries it), template archives, and reading a file in a container.
 */
import type { BuildInput } from "@workbay/core"
import type Docker from "dockerode"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { PassThrough } from "node:stream"
import tar from "tar-stream"
import { LABEL_DEPLOYMENT } from "../src/Labels.js"

/** A tar archive holding `template.yaml`. */
export const templateArchive = async (yaml: string): Promise<Uint8Array> => {
  const pack = tar.pack()
  pack.entry({ name: "template.yaml" }, yaml)
  pack.finalize()
  const chunks: Array<Buffer> = []
  for await (const chunk of pack) chunks.push(chunk as Buffer)
  return new Uint8Array(Buffer.concat(chunks))
}

/** A deployment id of this test file's own: the label every container and volume it makes carries. */
export const testDeployment = () => randomUUID()

/** The `docker` starter's image: no registry is reachable here, so the run's image stands in. */
export const STARTER_IMAGE = "ubuntu:24.04"

/**
 * Makes the starter's image `ubuntu:24.04` exist on `docker`: `image` (the run's) under that tag
 * when the engine has none. Answers how to undo it (untag only what was tagged here). The tests'
 * global set-up does it once per run (globalSetup.ts).
 */
export const starterImage = async (docker: Docker, image: string): Promise<() => Promise<void>> => {
  try {
    await docker.getImage(STARTER_IMAGE).inspect()
    return async () => {}
  } catch {
    await docker.getImage(image).tag({ repo: "ubuntu", tag: "24.04" })
    return () => docker.getImage(STARTER_IMAGE).remove({ noprune: true }).then(() => {}, () => {})
  }
}

/** Removes the containers and volumes labelled with `deploymentId`, and nothing else. */
export const cleanUp = async (docker: Docker, deploymentId: string) => {
  const filters = JSON.stringify({ label: [`${LABEL_DEPLOYMENT}=${deploymentId}`] })
  for (const c of await docker.listContainers({ all: true, filters })) {
    await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)
  }
  for (const v of (await docker.listVolumes({ filters })).Volumes ?? []) {
    await docker.getVolume(v.Name).remove().catch(() => undefined)
  }
}

/** The labelled containers and volumes of `deploymentId`. */
export const labelled = async (docker: Docker, deploymentId: string) => {
  const filters = JSON.stringify({ label: [`${LABEL_DEPLOYMENT}=${deploymentId}`] })
  return {
    containers: await docker.listContainers({ all: true, filters }),
    volumes: (await docker.listVolumes({ filters })).Volumes ?? []
  }
}

/** Runs `cmd` in a running container and answers its standard output. */
export const execIn = async (docker: Docker, container: string, cmd: ReadonlyArray<string>): Promise<string> => {
  const exec = await docker.getContainer(container).exec({ Cmd: [...cmd], AttachStdout: true, AttachStderr: true })
  const stream = await exec.start({})
  const out = new PassThrough()
  const err = new PassThrough()
  let text = ""
  out.on("data", (d: Buffer) => (text += d.toString()))
  docker.modem.demuxStream(stream, out, err)
  await new Promise<void>((resolve, reject) => {
    stream.on("end", resolve)
    stream.on("error", reject)
  })
  return text
}

/** A build's input for the docker provisioner, with the build's metadata. */
export const buildInput = (
  archive: Uint8Array,
  deploymentId: string,
  workspace: { id: string; name: string; owner: string },
  overrides: Partial<BuildInput> & Pick<BuildInput, "transition">
): BuildInput => ({
  archive,
  content_type: "application/x-tar",
  variable_values: [],
  parameter_values: [],
  previous_state: new Uint8Array(0),
  workspace,
  agentToken: (name) => Effect.succeed(`token-of-${name}`),
  agentInitScript: () => "exec sleep 3600",
  metadata: {
    deployment_id: deploymentId,
    access_url: "http://127.0.0.1:1",
    workspace_build_id: randomUUID(),
    build_number: 1,
    workspace_owner_id: randomUUID(),
    template_id: randomUUID(),
    template_name: "docker",
    template_version_id: randomUUID()
  },
  ...overrides
})
