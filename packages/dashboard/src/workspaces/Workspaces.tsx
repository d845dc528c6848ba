import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useId } from "react"
import { Link, useSearchParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import "./styles.css"
import { watchWorkspace, type Workspace, workspacesApi as api, type WorkspacesPage as Page } from "./api.ts"
import { workspacePath } from "./hooks.ts"

const PAGE_SIZE = 25

const statusLabel = (w: Workspace) => {
  const s = w.latest_build.status
  return s.charAt(0).toUpperCase() + s.slice(1)
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })

/**
 * The workspaces the caller can see (`GET /workspaces?q=&limit=25&offset=`), searched by `q` and
 * paged, each row's status live: one watch (`/workspaces/{id}/watch-ws`) per listed workspace
 * writes its changes into the listed page.
 */
export const WorkspacesPage = () => {
  const [params, setParams] = useSearchParams()
  const q = params.get("q") ?? ""
  const page = Math.max(0, Number(params.get("page") ?? "0") || 0)
  const queryKey = ["workspaces", q, page]
  const list = useQuery({
    queryKey,
    queryFn: () => api.workspaces(q, PAGE_SIZE, page * PAGE_SIZE),
    placeholderData: keepPreviousData
  })
  const queryClient = useQueryClient()
  const ids = (list.data?.workspaces ?? []).map((w) => w.id).join(",")
  useEffect(() => {
    if (ids === "") return
    const stops = ids.split(",").map((id) =>
      watchWorkspace(id, (changed) =>
        queryClient.setQueryData<Page>(queryKey, (old) =>
          old === undefined
            ? old
            : { ...old, workspaces: old.workspaces.map((w) => (w.id === changed.id ? changed : w)) }))
    )
    return () => stops.forEach((stop) => stop())
    // The watches follow the listed ids (and the page they were listed on).
  }, [ids, q, page])
  // A favorite changes the order (favorites first, as the service lists them): the page again.
  const favorite = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) => api.favorite(id, on),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["workspaces"] })
  })
  const searchId = useId()
  const count = list.data?.count ?? 0
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE))
  const go = (next: { q?: string; page?: number }) => {
    const p = new URLSearchParams()
    const nq = next.q ?? q
    if (nq !== "") p.set("q", nq)
    const np = next.page ?? 0
    if (np > 0) p.set("page", String(np))
    setParams(p)
  }
  return (
    <>
      <div className="heading">
        <h1>Workspaces</h1>
        <Link to="/workspaces/new" className="button">New workspace</Link>
      </div>
      <search>
        <form
          className="search"
          onSubmit={(e) => {
            e.preventDefault()
            go({ q: String(new FormData(e.currentTarget).get("q") ?? "").trim(), page: 0 })
          }}
        >
          <label htmlFor={searchId}>Search workspaces</label>
          <input id={searchId} name="q" type="search" defaultValue={q} key={q} placeholder="owner:me status:running" />
          <button type="submit">Search</button>
        </form>
      </search>
      <ErrorMessage error={list.error ?? favorite.error} />
      {list.isPending ?
        <p role="status">Loading workspaces…</p> :
        list.data === undefined ?
        null :
        list.data.workspaces.length === 0
        ? (
          <p className="empty">
            {q === ""
              ? (
                <>
                  No workspaces yet. <Link to="/workspaces/new">Create one from a template.</Link>
                </>
              )
              : `No workspaces match “${q}”.`}
          </p>
        )
        : (
          <table>
            <caption className="visually-hidden">Workspaces, {count} in all</caption>
            <thead>
              <tr>
                <th scope="col" className="favorite-col">
                  <span className="visually-hidden">Favorite</span>
                </th>
                <th scope="col">Name</th>
                <th scope="col">Template</th>
                <th scope="col">Status</th>
                <th scope="col">Last built</th>
              </tr>
            </thead>
            <tbody>
              {list.data.workspaces.map((w) => (
                <tr key={w.id}>
                  <td>
                    <button
                      type="button"
                      className="favorite"
                      aria-pressed={w.favorite}
                      aria-label={`Favorite ${w.name}`}
                      title={w.favorite ? "Remove from favorites" : "Add to favorites"}
                      disabled={favorite.isPending}
                      onClick={() => favorite.mutate({ id: w.id, on: !w.favorite })}
                    >
                      <span aria-hidden="true">{w.favorite ? "★" : "☆"}</span>
                    </button>
                  </td>
                  <th scope="row">
                    <Link to={workspacePath(w.owner_name, w.name)}>{w.name}</Link>
                    <span className="owner">{w.owner_name}</span>
                  </th>
                  <td>
                    {w.template_display_name !== undefined && w.template_display_name !== ""
                      ? w.template_display_name
                      : w.template_name}
                  </td>
                  <td>
                    <span className={`status status-${w.latest_build.status}`}>{statusLabel(w)}</span>
                  </td>
                  <td>
                    <time dateTime={w.latest_build.created_at}>{when.format(new Date(w.latest_build.created_at))}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {count > PAGE_SIZE
        ? (
          <nav aria-label="Pages" className="pager">
            <button type="button" disabled={page === 0} onClick={() => go({ page: page - 1 })}>Previous page</button>
            <span>Page {page + 1} of {pages}</span>
            <button type="button" disabled={page + 1 >= pages} onClick={() => go({ page: page + 1 })}>Next page</button>
          </nav>
        )
        : null}
    </>
  )
}
