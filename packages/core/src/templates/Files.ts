/**
 * The Files service: uploads (deduplicated per creator by the sha256 of the bytes) and reads.
 * Uploads are not audited, as in the described system.
 */
import { Clock, Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { authorize, authorizeRead, CurrentActor } from "../Actor.js"
import { BadRequest, NotFound } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { span } from "../Tracing.js"
import { FileRepo, type FileRecord, fileMimeTypes, UploadResponse, ZIP_MIME_TYPE, WINDOWS_ZIP_MIME_TYPE } from "./File.js"

/** What an upload did: stored a new file, or found the caller's file with the same bytes. */
export interface Upload {
  readonly response: UploadResponse
  readonly created: boolean
}

const fileNotFound = () => NotFound.resource("File")

/** The zip end-of-central-directory record ends every zip, within its last 65,557 bytes. */
const looksLikeZip = (data: Uint8Array): boolean => {
  const from = Math.max(0, data.length - 65_557)
  for (let i = data.length - 22; i >= from; i--) {
    if (data[i] === 0x50 && data[i + 1] === 0x4b && data[i + 2] === 0x05 && data[i + 3] === 0x06) return true
  }
  return false
}

export class Files extends Effect.Service<Files>()("@workbay/core/Files", {
  effect: Effect.gen(function*() {
    const files = yield* FileRepo
    const ids = yield* IdGenerator
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Whether the caller may read `file`: its creator, and whoever the roles let read files
     * site-wide (owners, template admins), as the described system's `file` resource has no
     * organization.
     * Next step (template versions): also whoever may read a template version built from it.
     */
    const authorizeFile = (file: FileRecord) =>
      authorizeRead("File", { type: "file", id: file.id, ownerId: file.created_by })

    /**
     * Stores `data` (a tar or zip archive of content type `mimetype`) for the caller; the same
     * bytes uploaded again by the same caller answer the existing file (`created: false`).
     * Like the described system, a tar archive is stored as it comes; a zip archive must at
     * least end like one. Next step: the described system turns zip archives into tar ones.
     */
    const upload = (mimetype: string, data: Uint8Array) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        yield* authorize("create", { type: "file", ownerId: actor.user.id })
        if (!fileMimeTypes.includes(mimetype)) {
          return yield* new BadRequest({ message: `Unsupported content type header "${mimetype}".` })
        }
        if (data.length === 0) return yield* new BadRequest({ message: "The file is empty." })
        if ((mimetype === ZIP_MIME_TYPE || mimetype === WINDOWS_ZIP_MIME_TYPE) && !looksLikeZip(data)) {
          return yield* new BadRequest({ message: "Incomplete .zip archive file.", detail: "No end of central directory record." })
        }
        const hash = createHash("sha256").update(data).digest("hex")
        const existing = yield* files.findByHashAndCreator(hash, actor.user.id)
        if (Option.isSome(existing)) return { response: new UploadResponse({ hash: existing.value.id }), created: false }
        const record: FileRecord = {
          id: yield* ids.uuid,
          hash,
          created_by: actor.user.id,
          created_at: yield* now,
          mimetype,
          data
        }
        return yield* files.insert(record).pipe(
          Effect.as<Upload>({ response: new UploadResponse({ hash: record.id }), created: true }),
          // The same bytes uploaded twice at once: the other upload stored them.
          Effect.catchTag("UniqueViolation", () =>
            Effect.flatMap(files.findByHashAndCreator(hash, actor.user.id), (found) =>
              Option.match(found, {
                onNone: () => Effect.die(new Error("A file clashed with one that is not there.")),
                onSome: (f) => Effect.succeed<Upload>({ response: new UploadResponse({ hash: f.id }), created: false })
              })))
        )
      }).pipe(span("Files.upload"))

    /** The file `id` with its bytes and content type; 404 when missing or not readable by the caller. */
    const get = (id: string) =>
      Effect.gen(function*() {
        if (!isUuid(id)) return yield* new BadRequest({ message: "File id must be a valid UUID." })
        const file = yield* files.findById(id)
        if (Option.isNone(file)) return yield* fileNotFound()
        yield* authorizeFile(file.value)
        return file.value
      }).pipe(span("Files.get"))

    return { upload, get } as const
  })
}) {}
