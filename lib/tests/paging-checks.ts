// What keyset paging promises, checked the same way on both backends (search-cursor.test.ts in
// memory, spec-tests/tests-postgres/sql-search.test.ts on PostgreSQL).

/** Every issue that matched throughout is seen exactly once, and no issue twice: the problems found. */
export function onceEach(seen: readonly string[], stayed: readonly string[]): string[] {
  const timesSeen = (key: string): number => seen.filter((k) => k === key).length;
  const problems = stayed.filter((key) => timesSeen(key) !== 1).map((key) => `${key} seen ${timesSeen(key)} times`);
  const twice = seen.filter((key, index) => seen.indexOf(key) !== index);
  return twice.length > 0 ? [...problems, `seen twice: ${twice.join(', ')}`] : problems;
}
