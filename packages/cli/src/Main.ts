/**
 * The command tree (docs/cli.md). Names follow the described system's CLI (`coder login`,
 * `coder list`, `coder templates push`, `coder config-ssh`, ...). Global flags (`--url`,
 * `--token`, `--global-config`, `-o/--output`) are taken before the command or after it.
 *
 * Exit codes: 0 done; 1 the command failed (the service refused, a build failed, not logged in);
 * 2 a bad command line; `ssh` exits with ssh's own code.
 */
import tab from "@bomb.sh/tab/commander"
import { Command, CommanderError, Option } from "commander"
import { login, logout, whoami } from "./commands/Auth.js"
import { configSsh } from "./commands/ConfigSsh.js"
import { openVscode } from "./commands/Open.js"
import { ping, speedtest } from "./commands/Ping.js"
import * as Prebuilds from "./commands/Prebuilds.js"
import * as Schedule from "./commands/Schedule.js"
import { show } from "./commands/Show.js"
import { portForward, ssh, sshStdio } from "./commands/Ssh.js"
import { stat } from "./commands/Stat.js"
import * as Templates from "./commands/Templates.js"
import * as Tokens from "./commands/Tokens.js"
import * as Users from "./commands/Users.js"
import { version, warnOnMismatch } from "./commands/Version.js"
import * as Workspaces from "./commands/Workspaces.js"
import { type Context, contextOf, type GlobalFlags } from "./Context.js"
import { describeError, usageError } from "./Errors.js"

export const VERSION = "0.1.0"

const collect = (value: string, previous: Array<string>) => [...previous, value]

/**
 * Whether the command at `path` (`["templates", "push"]`) talks to a deployment, and so first
 * checks its version: not `version` (it says so itself), `login`/`logout`, the shell's
 * completion, `stat` (this machine only), and not `ssh --stdio`, a ProxyCommand that ssh starts for
 * every connection.
 */
const talksToDeployment = (path: ReadonlyArray<string>, flags: Record<string, unknown>): boolean => {
  const [first] = path
  if (first === undefined || ["version", "login", "logout", "completion", "complete", "stat"].includes(first)) {
    return false
  }
  return !(first === "ssh" && flags.stdio === true)
}

/** The global flags, added to the program and to every command (so they may follow the command). */
const withGlobals = (cmd: Command): Command =>
  cmd
    .option("--url <url>", "the deployment's URL (WORKBAY_URL; default: the one logged in to)")
    .option("--token <token>", "a session token (WORKBAY_SESSION_TOKEN; default: the stored one)")
    .option("--global-config <dir>", "the configuration folder (WORKBAY_CONFIG_DIR; default: ~/.config/workbay)")
    .addOption(new Option("-o, --output <format>", "output format").choices(["table", "json"]))
    .option("--no-version-warning", "do not warn when this command's version differs from the deployment's")

export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  let exitCode = 0
  const program = new Command("workbay")
  program
    .description("The Workbay command line: workspaces, templates and SSH on a Workbay deployment.")
    .version(VERSION, "-v, --version")
    .enablePositionalOptions()
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
  withGlobals(program)

  /** The context of `cmd`: its own flags over the program's. */
  const contextFor = (cmd: Command): Context => contextOf({ ...program.opts(), ...cmd.opts() } as GlobalFlags)

  const command = (parent: Command, spec: string, description: string) =>
    withGlobals(parent.command(spec).description(description))

  // Before a command that talks to the deployment logged in to: the described system's warning when
  // its version differs from this command's (`--no-version-warning` or WORKBAY_NO_VERSION_WARNING: none).
  program.hook("preAction", async (_program, action) => {
    const path: Array<string> = []
    for (let c: Command | null = action; c !== null && c !== program; c = c.parent) path.unshift(c.name())
    const flags = { ...program.opts(), ...action.opts() }
    if (flags.versionWarning === false || /^(1|true|yes)$/i.test(process.env.WORKBAY_NO_VERSION_WARNING ?? "")) return
    if (!talksToDeployment(path, flags)) return
    const ctx = contextFor(action)
    if (ctx.token !== undefined) await warnOnMismatch(ctx, VERSION)
  })

  command(program, "login [url]", "Log in to a deployment: a password, or a pasted token (--token).")
    .option("--email <email>", "log in with this email (asks for the password)")
    .addOption(new Option("--password <password>", "the password (better: type it when asked)").env("WORKBAY_PASSWORD"))
    .option("--first-user-username <name>", "with no user yet: the first user's username")
    .option("--first-user-email <email>", "with no user yet: the first user's email")
    .addOption(
      new Option("--first-user-password <password>", "with no user yet: the first user's password").env(
        "WORKBAY_FIRST_USER_PASSWORD"
      )
    )
    .option("--first-user-full-name <name>", "with no user yet: the first user's full name")
    .option("-y, --yes", "create the first user without asking")
    .action(async (url: string | undefined, opts, cmd: Command) => {
      const flags = { ...program.opts(), ...cmd.opts() } as GlobalFlags
      const token = flags.token ?? (process.env.WORKBAY_SESSION_TOKEN || undefined)
      await login(contextFor(cmd), url, opts, token)
    })

  command(program, "logout", "Log out: ends the session on the deployment and removes the stored token.")
    .option("-y, --yes", "do not ask for confirmation")
    .action((opts, cmd: Command) => logout(contextFor(cmd), opts))

  command(program, "version", "Show this command's version, and the deployment's (warning when they differ).")
    .action((_opts, cmd: Command) => version(contextFor(cmd), VERSION))

  command(program, "whoami", "Show the deployment and the user logged in.")
    .action((_opts, cmd: Command) => whoami(contextFor(cmd)))

  command(program, "list", "List your workspaces (-a: every workspace you may read).")
    .alias("ls")
    .option("-a, --all", "every workspace, not only yours")
    .option("--search <query>", "a workspace search query (as the dashboard's: owner:, template:, status:, name:)")
    .action((opts, cmd: Command) => Workspaces.list(contextFor(cmd), opts))

  command(program, "create [name]", "Create a workspace from a template, and follow its first build.")
    .option("-t, --template <name>", "the template's name (in your organization)")
    .option("--parameter <name=value>", "a parameter's value (repeatable)", collect, [])
    .option("--rich-parameter-file <file>", "a YAML file of parameter names to values")
    .option("-O, --org <organization>", "the organization (default: your default organization)")
    .option("-y, --yes", "do not ask for confirmation")
    .action((name: string | undefined, opts, cmd: Command) => Workspaces.create(contextFor(cmd), name, opts))

  command(program, "start <workspace>", "Start a workspace ([owner/]name), and follow the build.")
    .action((ws: string, _opts, cmd: Command) => Workspaces.start(contextFor(cmd), ws))
  command(program, "stop <workspace>", "Stop a workspace, and follow the build.")
    .action((ws: string, _opts, cmd: Command) => Workspaces.stop(contextFor(cmd), ws))
  command(program, "restart <workspace>", "Stop then start a workspace, and follow both builds.")
    .action((ws: string, _opts, cmd: Command) => Workspaces.restart(contextFor(cmd), ws))
  command(program, "delete <workspace>", "Delete a workspace (its delete build), and follow the build.")
    .alias("rm")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--orphan", "delete the workspace without deleting its resources")
    .action((ws: string, opts, cmd: Command) => Workspaces.remove(contextFor(cmd), ws, opts))

  command(
    program,
    "update <workspace>",
    "Build the workspace on its template's active version, asking for new parameters."
  )
    .option("--parameter <name=value>", "a parameter's value (repeatable)", collect, [])
    .option("--rich-parameter-file <file>", "a YAML file of parameter names to values")
    .option("--always-prompt", "ask for every mutable parameter, not only the new required ones")
    .action((ws: string, opts, cmd: Command) => Workspaces.update(contextFor(cmd), ws, opts))

  command(program, "move <workspace>", "Move a stopped workspace to another provisioner host, and follow the move.")
    .requiredOption("--host <host>", "the host to move it to (workbay provisioner hosts list)")
    .action((ws: string, opts, cmd: Command) => Workspaces.move(contextFor(cmd), ws, opts))

  command(program, "logs <workspace>", "Show the logs of a workspace's latest build.")
    .option("-f, --follow", "follow the build's logs until it ends")
    .option("--build <number>", "another build of the workspace, by its number")
    .action((ws: string, opts, cmd: Command) => Workspaces.logs(contextFor(cmd), ws, opts))

  const templates = program.command("templates").alias("template").description("Manage templates.")
  command(templates, "list", "List the templates you may read.")
    .alias("ls")
    .action((_opts, cmd: Command) => Templates.list(contextFor(cmd)))
  command(templates, "push [dir]", "Push a folder as a new version of a template (created when missing).")
    .option("--name <template>", "the template's name (default: the folder's name)")
    .option("--version-name <name>", "the new version's name (default: a random one)")
    .option("-m, --message <message>", "the new version's message")
    .option("--variable <name=value>", "a template variable's value (repeatable; wins over the file)", collect, [])
    .option("--variables-file <file>", "a YAML file of template variable names to values")
    .option("--provisioner <type>", "the provisioner that imports it", "workbay")
    .option("--no-activate", "push the version without making it the template's active one")
    .option("-O, --org <organization>", "the organization (default: your default organization)")
    .option("-y, --yes", "do not ask for confirmation")
    .action((dir: string | undefined, opts, cmd: Command) => Templates.push(contextFor(cmd), dir, opts))

  const org = "-O, --org <organization>"
  const orgHelp = "the organization (default: your default organization)"
  command(templates, "pull <name> [dir]", "Download a template version's files into a folder (default: its name).")
    .option("--version <version>", "active (the default), latest, or a version's name")
    .option("--tar", "write the tar archive to standard output instead")
    .option("-y, --yes", "extract into a folder that is not empty without asking")
    .option(org, orgHelp)
    .action((name: string, dir: string | undefined, opts, cmd: Command) =>
      Templates.pull(contextFor(cmd), name, dir, opts)
    )
  command(templates, "archive <template...>", "Archive the unused versions of templates whose import failed.")
    .option("--all", "every unused version, not only the failed ones")
    .option(org, orgHelp)
    .action((names: Array<string>, opts, cmd: Command) => Templates.archiveUnused(contextFor(cmd), names, opts))
  const versions = templates.command("versions").alias("version")
    .description("Manage the versions of a template.")
  command(versions, "list <template>", "List a template's versions, newest first.")
    .alias("ls")
    .option("--include-archived", "archived versions too")
    .option(org, orgHelp)
    .action((name: string, opts, cmd: Command) => Templates.versionsList(contextFor(cmd), name, opts))
  for (const archived of [true, false]) {
    command(
      versions,
      `${archived ? "archive" : "unarchive"} <template> <version...>`,
      archived
        ? "Archive versions of a template (hidden from choosing; not the active one)."
        : "Unarchive versions of a template."
    )
      .option(org, orgHelp)
      .action((name: string, names: Array<string>, opts, cmd: Command) =>
        Templates.setVersionsArchived(contextFor(cmd), name, names, archived, opts)
      )
  }

  const prebuilds = program.command("prebuilds").alias("prebuild").description(
    "Manage prebuilt workspace settings."
  )
  command(prebuilds, "pause", "Pause the reconciliation of prebuilt workspaces (every replica).")
    .action((_opts, cmd: Command) => Prebuilds.pause(contextFor(cmd)))
  command(prebuilds, "resume", "Resume the reconciliation of prebuilt workspaces.")
    .action((_opts, cmd: Command) => Prebuilds.resume(contextFor(cmd)))

  const provisioner = program.command("provisioner").alias("provisionerd").description(
    "Run provisioner daemons and manage their hosts (docs/provisioner-daemons.md)."
  )
  command(provisioner, "start", "Run a provisioner daemon for this host's Docker engine.")
    .option("--key <key>", "a provisioner key of the organization (WORKBAY_PROVISIONER_DAEMON_KEY)")
    .option(
      "-t, --tag <key=value>",
      "a tag of the daemon; must repeat the key's (WORKBAY_PROVISIONERD_TAGS)",
      collect,
      []
    )
    .option("--name <name>", "the daemon's name (WORKBAY_PROVISIONER_DAEMON_NAME; default: the host name)")
    .option("--docker-host <url>", "the Docker engine (DOCKER_HOST; unix:// or tcp://)")
    .option("--docker-cert-path <dir>", "ca.pem, cert.pem and key.pem for a tcp:// engine over TLS (DOCKER_CERT_PATH)")
    .option("--docker-network <name>", "the network of containers whose template names none (default bridge)")
    .option("--agent-url <url>", "the deployment's URL as agents in this host's containers reach it")
    .option("--concurrency <n>", "jobs run at once", "1")
    .option("--memory <size>", "the memory this host offers workspaces, at most its engine's (e.g. 512m, 16g)")
    .option("--cpus <n>", "the CPUs this host offers workspaces, at most its engine's (a whole number)")
    .action(async (opts, cmd: Command) => {
      // Loaded on use (as by the hosts commands): only `start` needs the Docker driver and Effect.
      const { provisionerStart } = await import("./commands/Provisioner.js")
      exitCode = await provisionerStart(contextFor(cmd), opts)
    })
  const hosts = provisioner.command("hosts").alias("host").description(
    "The hosts provisioner daemons run workspaces on: their capacity, and draining them."
  )
  command(hosts, "list", "List the organization's provisioner hosts with their capacity.")
    .alias("ls")
    .option("-O, --org <organization>", "the organization (default: your default organization)")
    .action(async (opts, cmd: Command) => {
      const { hostsList } = await import("./commands/Provisioner.js")
      await hostsList(contextFor(cmd), opts)
    })
  command(hosts, "drain <host>", "Drain a host: no new workspace is placed on it (its workspaces stay).")
    .option("-O, --org <organization>", "the organization (default: your default organization)")
    .action(async (host: string, opts, cmd: Command) => {
      const { hostsDrain } = await import("./commands/Provisioner.js")
      await hostsDrain(contextFor(cmd), host, opts)
    })
  command(hosts, "undrain <host>", "Take a drained host back: new workspaces may be placed on it again.")
    .option("-O, --org <organization>", "the organization (default: your default organization)")
    .action(async (host: string, opts, cmd: Command) => {
      const { hostsUndrain } = await import("./commands/Provisioner.js")
      await hostsUndrain(contextFor(cmd), host, opts)
    })

  const scaletest = program.command("scaletest").description(
    "Load a deployment with many workspaces, agents and people, and measure it (docs/scaletest.md)."
  )
  command(scaletest, "create-workspaces", "Create users and workspaces and run their agents here, until all are ready.")
    .requiredOption("-c, --count <n>", "how many workspaces")
    .requiredOption("-t, --template <name>", "the template (the `scaletest` starter is made for it)")
    .option("--parameter <name=value>", "a parameter's value (repeatable)", collect, [])
    .option("--concurrency <n>", "workspaces made at once", "10")
    .option("--use-host-login", "make every workspace your own instead of one user per workspace")
    .option("--hold <duration>", "keep the agents running and reporting this long once all are ready (e.g. 5m)")
    .option("--timeout <duration>", "give up on what is not ready by then", "30m")
    .option("-O, --org <organization>", "the organization (default: your default organization)")
    .option("--agent-url <url>", "where the agents connect, in turn (repeatable: several replicas)", collect, [])
    .option("--agent-processes <n>", "run the agents in this many child processes, in turn (0: in this one)", "0")
    .option("--verbose", "print each line the light agents log (refused connections, failed reports) as it comes")
    .action(async (opts, cmd: Command) => {
      const { createWorkspaces } = await import("./commands/scaletest/Scaletest.js")
      exitCode = await createWorkspaces(contextFor(cmd), opts)
    })
  command(scaletest, "workspace-traffic", "Send traffic through terminals, SSH or apps of the scaletest workspaces.")
    .option("--mode <mode>", "pty, ssh or app", "pty")
    .option("--bytes-per-tick <n>", "bytes written each tick", "64")
    .option("--tick-interval <duration>", "time between writes", "100ms")
    .option("--duration <duration>", "how long", "30s")
    .option("--concurrency <n>", "at most this many workspaces (default: all)")
    .option("--run-agents", "run the workspaces' light agents in this process (when no create-workspaces holds them)")
    .option("--run <id>", "only the workspaces of this run")
    .option(
      "--agent-url <url>",
      "where the agents connect, as create-workspaces was told (repeatable; with two or more the echoes are also counted by where their agent is)",
      collect,
      []
    )
    .option("--agent-processes <n>", "with --run-agents: run them in this many child processes (0: in this one)", "0")
    .option("--verbose", "with --run-agents: print each line the light agents log as it comes")
    .action(async (opts, cmd: Command) => {
      const { workspaceTraffic } = await import("./commands/scaletest/Scaletest.js")
      exitCode = await workspaceTraffic(contextFor(cmd), opts)
    })
  command(scaletest, "dashboard", "People using the dashboard: lists, workspace pages, status watches.")
    .option("--users <n>", "people at once", "10")
    .option("--duration <duration>", "how long", "30s")
    .option("--interval <duration>", "each person's time between actions", "10s")
    .option("--jitter <duration>", "give or take this much, at random (at most --interval)", "5s")
    .action(async (opts, cmd: Command) => {
      const { dashboard } = await import("./commands/scaletest/Scaletest.js")
      exitCode = await dashboard(contextFor(cmd), opts)
    })
  command(scaletest, "cleanup", "Delete the scaletests' workspaces and users (and nothing else).")
    .option("--run <id>", "only this run's")
    .option("--use-host-login", "also your own scaletest workspaces (made with --use-host-login)")
    .option("--concurrency <n>", "deletions at once", "10")
    .option("--timeout <duration>", "give up on what is not deleted by then", "30m")
    .action(async (opts, cmd: Command) => {
      const { cleanup } = await import("./commands/scaletest/Scaletest.js")
      exitCode = await cleanup(contextFor(cmd), opts)
    })

  command(program, "show <workspace>", "Show a workspace's resources and agents: status, health, latency, apps, ports.")
    .action((ws: string, _opts, cmd: Command) => show(contextFor(cmd), ws))

  const schedule = command(program, "schedule", "Schedule automated start and stop times for workspaces.")
  command(schedule, "show [workspace]", "Show workspaces' schedules (yours, --all, or --search).")
    .option("-a, --all", "every workspace you may read")
    .option("--search <query>", "a workspace search query")
    .action((ws: string | undefined, opts, cmd: Command) => Schedule.show(contextFor(cmd), ws, opts))
  command(
    schedule,
    "start <workspace> <schedule...>",
    "Start the workspace at <start-time> [day-of-week] [location] (9:30AM Mon-Fri Europe/Dublin), or manual."
  ).action((ws: string, args: Array<string>, _opts, cmd: Command) => Schedule.start(contextFor(cmd), ws, args))
  command(
    schedule,
    "stop <workspace> <duration>",
    "Stop the workspace this long after each start (3h2m, 90m), or manual."
  )
    .action((ws: string, duration: string, _opts, cmd: Command) => Schedule.stop(contextFor(cmd), ws, duration))
  command(
    schedule,
    "extend <workspace> <duration>",
    "Move the running workspace's stop to now plus this (at least 30m)."
  )
    .alias("override-stop")
    .action((ws: string, duration: string, _opts, cmd: Command) => Schedule.extend(contextFor(cmd), ws, duration))

  command(program, "favorite <workspace>", "Add a workspace to your favorites (they come first in lists).")
    .alias("fav")
    .action((ws: string, _opts, cmd: Command) => Workspaces.setFavorite(contextFor(cmd), ws, true))
  command(program, "unfavorite <workspace>", "Remove a workspace from your favorites.")
    .alias("unfav")
    .action((ws: string, _opts, cmd: Command) => Workspaces.setFavorite(contextFor(cmd), ws, false))

  const tokens = command(program, "tokens", "Manage personal access tokens (for scripts and other clients).")
    .alias("token")
  command(tokens, "create", "Create a token and print it (shown this once).")
    .option("-n, --name <name>", "a name to find it by")
    .option("--lifetime <duration>", "how long it lasts: 8h, 30d, 1y, 1d12h30m (default: the deployment's)")
    .option("-u, --user <user>", "whose token (owners only; default: yours)")
    .action((opts, cmd: Command) => Tokens.create(contextFor(cmd), opts))
  command(tokens, "list", "List your tokens (-a: everyone's, owners only).")
    .alias("ls")
    .option("-a, --all", "every user's tokens")
    .option("--include-expired", "expired tokens too")
    .action((opts, cmd: Command) => Tokens.list(contextFor(cmd), opts))
  command(tokens, "remove <name|id|token>", "Expire a token (--delete: delete it).")
    .alias("rm")
    .alias("delete")
    .option("--delete", "delete it instead of expiring it")
    .action((ident: string, opts, cmd: Command) => Tokens.remove(contextFor(cmd), ident, opts))

  const users = command(program, "users", "Manage users.").alias("user")
  command(users, "list", "List users.")
    .alias("ls")
    .option("--search <query>", "a user search query (as the dashboard's: status:, login_type:, role:)")
    .action((opts, cmd: Command) => Users.list(contextFor(cmd), opts))
  command(users, "create", "Create a user in your organization (a password is made when none is given).")
    .option("-e, --email <email>", "the new user's email")
    .option("-u, --username <name>", "the new user's username")
    .option("-n, --full-name <name>", "the new user's full name")
    .addOption(
      new Option("-p, --password <password>", "their password (default: one made here)").env("WORKBAY_USER_PASSWORD")
    )
    .option("--login-type <type>", "password, none, github or oidc", "password")
    .option("-O, --org <organization>", "the organization (default: your default organization)")
    .action((opts, cmd: Command) => Users.create(contextFor(cmd), opts))
  for (
    const [verb, status, what] of [
      ["suspend", "suspended", "A suspended user cannot log in."],
      ["activate", "active", "An active user can log in and use the deployment."]
    ] as const
  ) {
    command(users, `${verb} <user>`, `Set a user's status to ${status} (a username or an id). ${what}`)
      .option("-y, --yes", "do not ask for confirmation")
      .action((ident: string, opts, cmd: Command) => Users.setStatus(contextFor(cmd), ident, status, opts))
  }

  command(program, "ssh <workspace> [command...]", "SSH into a workspace (<workspace>[.<agent>], [owner/]).")
    .option("--stdio", "join standard input and output to the workspace's SSH server (a ProxyCommand)")
    .passThroughOptions()
    .action(async (host: string, commandWords: Array<string>, opts, cmd: Command) => {
      if (opts.stdio === true) {
        if (commandWords.length > 0) throw usageError("ssh --stdio takes a host and no command.")
        return sshStdio(contextFor(cmd), host)
      }
      exitCode = await ssh(contextFor(cmd), host, commandWords)
    })

  command(program, "config-ssh", "Add a Host entry for each of your workspaces to ~/.ssh/config.")
    .option("--ssh-config-file <file>", "the SSH configuration to change", undefined)
    .option("--remove", "remove the workbay section")
    .option("-y, --yes", "do not ask for confirmation")
    .option("-n, --dry-run", "show the result without writing it")
    .action((opts, cmd: Command) => configSsh(contextFor(cmd), opts))

  command(program, "ping <workspace>", "Time round trips to a workspace's terminal through the service.")
    .option("-n, --num <n>", "how many pings", "10")
    .option("--wait <duration>", "time between pings", "1s")
    .option("-t, --timeout <duration>", "how long to wait for each pong", "5s")
    .action((ws: string, opts, cmd: Command) => ping(contextFor(cmd), ws, opts))
  command(program, "speedtest <workspace>", "Measure the throughput to or from a workspace through the service.")
    .option("-t, --time <duration>", "how long the test runs", "5s")
    .addOption(
      new Option("--direction <direction>", "down (from the workspace) or up").choices(["down", "up"]).default("down")
    )
    .action((ws: string, opts, cmd: Command) => speedtest(contextFor(cmd), ws, opts))

  command(program, "stat", "Inside a workspace: the CPU, memory and disk its machine (and container) use.")
    .option("--sample <duration>", "how long CPU use is measured over", "1s")
    .option("--path <dir>", "whose disk (default: your home folder)")
    .action((opts, cmd: Command) => stat(contextFor(cmd), opts))

  const open = command(program, "open", "Open a workspace in an application on this computer.")
  command(
    open,
    "vscode <workspace> [dir]",
    "Open VS Code Desktop on the workspace (Remote-SSH, through config-ssh's host)."
  )
    .option("--ssh-config-file <file>", "the SSH configuration holding the host (default: ~/.ssh/config)")
    .option("--no-open", "print the link only")
    .option("-y, --yes", "add the host to the SSH configuration without asking")
    .action((ws: string, dir: string | undefined, opts, cmd: Command) => openVscode(contextFor(cmd), ws, dir, opts))

  command(program, "port-forward <workspace>", "Forward local TCP ports to ports in a workspace.")
    .alias("tunnel")
    .option(
      "-p, --tcp <local:remote>",
      "listen on 127.0.0.1:<local>, reach <remote> in the workspace (repeatable)",
      collect,
      []
    )
    .action((ws: string, opts, cmd: Command) => portForward(contextFor(cmd), ws, opts.tcp))

  // `completion <shell>` prints the shell's completion script (bash, zsh, fish, powershell), which
  // asks `workbay complete -- <words>` for the commands, flags and choices (the whole tree above).
  tab(program, { completionCommandName: "completion" })

  try {
    await program.parseAsync([...argv], { from: "user" })
    return exitCode
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    const { exitCode: code, lines } = describeError(error)
    process.stderr.write(`${lines.join("\n")}\n`)
    return code
  }
}
