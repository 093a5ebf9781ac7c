// The three report formats share one shape: told about each fixture in order, then the end.
import type { JudgedFixture, Summary } from './verdicts.js';

export interface Reporter {
  fixtureDone(fixture: JudgedFixture): void;
  finish(summary: Summary): void;
}

export type Write = (text: string) => void;
export type ReporterName = 'text' | 'json' | 'junit';
export const REPORTER_NAMES: readonly ReporterName[] = ['text', 'json', 'junit'];
