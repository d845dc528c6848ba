/**
 * What the Docker tests need, made once per run when a Docker daemon answers (DOCKER_HOST, else
 * /var/run/docker.sock): the agent's executables (scripts/executables.mjs, kept in
 * node_modules/.cache/workbay-agent-bin across runs and rebuilt when the agent or Node changes;
 * packages/agent/test/globalSetup.ts, before this one in the root configuration, builds them and
 * this call finds them current, run alone with packages/docker's configuration it builds them)
 * and three images without Node, imported from this machine's files (packages/agent/test/DockerImage.ts):
 * one whose init script downloads with wget, one with perl only (as plain Debian and Ubuntu images),
 * one with curl (as a person's machine downloading the `workbay` command, packages/cli/test/Executable.test.ts).
 * Provided as `inject("workbayDocker")`. No daemon: the Docker tests are skipped with a loud
 * `SKIPPED: Docker provisioner tests` line, unless CI is set, where the run fails
 * (scripts/ensure.mjs installs and starts dockerd where it can).
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import { buildAgentBinaries } from "../../../scripts/executables.mjs"
import { nodeLessImage } from "../../agent/test/DockerImage.js"
import { dockerClient } from "../src/Client.js"
import { starterImage } from "./support.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The Docker tests' images and agent executables, or null when no Docker daemon answers (they skip). */
    workbayDocker: {
      /** An image with no Node whose init script downloads with wget. */
      readonly image: string
      /** An image with no Node, no curl, wget or busybox: perl only. */
      readonly perlImage: string
      /** An image with no Node whose download tool is curl (no wget). */
      readonly curlImage: string
      /** The folder of the agent's executables (`agentBinaries`). */
      readonly agentBinaries: string
    } | null
  }
}

const isCi = () => {
  const ci = process.env.CI
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false"
}

const root = fileURLToPath(new URL("../../..", import.meta.url))
const BIN_DIR = join(root, "node_modules/.cache/workbay-agent-bin")

export default async function setup(project: TestProject) {
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  try {
    await docker.ping()
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (isCi()) throw new Error(`The Docker provisioner tests need a Docker daemon under CI: ${reason}`)
    const line = `SKIPPED: Docker provisioner tests — no Docker daemon answers (${reason})`
    console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`)
    project.provide("workbayDocker", null)
    return () => console.warn(`\n${line}\n`)
  }
  const [, image, perlImage, curlImage] = await Promise.all([
    buildAgentBinaries({ outDir: BIN_DIR }),
    nodeLessImage(docker, "wget"),
    nodeLessImage(docker, "perl"),
    nodeLessImage(docker, "curl")
  ])
  // The `docker` starter's `ubuntu:24.04`, for every test that imports the starter: tagged once
  // for the run (tests in several workers use it at once), untagged at its end.
  const untag = await starterImage(docker, perlImage)
  project.provide("workbayDocker", { image, perlImage, curlImage, agentBinaries: BIN_DIR })
  return untag
}
