/**
 * A searched and paged list's state in the page's URL (`?q=` and `?page=`, from 0), so a reload or
 * a link shows the same page, and the search box that sets it.
 */
import { useId } from "react"
import { useSearchParams } from "react-router"
import { pageOf } from "./Pager.tsx"

export const useSearchPage = () => {
  const [params, setParams] = useSearchParams()
  const q = params.get("q") ?? ""
  const page = pageOf(params)
  /** To `q` (default: the current one) and `page` (default: the first). */
  const go = (next: { q?: string; page?: number }) => {
    const p = new URLSearchParams()
    const nq = next.q ?? q
    if (nq !== "") p.set("q", nq)
    if ((next.page ?? 0) > 0) p.set("page", String(next.page))
    setParams(p)
  }
  return { q, page, go }
}

/** The search box (a `search` landmark): Enter or its button searches `q` from the first page. */
export const SearchBox = (
  { label, q, placeholder, button = "Search", onSearch }: {
    readonly label: string
    readonly q: string
    readonly placeholder?: string
    readonly button?: string
    readonly onSearch: (q: string) => void
  }
) => {
  const id = useId()
  return (
    <search>
      <form
        className="search"
        onSubmit={(e) => {
          e.preventDefault()
          onSearch(String(new FormData(e.currentTarget).get("q") ?? "").trim())
        }}
      >
        <label htmlFor={id}>{label}</label>
        <input id={id} name="q" type="search" defaultValue={q} key={q} placeholder={placeholder} />
        <button type="submit">{button}</button>
      </form>
    </search>
  )
}
