// The help of mcp-tracker: every command and option, printed by `mcp-tracker help` (or --help).
// The entry of dist/mcp-tracker-help.mjs, loaded only for that (lib/help-loader.ts): a server
// start does not parse the text it never prints. A mistyped option names the mistake and
// points here (lib/main.ts).

export const USAGE = `Usage:
  mcp-tracker [options]          serve the sprint tracker over MCP on stdin/stdout
  mcp-tracker --http [HOST:]PORT serve it over Streamable HTTP at http://HOST:PORT/mcp instead
  mcp-tracker demo [--trace]     run a scripted client against the server and show what happens
  mcp-tracker migrate --store URL
                                 apply the database's missing schema migrations, then exit
  mcp-tracker copy-journal FILE --store URL
                                 copy a journal file into an empty database (moving to team mode)
  mcp-tracker import FILE [--dry-run] [--user-map FILE]
                                 import a Jira CSV export (.csv) or an mcp-tracker JSON export (.json,
                                 into an empty store); the report goes to stderr
  mcp-tracker export [--format csv|json] [--out FILE]
                                 write every issue as Jira CSV (default), or the whole store as JSON,
                                 to stdout or FILE
  mcp-tracker workflow PROJECT [FILE] [--map FROM=TO]...
                                 print a project's workflow as JSON, or set it from FILE (docs/workflows.md);
                                 --map moves the issues in a status FILE drops (else they refuse the change)
  mcp-tracker people [add HANDLE NAME [--email E] [--alias A]... | rename PERSON NAME]
                                 print the people directory as JSON, add a person, or give someone (by
                                 handle, name, e-mail or alias) a new display name
  mcp-tracker demo --tour [CHAPTER]
                                 a guided session, every message shown and explained, in chapters:
                                 handshake, listing, resources, tools, errors, completion, prompts,
                                 progress, subscriptions, era2026 (all of them without CHAPTER)

Options:
  --data PATH                the data file (default: $MCP_TRACKER_DATA, else
                             $XDG_DATA_HOME/mcp-tracker/tracker.jsonl); created with demo data if missing
  --store postgres://...     keep the data in PostgreSQL instead (team mode: many instances,
                             one database; default: $MCP_TRACKER_STORE); migrated at start
  --ephemeral                use a fresh demo data file in a temporary folder, removed on exit (and
                             the folders of earlier --ephemeral servers that were killed)
  --user NAME                who you are (a handle such as alice): currentUser() in queries, and the
                             reporter of issues you create (default: $MCP_TRACKER_USER)
  --toolsets LIST            offer only these sets of tools, e.g. issues,sprints (sets: issues, sprints,
                             admin; default: $MCP_TRACKER_TOOLSETS, else all)
  --read-only                offer only the tools that change nothing; resources and prompts stay
                             (default: $MCP_TRACKER_READ_ONLY=1)
  --page-size N              items per page in list results (default 100)
  --max-message-bytes N      longest accepted message (default 33554432, 32 MiB)
  --max-in-flight N          requests run at once before reading pauses (default 64; over
                             HTTP for all clients together, and more wait their turn)
  --max-queued-bytes N       output waiting for the client before reading pauses
                             (default 67108864, 64 MiB, counted in characters; over HTTP for all
                             clients together, a client at most half: 429/503 past it)
  --max-depth N              deepest accepted nesting of arrays and objects (default 1000)
  --http [HOST:]PORT         serve over HTTP (HOST defaults to 127.0.0.1: this machine only)
  --auth-token-file PATH     (http) require "Authorization: Bearer <the file's first line>"
  --users-file PATH          (http) per-user tokens, a line each: TOKEN HANDLE [toolsets=LIST] [read-only];
                             each request acts as its token's user (docs/http.md)
  --allow-origin ORIGIN      (http) let a browser page from ORIGIN call the server; may repeat
  --instance NAME            (http) this instance's name, the start of every session id it issues,
                             so a load balancer can send a handshake-era session back to it
  --state-key-file PATH      seal MRTR requestStates with this file's bytes (32 or more), so
                             instances behind one URL accept each other's (else $MCP_TRACKER_STATE_KEY, hex)
  --dry-run                  (import) check every row and report, writing nothing
  --user-map FILE            (import) Jira names and account ids to handles: JSON {"Zoë Å": "zoe"} or lines name,handle
  --format csv|json          (export) Jira CSV of the issues, or JSON of everything
  --out FILE                 (export) write to FILE instead of stdout
  --trace                    (demo) print every wire message with its direction
  --tour [CHAPTER]           (demo) the guided session, or one chapter of it
  --version                  print the version
  --help                     print this help`;
