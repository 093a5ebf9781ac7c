#!/usr/bin/env bash
# Regenerates the conformance reports in spec-tests/reports: installs a panel of public MCP servers
# (7 SDKs: TypeScript v1 and v2, Python mcp and FastMCP, Go mark3labs/mcp-go and the
# official go-sdk, Rust rmcp) at pinned versions into a temporary folder (never into this repository
# or its package.json), runs the built-in generic fixtures of mcp-conform against each over stdio
# and, where the server offers it, over Streamable HTTP, and writes spec-tests/reports/<report>.md
# plus an index (spec-tests/reports/index.md: server, SDK, transport, summary, wall time, the
# server processes still alive after the run); a partial run replaces only its own rows there.
#
#   bash spec-tests/reports/run.sh                         # every report
#   bash spec-tests/reports/run.sh mcp-time kubernetes-http  # only the ones named
#   CONFORM=/path/to/mcp-conform.mjs bash spec-tests/reports/run.sh   # another runner build
#   OFFICIAL=1 bash spec-tests/reports/run.sh fastmcp-http  # also the official suite (HTTP only)
#
# Needs node 20+, npm, python3 (3.10+, with venv) and the npm registry and PyPI (pip as configured).
# The Go and Rust servers are prebuilt linux-x64 binaries shipped inside npm packages, so the
# script runs on Linux x64 only. Without CONFORM it builds dist/mcp-conform.mjs first. Each report is
# the runner's `--reporter markdown` output under a header with the versions installed, the command,
# the wall time and load, and the server processes still alive after the run (there should be none).
# The verdicts on every MUST finding are in README.md; regenerate, then review new findings there.
set -euo pipefail

# Pinned versions: change them here, rerun, and review the new findings in README.md.
readonly EVERYTHING_VERSION=2026.8.31 # @modelcontextprotocol/server-everything (TS SDK v1)
readonly MEMORY_VERSION=2026.8.31     # @modelcontextprotocol/server-memory (TS SDK v1)
readonly FILESYSTEM_VERSION=2026.8.31 # @modelcontextprotocol/server-filesystem (TS SDK v1)
readonly TS_SDK_V2_VERSION=2.4.0      # @modelcontextprotocol/server (TypeScript SDK v2)
readonly ZOD_VERSION=4.6.7            # zod, for the TypeScript SDK v2 server's tool schema
readonly TS_SDK_V2_NODE_VERSION=2.1.2 # @modelcontextprotocol/node (toNodeHandler), for its HTTP mode
readonly PYTHON_MCP_VERSION=2.3.0     # mcp (Python SDK 2.x), PyPI
readonly FASTMCP_VERSION=4.0.10       # fastmcp (standalone FastMCP), PyPI
readonly MCP_TIME_VERSION=0.4.0       # mcp-time-linux-x64: TheoBrigitte/mcp-time on mark3labs/mcp-go v0.33.0
readonly EXCEL_VERSION=0.12.0         # @negokaz/excel-mcp-server: on mark3labs/mcp-go v0.34.0
readonly MCP_CRON_VERSION=0.9.1       # mcp-cron-linux-amd64: jolks/mcp-cron on go-sdk v1.4.1
readonly KUBERNETES_VERSION=0.0.67    # kubernetes-mcp-server: containers/kubernetes-mcp-server on go-sdk v1.8.0
readonly CORTEX_VERSION=0.9.1         # @temporal-cortex/cortex-mcp-linux-x64: on rmcp 1.1.1
readonly VAULTTOOLS_VERSION=0.1.7     # @vaulttools/mcp-linux-x64: on rmcp 0.16.0
readonly ONSHAPE_VERSION=0.5.2        # @onshape-mcp/linux-x64: on rmcp 2.2.0

readonly ALL_REPORTS=(
  server-everything server-everything-http server-memory server-filesystem
  ts-sdk-v2 ts-sdk-v2-modern-only ts-sdk-v2-http python-mcp-2 python-mcp-2-http fastmcp fastmcp-http
  mcp-time mcp-time-http excel mcp-cron mcp-cron-http kubernetes kubernetes-http
  cortex vaulttools onshape
)

REPO=$(cd "$(dirname "$0")/../.." && pwd)
readonly REPO
readonly REPORTS="$REPO/spec-tests/reports"
CONFORM=${CONFORM:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcp-conform-reports.XXXXXX")
readonly WORK
SERVER_GROUP=""
cleanup() {
  [ -z "$SERVER_GROUP" ] || kill -KILL -- "-$SERVER_GROUP" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

install_npm_servers() {
  echo "installing the npm servers into $WORK" >&2
  cp "$REPORTS/servers/ts-sdk-v2-server.mjs" "$WORK/"
  (cd "$WORK" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" \
    "@modelcontextprotocol/server-memory@$MEMORY_VERSION" \
    "@modelcontextprotocol/server-filesystem@$FILESYSTEM_VERSION" \
    "@modelcontextprotocol/server@$TS_SDK_V2_VERSION" "zod@$ZOD_VERSION" \
    "@modelcontextprotocol/node@$TS_SDK_V2_NODE_VERSION" \
    "mcp-time-linux-x64@$MCP_TIME_VERSION" "@negokaz/excel-mcp-server@$EXCEL_VERSION" \
    "mcp-cron-linux-amd64@$MCP_CRON_VERSION" "kubernetes-mcp-server@$KUBERNETES_VERSION" \
    "@temporal-cortex/cortex-mcp-linux-x64@$CORTEX_VERSION" \
    "@vaulttools/mcp-linux-x64@$VAULTTOOLS_VERSION" "@onshape-mcp/linux-x64@$ONSHAPE_VERSION" >&2)
  chmod +x "$WORK"/node_modules/*/bin/* "$WORK"/node_modules/@*/*/bin/* 2>/dev/null || true
  mkdir -p "$WORK/data/fs" "$WORK/data/vault"
  # kubernetes-mcp-server needs a current context to start; this one points at a closed loopback port.
  printf '%s\n' 'apiVersion: v1' 'kind: Config' 'clusters: [{name: none, cluster: {server: "https://127.0.0.1:1"}}]' \
    'contexts: [{name: none, context: {cluster: none, user: none}}]' 'current-context: none' \
    'users: [{name: none, user: {token: none}}]' >"$WORK/data/kubeconfig"
}

install_python_servers() {
  echo "installing mcp==$PYTHON_MCP_VERSION and fastmcp==$FASTMCP_VERSION into venvs in $WORK" >&2
  cp "$REPORTS/servers/python_mcp2_server.py" "$REPORTS/servers/fastmcp_server.py" "$WORK/"
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/python" -m pip install --quiet --retries 1 "mcp==$PYTHON_MCP_VERSION" >&2
  python3 -m venv "$WORK/venv-fastmcp"
  "$WORK/venv-fastmcp/bin/python" -m pip install --quiet --retries 1 "fastmcp==$FASTMCP_VERSION" >&2
}

# The version npm actually installed, nested copies included (server-everything brings its own SDK).
npm_version() {
  (cd "$WORK" && npm ls --all --parseable --long "$1" 2>/dev/null | sed 's/.*://' | sort -u | paste -sd ' ' -)
}
pip_version() { "$WORK/$1/bin/python" -c "import importlib.metadata as m; print('$2@' + m.version('$2'))"; }
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# Sets SDK, SERVER (the server's versions), COMMAND (run in $WORK) and, for an HTTP report, URL.
server_setup() {
  local name=$1 port=""
  URL=""
  case "$name" in *-http) port=$(free_port) ;; esac
  local bin="node_modules"
  case "$name" in
  server-everything | server-everything-http)
    SDK="TypeScript SDK v1 ($(npm_version @modelcontextprotocol/sdk))"
    SERVER=$(npm_version @modelcontextprotocol/server-everything)
    COMMAND="node $bin/@modelcontextprotocol/server-everything/dist/index.js stdio"
    [ -z "$port" ] || { COMMAND="env PORT=$port node $bin/@modelcontextprotocol/server-everything/dist/index.js streamableHttp"; URL="http://localhost:$port/mcp"; } ;;
  server-memory)
    SDK="TypeScript SDK v1 ($(npm_version @modelcontextprotocol/sdk))"; SERVER=$(npm_version @modelcontextprotocol/server-memory)
    COMMAND="env MEMORY_FILE_PATH=$WORK/data/memory.jsonl node $bin/@modelcontextprotocol/server-memory/dist/index.js" ;;
  server-filesystem)
    SDK="TypeScript SDK v1 ($(npm_version @modelcontextprotocol/sdk))"; SERVER=$(npm_version @modelcontextprotocol/server-filesystem)
    COMMAND="node $bin/@modelcontextprotocol/server-filesystem/dist/index.js $WORK/data/fs" ;;
  ts-sdk-v2 | ts-sdk-v2-modern-only | ts-sdk-v2-http)
    SDK="TypeScript SDK v2 ($(npm_version @modelcontextprotocol/server), $(npm_version @modelcontextprotocol/core), $(npm_version zod))"
    SERVER="spec-tests/reports/servers/ts-sdk-v2-server.mjs"
    COMMAND="node ts-sdk-v2-server.mjs"
    [ "$name" != ts-sdk-v2-modern-only ] || { COMMAND="node ts-sdk-v2-server.mjs --legacy reject"; SERVER="$SERVER with serveStdio's legacy: 'reject'"; }
    [ -z "$port" ] || { COMMAND="node ts-sdk-v2-server.mjs --http $port"; URL="http://127.0.0.1:$port/mcp"; SERVER="$SERVER with createMcpHandler + $(npm_version @modelcontextprotocol/node) toNodeHandler"; } ;;
  python-mcp-2 | python-mcp-2-http)
    SDK="Python SDK $(pip_version venv mcp) on $("$WORK/venv/bin/python" --version)"; SERVER="spec-tests/reports/servers/python_mcp2_server.py"
    COMMAND="venv/bin/python python_mcp2_server.py"
    [ -z "$port" ] || { COMMAND="$COMMAND --http $port"; URL="http://127.0.0.1:$port/mcp"; } ;;
  fastmcp | fastmcp-http)
    SDK="FastMCP $(pip_version venv-fastmcp fastmcp) on $(pip_version venv-fastmcp mcp)"; SERVER="spec-tests/reports/servers/fastmcp_server.py"
    COMMAND="venv-fastmcp/bin/python fastmcp_server.py"
    [ -z "$port" ] || { COMMAND="$COMMAND --http $port"; URL="http://127.0.0.1:$port/mcp"; } ;;
  mcp-time | mcp-time-http)
    SDK="Go mark3labs/mcp-go v0.33.0 (from the binary's build info)"; SERVER=$(npm_version mcp-time-linux-x64)
    COMMAND="$bin/mcp-time-linux-x64/bin/mcp-time"
    # mcp-time accepts only Host: localhost, so the URL must name localhost, not 127.0.0.1.
    [ -z "$port" ] || { COMMAND="$COMMAND --transport stream --address http://localhost:$port/mcp"; URL="http://localhost:$port/mcp"; } ;;
  excel)
    SDK="Go mark3labs/mcp-go v0.34.0 (from the binary's build info)"; SERVER=$(npm_version @negokaz/excel-mcp-server)
    COMMAND="$bin/@negokaz/excel-mcp-server/dist/excel-mcp-server_linux_amd64_v1/excel-mcp-server" ;;
  mcp-cron | mcp-cron-http)
    SDK="Go modelcontextprotocol/go-sdk v1.4.1 (from the binary's build info)"; SERVER=$(npm_version mcp-cron-linux-amd64)
    COMMAND="$bin/mcp-cron-linux-amd64/bin/mcp-cron --transport stdio --db-path $WORK/data/cron.db"
    [ -z "$port" ] || { COMMAND="$bin/mcp-cron-linux-amd64/bin/mcp-cron --transport http --address 127.0.0.1 --port $port --db-path $WORK/data/cron-http.db"; URL="http://127.0.0.1:$port/mcp"; } ;;
  kubernetes | kubernetes-http)
    SDK="Go modelcontextprotocol/go-sdk v1.8.0 (from the binary's build info)"; SERVER="$(npm_version kubernetes-mcp-server), $(npm_version kubernetes-mcp-server-linux-amd64)"
    COMMAND="$bin/kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64 --kubeconfig $WORK/data/kubeconfig --disable-multi-cluster"
    [ -z "$port" ] || { COMMAND="$COMMAND --port $port --bind-address 127.0.0.1"; URL="http://127.0.0.1:$port/mcp"; } ;;
  cortex)
    SDK="Rust rmcp 1.1.1 (crate path in the binary)"; SERVER=$(npm_version @temporal-cortex/cortex-mcp-linux-x64)
    COMMAND="$bin/@temporal-cortex/cortex-mcp-linux-x64/bin/cortex-mcp" ;;
  vaulttools)
    SDK="Rust rmcp 0.16.0 (crate path in the binary)"; SERVER=$(npm_version @vaulttools/mcp-linux-x64)
    COMMAND="$bin/@vaulttools/mcp-linux-x64/bin/vaulttools-mcp --allowed-dir $WORK/data/vault" ;;
  onshape)
    SDK="Rust rmcp 2.2.0 (crate path in the binary)"; SERVER=$(npm_version @onshape-mcp/linux-x64)
    COMMAND="$bin/@onshape-mcp/linux-x64/bin/onshape-mcp" ;;
  *)
    echo "unknown report: $name (known: ${ALL_REPORTS[*]})" >&2
    exit 2 ;;
  esac
}

# Starts an HTTP server in its own process group and waits until its port accepts connections.
start_http_server() {
  local port=${URL##*:}
  port=${port%%/*}
  (cd "$WORK" && exec setsid bash -c "exec $COMMAND" >"$WORK/http-server.log" 2>&1) &
  SERVER_GROUP=$!
  for _ in $(seq 1 150); do
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.2
  done
  echo "the server did not listen on port $port: $(tail -5 "$WORK/http-server.log")" >&2
  return 1
}
stop_http_server() {
  kill -TERM -- "-$SERVER_GROUP" 2>/dev/null || true
  sleep 1
  kill -KILL -- "-$SERVER_GROUP" 2>/dev/null || true
  SERVER_GROUP=""
}

# Processes still alive that this script's servers left: those whose working directory is $WORK
# (every server runs there) or whose command line names $WORK, other than this script's own
# shell. Other jobs on the machine are not counted.
leftover_processes() {
  local pid cwd args
  for pid in $(ps -eo pid=); do
    [ "$pid" != "$$" ] && [ "$pid" != "$BASHPID" ] || continue
    cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || continue
    args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || continue
    case "$cwd $args" in "$WORK"* | *" $WORK"*) ;; *) continue ;; esac
    case "$args" in *run.sh* | *mcp-conform.mjs* | "ps "* | "") continue ;; esac
    printf '%s (ppid %s): %s; ' "$pid" "$(ps -o ppid= -p "$pid" | tr -d ' ')" "${args% }"
  done
}

# Runs the generic fixtures against one server and writes its report.
report_on() {
  local name=$1 start end status=0 target transport load_before load_after leftover summary
  server_setup "$name"
  if [ -n "$URL" ]; then
    transport="Streamable HTTP ($URL)"
    start_http_server
    target=(--url "$URL")
  else
    transport="stdio"
    target=(--server "$COMMAND")
  fi
  echo "running mcp-conform against $name over $transport: $COMMAND" >&2
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s%N)
  (cd "$WORK" && node "$CONFORM" run "${target[@]}" --reporter markdown >"$WORK/$name.md") || status=$?
  end=$(date +%s%N)
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  if [ -n "${OFFICIAL:-}" ] && [ -n "$URL" ]; then
    (cd "$REPO" && node spec-tests/conformance/run.mjs --url "$URL" --suite 0.1 >"$WORK/$name.official.txt" 2>&1) || true
  fi
  [ -z "$URL" ] || stop_http_server
  sleep 1
  leftover=$(leftover_processes)
  # Recorded in the report; then ended, so that this script leaves nothing behind either.
  for pid in $(echo "$leftover" | grep -oE '(^|; )[0-9]+ \(ppid' | grep -oE '[0-9]+'); do kill -KILL "$pid" 2>/dev/null || true; done
  summary=$(grep -m1 -E '^\*\*[0-9]+ passed' "$WORK/$name.md" | tr -d '*' || echo "no summary (exit $status)")
  {
    echo "<!-- Generated by spec-tests/reports/run.sh; see README.md for the verdicts on each MUST finding. -->"
    echo
    echo "- **Server:** $name: $SERVER"
    echo "- **SDK:** $SDK"
    echo "- **Transport:** $transport"
    echo "- **Command** (run in the install folder): \`$COMMAND\`"
    echo "- **Runner:** \`node mcp-conform.mjs run ${target[0]} ... --reporter markdown\` (built-in generic fixtures), runner $(node "$CONFORM" --version 2>/dev/null || echo '?'), node $(node --version)"
    echo "- **Wall time:** $(((end - start) / 1000000)) ms, exit code $status, load average $load_before before / $load_after after ($(nproc) cores)"
    echo "- **Server processes alive after the run:** ${leftover:-none}"
    echo
    cat "$WORK/$name.md"
    if [ -s "$WORK/$name.official.txt" ]; then
      echo
      echo "## The official suite against the same URL (@modelcontextprotocol/conformance 0.1.16, --suite active)"
      echo
      echo '```'
      grep -E '^(PASS|FAIL|SKIP)|passed,' "$WORK/$name.official.txt"
      echo '```'
    fi
  } >"$REPORTS/$name.md"
  printf '| [%s](%s.md) | %s | %s | %s | %s | %s |\n' "$name" "$name" "$SDK" "${transport%% (*}" "$summary" \
    "$(((end - start) / 1000000)) ms (load $load_before)" "${leftover:-none}" >>"$WORK/index-rows.md"
  echo "wrote spec-tests/reports/$name.md ($(((end - start) / 1000000)) ms, exit $status)" >&2
}

main() {
  local reports=("$@")
  [ ${#reports[@]} -gt 0 ] || reports=("${ALL_REPORTS[@]}")
  if [ -z "$CONFORM" ]; then
    (cd "$REPO" && node build.mjs >&2)
    CONFORM="$REPO/dist/mcp-conform.mjs"
  fi
  CONFORM=$(cd "$(dirname "$CONFORM")" && pwd)/$(basename "$CONFORM")
  install_npm_servers
  case " ${reports[*]} " in *" python-mcp-2"* | *" fastmcp"*) install_python_servers ;; esac
  for name in "${reports[@]}"; do report_on "$name"; done
  # index.md keeps the rows of the reports not regenerated this time.
  if [ -f "$REPORTS/index.md" ]; then
    grep -E '^\| \[' "$REPORTS/index.md" | while IFS= read -r row; do
      case " ${reports[*]} " in *" $(echo "$row" | sed -E 's/^\| \[([^]]+)\].*/\1/') "*) ;; *) echo "$row" ;; esac
    done >>"$WORK/index-rows.md"
  fi
  {
    echo "<!-- Generated by spec-tests/reports/run.sh; last run $(date -u +%Y-%m-%dT%H:%MZ) with $CONFORM -->"
    echo
    echo "| Report | SDK | Transport | Summary | Wall time | Server processes left |"
    echo "| --- | --- | --- | --- | --- | --- |"
    sort "$WORK/index-rows.md"
  } >"$REPORTS/index.md"
}

main "$@"
