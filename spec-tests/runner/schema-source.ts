// Where the JSON Schema of a revision comes from: a folder laid out as <revision>/schema.json
// (--schema-dir, and spec-tests/schemas in the tree), or the copies built into the bundle.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SchemaSource {
  /** For messages: where the schemas were looked for. */
  describe: string;
  /** The schema's JSON text, or undefined when this source has none for that revision. */
  read(version: string): string | undefined;
}

export function schemaDirectory(dir: string): SchemaSource {
  return {
    describe: `the schemas in ${dir}`,
    read: (version) => {
      const path = join(dir, version, 'schema.json');
      return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    },
  };
}
