/** Handlers of the files group. */
import { Files } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { RequestContext, requestMediaType } from "../RequestContext.js"

export const FilesHttp = implement(WorkbayApi, "files", {
  upload: ({ payload }) =>
    Effect.flatMap(requestMediaType, (mimetype) => Effect.flatMap(Files, (f) => f.upload(mimetype, payload))).pipe(
      Effect.flatMap((upload) =>
        Effect.map(RequestContext, (ctx) => {
          if (!upload.created) ctx.setStatus(200)
          return upload.response
        })
      )
    ),
  get: ({ path }) =>
    Effect.flatMap(Files, (f) => f.get(path.fileID)).pipe(
      Effect.flatMap((file) =>
        Effect.map(RequestContext, (ctx) => {
          ctx.setContentType(file.mimetype)
          return file.data
        })
      )
    )
})
