// Every target the benchmark judges, in one table. Each comes from an issue: issue 5 set the
// first floor targets, issue 13 the HTTP ones, issue 17 tightened some and added the SDK v2
// and the store. A target is met when it holds in at least four rounds out of five (the
// same share of any other number of rounds): one lucky or unlucky round decides nothing.

import type { CandidateName } from './candidates.js';

/** What ours is divided by, or 'absolute' for a figure judged on its own value. */
export type Against = Exclude<CandidateName, 'ours'> | 'absolute';

export interface Target {
  against: Against;
  /** 'max': ours/against at most `value`; 'min': at least `value`. */
  bound: 'max' | 'min';
  value: number;
  /** The issue that set it. */
  issue: number;
}

const atMost = (against: Against, value: number, issue: number): Target => ({ against, bound: 'max', value, issue });
const atLeast = (against: Against, value: number, issue: number): Target => ({ against, bound: 'min', value, issue });

/** Keyed by figure id (definitions.ts). The bundle's value is KiB. */
export const TARGETS: Readonly<Record<string, readonly Target[]>> = {
  'cold-initialize': [atMost('floor', 1.2, 17)],
  'get_issue-p50': [atMost('floor', 1.3, 17)],
  'search_issues-p50': [atMost('floor', 2, 5)],
  'search_uncached-p50': [atMost('floor', 2, 17)],
  'ping-throughput': [atLeast('floor', 0.6, 5)],
  'mixed-throughput': [atLeast('floor', 0.5, 17)],
  'large-read': [atMost('floor', 1.1, 5)],
  'chunked-request': [atMost('floor', 1.3, 5)],
  'peak-rss': [atMost('floor', 1.3, 17)],
  bundle: [atMost('absolute', 200, 36)],
  'http-get_issue-p50': [atMost('floor', 1.5, 13)],
  'http-throughput': [atLeast('sdk2', 1.5, 13), atLeast('floor', 1 / 1.5, 13)],
};

/** Issue 17: ours better than the SDK v2 server on every figure (time below 1x, throughput above). */
export const BEAT_SDK2_ISSUE = 17;

/** Issue 17: the store opens 1,000 issues in under 5 ms and 100,000 in at most 250 ms. */
export const STORE_OPEN_TARGETS_MS: Readonly<Record<number, number>> = { 1_000: 5, 100_000: 250 };

/** Rounds that must meet a target out of `rounds`: four of five. */
export const roundsNeeded = (rounds: number): number => Math.ceil((rounds * 4) / 5);

export function holds(target: Target, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  return target.bound === 'max' ? value <= target.value : value >= target.value;
}

export function targetText(target: Target): string {
  const sign = target.bound === 'max' ? '<=' : '>=';
  if (target.against === 'absolute') return `${sign} ${target.value} KiB`;
  const rival = target.against === 'floor' ? 'floor' : target.against === 'sdk2' ? 'SDK v2' : 'SDK v1';
  return `${sign} ${Number(target.value.toFixed(2))}x ${rival}`;
}
