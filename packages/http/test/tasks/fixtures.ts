/** Task test support. */

/** An AI task template: the agent `main` runs the app `claude`, and is handed the prompt. */
export const AI_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        env: { PROMPT: "\${task.prompt}", TASK: "\${task.id}" }
        apps:
          - slug: claude
            command: claude
            hidden: true
          - slug: code
            url: http://localhost:8080
ai_task:
  app: claude
`
