// One server under test: spawned through the shell (so --server takes a command line), fed on
// stdin, read on stdout, with stderr kept for failure reports. Every wait has a deadline and
// at the end the server is killed with everything it started (process-tree.ts), so a hung
// server can never hang the runner and nothing it spawned outlives the run.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { StdoutItem } from './stdout-reader.js';
import { StdoutReader } from './stdout-reader.js';
import type { JsonValue } from './json-types.js';
import { type ServerConnection, type ServerEvent, untilWokenOr } from './server-connection.js';
import { MARK_VARIABLE, newServerMark, serverProcesses, signalEach } from './process-tree.js';

const STDERR_LIMIT = 64 * 1024;
// 'exit' can fire before the last stdout bytes are read; 'close' waits for them but never comes
// if a grandchild keeps the pipe open. Waiting this long after 'exit' covers both.
const STDOUT_DRAIN_AFTER_EXIT_MS = 200;

export class ServerProcess implements ServerConnection {
  readonly events: ServerEvent[] = [];
  private readonly child: ChildProcess;
  private readonly reader = new StdoutReader();
  private stderr = '';
  private exitReported = false;
  private stdinOpen = true;
  private wake: (() => void) | undefined;
  private readonly mark = newServerMark();

  constructor(command: string, env: NodeJS.ProcessEnv = process.env) {
    // detached: the server leads a process group of its own, which the runner can signal as one.
    this.child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...env, [MARK_VARIABLE]: this.mark },
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.record(this.reader.push(chunk)));
    this.child.stdout?.on('end', () => this.record(this.reader.finish()));
    this.child.stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk));
    // A server that dies while we write must not crash the runner with EPIPE.
    this.child.stdin?.on('error', () => (this.stdinOpen = false));
    this.child.on('error', (error) =>
      this.keepStderr(Buffer.from(`[mcp-conform] could not start the server: ${error.message}\n`)),
    );
    this.child.on('exit', (code, signal) => setTimeout(() => this.reportExit(code, signal), STDOUT_DRAIN_AFTER_EXIT_MS));
    this.child.on('close', (code, signal) => this.reportExit(code, signal));
  }

  get hasExited(): boolean {
    return this.exitReported;
  }

  get stderrText(): string {
    return this.stderr;
  }

  /** One message per line (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports "stdio"). */
  send(message: JsonValue): Promise<void> {
    return this.write(Buffer.from(`${JSON.stringify(message)}\n`, 'utf8'));
  }

  /** Writes one chunk and resolves once it has been handed to the pipe (or the pipe is gone). */
  write(chunk: Buffer): Promise<void> {
    const stdin = this.child.stdin;
    if (!stdin || !this.stdinOpen || stdin.destroyed) return Promise.resolve();
    return new Promise((resolve) => stdin.write(chunk, () => resolve()));
  }

  /** Closes stdin: the stdio way to say the client is done. */
  end(): void {
    this.stdinOpen = false;
    this.child.stdin?.end();
  }

  /** Resolves when an event beyond `seenCount` exists or the deadline passes. */
  async waitForEvent(seenCount: number, deadline: number): Promise<void> {
    if (this.events.length > seenCount) return;
    await untilWokenOr(deadline, (wake) => (this.wake = wake));
  }

  /**
   * Ends the server and everything it started: SIGTERM to its process group and to the
   * processes that carry its mark, then, after `graceMs` (none if it already exited), SIGKILL
   * to whatever is left, including children that ignore SIGTERM or left the group.
   */
  async stop(graceMs: number): Promise<void> {
    if (!this.exitReported) {
      this.signalGroup('SIGTERM');
      signalEach(this.startedProcesses(), 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (!this.exitReported && Date.now() < deadline) await this.waitForEvent(this.events.length, deadline);
    }
    this.signalGroup('SIGKILL');
    signalEach(this.startedProcesses(), 'SIGKILL');
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }

  /** The server's own process and its descendants, wherever they moved (process-tree.ts). */
  private startedProcesses(): number[] {
    // Once the server has exited its pid may be reused by a stranger: only the mark is trusted then.
    const running = this.child.pid !== undefined && !this.exitReported;
    return serverProcesses({ mark: this.mark, ...(running ? { rootPid: this.child.pid } : {}) });
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  private record(items: StdoutItem[]): void {
    if (items.length === 0) return;
    this.events.push(...items);
    this.notify();
  }

  private reportExit(code: number | null, signal: string | null): void {
    if (this.exitReported) return;
    this.exitReported = true;
    this.events.push({ kind: 'exit', code, signal });
    this.notify();
  }

  private keepStderr(chunk: Buffer): void {
    this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_LIMIT);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
