/**
 * A searched and paged list's state in the page's URL (`?q=` and `?page=`, from 0), so a reload or
 * a link shows the same page, and the search box that sets it.
 */
import { keepPreviousData, type QueryKey, useQuery, type UseQueryOptions } from "@tanstack/react-query"
import { type ReactNode, useId } from "react"
import { useSearchParams } from "react-router"
import { ErrorMessage } from "./Form.tsx"
import { pageOf, Pager } from "./Pager.tsx"

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

/**
 * A searched, paged list page (the audit and connection logs): its heading, the search box, the
 * service's answer for the URL's `q` and page (loading, its error, the empty state, the rows
 * `children` draws from the page's items) and the pager.
 */
export function SearchedList<D, I, K extends QueryKey>(props: {
  readonly title: string
  readonly searchLabel: string
  readonly placeholder: string
  readonly pageSize: number
  /** The query of page `page` (from 0) of what `q` finds, `size` a page (its area's queries.ts). */
  readonly query: (q: string, page: number, size: number) => UseQueryOptions<D, Error, D, K>
  readonly items: (data: D) => ReadonlyArray<I>
  readonly count: (data: D) => number
  readonly loading: string
  readonly empty: (q: string) => string
  readonly children: (items: ReadonlyArray<I>, data: D) => ReactNode
}) {
  const { q, page, go } = useSearchPage()
  const list = useQuery({ ...props.query(q, page, props.pageSize), placeholderData: keepPreviousData })
  const items = list.data === undefined ? undefined : props.items(list.data)
  return (
    <>
      <h1>{props.title}</h1>
      <SearchBox
        label={props.searchLabel}
        q={q}
        placeholder={props.placeholder}
        button="Filter"
        onSearch={(q) => go({ q, page: 0 })}
      />
      <ErrorMessage error={list.error} />
      {list.isPending ? <p role="status">{props.loading}</p> : null}
      {items !== undefined && items.length === 0 ? <p className="empty">{props.empty(q)}</p> : null}
      {list.data !== undefined && items !== undefined && items.length > 0 ? props.children(items, list.data) : null}
      <Pager
        page={page}
        size={props.pageSize}
        count={list.data === undefined ? 0 : props.count(list.data)}
        onPage={(p) => go({ page: p })}
      />
    </>
  )
}
