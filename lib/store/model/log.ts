// Diagnostics go through a function the caller passes in, never to stdout:
// in the server, stdout is the MCP wire and a stray line corrupts it.

export type LogLevel = 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, message: string) => void;

/** A ready-made logger for the server: one line per message on stderr. */
export const stderrLogger: Logger = (level, message) => {
  process.stderr.write(`[mcp-tracker store] ${level}: ${message}\n`);
};

/** For tests and benchmarks that expect no diagnostics worth showing. */
export const silentLogger: Logger = () => {};
