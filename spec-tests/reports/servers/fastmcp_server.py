"""A tiny server on standalone FastMCP (the `fastmcp` package on PyPI, not the SDK's MCPServer),
for the reports in spec-tests/reports: one tool, one resource, one prompt, written after FastMCP's
README quickstart. run.sh runs it with the virtual environment it creates; the repository does
not depend on fastmcp.
Usage: python fastmcp_server.py [--http PORT]   (Streamable HTTP on 127.0.0.1:PORT/mcp)"""

import sys

from fastmcp import FastMCP

mcp = FastMCP("mcp-conform-report-fastmcp")


@mcp.tool
def echo(text: str) -> str:
    """Echoes its text."""
    return text


@mcp.resource("report://readme", mime_type="text/plain")
def readme() -> str:
    """A resource for the conformance report."""
    return "A resource for the conformance report."


@mcp.prompt
def greet(name: str) -> str:
    """A prompt for the conformance report."""
    return f"Say hello to {name}."


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        mcp.run(transport="http", host="127.0.0.1", port=port, show_banner=False)
    else:
        mcp.run(transport="stdio", show_banner=False)
