/**
 * Subdomain apps on Docker (docs/agents.md, "Subdomain apps"), on a real service with a wildcard
 * app host, a real daemon and the real agent executable: a workspace's container runs a web app
 * (a perl one-liner started by the agent's start script, the image having no other server) that
 * only the agent reaches, on the container's loopback. A request to the app's host
 * (`web--main--box--admin.apps.test`) goes through the service and the agent's connection to it:
 * with the session header, and as a browser does, through the auth-redirect exchange to a host-only
 * cookie of that host; a path app of the same server answers too. Containers and volumes carry this
 * file's deployment id; only those are removed.
 */
import { workbayProvisioner } from "@workbay/core"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { eventually } from "../../agent/test/support.js"
import { sendToHost } from "../../http/test/applications/hostRequest.js"
import { type Client, type ServiceTestServer, SESSION_HEADER, startWithOwner } from "../../http/test/support.js"
import { uploadTemplate } from "../../http/test/templates/versions.js"
import { dockerClient } from "../src/Client.js"
import { makeDockerProvisioner } from "../src/DockerProvisioner.js"
import { cleanUp, testDeployment } from "./support.js"

const made = inject("workbayDocker")
const PORT = 38_000 + Math.floor(Math.random() * 2000)

/** A container whose start script serves "hello from the container <path>" on the container's loopback. */
const template = (image: string) =>
  `resources:
  - name: box
    type: docker_container
    container:
      image: ${image}
      entrypoint: [sh, -c, "\${agent.main.init_script}"]
      env:
        WORKBAY_AGENT_TOKEN: \${agent.main.token}
    agents:
      - name: main
        directory: /tmp
        apps:
          - slug: web
            url: http://127.0.0.1:${PORT}
            subdomain: true
          - slug: plain
            url: http://127.0.0.1:${PORT}
        scripts:
          - display_name: App
            run_on_start: true
            script: >-
              perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(LocalAddr => "127.0.0.1:${PORT}",
              Listen => 5, ReuseAddr => 1) or die "$!"; while ($c = $s->accept) { $l = <$c>; ($p) = $l =~ / (\\S+) /;
              while (<$c>) { last if /^\\r?\\n$/ } $b = "hello from the container $p"; print $c "HTTP/1.1 200 OK\\r\\nContent-Type:
              text/plain\\r\\nContent-Length: " . length($b) . "\\r\\nConnection: close\\r\\n\\r\\n$b"; close $c }'
              > /tmp/app.log 2>&1 &
`

/** One request to the server with this `Host`. */
const send = (srv: ServiceTestServer, host: string, path: string, headers: Record<string, string> = {}) =>
  sendToHost(srv.url, host, path, { headers })

describe.skipIf(made === null)("subdomain apps on Docker", () => {
  const deployment = testDeployment()
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  let srv: ServiceTestServer
  let owner: Client

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({
      agentBinaries: made!.agentBinaries,
      provisioners: [workbayProvisioner, makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false })],
      settings: { deploymentId: deployment, wildcardAccessUrl: "*.apps.test" },
      lifecycle: false
    }))
  })
  afterAll(async () => {
    await cleanUp(docker, deployment)
    await srv?.close()
  })

  it("serves the container's app on its own host, through the agent", async () => {
    const orgId = (await owner.get("/organizations/default")).body.id
    const imported = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      provisioner: "docker",
      file_id: await uploadTemplate(srv, owner, template(made!.perlImage))
    })
    expect(imported.status, JSON.stringify(imported.body)).toBe(201)
    const version = await eventually(
      async () => (await owner.get(`/templateversions/${imported.body.id}`)).body,
      (v) => !["pending", "running"].includes(v.job.status),
      "the import",
      60_000
    )
    expect(version.job.status, version.job.error).toBe("succeeded")
    const t = await owner.post(`/organizations/${orgId}/templates`, { name: "apps", template_version_id: version.id })
    const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "box",
      template_id: t.body.id
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const w = await eventually(
      async () => (await owner.get(`/workspaces/${created.body.id}`)).body,
      (w) => {
        if (w.latest_build.job.status === "failed") throw new Error(w.latest_build.job.error)
        const a = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
        return a?.lifecycle_state === "ready"
      },
      "the agent ready",
      60_000
    )
    const apps = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].apps as Array<any>
    expect(apps.find((a) => a.slug === "web").subdomain_name).toBe("web--main--box--admin")

    // With the session header: the app's answer, from inside the container.
    const host = "web--main--box--admin.apps.test"
    const byHeader = await eventually(
      () => send(srv, host, "/hello?x=1", { [SESSION_HEADER]: owner.token! }),
      (r) => r.status === 200,
      "the app through the agent"
    )
    expect(byHeader.text).toBe("hello from the container /hello?x=1")

    // As a browser: 303 to the access URL's auth-redirect, the key back to the app's host, its cookie.
    const first = await send(srv, host, "/page")
    expect(first.status).toBe(303)
    const handed = await fetch(String(first.headers.location), {
      headers: { [SESSION_HEADER]: owner.token! },
      redirect: "manual"
    })
    expect(handed.status).toBe(307)
    const back = new URL(handed.headers.get("location")!)
    expect(back.hostname).toBe(host)
    const exchanged = await send(srv, host, back.pathname + back.search)
    expect(exchanged.status).toBe(307)
    const setCookie = String(exchanged.headers["set-cookie"]?.[0])
    const cookie = setCookie.split(";")[0]!
    const byCookie = await send(srv, host, "/page", { cookie })
    expect(byCookie.status, byCookie.text).toBe(200)
    expect(byCookie.text).toBe("hello from the container /page")
    // A host-only cookie: a browser sends it to this app's host only (no Domain).
    expect(setCookie).not.toMatch(/Domain=/i)

    // The same server as a path app.
    const path = await fetch(`${srv.url}/@admin/box.main/apps/plain/here`, {
      headers: { [SESSION_HEADER]: owner.token! }
    })
    expect(path.status).toBe(200)
    expect(await path.text()).toBe("hello from the container /here")
  })
})
