// The Python peer (issue 17) needs the Python SDK (`mcp`, from PyPI). The benchmark only
// detects it here: when `python3` or its `mcp` package is missing, it says so in the report
// instead of leaving the row out silently.

import { spawnSync } from 'node:child_process';

/** Why the Python peer cannot run on this machine, or null when `python3 -c "import mcp"` works. */
export function pythonPeerMissing(): string | null {
  const probe = spawnSync('python3', ['-c', 'import mcp, sys; print(sys.version.split()[0])'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (probe.error) return `no python3 on PATH (${probe.error.message})`;
  if (probe.status !== 0) return `python3 cannot import the mcp package (${lastLine(probe.stderr)})`;
  return null;
}

const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';
