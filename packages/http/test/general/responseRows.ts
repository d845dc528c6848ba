/**
 * The response schema table's rows of the general and deployment endpoints (packages/http/src/general/), run by
 * ../responseSchemas.ts.
 */
import { type Row, row } from "../responseSchemas.js"

export const responseRows: ReadonlyArray<Row> = [
  // general
  row("general.root", "GET /api/v2", 200, "Response", (w) => w.srv.anonymous.get("/")),
  row("general.buildInfo", "GET /api/v2/buildinfo", 200, "BuildInfoResponse", (w) => w.srv.anonymous.get("/buildinfo")),
  row(
    "general.updateCheck",
    "GET /api/v2/updatecheck",
    200,
    "UpdateCheckResponse",
    (w) => w.srv.anonymous.get("/updatecheck")
  ),

  // deployment
  row(
    "deployment.cspReport",
    "POST /api/v2/csp/reports",
    200,
    "none",
    (w) => w.owner.post("/csp/reports", { "csp-report": { "blocked-uri": "https://evil.example.com/x.js" } })
  ),
  row(
    "deployment.config",
    "GET /api/v2/deployment/config",
    200,
    "DeploymentConfig",
    (w) => w.owner.get("/deployment/config")
  ),
  row(
    "deployment.ssh",
    "GET /api/v2/deployment/ssh",
    200,
    "SSHConfigResponse",
    (w) => w.bob.client.get("/deployment/ssh")
  ),
  row(
    "deployment.stats",
    "GET /api/v2/deployment/stats",
    200,
    "DeploymentStats",
    (w) => w.owner.get("/deployment/stats")
  ),
  row("deployment.experiments", "GET /api/v2/experiments", 200, "Experiments", (w) => w.bob.client.get("/experiments")),
  row(
    "deployment.availableExperiments",
    "GET /api/v2/experiments/available",
    200,
    "Experiments",
    (w) => w.bob.client.get("/experiments/available")
  )
]
