/**
 * The agent's init script (the described system's `provisionersdk/scripts/bootstrap_*`, served at
 * `GET /api/v2/init-script/{os}/{arch}`): what a workspace's machine runs to become an agent. It
 * downloads the agent's executable from the deployment (`<access URL>/bin/workbay-agent-<os>-<arch>`,
 * Binaries.ts), retrying with a message that names the URL, checks it (its SHA-256 when the
 * script carries one and the machine has a tool for it, then `--version`) and runs it with
 * `WORKBAY_AGENT_URL` set to the access URL. The token is never in the script: the machine gives it
 * as `WORKBAY_AGENT_TOKEN` in the environment. See docs/agents.md, "The agent executable".
 */
import { Effect, Layer, Option } from "effect"
import { BadRequest } from "../Errors.js"
import { Settings } from "../Settings.js"
import { AgentInitScripts } from "../workspaces/WorkspaceBuildExecutor.js"
import { Binaries } from "./Binaries.js"

/** The platforms a script is written for, as the described system's (`provisionersdk/agent.go`). */
export const INIT_SCRIPT_PLATFORMS: Readonly<Record<string, ReadonlyArray<string>>> = {
  linux: ["amd64", "arm64", "armv7"],
  darwin: ["amd64", "arm64"],
  windows: ["amd64", "arm64"]
}

/** Seconds between download attempts. */
const RETRY_SECONDS = 5

/** `value` as one POSIX shell word: single quotes, each `'` closed, escaped and reopened. */
export const shellQuote = (value: string): string => `'${value.replace(/\0/g, "").replace(/'/g, `'\\''`)}'`

/** `value` as a PowerShell single-quoted string: each quote character (PowerShell counts the typographic ones too) doubled. */
const powerShellQuote = (value: string): string =>
  `'${value.replace(/\0/g, "").replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`

/**
 * A download with nothing but perl-base (in every Debian and Ubuntu image, which lack curl and
 * wget): `perl -e "$PERL_GET" URL FILE` fetches an http:// URL (IPv4 or a host name) with
 * HTTP/1.0 and fails on anything but a 200. https needs curl or wget.
 */
const PERL_GET = [
  "use strict; use IO::Socket::INET;",
  "my ($url, $out) = @ARGV;",
  "$url =~ m{^http://([^/:]+)(?::(\\d+))?(/.*)?$} or die \"only http:// URLs without curl or wget: $url\\n\";",
  "my ($host, $port, $path) = ($1, $2 || 80, $3 || \"/\");",
  "my $s = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Timeout => 30) or die \"cannot connect to $host:$port: $@\\n\";",
  "binmode $s; print $s \"GET $path HTTP/1.0\\r\\nHost: $host\\r\\n\\r\\n\";",
  "my $head = do { local $/ = \"\\r\\n\\r\\n\"; <$s> };",
  "defined $head && $head =~ m{^HTTP/\\S+ 200} or die \"the server answered \" . (defined $head ? (split /\\r\\n/, $head)[0] : \"nothing\") . \"\\n\";",
  "open my $f, \">\", $out or die \"$out: $!\\n\"; binmode $f;",
  "my $buffer; while (my $n = read($s, $buffer, 65536)) { print $f $buffer or die \"$out: $!\\n\" }",
  "close $f or die \"$out: $!\\n\";"
].join(" ")

const posixScript = (accessUrl: string, binaryUrl: string, sha256: string) =>
  `#!/usr/bin/env sh
# Workbay agent init script: downloads the agent from the deployment and runs it.
# The agent's token comes from the environment (WORKBAY_AGENT_TOKEN), never from this script.
set -u
ACCESS_URL=${shellQuote(accessUrl)}
BINARY_URL=${shellQuote(binaryUrl)}
BINARY_SHA256=${shellQuote(sha256)}
say() { echo "workbay-agent init: $*" >&2; }
PERL_GET=${shellQuote(PERL_GET)}

if ! BINARY_DIR=$(mktemp -d "\${TMPDIR:-/tmp}/workbay-agent.XXXXXX"); then
  say "error: could not make a temporary folder (mktemp -d)"
  exit 1
fi
cd "$BINARY_DIR" || exit 1

attempt=0
while :; do
  attempt=$((attempt + 1))
  status=0
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --connect-timeout 10 -o workbay-agent "$BINARY_URL" || status=$?
  elif command -v wget >/dev/null 2>&1; then
    wget -q -T 30 -O workbay-agent "$BINARY_URL" || status=$?
  elif command -v busybox >/dev/null 2>&1; then
    busybox wget -q -T 30 -O workbay-agent "$BINARY_URL" || status=$?
  elif command -v perl >/dev/null 2>&1; then
    # Plain Debian and Ubuntu images have no curl or wget, but perl-base: HTTP/1.0 over a socket.
    perl -e "$PERL_GET" "$BINARY_URL" workbay-agent || status=$?
  else
    say "error: no download tool found: install curl, wget, busybox or perl"
    exit 127
  fi
  if [ "$status" -eq 0 ] && [ -n "$BINARY_SHA256" ]; then
    actual=""
    if command -v sha256sum >/dev/null 2>&1; then
      actual=$(sha256sum workbay-agent)
    elif command -v shasum >/dev/null 2>&1; then
      actual=$(shasum -a 256 workbay-agent)
    elif command -v sha256 >/dev/null 2>&1; then
      actual=$(sha256 -q workbay-agent)
    fi
    actual=\${actual%% *}
    if [ -n "$actual" ] && [ "$actual" != "$BINARY_SHA256" ]; then
      say "error: the agent downloaded from $BINARY_URL has SHA-256 $actual, not $BINARY_SHA256 (a broken download, or the deployment's agent changed since this script was made)"
      status=1
    fi
  fi
  [ "$status" -eq 0 ] && break
  say "error: could not download the agent from $BINARY_URL (attempt $attempt, exit status $status); is the access URL right and reachable from this machine? Trying again in ${RETRY_SECONDS} s..."
  rm -f workbay-agent
  sleep ${RETRY_SECONDS}
done

if ! chmod +x workbay-agent; then
  say "error: could not make $BINARY_DIR/workbay-agent executable"
  exit 1
fi
if ! version=$(./workbay-agent --version); then
  say "error: the agent from $BINARY_URL does not run on this machine (it needs glibc and libstdc++; musl systems such as Alpine cannot run it)"
  exit 1
fi
say "starting $version from $BINARY_URL"
export WORKBAY_AGENT_URL="$ACCESS_URL"
exec ./workbay-agent
`

const windowsScript = (accessUrl: string, binaryUrl: string, sha256: string) =>
  `# Workbay agent init script: downloads the agent from the deployment and runs it.
# The agent's token comes from the environment (WORKBAY_AGENT_TOKEN), never from this script.
$ProgressPreference = "SilentlyContinue"
$AccessUrl = ${powerShellQuote(accessUrl)}
$BinaryUrl = ${powerShellQuote(binaryUrl)}
$BinarySha256 = ${powerShellQuote(sha256)}
$BinaryDir = Join-Path $env:TEMP ("workbay-agent." + [guid]::NewGuid().ToString("N"))
New-Item -ItemType Directory -Path $BinaryDir | Out-Null
$Binary = Join-Path $BinaryDir "workbay-agent.exe"
$Attempt = 0
while ($true) {
  $Attempt++
  try {
    Invoke-WebRequest -UseBasicParsing -Uri $BinaryUrl -OutFile $Binary
    if ($BinarySha256 -eq "" -or (Get-FileHash -Algorithm SHA256 $Binary).Hash.ToLower() -eq $BinarySha256) { break }
    Write-Host "workbay-agent init: error: the agent downloaded from $BinaryUrl does not have SHA-256 $BinarySha256"
  } catch {
    Write-Host "workbay-agent init: error: could not download the agent from $BinaryUrl (attempt $Attempt): $($_.Exception.Message); is the access URL right and reachable from this machine?"
  }
  Write-Host "workbay-agent init: trying again in ${RETRY_SECONDS} s..."
  Start-Sleep -Seconds ${RETRY_SECONDS}
}
$env:WORKBAY_AGENT_URL = $AccessUrl
& $Binary
exit $LASTEXITCODE
`

/**
 * The init script for `os`/`arch` (Go's names: `linux`, `darwin`, `windows`; `amd64`, `arm64`,
 * `armv7`) against `accessUrl`, checking the download against `sha256` (hex) when given;
 * undefined for a platform with no script. Every value is quoted, so no URL can add a command.
 */
export const agentInitScript = (input: {
  readonly os: string
  readonly arch: string
  readonly accessUrl: string
  readonly sha256?: string | undefined
}): string | undefined => {
  const { arch, os } = input
  if (!Object.hasOwn(INIT_SCRIPT_PLATFORMS, os) || !INIT_SCRIPT_PLATFORMS[os]!.includes(arch)) return undefined
  const accessUrl = input.accessUrl.replace(/\/+$/, "")
  const file = `workbay-agent-${os}-${arch}${os === "windows" ? ".exe" : ""}`
  const binaryUrl = `${accessUrl}/bin/${file}`
  const sha256 = input.sha256 ?? ""
  return os === "windows" ? windowsScript(accessUrl, binaryUrl, sha256) : posixScript(accessUrl, binaryUrl, sha256)
}

/**
 * GET /init-script/{os}/{arch}: the script for the deployment's access URL, carrying the SHA-256
 * of the executable when the deployment serves one for that platform. The platform is read
 * without regard to case; one with no script answers 400, as the described system does.
 */
export const initScriptFor = (os: string, arch: string): Effect.Effect<string, BadRequest, Settings | Binaries> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const binaries = yield* Binaries
    const platform = { os: os.toLowerCase(), arch: arch.toLowerCase() }
    const binary = yield* binaries.find("workbay-agent", platform.os, platform.arch)
    const script = agentInitScript({
      ...platform,
      accessUrl: settings.accessUrl,
      sha256: Option.getOrUndefined(Option.map(binary, (b) => b.sha256))
    })
    if (script === undefined) {
      return yield* new BadRequest({
        message: `Unknown os/arch: ${platform.os}/${platform.arch}.`,
        detail: `Init scripts are written for ${
          Object.entries(INIT_SCRIPT_PLATFORMS).flatMap(([o, as]) => as.map((a) => `${o}/${a}`)).join(", ")
        }.`
      })
    }
    return script
  })

/**
 * The init scripts builds hand their provisioners (the workspaces area's `AgentInitScripts`
 * port), each checking the download against the executable the deployment serves for its
 * platform (when it serves one: embedders may give no `Binaries`).
 */
export const agentInitScriptsLayer: Layer.Layer<AgentInitScripts> = Layer.effect(
  AgentInitScripts,
  Effect.map(Effect.serviceOption(Binaries), (found) =>
    AgentInitScripts.of({
      current: Option.match(found, {
        onNone: () => Effect.succeed((os, arch, accessUrl) => agentInitScript({ os, arch, accessUrl })),
        onSome: (binaries) =>
          Effect.map(binaries.list, (served) => {
            const hashes = new Map(
              served.filter((b) => b.program === "workbay-agent").map((b) => [`${b.os}-${b.arch}`, b.sha256])
            )
            return (os: string, arch: string, accessUrl: string) =>
              agentInitScript({ os, arch, accessUrl, sha256: hashes.get(`${os}-${arch}`) })
          })
      })
    }))
)
