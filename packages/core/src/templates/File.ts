/** Files: uploaded archives (the source of template versions), the upload answer, the stored record and its port. */
import { Context, type Effect, type Option, Schema } from "effect"
import type { UniqueViolation } from "../Repositories.js"

/** Content types an upload may have: a tar archive, or a zip archive (two names for it). */
export const TAR_MIME_TYPE = "application/x-tar"
export const ZIP_MIME_TYPE = "application/zip"
/** The name Windows browsers give zip files. */
export const WINDOWS_ZIP_MIME_TYPE = "application/x-zip-compressed"
export const fileMimeTypes: ReadonlyArray<string> = [TAR_MIME_TYPE, ZIP_MIME_TYPE, WINDOWS_ZIP_MIME_TYPE]

/** The default largest upload: 10 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024

/**
 * The answer to an upload. Despite its name, `hash` holds the file's id (a UUID), as in the
 * described system; the sha256 of the bytes stays inside.
 */
export class UploadResponse extends Schema.Class<UploadResponse>("UploadResponse")({
  hash: Schema.UUID
}) {}

/** A stored file. `hash` is the hex sha256 of `data`; one row per (hash, creator). */
export interface FileRecord {
  readonly id: string
  readonly hash: string
  readonly created_by: string
  readonly created_at: Date
  readonly mimetype: string
  readonly data: Uint8Array
}

export class FileRepo extends Context.Tag("@workbay/core/FileRepo")<FileRepo, {
  /** Fails with `UniqueViolation` when the creator already has a file with this hash. */
  readonly insert: (file: FileRecord) => Effect.Effect<void, UniqueViolation>
  readonly findById: (id: string) => Effect.Effect<Option.Option<FileRecord>>
  readonly findByHashAndCreator: (hash: string, createdBy: string) => Effect.Effect<Option.Option<FileRecord>>
}>() {}
