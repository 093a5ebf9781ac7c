// Loading the Streamable HTTP transport only for `mcp-tracker --http`. In the bundle, build.mjs
// defines __MCP_TRACKER_HTTP_BUNDLE__ as the file name of the separate bundle beside it
// (dist/mcp-tracker-http.mjs: lib/http-serve.ts, with protocol/http.ts and the users file), so
// a server on stdio does not parse them. From source, the module is imported directly. The same
// arrangement as the demo's (lib/demo/demo-loader.ts).
//
// The companion carries its own copies of the engine modules it imports (json-rpc.ts,
// errors.ts, ...). Nothing it shares with the server is checked by identity except the
// PreEncoded fragments in outgoing messages, so the server hands it the engine's encodeLineBytes
// (HttpOptions.encodeLine in protocol/http.ts).
import { importCompanion } from './companion-bundle.js';

type HttpServingModule = typeof import('./http-serve.js');

declare const __MCP_TRACKER_HTTP_BUNDLE__: string | undefined;

export async function loadHttpServing(): Promise<HttpServingModule> {
  const specifier =
    typeof __MCP_TRACKER_HTTP_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_HTTP_BUNDLE__, import.meta.url).href
      : './http-serve.js';
  return importCompanion<HttpServingModule>(() => import(specifier), specifier, 'mcp-tracker --http');
}
