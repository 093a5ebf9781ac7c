// Who was in a sprint at a moment, from its history (burndown.ts notes each issue joining or
// leaving): read by the sprint's numbers at its close (stats.ts) and by what it held
// (sprint-report.ts, which the server loads with the occasional reads: ../occasional-reads.ts).
import type { ScopeEvent } from '../state/state.js';

/** Each issue's last event up to `until` (all of them when null), by key, in the order they were noted. */
export function membersAt(events: readonly ScopeEvent[], until: string | null): Map<string, ScopeEvent> {
  const sorted = [...events].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const last = new Map<string, ScopeEvent>();
  for (const event of sorted) {
    if (until !== null && event.at > until) break;
    last.set(event.key, event);
  }
  return last;
}
