/**
 * The licensed features of the described system (its `FeatureName`s), and what a license's
 * `feature_set` grants. Names, sets and the human names follow the described system, so its
 * dashboard reads our entitlements as its own.
 */

/** Every feature an entitlements answer lists, in the described system's order. */
export const featureNames = [
  "user_limit",
  "audit_log",
  "connection_log",
  "browser_only",
  "scim",
  "template_rbac",
  "user_role_management",
  "high_availability",
  "multiple_external_auth",
  "external_provisioner_daemons",
  "appearance",
  "advanced_template_scheduling",
  "workspace_proxy",
  "external_token_encryption",
  "workspace_batch_actions",
  "task_batch_actions",
  "access_control",
  "control_shared_ports",
  "custom_roles",
  "multiple_organizations",
  "workspace_prebuilds",
  "managed_agent_limit",
  "workspace_external_agent",
  "aibridge",
  "boundary",
  "ai_governance_user_limit"
] as const
export type FeatureName = (typeof featureNames)[number]

const featureNameSet: ReadonlySet<string> = new Set(featureNames)
export const isFeatureName = (name: string): name is FeatureName => featureNameSet.has(name)

/** Features whose license value is a limit (seats, agents) rather than on/off. */
export const usesLimit = (name: FeatureName): boolean =>
  name === "user_limit" || name === "managed_agent_limit" || name === "ai_governance_user_limit"

/** Features counted over the license's term (`usage_period`). */
export const usesUsagePeriod = (name: FeatureName): boolean => name === "managed_agent_limit"

/** Features the Enterprise set leaves out (they came with Premium). */
const premiumOnly: ReadonlySet<FeatureName> = new Set(["multiple_organizations", "custom_roles"])

/** Features the Enterprise set leaves out because they came after it (Premium grants them). */
const newerThanEnterprise: ReadonlySet<FeatureName> = new Set(["aibridge", "boundary"])

/** What a license's `feature_set` grants (limits come from its `features` map only). */
export const featureSetFeatures = (set: string): ReadonlyArray<FeatureName> => {
  switch (set.toLowerCase()) {
    case "enterprise":
      return featureNames.filter((f) => !usesLimit(f) && !premiumOnly.has(f) && !newerThanEnterprise.has(f))
    case "premium":
      return featureNames.filter((f) => !usesLimit(f))
    default:
      return []
  }
}

/** The human name of a feature, as the described system writes it in messages. */
export const humanize = (name: string): string => {
  switch (name) {
    case "template_rbac":
      return "Template RBAC"
    case "scim":
      return "SCIM"
    case "aibridge":
      return "AI Bridge"
    default:
      return name.split("_").map((w) => w.length === 0 ? w : w[0]!.toUpperCase() + w.slice(1)).join(" ")
  }
}

/**
 * Features this deployment uses (the described system's "enablements"): the ones routes are
 * gated on, plus the audit log it always records. A licensed deployment warns about these when
 * its license does not grant them.
 */
export const enabledFeatures: ReadonlySet<FeatureName> = new Set<FeatureName>([
  "user_limit",
  "audit_log",
  "connection_log",
  "template_rbac",
  "appearance",
  "multiple_organizations",
  "workspace_prebuilds",
  "aibridge"
])
