// Loading the demo and the tour only for `mcp-tracker demo`. In the bundle, build.mjs defines
// __MCP_TRACKER_DEMO_BUNDLE__ as the file name of the separate bundle beside it
// (dist/mcp-tracker-demo.mjs), so the server bundle does not carry the tour's narration that a
// server never shows. From source, the module is imported directly. The same arrangement as
// the PostgreSQL backend's (lib/store/store-loader.ts).
import { importCompanion } from '../companion-bundle.js';

type DemoModule = typeof import('./index.js');

declare const __MCP_TRACKER_DEMO_BUNDLE__: string | undefined;

export async function loadDemo(): Promise<DemoModule> {
  const specifier =
    typeof __MCP_TRACKER_DEMO_BUNDLE__ === 'string' ? new URL(__MCP_TRACKER_DEMO_BUNDLE__, import.meta.url).href : './index.js';
  return importCompanion<DemoModule>(() => import(specifier), specifier, 'mcp-tracker demo');
}
