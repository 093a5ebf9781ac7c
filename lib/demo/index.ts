// The demo and the guided tour: the entry of dist/mcp-tracker-demo.mjs, a bundle of its own that
// the server loads only for `mcp-tracker demo` (demo-loader.ts). Both are clients of the server,
// not part of it, so a server start never parses them.
export { runDemo, type DemoOptions } from './demo.js';
export { runTour, type TourOptions } from './tour.js';
