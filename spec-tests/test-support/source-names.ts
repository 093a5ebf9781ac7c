// Does a source file define a name? For documents that point a reader at a source file and a function
// in it (OVERVIEW.md, the narration of demo --tour): their tests check each pointer with this.

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A definition of `name` in `source`: a function, a method, an arrow-valued field or property. */
export function defines(source: string, name: string): boolean {
  const pattern = new RegExp(
    `^\\s*(export\\s+)?(async\\s+)?(function\\s+)?(readonly\\s+)?(const\\s+)?${escape(name)}\\s*(<[^>\\n]*>)?\\s*[(=:]`,
    'm',
  );
  return pattern.test(source);
}
