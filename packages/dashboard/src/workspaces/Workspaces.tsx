import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect } from "react"
import { Link } from "react-router"
import { usePermissions } from "../api/permissions.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import { Pager } from "../ui/Pager.tsx"
import { SearchBox, useSearchPage } from "../ui/Search.tsx"
import "./styles.css"
import { watchWorkspace, type Workspace, workspacesApi as api } from "./api.ts"
import { workspacePath } from "./hooks.ts"
import { workspaceKeys, workspacesQuery } from "./queries.ts"

const PAGE_SIZE = 25

const statusLabel = (w: Workspace) => {
  const s = w.latest_build.status
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** The search box's ready-made searches; the prebuilt workspaces only for those who may see them. */
const FILTERS: ReadonlyArray<{ readonly q: string; readonly label: string; readonly prebuilds?: true }> = [
  { q: "owner:me", label: "My workspaces" },
  { q: "", label: "All workspaces" },
  { q: "status:running", label: "Running" },
  { q: "status:failed", label: "Failed" },
  { q: "owner:prebuilds", label: "Prebuilt workspaces", prebuilds: true }
]

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })

/**
 * The workspaces the caller can see (`GET /workspaces?q=&limit=25&offset=`), searched by `q` and
 * paged, each row's status live: one watch (`/workspaces/{id}/watch-ws`) per listed workspace
 * writes its changes into the listed page. Ready-made searches above it (the prebuilt workspaces,
 * `owner:prebuilds`, for users who may read them: `POST /authcheck`), and a "Prebuilt" badge on
 * the prebuilds user's workspaces (`is_prebuild`).
 */
export const WorkspacesPage = () => {
  const { q, page, go } = useSearchPage()
  const options = workspacesQuery(q, page, PAGE_SIZE)
  const list = useQuery({ ...options, placeholderData: keepPreviousData })
  const queryClient = useQueryClient()
  const ids = (list.data?.workspaces ?? []).map((w) => w.id).join(",")
  useEffect(() => {
    if (ids === "") return
    const stops = ids.split(",").map((id) =>
      watchWorkspace(id, (changed) =>
        queryClient.setQueryData(options.queryKey, (old) =>
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
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.lists })
  })
  const count = list.data?.count ?? 0
  const seesPrebuilds = usePermissions().data?.viewPrebuiltWorkspaces === true
  return (
    <>
      <div className="heading">
        <h1>Workspaces</h1>
        <Link to="/workspaces/new" className="button">New workspace</Link>
      </div>
      <SearchBox
        label="Search workspaces"
        q={q}
        placeholder="owner:me status:running"
        onSearch={(q) => go({ q, page: 0 })}
      />
      <nav aria-label="Workspace filters" className="filters">
        <ul>
          {FILTERS.filter((f) => f.prebuilds !== true || seesPrebuilds).map((f) => (
            <li key={f.label}>
              <Link
                to={f.q === "" ? "/workspaces" : `/workspaces?q=${encodeURIComponent(f.q)}`}
                aria-current={q === f.q ? "page" : undefined}
              >
                {f.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
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
                    {w.is_prebuild
                      ? <span className="badge" title="Kept built ahead of time for a preset">Prebuilt</span>
                      : null}
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
      <Pager page={page} size={PAGE_SIZE} count={count} onPage={(page) => go({ page })} />
    </>
  )
}
