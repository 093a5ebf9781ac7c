// From rounds of samples to the reported figures. For each figure: every candidate's median
// over the rounds, ours divided by each other candidate twice over (the ratio of those
// medians, which the table's columns divide to, and the ratio within each round, whose range
// shows the noise), and each target judged round by round (targets.ts).

import type { CandidateName } from './candidates.js';
import { median } from './stats.js';
import { BEAT_SDK2_ISSUE, TARGETS, type Target, holds, roundsNeeded } from './targets.js';

export type Rival = Exclude<CandidateName, 'ours'>;
export const RIVALS: readonly Rival[] = ['sdk1', 'sdk2', 'floor'];

/** One round: a sample per candidate that ran in it (SDK v1 does not speak 2026-07-28). */
export type RoundOf<S> = Partial<Record<CandidateName, S>>;

export interface Comparison {
  /** median(ours) / median(rival). */
  ofMedians: number;
  /** ours / rival within each round. */
  perRound: number[];
}

export interface Verdict {
  target: Target;
  /** Rounds in which it held, of how many. */
  held: number;
  of: number;
  met: boolean;
}

export interface Figure {
  id: string;
  label: string;
  unit: string;
  /** Which way is better: a time is better lower, a throughput higher. */
  better: 'lower' | 'higher';
  values: Partial<Record<CandidateName, number>>;
  against: Partial<Record<Rival, Comparison>>;
  verdicts: Verdict[];
}

export interface Definition<S> {
  id: string;
  label: string;
  unit: string;
  pick(sample: S): number;
}

const betterOf = (unit: string): Figure['better'] => (unit === 'req/s' ? 'higher' : 'lower');

export function figuresOf<S>(definitions: readonly Definition<S>[], rounds: readonly RoundOf<S>[]): Figure[] {
  return definitions
    .map((d) => {
      const series = (name: CandidateName): number[] =>
        rounds.flatMap((r) => (r[name] === undefined ? [] : [d.pick(r[name] as S)])).filter(Number.isFinite);
      const perRound = (rival: Rival): number[] =>
        rounds.flatMap((r) => {
          const ours = r.ours === undefined ? NaN : d.pick(r.ours);
          const other = r[rival] === undefined ? NaN : d.pick(r[rival] as S);
          return Number.isFinite(ours) && Number.isFinite(other) && other !== 0 ? [ours / other] : [];
        });
      return figure(d.id, d.label, d.unit, (name) => series(name), perRound);
    })
    .filter((f) => f.values.ours !== undefined);
}

/** A figure measured once (peak memory, bundle size): a single "round". */
export function singleFigure(id: string, label: string, unit: string, values: Partial<Record<CandidateName, number>>): Figure {
  return figuresOf([{ id, label, unit, pick: (v: number) => v }], [values])[0] as Figure;
}

function figure(
  id: string,
  label: string,
  unit: string,
  series: (name: CandidateName) => number[],
  perRound: (rival: Rival) => number[],
): Figure {
  const values: Figure['values'] = {};
  for (const name of ['ours', ...RIVALS] as const) {
    const s = series(name);
    if (s.length > 0) values[name] = median(s);
  }
  const against: Figure['against'] = {};
  for (const rival of RIVALS) {
    const ratios = perRound(rival);
    if (ratios.length > 0) against[rival] = { ofMedians: (values.ours as number) / (values[rival] as number), perRound: ratios };
  }
  const better = betterOf(unit);
  const targets: Target[] = [...(TARGETS[id] ?? [])];
  // Issue 17's blanket target, unless the table already sets a stronger one against SDK v2.
  if (against.sdk2 && !targets.some((t) => t.against === 'sdk2'))
    targets.push({ against: 'sdk2', bound: better === 'lower' ? 'max' : 'min', value: 1, issue: BEAT_SDK2_ISSUE });
  const verdicts = targets.flatMap((target) => {
    const observed =
      target.against === 'absolute' ? series('ours').map((v) => v / 1024) : (against[target.against]?.perRound ?? []);
    if (observed.length === 0) return [];
    const held = observed.filter((v) => holds(target, v)).length;
    return [{ target, held, of: observed.length, met: held >= roundsNeeded(observed.length) }];
  });
  return { id, label, unit, better, values, against, verdicts };
}
