// An issue's fields beyond the built-in ones (issue 33): a due date, components, fix versions,
// and the custom fields its project defines (number, text, date, select, multi-select).
//
// An issue keeps them in one object, `fields`, by name: `due`, `components`, `fix_versions`,
// then each custom field under the name its project gave it. A project says which components
// and versions exist and which custom fields its issues may carry (ProjectFields); every write
// is checked against that here, and a refusal names the field and what it accepts. Names are
// matched whatever their case and kept as the project spells them; so are options.
import { domainError } from './errors.js';
import {
  DATE_PATTERN,
  FIELD_NAME_PATTERN,
  FIELD_TYPES,
  LIMITS,
  type FieldDefinition,
  type FieldType,
  type FieldValue,
  type IssueFieldValues,
  type ProjectFields,
} from './schema.js';

/** The fields every project has, by the name an issue keeps them under. */
export const BUILT_IN_FIELDS = ['due', 'components', 'fix_versions'] as const;
export type BuiltInField = (typeof BUILT_IN_FIELDS)[number];

/** Other spellings of the built-in fields a caller or a Jira export may use (lower case, spaces kept). */
const BUILT_IN_ALIASES: ReadonlyMap<string, BuiltInField> = new Map<string, BuiltInField>([
  ['due', 'due'],
  ['duedate', 'due'],
  ['due date', 'due'],
  ['due_date', 'due'],
  ['components', 'components'],
  ['component', 'components'],
  ['component/s', 'components'],
  ['fix_versions', 'fix_versions'],
  ['fixversions', 'fix_versions'],
  ['fixversion', 'fix_versions'],
  ['fix versions', 'fix_versions'],
  ['fix version', 'fix_versions'],
  ['fix version/s', 'fix_versions'],
]);

/**
 * Names a custom field may not take: the issue's own fields and JQL's names for them, so
 * `"Status" = x` can only ever mean the status (lib/tests/store-fields.test.ts holds JQL's fields to it).
 */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  ...BUILT_IN_ALIASES.keys(),
  ...['key', 'issue', 'issuekey', 'project', 'title', 'summary', 'description', 'type', 'issuetype', 'status'],
  ...['statuscategory', 'priority', 'assignee', 'reporter', 'story_points', 'sprint', 'labels', 'label', 'resolution'],
  ...['parent', 'comments', 'comment', 'created', 'createddate', 'updated', 'updateddate', 'text', 'fields'],
]);

/** The empty definition: a project that defined nothing. */
export const NO_PROJECT_FIELDS: ProjectFields = Object.freeze({ components: [], versions: [], custom: [] });

function invalid(message: string): never {
  throw domainError('invalid_argument', message);
}

const fold = (name: string): string => name.trim().toLowerCase();

/** What one field accepts, for the refusals. */
function accepts(type: FieldType | BuiltInField, options: readonly string[] = []): string {
  const listed = options.length === 0 ? 'none defined yet' : options.join(', ');
  switch (type) {
    case 'due':
    case 'date':
      return 'a day such as 2026-12-31';
    case 'number':
      return 'a number';
    case 'text':
      return `text of 1 to ${LIMITS.fieldTextMax} characters`;
    case 'select':
      return `one of: ${listed}`;
    case 'multiselect':
    case 'components':
    case 'fix_versions':
      return `a list of up to ${LIMITS.fieldValuesMax} of: ${listed}`;
  }
}

/** The fields a project's issues may carry, as a caller reads them: built-in ones first. */
export function describeProjectFields(project: string, definition: ProjectFields): string {
  const custom = definition.custom.map((field) => `"${field.name}" (${field.type})`);
  return `${project}'s fields: due, components, fix_versions${custom.length === 0 ? '' : `, ${custom.join(', ')}`}`;
}

/** The built-in field or the project's custom field a caller's name means, or null. */
function fieldNamed(definition: ProjectFields, name: string): BuiltInField | FieldDefinition | null {
  const folded = fold(name);
  return BUILT_IN_ALIASES.get(folded) ?? definition.custom.find((field) => fold(field.name) === folded) ?? null;
}

/** `value` as one of `options`, spelled as the project spells it. */
function option(field: string, value: unknown, options: readonly string[], type: FieldType | BuiltInField): string {
  const found = typeof value === 'string' ? options.find((o) => fold(o) === fold(value)) : undefined;
  if (found === undefined) invalid(`Invalid ${field} ${JSON.stringify(value)}: ${field} takes ${accepts(type, options)}.`);
  return found;
}

function list(field: string, value: unknown, options: readonly string[], type: FieldType | BuiltInField): readonly string[] {
  const items = Array.isArray(value) ? value : [value];
  const chosen = [...new Set(items.map((item) => option(field, item, options, type)))];
  if (chosen.length > LIMITS.fieldValuesMax)
    invalid(`${field} takes at most ${LIMITS.fieldValuesMax} values; got ${chosen.length}.`);
  return Object.freeze(chosen);
}

function day(field: string, value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (
    !DATE_PATTERN.test(text) ||
    Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ||
    new Date(text).toISOString().slice(0, 10) !== text
  )
    invalid(`Invalid ${field} ${JSON.stringify(value)}: ${field} takes ${accepts('date')}.`);
  return text;
}

/** One value checked against what its field accepts; null, '' and [] clear the field. */
function fieldValue(definition: ProjectFields, field: BuiltInField | FieldDefinition, value: unknown): FieldValue | null {
  if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) return null;
  if (typeof field === 'string') {
    if (field === 'due') return day('due', value);
    return list(field, value, field === 'components' ? definition.components : definition.versions, field);
  }
  const name = `"${field.name}"`;
  switch (field.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        invalid(`Invalid ${name} ${JSON.stringify(value)}: ${name} takes a number.`);
      return value;
    case 'text': {
      const text = typeof value === 'string' ? value.trim() : '';
      if (text.length === 0 || text.length > LIMITS.fieldTextMax)
        invalid(`Invalid ${name} ${JSON.stringify(value)}: ${name} takes ${accepts('text')}.`);
      return text;
    }
    case 'date':
      return day(name, value);
    case 'select':
      return option(name, value, field.options ?? [], 'select');
    case 'multiselect':
      return list(name, value, field.options ?? [], 'multiselect');
  }
}

/** The caller's `fields` argument: an object of names to values; its values are checked by applyFieldChanges. */
export function parseFieldsArgument(value: unknown): Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalid(`fields must be an object of field names to values, such as {"due": "2026-12-31", "components": ["api"]}.`);
  if (Object.keys(value).length > LIMITS.customFieldsMax + BUILT_IN_FIELDS.length)
    invalid(
      `fields names ${Object.keys(value).length} fields; a project has at most ${LIMITS.customFieldsMax + BUILT_IN_FIELDS.length}.`,
    );
  return value as Record<string, unknown>;
}

/**
 * An issue's fields after `changes` (null clears one), each checked against the project's
 * definition: in name order, without empty ones, undefined when none is left.
 */
export function applyFieldChanges(
  project: string,
  definition: ProjectFields,
  current: IssueFieldValues | undefined,
  changes: Readonly<Record<string, unknown>>,
): IssueFieldValues | undefined {
  const next: Record<string, FieldValue> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    const field = fieldNamed(definition, name);
    if (field === null) invalid(`Unknown field "${name}". ${describeProjectFields(project, definition)}.`);
    const key = typeof field === 'string' ? field : field.name;
    const checked = fieldValue(definition, field, value);
    if (checked === null) delete next[key];
    else next[key] = checked;
  }
  return sortedFields(next);
}

/** In name order (so two equal objects print the same JSON), frozen; undefined when empty. */
export function sortedFields(fields: Readonly<Record<string, FieldValue>>): IssueFieldValues | undefined {
  const names = Object.keys(fields).sort();
  if (names.length === 0) return undefined;
  return Object.freeze(Object.fromEntries(names.map((name) => [name, fields[name] as FieldValue])));
}

/** A name for a field, a component, a version or an option: trimmed, printable, no quotes or commas. */
function fieldName(what: string, value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!FIELD_NAME_PATTERN.test(name))
    invalid(
      `Invalid ${what} ${JSON.stringify(value)}: 1 to 60 characters, starting with a letter or digit, without quotes or commas.`,
    );
  return name;
}

function names(what: string, value: unknown, max: number): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) invalid(`${what}s must be a list of names, got ${JSON.stringify(value)}.`);
  const result: string[] = [];
  for (const item of value) {
    const name = fieldName(what, item);
    if (result.some((known) => fold(known) === fold(name))) invalid(`The ${what} "${name}" is named twice.`);
    result.push(name);
  }
  if (result.length > max) invalid(`A project has at most ${max} ${what}s; got ${result.length}.`);
  return result;
}

/** A definition as a caller writes it: `{components, versions, custom: [{name, type, options}]}`. */
export function parseProjectFields(value: unknown): ProjectFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalid(
      'A project\'s fields are an object: {"components": [...], "versions": [...], "custom": [{"name", "type", "options"}]}.',
    );
  const input = value as Record<string, unknown>;
  const custom = input.custom ?? [];
  if (!Array.isArray(custom))
    invalid('custom must be a list of fields, such as [{"name": "Story Type", "type": "select", "options": ["Research"]}].');
  if (custom.length > LIMITS.customFieldsMax)
    invalid(`A project has at most ${LIMITS.customFieldsMax} custom fields; got ${custom.length}.`);
  const fields: FieldDefinition[] = [];
  for (const item of custom) {
    const field = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const name = fieldName('custom field name', field.name);
    if (RESERVED_FIELD_NAMES.has(fold(name))) invalid(`"${name}" is a built-in field; give the custom field another name.`);
    if (fields.some((known) => fold(known.name) === fold(name))) invalid(`The custom field "${name}" is named twice.`);
    const type = FIELD_TYPES.find((t) => t === fold(String(field.type)).replace(/[\s_-]/g, ''));
    if (type === undefined) invalid(`Invalid type ${JSON.stringify(field.type)} of "${name}": one of ${FIELD_TYPES.join(', ')}.`);
    const select = type === 'select' || type === 'multiselect';
    if (!select && field.options !== undefined)
      invalid(`"${name}" is a ${type} field; only select and multiselect fields have options.`);
    fields.push(
      select ? { name, type, options: names(`option of "${name}"`, field.options, LIMITS.fieldOptionsMax) } : { name, type },
    );
  }
  return {
    components: names('component', input.components, LIMITS.fieldOptionsMax),
    versions: names('version', input.versions, LIMITS.fieldOptionsMax),
    custom: fields,
  };
}

/**
 * What an issue's fields hold that `definition` no longer allows, one phrase each
 * ("components: api", "\"Story Type\": Research"): a definition that would orphan a value is refused.
 */
export function valuesNotAllowed(definition: ProjectFields, fields: IssueFieldValues): string[] {
  const refused: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const field = fieldNamed(definition, name);
    const shown = `${typeof field === 'string' ? name : `"${name}"`}: ${Array.isArray(value) ? value.join(', ') : value}`;
    try {
      if (field === null || JSON.stringify(fieldValue(definition, field, value)) !== JSON.stringify(value)) refused.push(shown);
    } catch {
      refused.push(shown);
    }
  }
  return refused;
}

/** The definition of the custom field an issue keeps under `name`, if its project has one. */
export function customField(definition: ProjectFields, name: string): FieldDefinition | undefined {
  return definition.custom.find((field) => field.name === name);
}
