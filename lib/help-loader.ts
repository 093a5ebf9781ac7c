// Loading the help text only for `mcp-tracker help`. In the bundle, build.mjs defines
// __MCP_TRACKER_HELP_BUNDLE__ as the file name of the separate bundle beside it
// (dist/mcp-tracker-help.mjs, lib/usage.ts), so a server start does not parse it. From source,
// the module is imported directly. The same arrangement as the demo's (lib/demo/demo-loader.ts).
import { importCompanion } from './companion-bundle.js';

type HelpModule = typeof import('./usage.js');

declare const __MCP_TRACKER_HELP_BUNDLE__: string | undefined;

export async function loadHelp(): Promise<HelpModule> {
  const specifier =
    typeof __MCP_TRACKER_HELP_BUNDLE__ === 'string' ? new URL(__MCP_TRACKER_HELP_BUNDLE__, import.meta.url).href : './usage.js';
  return importCompanion<HelpModule>(() => import(specifier), specifier, 'mcp-tracker help');
}
