// Formats the location of a value inside a message, e.g. $.result.tools[0].name, for diffs.
export type PathSegment = string | number;

export function formatPath(path: readonly PathSegment[]): string {
  return path.reduce<string>((text, segment) => text + formatSegment(segment), '$');
}

function formatSegment(segment: PathSegment): string {
  if (typeof segment === 'number') return `[${segment}]`;
  return /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}
