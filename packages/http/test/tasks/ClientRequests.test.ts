/** The dashboard client's requests to the AI tasks routes (packages/http/src/tasks/); see ../clientRequests.ts. */
import { describe, expect, it } from "vitest"
import { dashboardServer } from "../clientRequests.js"
import { runJobs } from "../templates/versions.js"
import { makeTemplate as importWorkspaceTemplate } from "../workspaces/fixtures.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("tasks", () => {
    it("createTask, getTasks, getTask, pauseTask, updateTaskInput, resumeTask, deleteTask, as the tasks page sends them", async () => {
      const template = await importWorkspaceTemplate(
        ctx.srv,
        ctx.owner,
        ctx.orgId,
        "resources:\n  - name: box\n    type: machine\n    agents:\n" +
          "      - name: main\n        apps:\n          - slug: claude\n            command: claude\nai_task:\n  app: claude\n"
      )
      const created = await ctx.member.client.post("/tasks/me", {
        input: "Build a landing page",
        template_version_id: template.active_version_id,
        template_version_preset_id: null,
        name: "",
        display_name: ""
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body.display_name).toBe("Build a landing page")
      expect(created.body.name).toMatch(/^build-a-landing-page-[0-9a-f]{4}$/)
      await runJobs(ctx.srv)
      for (const q of ["owner:me", "owner:\"me\"", `owner:${ctx.member.username} status:initializing`, ""]) {
        const r = await ctx.member.client.get(`/tasks?q=${encodeURIComponent(q)}`)
        expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200)
        expect(r.body.tasks.map((t: any) => t.id)).toContain(created.body.id)
      }
      expect((await ctx.member.client.get(`/tasks/${ctx.member.username}/${created.body.id}`)).status).toBe(200)
      expect((await ctx.member.client.post(`/tasks/${ctx.member.username}/${created.body.id}/pause`)).status).toBe(202)
      await runJobs(ctx.srv)
      expect(
        (await ctx.member.client.patch(`/tasks/${ctx.member.username}/${created.body.id}/input`, {
          input: "Build two pages"
        }))
          .status
      ).toBe(204)
      expect((await ctx.member.client.post(`/tasks/${ctx.member.username}/${created.body.id}/resume`)).status).toBe(202)
      await runJobs(ctx.srv)
      expect((await ctx.member.client.get(`/tasks/${ctx.member.username}/${created.body.id}/logs`)).status).toBe(200)
      expect((await ctx.member.client.delete(`/tasks/${ctx.member.username}/${created.body.id}`)).status).toBe(202)
      await runJobs(ctx.srv)
    })
  })
})
