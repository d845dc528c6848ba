import { type ComponentType, lazy, Suspense } from "react"

/**
 * A page that is a chunk of its own, loaded when its route is first opened: `load` imports the
 * module, `pick` names the page's component in it; "Loading…" (or `loading`) shows meanwhile.
 * (A function, not an arrow: the formatter would turn an arrow's `<M,>` into JSX.)
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (m: M) => ComponentType, loading = "Loading…") {
  const Page = lazy(() => load().then((m) => ({ default: pick(m) })))
  return (
    <Suspense fallback={<p role="status">{loading}</p>}>
      <Page />
    </Suspense>
  )
}
