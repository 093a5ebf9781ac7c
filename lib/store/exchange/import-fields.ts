// A Jira export's fields beyond the built-in ones (model/fields.ts), kept: Due Date as the due
// date, Component/s and Fix Version/s as components and fix versions, and every other
// `Custom field (Name)` column as a custom field Name of the row's project.
//
// A project must define what its issues carry, so the import defines it first from what the
// rows hold: the components and versions they name, and each custom column as a field whose
// type its values say. A repeated column (Jira writes one per value) is a multiselect; a column
// of numbers a number field, of days a date field; one of few short values (at most
// SELECT_OPTIONS_MAX) a select of those options; anything else text. What the project defined
// already stays (a field keeps its type; options are added), so an import never takes away a
// value an issue holds. A column whose name cannot be a field (a built-in field's, or one with
// quotes or commas) is not read, and the report names it.
import { RESERVED_FIELD_NAMES } from '../model/fields.js';
import { DATE_PATTERN, FIELD_NAME_PATTERN, LIMITS, type FieldType, type ProjectFields } from '../model/schema.js';
import { COLUMN, jiraTime, type JiraRow } from './jira-csv.js';

/** More distinct values than this, and a column of words is text rather than a select. */
const SELECT_OPTIONS_MAX = 25;

/** What a file's columns of fields are: each custom column's field type, and the columns not read. */
export interface FileFields {
  /** The custom columns read, by column name: the type of the field they fill. */
  readonly custom: ReadonlyMap<string, FieldType>;
  /** "Custom field (Team) → \"Team\", a select": what became what, for the report. */
  readonly mapped: readonly string[];
  /** Custom columns that cannot be fields, with why. */
  readonly notRead: readonly string[];
}

/** Jira's time tracking, which this tracker does not keep: named so in the report, not only "not read". */
const TIME_TRACKING =
  /^(time spent|σ time spent|log work|original estimate|σ original estimate|remaining estimate|σ remaining estimate|work ratio)$/i;

/** A column the import does not read, as the report names it. */
export function notKept(column: string): string {
  return TIME_TRACKING.test(column) ? `${column} (not kept: the tracker has no time tracking or work log)` : column;
}

/** A Jira day ("24/Dec/26 12:00 AM", "2026-12-24", "2026-12-24T00:00:00Z") as YYYY-MM-DD; anything else as it is, for the store to refuse. */
export function jiraDay(value: string): string {
  const day = value.slice(0, 10);
  if (DATE_PATTERN.test(day)) return day;
  const time = jiraTime(value);
  return time === value ? value : time.slice(0, 10);
}

const isNumber = (value: string): boolean => value !== '' && Number.isFinite(Number(value.replace(',', '.')));
const isDay = (value: string): boolean => DATE_PATTERN.test(jiraDay(value));

/** Each custom column's type, from every value the rows hold in it. */
export function fileFields(rows: readonly JiraRow[], customColumns: readonly string[]): FileFields {
  const custom = new Map<string, FieldType>();
  const mapped: string[] = [];
  const notRead: string[] = [];
  for (const name of customColumns) {
    const header = `Custom field (${name})`;
    if (!FIELD_NAME_PATTERN.test(name) || RESERVED_FIELD_NAMES.has(name.toLowerCase())) {
      notRead.push(`${header}: "${name}" cannot name a custom field (a built-in field's name, or quotes or commas)`);
      continue;
    }
    const perRow = rows.map((row) => row.custom(name).filter((value) => value !== ''));
    const values = perRow.flat();
    const distinct = new Set(values.map((value) => value.toLowerCase()));
    const options = values.every((value) => FIELD_NAME_PATTERN.test(value)) && distinct.size <= SELECT_OPTIONS_MAX;
    const type: FieldType =
      rows[0] !== undefined && rows[0].custom(name).length > 1
        ? 'multiselect'
        : values.length > 0 && values.every(isNumber)
          ? 'number'
          : values.length > 0 && values.every(isDay)
            ? 'date'
            : options && values.length > distinct.size
              ? 'select'
              : 'text';
    custom.set(name, type);
    mapped.push(`${header} → "${name}", a ${type} field`);
  }
  return { custom, mapped, notRead };
}

/** A row's values of its fields, as update_issue takes them (null: none). */
export function rowFields(row: JiraRow, file: FileFields): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const due = row.cell(COLUMN.dueDate);
  if (due !== '') fields.due = jiraDay(due);
  const components = row.cells(COLUMN.components).filter((value) => value !== '');
  if (components.length > 0) fields.components = components;
  const versions = row.cells(COLUMN.fixVersions).filter((value) => value !== '');
  if (versions.length > 0) fields.fix_versions = versions;
  for (const [name, type] of file.custom) {
    const values = row.custom(name).filter((value) => value !== '');
    if (values.length === 0) continue;
    const first = values[0] as string;
    fields[name] =
      type === 'multiselect'
        ? values
        : type === 'number'
          ? Number(first.replace(',', '.'))
          : type === 'date'
            ? jiraDay(first)
            : first;
  }
  return fields;
}

/**
 * The project's definition grown by what its rows hold: the components, versions and options
 * they name added (as valid names go, and within the limits), each new custom column a field;
 * null when nothing needs adding.
 */
export function grownDefinition(
  current: ProjectFields,
  rows: readonly JiraRow[],
  file: FileFields,
): { components: string[]; versions: string[]; custom: { name: string; type: string; options?: string[] }[] } | null {
  const added = (known: readonly string[], values: readonly string[]): string[] => {
    const all = [...known];
    for (const value of values) {
      const fits = FIELD_NAME_PATTERN.test(value) && all.length < LIMITS.fieldOptionsMax;
      if (fits && !all.some((one) => one.toLowerCase() === value.toLowerCase())) all.push(value);
    }
    return all;
  };
  const nonEmpty = (values: string[]): string[] => values.filter((value) => value !== '');
  const components = added(current.components, nonEmpty(rows.flatMap((row) => row.cells(COLUMN.components))));
  const versions = added(current.versions, nonEmpty(rows.flatMap((row) => row.cells(COLUMN.fixVersions))));
  const custom = current.custom.map((field) => ({
    ...field,
    options: field.options === undefined ? undefined : [...field.options],
  }));
  for (const [name, type] of file.custom) {
    const values = nonEmpty(rows.flatMap((row) => row.custom(name)));
    if (values.length === 0) continue;
    const known = custom.find((field) => field.name.toLowerCase() === name.toLowerCase());
    if (known === undefined) {
      if (custom.length >= LIMITS.customFieldsMax) continue;
      const select = type === 'select' || type === 'multiselect';
      custom.push({ name, type, options: select ? added([], values) : undefined });
    } else if (known.options !== undefined) known.options = added(known.options, values);
  }
  const grown = {
    components,
    versions,
    custom: custom.map(({ options, ...field }) => (options === undefined ? field : { ...field, options })),
  };
  const same =
    components.length === current.components.length &&
    versions.length === current.versions.length &&
    JSON.stringify(grown.custom) === JSON.stringify(current.custom);
  return same ? null : grown;
}
