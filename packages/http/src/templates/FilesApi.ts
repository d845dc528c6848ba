/** The files routes: the archives template versions are built from. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { TAR_MIME_TYPE, UploadFileRequest, UploadResponse } from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"

const FilePath = Schema.Struct({
  fileID: Schema.UUID.annotations({ message: () => ({ message: "File id must be a valid UUID.", override: true }) })
})

export class FilesApi extends HttpApiGroup.make("files")
  .add(
    // Not audited, as in the described system: an upload changes nothing until a template
    // version is built from it (that is audited).
    HttpApiEndpoint.post("upload", "/files")
      .annotate(Audited, false)
      .setPayload(UploadFileRequest)
      .addSuccess(UploadResponse, { status: 201 })
      // The same bytes uploaded again by the same user: the existing file.
      .addSuccess(UploadResponse, { status: 200 })
  )
  .add(
    // The archive as uploaded, with its content type (declared here as tar, the usual one).
    HttpApiEndpoint.get("get", "/files/:fileID")
      .setPath(FilePath)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: TAR_MIME_TYPE }))
      .addError(NotFound)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
