// The fields the query indexes cover: by value (field-index.ts) and by time (time-index.ts).
// Its own file, below both indexes and the form a snapshot saves them in (saved-indexes.ts),
// which all name them.

export const INDEXED_FIELDS = ['project', 'status', 'priority', 'assignee', 'reporter', 'type', 'sprint', 'labels'] as const;
export type IndexedField = (typeof INDEXED_FIELDS)[number];

/** An empty field (no assignee, no sprint, no labels) is the value null. */
export type FieldValue = string | null;

export const TIME_FIELDS = ['created', 'updated'] as const;
export type TimeField = (typeof TIME_FIELDS)[number];
