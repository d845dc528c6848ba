import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  startTestServer,
  startWithOwner,
  type TestServer
} from "../support.js"

/** Build info fields; `webpush_public_key` is absent while no Web Push key is configured. */
const BUILD_INFO_KEYS = [
  "agent_api_version",
  "dashboard_url",
  "deployment_id",
  "external_url",
  "provisioner_api_version",
  "telemetry",
  "upgrade_message",
  "version",
  "workspace_proxy"
]

describe("general routes", () => {
  let srv: TestServer
  let owner: Client
  let member: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
    member = (await createUser(owner)).client
  })
  afterAll(() => srv.close())

  describe("GET /", () => {
    it("answers the root with a message", async () => {
      const r = await srv.anonymous.get("/")
      expectResponse(r, 200)
      expect(Object.keys(r.body)).toEqual(["message"])
    })

    it("answers without the trailing slash and ignores a bad token", async () => {
      const bare = await fetch(`${srv.url}/api/v2`)
      expect(bare.status).toBe(200)
      expect(typeof (await bare.json()).message).toBe("string")
      expectResponse(await owner.as("not-a-token").get("/"), 200)
    })
  })

  describe("GET /buildinfo", () => {
    it("reports build info without a token, field by field", async () => {
      const r = await srv.anonymous.get("/buildinfo")
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(BUILD_INFO_KEYS)
      expect(r.body).toMatchObject({
        agent_api_version: expect.stringMatching(/^\d+\.\d+$/),
        dashboard_url: srv.url,
        deployment_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        external_url: expect.stringMatching(/^https?:\/\//),
        provisioner_api_version: expect.stringMatching(/^\d+\.\d+$/),
        telemetry: false,
        upgrade_message: "",
        version: expect.stringMatching(/^v\d+\.\d+\.\d+/),
        workspace_proxy: false
      })
    })

    it("keeps the deployment id stable and answers the same to every caller", async () => {
      const a = await srv.anonymous.get("/buildinfo")
      const b = await owner.get("/buildinfo")
      const c = await owner.as("not-a-token").get("/buildinfo")
      expect(b.body).toEqual(a.body)
      expect(c.body).toEqual(a.body)
    })
  })

  describe("GET /updatecheck", () => {
    it("reports the running version as current without a token", async () => {
      const r = await srv.anonymous.get("/updatecheck")
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["current", "url", "version"])
      const build = await srv.anonymous.get("/buildinfo")
      expect(r.body).toEqual({ current: true, url: expect.stringMatching(/^https?:\/\//), version: build.body.version })
    })
  })

  describe("POST /csp/reports", () => {
    const report = {
      "csp-report": {
        "document-uri": "http://localhost:3000/workspaces",
        "violated-directive": "script-src",
        "blocked-uri": "https://evil.example.com/x.js"
      }
    }

    it("accepts a report (200, no body)", async () => {
      for (const client of [owner, member]) {
        const r = await client.post("/csp/reports", report)
        expect(r.status).toBe(200)
        expect(r.body).toBeUndefined()
      }
    })

    it("accepts the browser's content type", async () => {
      const r = await member.request("POST", "/csp/reports", undefined, {
        raw: JSON.stringify(report),
        headers: { "content-type": "application/csp-report" }
      })
      expect(r.status).toBe(200)
    })

    it("answers 401 without a token", async () => {
      expectResponse(await srv.anonymous.post("/csp/reports", report), 401)
    })

    it("answers 400 for a bad report", async () => {
      expectValidations(await member.post("/csp/reports", {}), ["csp-report"])
      expectValidations(await member.post("/csp/reports", { "csp-report": "text" }), ["csp-report"])
      expectValidations(await member.post("/csp/reports", { "csp-report": [1, 2] }), ["csp-report"])
      expectValidations(await member.post("/csp/reports", { "csp-report": null }), ["csp-report"])
      expectResponse(await member.request("POST", "/csp/reports", undefined, { raw: "{oops" }), 400)
    })
  })

  describe("routing", () => {
    it("answers unknown routes with a 404 Response", async () => {
      const r = await owner.get("/no-such-route")
      expectResponse(r, 404)
      expect(r.body.message).toBe("Route not found.")
    })

    it("answers 405 with Allow for a wrong method on a known path", async () => {
      for (
        const [method, path, allow] of [
          ["DELETE", "/buildinfo", "GET, HEAD"],
          ["POST", "/updatecheck", "GET, HEAD"],
          ["PUT", "/", "GET, HEAD"],
          ["GET", "/csp/reports", "POST"]
        ] as const
      ) {
        const r = await owner.request(method, path)
        expectResponse(r, 405)
        expect(r.headers.get("allow")).toBe(allow)
      }
    })

    it("refuses deployment stats without a token", async () => {
      expectResponse(await srv.anonymous.get("/deployment/stats"), 401)
    })
  })

  describe("OpenAPI document", () => {
    it("is not served unless swagger is enabled", async () => {
      expect((await fetch(`${srv.url}/swagger/doc.json`)).status).toBe(404)
      expectResponse(await owner.get("/swagger/doc.json"), 404)
    })

    describe("with swagger enabled", () => {
      let swagger: TestServer
      beforeAll(async () => {
        swagger = await startTestServer({ settings: { swaggerEnable: true } })
      })
      afterAll(() => swagger.close())

      it("serves the document at /swagger/doc.json and under /api/v2", async () => {
        for (const path of ["/swagger/doc.json", "/api/v2/swagger/doc.json"]) {
          const res = await fetch(`${swagger.url}${path}`)
          expect(res.status).toBe(200)
          expect(res.headers.get("content-type")).toContain("application/json")
          const doc = await res.json()
          expect(doc.openapi).toMatch(/^3\./)
          expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) })
          for (
            const p of [
              "/api/v2/buildinfo",
              "/api/v2/updatecheck",
              "/api/v2/deployment/config",
              "/api/v2/deployment/ssh",
              "/api/v2/deployment/stats",
              "/api/v2/experiments",
              "/api/v2/experiments/available",
              "/api/v2/csp/reports",
              "/api/v2/organizations",
              "/api/v2/organizations/{organization}",
              "/api/v2/organizations/{organization}/members",
              "/api/v2/organizations/{organization}/members/{user}"
            ]
          ) {
            expect(Object.keys(doc.paths), p).toContain(p)
          }
        }
      })

      it("still answers the API and 405 for a wrong method on the document", async () => {
        expect((await swagger.anonymous.get("/buildinfo")).status).toBe(200)
        const r = await fetch(`${swagger.url}/api/v2/swagger/doc.json`, { method: "POST" })
        expect(r.status).toBeGreaterThanOrEqual(400)
        expect(r.status).toBeLessThan(500)
      })
    })
  })
})
