// The store's commands (store-mutations.ts and the domain's plans behind them), loaded on the
// first write: a server that only reads never parses them. In the bundle, build.mjs defines
// __MCP_TRACKER_WRITES_BUNDLE__ as dist/mcp-tracker-writes.mjs; the seam's pattern is explained
// once, in lib/companion-bundle.ts.
//
// What crosses the seam: the store's StoreAccess (read, mutate, the backend's state) goes in;
// plans come back as plain record drafts that the server's own backend checks and applies, and
// refusals as the store's plain tagged errors.
import { importCompanion, onFirstUse } from '../companion-bundle.js';
import type { StoreAccess, StoreMutations } from './store-access.js';

type WritesModule = typeof import('./store-mutations.js');

declare const __MCP_TRACKER_WRITES_BUNDLE__: string | undefined;

/** The commands' module; lib/main.ts loads it once the server is quiet, before the first write asks. */
export async function loadWrites(): Promise<WritesModule> {
  const specifier =
    typeof __MCP_TRACKER_WRITES_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_WRITES_BUNDLE__, import.meta.url).href
      : './store-mutations.js';
  return importCompanion<WritesModule>(() => import(specifier), specifier, 'a write to the tracker');
}

/** The store's mutations over `access`, each loading the commands on first use. */
export function mutationsOnFirstUse(access: StoreAccess): StoreMutations {
  const writes = onFirstUse(async () => (await loadWrites()).storeMutations(access));
  return {
    createIssue: async (input) => (await writes()).createIssue(input),
    updateStatus: async (key, status, options) => (await writes()).updateStatus(key, status, options),
    assignIssue: async (key, assignee) => (await writes()).assignIssue(key, assignee),
    addComment: async (key, comment) => (await writes()).addComment(key, comment),
    addAttachment: async (key, input) => (await writes()).addAttachment(key, input),
    moveToSprint: async (key, sprint) => (await writes()).moveToSprint(key, sprint),
    updateIssue: async (key, input) => (await writes()).updateIssue(key, input),
    linkIssues: async (from, type, to, remove) => (await writes()).linkIssues(from, type, to, remove),
    bulkUpdateStatus: async (keys, status, options) => (await writes()).bulkUpdateStatus(keys, status, options),
    importProject: async (input) => (await writes()).importProject(input),
    importSprint: async (input) => (await writes()).importSprint(input),
    importIssue: async (input) => (await writes()).importIssue(input),
    importUpdate: async (key, input) => (await writes()).importUpdate(key, input),
    importAttachment: async (key, attachment) => (await writes()).importAttachment(key, attachment),
    setWorkflow: async (project, input, mapping) => (await writes()).setWorkflow(project, input, mapping),
    defineFields: async (project, fields) => (await writes()).defineFields(project, fields),
    createSprint: async (input) => (await writes()).createSprint(input),
    startSprint: async (id) => (await writes()).startSprint(id),
    closeSprint: async (id, carryTo) => (await writes()).closeSprint(id, carryTo),
    setSprintGoal: async (id, goal) => (await writes()).setSprintGoal(id, goal),
    savePerson: async (input) => (await writes()).savePerson(input),
    meetPeople: async (people) => (await writes()).meetPeople(people),
  };
}
