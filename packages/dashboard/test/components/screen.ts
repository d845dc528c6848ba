/**
 * Testing Library's `screen`, bound to the document of the test that uses it. Its own `screen`
 * binds to the `document.body` it finds when first imported, and the test run evaluates modules
 * once per worker (no isolation): a later file's happy-dom has a new document, which that
 * `screen` would never see. This one looks the body up at each query.
 */
import { type screen as boundAtImport, within } from "@testing-library/react"

type Screen = typeof boundAtImport

export const screen: Screen = new Proxy({} as Screen, {
  get: (_, key) => (within(document.body) as unknown as Record<PropertyKey, unknown>)[key]
})
