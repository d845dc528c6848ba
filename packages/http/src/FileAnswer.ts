/**
 * Routes that answer a file from disk (the agent's executables at `/bin`): the handler returns a
 * `FileAnswer` and the endpoint declares `fileSchema(contentType)` as its success. The dispatcher
 * answers 200 with the file's type and length, and the adapter streams the file (never holding
 * it whole); `HEAD` answers the same headers without it.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** What a file route's handler answers: the file at `path`, `size` bytes, as `contentType`. */
export class FileAnswer {
  readonly _tag = "FileAnswer"
  constructor(readonly path: string, readonly size: number, readonly contentType: string) {}
}

const FileAnswerSchema = Schema.declare((u: unknown): u is FileAnswer => u instanceof FileAnswer)

/** The success of a file route: 200 and the file's bytes in `contentType`. Never decoded. */
export const fileSchema = (contentType: string): typeof FileAnswerSchema =>
  // Declared as bytes (what the OpenAPI document shows), though the handler answers the file's place:
  // withEncoding's types admit the byte kind for Uint8Array schemas only.
  (HttpApiSchema.withEncoding(
    FileAnswerSchema as unknown as typeof Schema.Uint8ArrayFromSelf,
    { kind: "Uint8Array", contentType }
  ) as unknown as typeof FileAnswerSchema).annotations(HttpApiSchema.annotations({ status: 200 }))
