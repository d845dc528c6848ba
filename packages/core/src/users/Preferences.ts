/** A user's preference settings (`GET/PUT /users/{user}/preferences`). */
import { Schema } from "effect"
import { lazily } from "../Lazily.js"

/** How the dashboard's agent chat shows a kind of block: by itself, always open, or always folded. */
export const DisplayMode = Schema.Literal("auto", "always_expanded", "always_collapsed").annotations({
  identifier: "DisplayMode",
  message: () => ({ message: "Must be one of auto, always_expanded, always_collapsed.", override: true })
})

/** Which key sends an agent chat message: Enter, or Cmd/Ctrl+Enter (Enter then adds a line). */
export const AgentChatSendShortcut = Schema.Literal("enter", "modifier_enter").annotations({
  identifier: "AgentChatSendShortcut",
  message: () => ({ message: "Must be one of enter, modifier_enter.", override: true })
})

/** The described system's UserPreferenceSettings: every setting, defaults filled in. */
export class UserPreferences extends Schema.Class<UserPreferences>("UserPreferenceSettings")({
  agent_chat_send_shortcut: AgentChatSendShortcut,
  code_diff_display_mode: DisplayMode,
  collapse_assistant_steps: Schema.Boolean,
  shell_tool_display_mode: DisplayMode,
  thinking_display_mode: DisplayMode
}) {
  static readonly defaults: Schema.Struct.Type<typeof UserPreferences.fields> = {
    agent_chat_send_shortcut: "enter",
    code_diff_display_mode: "auto",
    collapse_assistant_steps: false,
    shell_tool_display_mode: "auto",
    thinking_display_mode: "auto"
  }
}

/** What is stored per user: only the settings the user set. */
export type StoredPreferences = Partial<Schema.Struct.Type<typeof UserPreferences.fields>>

const isDisplayMode = lazily(() => Schema.is(DisplayMode))
const isShortcut = lazily(() => Schema.is(AgentChatSendShortcut))

/** The settings of a stored object, defaults for what it lacks (or holds a value no longer known). */
export const toUserPreferences = (stored: Readonly<Record<string, unknown>>): UserPreferences => {
  const d = UserPreferences.defaults
  const mode = (v: unknown, fallback: typeof d.thinking_display_mode) => (isDisplayMode(v) ? v : fallback)
  return new UserPreferences({
    agent_chat_send_shortcut: isShortcut(stored.agent_chat_send_shortcut)
      ? stored.agent_chat_send_shortcut
      : d.agent_chat_send_shortcut,
    code_diff_display_mode: mode(stored.code_diff_display_mode, d.code_diff_display_mode),
    collapse_assistant_steps: typeof stored.collapse_assistant_steps === "boolean"
      ? stored.collapse_assistant_steps
      : d.collapse_assistant_steps,
    shell_tool_display_mode: mode(stored.shell_tool_display_mode, d.shell_tool_display_mode),
    thinking_display_mode: mode(stored.thinking_display_mode, d.thinking_display_mode)
  }, true)
}
