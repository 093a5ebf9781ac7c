"""A tiny stdio server on the Python SDK 2.x high-level API (mcp.server.MCPServer), for the
reports in spec-tests/reports. run.sh runs it with the virtual environment it creates; the
repository does not depend on the SDK.
Usage: python python_mcp2_server.py [--http PORT]   (Streamable HTTP on 127.0.0.1:PORT/mcp)"""

import sys

from mcp.server import MCPServer

server = MCPServer("mcp-conform-report-python-mcp2", version="1.0.0")


@server.tool()
def echo(text: str) -> str:
    """Echoes its text."""
    return text


@server.resource("report://readme", mime_type="text/plain")
def readme() -> str:
    """A resource for the conformance report."""
    return "A resource for the conformance report."


@server.prompt()
def greet(name: str) -> str:
    """A prompt for the conformance report."""
    return f"Say hello to {name}."


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run("stdio")
