/** The JSON Schemas of the external auth and IdP sync response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  mapOf,
  nullable,
  object,
  omitted,
  optional,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  OrganizationSyncSettings: object({
    field: string,
    mapping: mapOf(arrayOf(uuid)),
    organization_assign_default: boolean
  }),
  GroupSyncSettings: object({
    field: string,
    mapping: mapOf(arrayOf(uuid)),
    regex_filter: nullable(string),
    auto_create_missing_groups: boolean,
    legacy_group_name_mapping: optional(mapOf(string))
  }),
  RoleSyncSettings: object({ field: string, mapping: mapOf(arrayOf(string)) }),
  /** An IdP claim's name or value (the claim listings answer `[ClaimString]`). */
  ClaimString: string,
  // External auth (the described system's codersdk and agentsdk types; docs/reference/api/git.md, agents.md).
  ExternalAuthLink: {
    ...object({
      provider_id: string,
      created_at: dateTime,
      updated_at: dateTime,
      has_refresh_token: boolean,
      expires: dateTime,
      authenticated: boolean,
      validate_error: string
    }, ["provider_id", "created_at", "updated_at", "has_refresh_token", "expires", "authenticated", "validate_error"]),
    additionalProperties: false
  },
  ExternalAuthLinkProvider: object({
    id: string,
    type: string,
    device: boolean,
    display_name: string,
    display_icon: string,
    allow_refresh: boolean,
    allow_validate: boolean,
    supports_revocation: boolean,
    code_challenge_methods_supported: arrayOf(string)
  }, ["id", "type", "device", "display_name", "display_icon", "allow_refresh", "allow_validate"]),
  ListUserExternalAuthResponse: object({
    providers: arrayOf(ref("ExternalAuthLinkProvider")),
    links: arrayOf(ref("ExternalAuthLink"))
  }, [
    "providers",
    "links"
  ]),
  ExternalAuthUser: object({ id: integer, login: string, avatar_url: string, profile_url: string, name: string }, [
    "id",
    "login",
    "avatar_url",
    "profile_url",
    "name"
  ]),
  ExternalAuthAppInstallation: object({ id: integer, account: ref("ExternalAuthUser"), configure_url: string }, [
    "id",
    "account",
    "configure_url"
  ]),
  ExternalAuth: object({
    authenticated: boolean,
    device: boolean,
    display_name: string,
    user: nullable(ref("ExternalAuthUser")),
    app_installable: boolean,
    installations: arrayOf(ref("ExternalAuthAppInstallation")),
    app_install_url: string
  }, ["authenticated", "device", "display_name", "user", "app_installable", "installations", "app_install_url"]),
  ExternalAuthDevice: object({
    device_code: string,
    user_code: string,
    verification_uri: string,
    expires_in: integer,
    interval: integer
  }, [
    "device_code",
    "user_code",
    "verification_uri",
    "expires_in",
    "interval"
  ]),
  DeleteExternalAuthByIDResponse: object({ token_revoked: boolean, token_revocation_error: omitted(string) }, [
    "token_revoked"
  ]),
  ExternalAuthResponse: {
    ...object({
      access_token: string,
      token_extra: nullable({ type: "object" }),
      url: string,
      type: string,
      username: string,
      password: string
    }, ["access_token", "token_extra", "url", "type", "username", "password"]),
    additionalProperties: false
  }
}
