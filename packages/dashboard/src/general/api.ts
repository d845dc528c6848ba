/** The general area: the deployment's configuration (read only). */
import { client, unwrap } from "../api/client.ts"

export const generalApi = {
  config: () => unwrap(client.GET("/api/v2/deployment/config"))
}
