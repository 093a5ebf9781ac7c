// A sprint's burndown drawn as SVG (burndown-svg.ts), loaded on the first read of
// jira://sprint/{id}/burndown.svg, not at start. In the bundle, build.mjs defines
// __MCP_TRACKER_READS_BUNDLE__ as dist/mcp-tracker-reads.cjs (lib/reads-companion.ts), the
// companion of the occasional reads; synchronous, since readUri, which the resource watch calls
// inside a change's work, is (lib/store/queries/jql-loader.ts says why it is CommonJS).
import { requireCompanion } from '../companion-bundle.js';

type BurndownSvgModule = Pick<typeof import('./burndown-svg.js'), 'burndownSvg'>;

declare const __MCP_TRACKER_READS_BUNDLE__: string | undefined;

let loaded: BurndownSvgModule | undefined;

/** burndownSvg, loaded on the first call (a failed load is tried again on the next). */
export function loadBurndownSvg(): BurndownSvgModule['burndownSvg'] {
  const specifier =
    typeof __MCP_TRACKER_READS_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_READS_BUNDLE__, import.meta.url).href
      : './burndown-svg.js';
  return (loaded ??= requireCompanion<BurndownSvgModule>(specifier, import.meta.url, 'a burndown chart')).burndownSvg;
}
