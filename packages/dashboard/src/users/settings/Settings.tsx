import { NavLink, Outlet } from "react-router"
import "./styles.css"

/** The account's settings, each a page of its own (the described system's /settings/...). */
export const settingsPages = [
  { to: "account", label: "Account" },
  { to: "appearance", label: "Appearance" },
  { to: "external-auth", label: "External authentication" },
  { to: "notifications", label: "Notifications" },
  { to: "schedule", label: "Quiet hours" },
  { to: "security", label: "Security" },
  { to: "ssh-keys", label: "SSH keys" },
  { to: "tokens", label: "Tokens" }
] as const

/** The settings' frame: their own navigation beside the page. */
export const SettingsLayout = () => (
  <div className="settings">
    <nav aria-label="Settings">
      <ul>
        {settingsPages.map((p) => (
          <li key={p.to}>
            <NavLink to={`/settings/${p.to}`}>{p.label}</NavLink>
          </li>
        ))}
      </ul>
    </nav>
    <div className="settings-page">
      <Outlet />
    </div>
  </div>
)

/** A settings page's title and what it is for. */
export const SettingsHeader = ({ title, description }: { title: string; description: string }) => (
  <header className="settings-header">
    <h1>{title}</h1>
    <p>{description}</p>
  </header>
)
