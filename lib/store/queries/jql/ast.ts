// The typed tree the parser builds and the printer prints: what was written, not yet what it
// means (`status = "In Progress"` keeps its spelling here; resolve.ts checks values against
// the store). Every node keeps the column where it starts, for errors found later.

export const FIELDS = [
  'project',
  'status',
  'statusCategory',
  'priority',
  'assignee',
  'reporter',
  'type',
  'sprint',
  'labels',
  'created',
  'updated',
  'key',
  'parent',
  'resolution',
  'text',
  'summary',
  'description',
  'comment',
  'due',
  'component',
  'fixVersion',
] as const;
export type Field = (typeof FIELDS)[number];

/**
 * A project's custom field, named as Jira names it: by its name in quotes ("Story Type" =
 * Research). What it holds is known only against the store (jql/field-conditions.ts).
 */
export interface CustomField {
  readonly custom: string;
}
/** What a clause is about: one of our fields, or a custom field. */
export type ClauseField = Field | CustomField;

/** Jira's other names for our fields: the parser reads them as the field, the printer prints the field. */
export const FIELD_ALIASES: ReadonlyMap<string, Field> = new Map<string, Field>([
  ['issuetype', 'type'],
  ['issue', 'key'],
  ['issuekey', 'key'],
  ['label', 'labels'],
  ['createddate', 'created'],
  ['updateddate', 'updated'],
  ['duedate', 'due'],
  ['components', 'component'],
  ['fixversions', 'fixVersion'],
  ['fix version', 'fixVersion'],
  ['due date', 'due'],
]);

/** Fields a result can be ordered by: every field with one value per issue (the due date among them), and the key. */
export const ORDER_FIELDS = [
  'key',
  'project',
  'status',
  'priority',
  'assignee',
  'reporter',
  'type',
  'sprint',
  'created',
  'updated',
  'due',
] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];

export const COMPARE_OPERATORS = ['=', '!=', '~', '!~', '<', '<=', '>', '>='] as const;
export type CompareOperator = (typeof COMPARE_OPERATORS)[number];

export const FUNCTIONS = [
  'currentUser',
  'openSprints',
  'futureSprints',
  'closedSprints',
  'now',
  'startOfDay',
  'startOfWeek',
  'startOfMonth',
  'startOfYear',
  'endOfDay',
  'endOfWeek',
  'endOfMonth',
  'endOfYear',
  'linkedIssues',
  'blockedIssues',
  'blockingIssues',
] as const;
export type FunctionName = (typeof FUNCTIONS)[number];

/** How many arguments each function takes, at least and at most: startOfWeek(-1), linkedIssues(PROJ-1, blocks). */
export const FUNCTION_ARGUMENTS: Readonly<Record<FunctionName, readonly [number, number]>> = {
  currentUser: [0, 0],
  openSprints: [0, 0],
  futureSprints: [0, 0],
  closedSprints: [0, 0],
  now: [0, 0],
  startOfDay: [0, 1],
  startOfWeek: [0, 1],
  startOfMonth: [0, 1],
  startOfYear: [0, 1],
  endOfDay: [0, 1],
  endOfWeek: [0, 1],
  endOfMonth: [0, 1],
  endOfYear: [0, 1],
  linkedIssues: [1, 2],
  blockedIssues: [0, 0],
  blockingIssues: [0, 0],
};

export interface Literal {
  readonly kind: 'literal';
  readonly text: string;
  readonly column: number;
}

/** A value as written: a word or string, or a function call such as currentUser() or startOfWeek(-1). */
export type Value =
  | Literal
  | { readonly kind: 'function'; readonly name: FunctionName; readonly args: readonly Literal[]; readonly column: number };

/** `field op value`, `field [NOT] IN (values)` or `field IN function()`, `field IS [NOT] EMPTY`. */
export type Clause =
  | {
      readonly kind: 'compare';
      readonly field: ClauseField;
      readonly op: CompareOperator;
      readonly value: Value;
      readonly column: number;
    }
  | {
      readonly kind: 'in';
      readonly field: ClauseField;
      readonly negated: boolean;
      /** A parenthesised list, or one function that gives a list (openSprints(), linkedIssues(PROJ-1)). */
      readonly values: readonly Value[];
      readonly column: number;
    }
  | { readonly kind: 'empty'; readonly field: ClauseField; readonly negated: boolean; readonly column: number };

export type Expression =
  | Clause
  | { readonly kind: 'and'; readonly operands: readonly Expression[] }
  | { readonly kind: 'or'; readonly operands: readonly Expression[] }
  | { readonly kind: 'not'; readonly operand: Expression; readonly column: number };

export interface SortKey {
  readonly field: OrderField;
  readonly direction: 'ASC' | 'DESC';
  readonly column: number;
}

export interface Query {
  /** null: no condition, every issue matches (a query may be only `ORDER BY ...`). */
  readonly where: Expression | null;
  readonly orderBy: readonly SortKey[];
}

/** The words the parser treats as keywords (case-insensitive); the printer quotes values spelled like them. */
export const KEYWORDS = ['AND', 'OR', 'NOT', 'IN', 'IS', 'EMPTY', 'NULL', 'ORDER', 'BY', 'ASC', 'DESC'] as const;
