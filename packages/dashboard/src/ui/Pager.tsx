/** Previous and next page of a paged list (shown when there is more than one page). */
export const Pager = (
  { page, size, count, onPage }: { page: number; size: number; count: number; onPage: (page: number) => void }
) => {
  const pages = Math.max(1, Math.ceil(count / size))
  if (count <= size && page === 0) return null
  return (
    <nav aria-label="Pages" className="pager">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>Previous page</button>
      <span>Page {page + 1} of {pages}</span>
      <button type="button" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>Next page</button>
    </nav>
  )
}

/** The page number of a URL's `?page=` (from 0). */
export const pageOf = (params: URLSearchParams) => Math.max(0, Number(params.get("page") ?? "0") || 0)
