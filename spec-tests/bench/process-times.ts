// What a running process has spent so far, read from Linux's /proc: the bench's tools measure a
// server's CPU time and system calls over a stretch of requests, figures the machine's load moves
// far less than wall time.

import { readFileSync, readdirSync } from 'node:fs';

/** A process's CPU time so far, all its threads (utime + stime, /proc/PID/stat fields 14 and 15), in 10 ms ticks. */
export function cpuTimeMs(pid: number): number {
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const CLOCK_TICKS_PER_SECOND = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU time so far of the main thread and of all threads, in nanoseconds' precision
 * (/proc/PID/task/TID/schedstat, its first field; the main thread's TID is the PID).
 * Threads that ended meanwhile drop out of the sum: V8's and libuv's threads live as long as the process.
 */
export function threadTimesMs(pid: number): { main: number; all: number } {
  const ranMs = (tid: string) => Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  return { main: ranMs(String(pid)), all: readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + ranMs(tid), 0) };
}

/** Read and write system calls so far (/proc/PID/io syscr and syscw: write and writev count alike). */
export function systemCalls(pid: number): { reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const count = (name: string) => Number(new RegExp(`${name}: (\\d+)`).exec(io)?.[1] ?? NaN);
  return { reads: count('syscr'), writes: count('syscw') };
}
