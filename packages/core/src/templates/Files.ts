/**
 * The Files service: uploads (deduplicated per creator by the sha256 of the bytes) and reads.
 * Uploads are not audited, as in the described system.
 */
import { Clock, Effect, Either, Option } from "effect"
import { createHash } from "node:crypto"
import { allowed, authorize, authorizeRead, CurrentActor } from "../Actor.js"
import { BadRequest, NotFound } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { span } from "../Tracing.js"
import { zipToTar } from "./Archive.js"
import {
  fileMimeTypes,
  type FileRecord,
  FileRepo,
  TAR_MIME_TYPE,
  UploadResponse,
  WINDOWS_ZIP_MIME_TYPE,
  ZIP_MIME_TYPE
} from "./File.js"
import { TemplateRepo } from "./Template.js"
import { TemplateVersionRepo, versionObject } from "./TemplateVersion.js"

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
    const versions = yield* TemplateVersionRepo
    const templates = yield* TemplateRepo
    const ids = yield* IdGenerator
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Whether the caller may read `file`: its creator, whoever the roles let read files
     * site-wide (owners, template admins), as the described system's `file` resource has no
     * organization, and whoever may read a template version built from it.
     */
    const authorizeFile = (file: FileRecord) =>
      Effect.gen(function*() {
        const own = yield* Effect.either(authorizeRead("File", { type: "file", id: file.id, ownerId: file.created_by }))
        if (Either.isRight(own)) return
        for (const v of yield* versions.listByFileId(file.id)) {
          const template = v.template_id === null ? Option.none() : yield* templates.findById(v.template_id)
          if (yield* allowed("read", versionObject(v, Option.getOrUndefined(template)))) return
        }
        return yield* own.left
      })

    /** Stores `data` for `createdBy`, or finds their file with the same bytes (`created: false`). */
    const store = (createdBy: string, mimetype: string, data: Uint8Array) =>
      Effect.gen(function*() {
        const hash = createHash("sha256").update(data).digest("hex")
        const existing = yield* files.findByHashAndCreator(hash, createdBy)
        if (Option.isSome(existing)) {
          return { response: new UploadResponse({ hash: existing.value.id }), created: false }
        }
        const record: FileRecord = {
          id: yield* ids.uuid,
          hash,
          created_by: createdBy,
          created_at: yield* now,
          mimetype,
          data
        }
        return yield* files.insert(record).pipe(
          Effect.as<Upload>({ response: new UploadResponse({ hash: record.id }), created: true }),
          // The same bytes uploaded twice at once: the other upload stored them.
          Effect.catchTag("UniqueViolation", () =>
            Effect.flatMap(files.findByHashAndCreator(hash, createdBy), (found) =>
              Option.match(found, {
                onNone: () =>
                  Effect.die(new Error("A file clashed with one that is not there.")),
                onSome: (f) => Effect.succeed<Upload>({ response: new UploadResponse({ hash: f.id }), created: false })
              })))
        )
      })

    /**
     * Stores a tar archive the service made (a starter template's) for the caller, as an upload
     * of theirs would be; the caller's right to use it comes from the request it serves.
     */
    const storeArchive = (data: Uint8Array) =>
      Effect.flatMap(CurrentActor, (actor) => store(actor.user.id, TAR_MIME_TYPE, data)).pipe(
        span("Files.storeArchive")
      )

    /**
     * Stores `data` (a tar or zip archive of content type `mimetype`) for the caller; the same
     * bytes uploaded again by the same caller answer the existing file (`created: false`).
     * Like the described system, a tar archive is stored as it comes and a zip archive is
     * rewritten as a tar one (so every stored file is a tar; the hash is the tar's).
     */
    const upload = (mimetype: string, body: Uint8Array) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        yield* authorize("create", { type: "file", ownerId: actor.user.id })
        if (!fileMimeTypes.includes(mimetype)) {
          return yield* new BadRequest({ message: `Unsupported content type header "${mimetype}".` })
        }
        if (body.length === 0) return yield* new BadRequest({ message: "The file is empty." })
        let data = body
        if (mimetype === ZIP_MIME_TYPE || mimetype === WINDOWS_ZIP_MIME_TYPE) {
          if (!looksLikeZip(body)) {
            return yield* new BadRequest({
              message: "Incomplete .zip archive file.",
              detail: "No end of central directory record."
            })
          }
          data = yield* zipToTar(body).pipe(
            Effect.mapError((e) => new BadRequest({ message: "Incomplete .zip archive file.", detail: e.message }))
          )
          mimetype = TAR_MIME_TYPE
        }
        return yield* store(actor.user.id, mimetype, data)
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

    return { upload, storeArchive, get } as const
  })
}) {}
