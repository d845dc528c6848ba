/**
 * The labels on every container and volume the provisioner makes: they name the deployment,
 * the workspace, its owner and the build, so what Workbay made is found again (after a crash,
 * a restart, on another replica) and nothing else is ever touched: every removal filters on the
 * deployment's and the workspace's labels.
 */
import { RESERVED_LABEL_PREFIX } from "@workbay/core"

export const LABEL_DEPLOYMENT = `${RESERVED_LABEL_PREFIX}deployment`
export const LABEL_WORKSPACE_ID = `${RESERVED_LABEL_PREFIX}workspace.id`
export const LABEL_WORKSPACE_NAME = `${RESERVED_LABEL_PREFIX}workspace.name`
export const LABEL_OWNER_ID = `${RESERVED_LABEL_PREFIX}owner.id`
export const LABEL_OWNER_NAME = `${RESERVED_LABEL_PREFIX}owner.name`
export const LABEL_BUILD_ID = `${RESERVED_LABEL_PREFIX}build.id`
export const LABEL_BUILD_NUMBER = `${RESERVED_LABEL_PREFIX}build.number`
export const LABEL_TEMPLATE_ID = `${RESERVED_LABEL_PREFIX}template.id`
/** The template resource (`docker_container.dev`) a container or volume was made for. */
export const LABEL_RESOURCE = `${RESERVED_LABEL_PREFIX}resource`

/** What identifies one workspace's things in one deployment: the filter of every list and removal. */
export const workspaceSelector = (deploymentId: string, workspaceId: string): Record<string, string> => ({
  [LABEL_DEPLOYMENT]: deploymentId,
  [LABEL_WORKSPACE_ID]: workspaceId
})
