/**
 * The docker provisioner of the standalone server (docs/docker.md): `--docker auto` (the default)
 * turns it on when a Docker daemon answers at start-up, `on` fails the start-up without one,
 * `off` leaves it out. The decision is printed at start-up and reported as the setting's value in
 * `GET /deployment/config`; the built-in daemons list `docker` among their provisioners
 * (`/debug/health`, provisioner daemons).
 */
import { defaultSettings, type Provisioner, type SettingsShape } from "@workbay/core"
import { dockerClient, DockerError, makeDockerProvisioner, ping } from "@workbay/docker"
import type Docker from "dockerode"
import { Effect } from "effect"

export interface DockerChoice {
  readonly provisioner: Provisioner | undefined
  /** The daemon's client, when the provisioner is on (its watcher of removed containers uses it). */
  readonly docker: Docker | undefined
  /** The start-up line saying what was decided and why. */
  readonly line: string
}

/** Decides on the docker provisioner from the deployment settings, asking the daemon when it may run. */
export const chooseDocker = async (given: Partial<SettingsShape>): Promise<DockerChoice> => {
  const settings = { ...defaultSettings, ...given }
  const where = settings.dockerHost === "" ? "unix:///var/run/docker.sock" : settings.dockerHost
  if (settings.dockerProvisioner === "off") {
    return { provisioner: undefined, docker: undefined, line: "Docker provisioner off (--docker off)." }
  }
  const docker = dockerClient({ host: settings.dockerHost })
  const answered = await Effect.runPromise(Effect.either(ping(docker)))
  if (answered._tag === "Left") {
    const reason = answered.left instanceof DockerError ? answered.left.message : String(answered.left)
    if (settings.dockerProvisioner === "on") {
      throw new Error(`--docker on, but no Docker daemon answers at ${where}: ${reason}`)
    }
    return {
      provisioner: undefined,
      docker: undefined,
      line: `Docker provisioner off: no Docker daemon answers at ${where} (${reason}).`
    }
  }
  const allow = new Set(settings.dockerAllow)
  const provisioner = makeDockerProvisioner({
    docker,
    defaultNetwork: settings.dockerNetwork,
    agentUrl: settings.dockerAgentUrl === "" ? undefined : settings.dockerAgentUrl,
    allow: {
      privileged: allow.has("privileged"),
      hostNetwork: allow.has("host-network"),
      hostPid: allow.has("host-pid"),
      bindMounts: allow.has("bind-mounts")
    }
  })
  const allowed = allow.size === 0 ? "" : `; DANGEROUS allowances: ${[...allow].join(", ")}`
  return {
    provisioner,
    docker,
    line:
      `Docker provisioner on: Docker ${answered.right.Version} at ${where}; containers' network ${settings.dockerNetwork}${allowed}.`
  }
}
