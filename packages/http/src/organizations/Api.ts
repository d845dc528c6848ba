/** Organization routes and organization members. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Organization, OrganizationMember, OrganizationName, ResponseBody } from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, Conflict, Forbidden, NonNegativeIntParam, NoContent, NotFound, OrganizationPath } from "../Common.js"
import { Authentication } from "../Security.js"

const Text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

export class CreateOrganizationRequest extends Schema.Class<CreateOrganizationRequest>("CreateOrganizationRequest")({
  name: OrganizationName,
  display_name: Schema.optional(Text(64)),
  description: Schema.optional(Text(128)),
  icon: Schema.optional(Text(256))
}) {}

export class UpdateOrganizationRequest extends Schema.Class<UpdateOrganizationRequest>("UpdateOrganizationRequest")({
  name: Schema.optional(OrganizationName),
  display_name: Schema.optional(Text(64)),
  description: Schema.optional(Text(128)),
  icon: Schema.optional(Text(256))
}) {}

const MemberPath = Schema.Struct({ organization: Schema.String, user: Schema.String })

export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(HttpApiEndpoint.get("list", "/organizations").addSuccess(Schema.Array(Organization)))
  .add(
    HttpApiEndpoint.post("create", "/organizations")
      .setPayload(CreateOrganizationRequest)
      .addSuccess(Organization, { status: 201 })
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("get", "/organizations/:organization").setPath(OrganizationPath).addSuccess(Organization))
  .add(
    HttpApiEndpoint.patch("update", "/organizations/:organization")
      .setPath(OrganizationPath)
      .setPayload(UpdateOrganizationRequest)
      .addSuccess(Organization)
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.del("delete", "/organizations/:organization").setPath(OrganizationPath).addSuccess(ResponseBody))
  .add(
    HttpApiEndpoint.get("listMembers", "/organizations/:organization/members")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct({ limit: Schema.optional(NonNegativeIntParam), offset: Schema.optional(NonNegativeIntParam) }))
      .addSuccess(Schema.Array(OrganizationMember))
  )
  .add(HttpApiEndpoint.get("getMember", "/organizations/:organization/members/:user").setPath(MemberPath).addSuccess(OrganizationMember))
  .add(
    HttpApiEndpoint.post("addMember", "/organizations/:organization/members/:user")
      .setPath(MemberPath)
      .addSuccess(OrganizationMember)
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.del("removeMember", "/organizations/:organization/members/:user").setPath(MemberPath).addSuccess(NoContent))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
