"""Interop check with the official Python SDK client (mcp 2.3.0) in its default dual-era mode.

Client(mode="auto") probes with server/discover and falls back to initialize when the probe is
refused or times out (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio,
backward compatibility). This script connects that way to the stdio server given as its
arguments, lists the tools, calls get_issue, reads jira://sprint/current, and prints one line of
JSON: what was negotiated and what came back, or the error that stopped it (exit code 1).

    python spec-tests/interop/python_auto_client.py node dist/mcp-tracker.mjs --ephemeral

The server's stderr passes through to this script's stderr.
"""

import json
import sys
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ISSUE_KEY = "PROJ-101"
RESOURCE_URI = "jira://sprint/current"


async def use_the_tracker(command: str, args: list[str]) -> dict[str, object]:
    async with Client(StdioServerParameters(command=command, args=args), mode="auto") as client:
        tools = await client.list_tools()
        issue = await client.call_tool("get_issue", {"key": ISSUE_KEY})
        resource = await client.read_resource(RESOURCE_URI)
        return {
            "protocolVersion": client.protocol_version,
            "tools": sorted(tool.name for tool in tools.tools),
            "getIssueIsError": bool(issue.is_error),
            "getIssueKey": ((issue.structured_content or {}).get("issue") or {}).get("key"),
            "resourceUri": str(resource.contents[0].uri) if resource.contents else None,
        }


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: python_auto_client.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    started = time.monotonic()
    try:
        summary: dict[str, object] = {"ok": True, **anyio.run(use_the_tracker, sys.argv[1], sys.argv[2:])}
    except BaseException as error:  # an ExceptionGroup from the task group included: report, never hang
        cause = innermost(error)
        summary = {"ok": False, "error": f"{type(cause).__name__}: {cause}"}
    summary["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(summary))
    return 0 if summary["ok"] else 1


def innermost(error: BaseException) -> BaseException:
    """What went wrong: anyio wraps a failed connect in (nested) exception groups of one."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


if __name__ == "__main__":
    sys.exit(main())
