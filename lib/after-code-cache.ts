// First reading: skip this file. It is performance or flow-control code, the last step of the reading path in docs/reading-path.md.
// What the program may need from the launcher that starts it from V8's code cache
// (lib/code-cache.ts): V8 refuses a code cache written after a change of its flags, so a change
// of flags waits until the cache is written (on a start that found none; at once otherwise).
// The launcher hands this function to the bundled program as __mcpAfterCodeCache; run from
// source, there is no launcher and nothing to wait for.
declare const __mcpAfterCodeCache: ((then: () => void) => void) | undefined;

export function afterCodeCache(then: () => void): void {
  if (typeof __mcpAfterCodeCache === 'function') __mcpAfterCodeCache(then);
  else then();
}
