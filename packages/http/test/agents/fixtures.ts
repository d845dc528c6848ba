/** Agent test support: the built-in provisioner, recording the token it is handed for each agent. */
import { type BuildInput, type Provisioner, workbayProvisioner } from "@workbay/core"
import { Effect } from "effect"
import { expect } from "vitest"

/**
 * The built-in provisioner that records, by workspace id, the token of each agent of `names` it
 * is asked about (the latest build's), checking that asking again gives the same token.
 */
export const recordingProvisioner = (
  names: ReadonlyArray<string>,
  handed: Map<string, Map<string, string>>
): Provisioner => ({
  ...workbayProvisioner,
  build: (input: BuildInput) =>
    Effect.gen(function*() {
      const tokens = new Map<string, string>()
      for (const name of names) tokens.set(name, yield* input.agentToken(name))
      expect(yield* input.agentToken(names[0]!)).toBe(tokens.get(names[0]!))
      handed.set(input.workspace.id, tokens)
      return yield* workbayProvisioner.build(input)
    })
})

/** A template whose agent `main` has two apps and a script, beside an agent `side` with neither: for agent reports. */
export const REPORTS_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        apps:
          - slug: code
            display_name: Code
            url: http://localhost:8080
          - slug: docs
            url: https://example.com/docs
            external: true
        scripts:
          - display_name: Install
            script: echo installing
            run_on_start: true
      - name: side
`
