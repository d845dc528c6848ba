/**
 * Functions made on their first call. A schema's parser or encoder (`Schema.decodeUnknownEither`,
 * `Schema.is`, `compileEncoderSync`, ...) compiles the schema when it is made; made at a module's top
 * level, it compiles when the module loads, so at every start-up, for requests that may never
 * come (the agents' and the provisioner daemons' messages, IdP sync's settings, ...): about 20 ms
 * of a restart's module evaluation (bench/README.md, "Sixth round").
 */

/** `make()` at the first call, then the function it made. */
export const lazily = <F extends (...args: Array<any>) => unknown>(make: () => F): F => {
  let made: F | undefined
  return ((...args: Parameters<F>) => (made ??= make())(...args)) as F
}

/**
 * What `make` makes, made on the first call and shared by every later one: a value that only some
 * requests need (a route's declared statuses) costs a start nothing, and one built from a library
 * the server's script loads on first use (scripts/lazy-libraries.mjs) does not load it at start.
 */
export const once = <A>(make: () => A): () => A => {
  let made: { readonly value: A } | undefined
  return () => (made ??= { value: make() }).value
}
