/**
 * @workbay/docker: the `docker` provisioner (docs/docker.md). Register it beside the built-in one:
 *
 *   makeWorkbay(storage, { provisioners: [workbayProvisioner, makeDockerProvisioner({ docker: dockerClient() })] })
 */
export { type HostCapacityOptions, hostCapacityReader } from "./Capacity.js"
export { CALL_TIMEOUT, dockerClient, type DockerConnection, DockerError, ping } from "./Client.js"
export {
  agentUrlFor,
  DOCKER_PROVISIONER,
  type DockerAllowances,
  type DockerProvisionerOptions,
  type DockerState,
  makeDockerProvisioner,
  noAllowances
} from "./DockerProvisioner.js"
export {
  LABEL_BUILD_ID,
  LABEL_BUILD_NUMBER,
  LABEL_DEPLOYMENT,
  LABEL_OWNER_ID,
  LABEL_OWNER_NAME,
  LABEL_RESOURCE,
  LABEL_TEMPLATE_ID,
  LABEL_WORKSPACE_ID,
  LABEL_WORKSPACE_NAME,
  workspaceSelector
} from "./Labels.js"
export { containerRemovals, type ContainerRemoved, watchVanishedContainers } from "./Watch.js"
