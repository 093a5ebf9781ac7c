// Dates in a query, as the span of time they name: a whole UTC day for 2025-06-01, one
// instant for a timestamp, a time from now (-7d, -30m, -1M) or a date function (startOfWeek()).
//
// The date functions are Jira's: startOfDay/Week/Month/Year() and endOf...() are the first and
// the last millisecond of the current period, now() is now. An argument moves the answer:
// startOfWeek(-1) is the start of last week, startOfMonth("+14d") the 15th of this month;
// a number alone counts the function's own unit. Everything is UTC and weeks start on Monday
// (ISO 8601), so an answer never depends on where the server runs.
import { DATE_PATTERN, TIMESTAMP_PATTERN } from '../../model/schema.js';
import type { FunctionName, Literal, Value } from './ast.js';
import { jqlError } from './errors.js';

/** A date as [from, until): a day, or one instant (a span of 1 ms). */
export interface DateSpan {
  readonly from: string;
  readonly until: string;
}

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };
/** A time from now, as Jira writes it: years, M months, weeks, days, hours, m minutes (D, W and H too: a typed capital). */
const RELATIVE = /^([+-])(\d{1,5})([yMwdhmDWH])$/;
/** A function's argument: a signed count, and a unit (y, M months, w, d, h, m minutes) or none for the function's own. */
const OFFSET = /^([+-]?)(\d{1,5})([yMwdhm]?)$/;
/** Jira's other spellings of a day and a minute: 2025/06/01, "2025-06-01 09:30" (UTC here). */
const SLASHED_DAY = /^(\d{4})\/(\d{2})\/(\d{2})$/;
const DAY_AND_MINUTE = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/;

type Unit = 'y' | 'M' | 'w' | 'd';
const PERIODS: Partial<Record<FunctionName, { unit: Unit; end: boolean }>> = {
  startOfDay: { unit: 'd', end: false },
  startOfWeek: { unit: 'w', end: false },
  startOfMonth: { unit: 'M', end: false },
  startOfYear: { unit: 'y', end: false },
  endOfDay: { unit: 'd', end: true },
  endOfWeek: { unit: 'w', end: true },
  endOfMonth: { unit: 'M', end: true },
  endOfYear: { unit: 'y', end: true },
};

/** Whether a function gives a date (the resolver sends it here). */
export function isDateFunction(name: FunctionName): boolean {
  return name === 'now' || PERIODS[name] !== undefined;
}

export function dateSpan(value: Value, now: Date): DateSpan {
  if (value.kind === 'function') {
    if (value.name === 'now') return instant(now.getTime());
    const period = PERIODS[value.name];
    if (period === undefined) throw jqlError(`${value.name}() is not a date`, value.column, 'Write startOfWeek() or -7d.');
    return instant(periodEdge(now, period.unit, period.end, value.args[0]));
  }
  const text = value.text.trim();
  const relative = RELATIVE.exec(text);
  if (relative !== null) {
    const count = (relative[1] === '-' ? -1 : 1) * Number(relative[2]);
    const unit = relative[3] as string;
    const calendar = unit === 'y' || unit === 'M';
    return instant(
      calendar ? addTo(now.getTime(), unit, count) : now.getTime() + count * (UNIT_MS[unit.toLowerCase()] as number),
    );
  }
  const slashed = SLASHED_DAY.exec(text);
  const day = slashed === null ? text.toUpperCase() : `${slashed[1]}-${slashed[2]}-${slashed[3]}`;
  if (DATE_PATTERN.test(day) && isRealDate(`${day}T00:00:00.000Z`)) {
    const from = Date.parse(`${day}T00:00:00.000Z`);
    return { from: new Date(from).toISOString(), until: new Date(from + DAY_MS).toISOString() };
  }
  const minute = DAY_AND_MINUTE.exec(text);
  if (minute !== null && isRealDate(`${minute[1]}T${minute[2]}:00.000Z`)) {
    const from = Date.parse(`${minute[1]}T${minute[2]}:00.000Z`);
    return { from: new Date(from).toISOString(), until: new Date(from + 60_000).toISOString() };
  }
  const upper = text.toUpperCase();
  if (TIMESTAMP_PATTERN.test(upper) && isRealDate(upper)) return instant(Date.parse(upper));
  throw jqlError(
    `'${value.text}' is not a date`,
    value.column,
    'Write a day (2025-06-01), a time (2025-06-01T09:30:00.000Z), a time from now (-7d, -2w, -12h, -30m, -1M) or startOfWeek().',
  );
}

/** The first (or last) millisecond of the period holding `now`, moved by the argument. */
function periodEdge(now: Date, unit: Unit, end: boolean, argument: Literal | undefined): number {
  const edgeOf = (start: number): number => (end ? addTo(start, unit, 1) - 1 : start);
  const start = startOf(now, unit);
  if (argument === undefined) return edgeOf(start);
  const offset = OFFSET.exec(argument.text.trim());
  if (offset === null) {
    throw jqlError(
      `'${argument.text}' is not a time to add`,
      argument.column,
      'Write a count of the function\'s unit (-1) or a count and a unit: y, M (months), w, d, h, m (minutes), as in "+14d".',
    );
  }
  const count = (offset[1] === '-' ? -1 : 1) * Number(offset[2]);
  const by = (offset[3] === '' ? unit : offset[3]) as Unit | 'h' | 'm';
  // In the function's own unit the period moves (endOfMonth(-1) is the last day of last month); in another, the edge does.
  if (by === unit) return edgeOf(addTo(start, unit, count));
  return by === 'h' || by === 'm' ? edgeOf(start) + count * (UNIT_MS[by] as number) : addTo(edgeOf(start), by, count);
}

function startOf(now: Date, unit: Unit): number {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  switch (unit) {
    case 'd':
      return day;
    case 'w':
      // getUTCDay: Sunday is 0; Monday starts the week.
      return day - ((now.getUTCDay() + 6) % 7) * DAY_MS;
    case 'M':
      return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    case 'y':
      return Date.UTC(now.getUTCFullYear(), 0, 1);
  }
}

/** `ms` moved by `count` units: months and years by the calendar (Date.UTC carries a 13th month into the next year). */
function addTo(ms: number, unit: Unit, count: number): number {
  if (unit === 'd' || unit === 'w') return ms + count * (UNIT_MS[unit] as number);
  const at = new Date(ms);
  const months = unit === 'M' ? count : 12 * count;
  return Date.UTC(
    at.getUTCFullYear(),
    at.getUTCMonth() + months,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
    at.getUTCMilliseconds(),
  );
}

function instant(ms: number): DateSpan {
  return { from: new Date(ms).toISOString(), until: new Date(ms + 1).toISOString() };
}

/** 2025-02-30 matches the pattern but is no day: Date would quietly make it March 2. */
function isRealDate(iso: string): boolean {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && new Date(ms).toISOString() === iso;
}
