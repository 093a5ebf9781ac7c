// The three report formats share one shape: told what the server speaks, then about each
// fixture in order, then the end.
import type { Detection } from './detect.js';
import type { JudgedFixture, Summary } from './verdicts.js';

/** What the report says about the run itself. */
export interface RunInfo {
  runnerVersion: string;
  serverCommand: string;
  detection: Detection;
  detectionMs: number;
}

export interface Reporter {
  start(run: RunInfo): void;
  fixtureDone(fixture: JudgedFixture): void;
  finish(summary: Summary): void;
}

export type Write = (text: string) => void;
export type ReporterName = 'text' | 'json' | 'junit' | 'markdown';
export const REPORTER_NAMES: readonly ReporterName[] = ['text', 'json', 'junit', 'markdown'];
