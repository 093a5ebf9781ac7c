// The printer: a query tree back to text, in one canonical spelling (keywords in capitals,
// values quoted only when they must be, parentheses only where the tree needs them). What it
// prints parses back to the same tree (a property test holds it to that), so a query can be
// shown to a person in the form the server understood it.
import { KEYWORDS, type Clause, type ClauseField, type Expression, type Query, type Value } from './ast.js';
import { isBareWord } from './tokens.js';

export function printQuery(query: Query): string {
  const where = query.where === null ? '' : printExpression(query.where);
  if (query.orderBy.length === 0) return where;
  const keys = query.orderBy.map((key) => (key.direction === 'DESC' ? `${key.field} DESC` : key.field)).join(', ');
  return `${where}${where === '' ? '' : ' '}ORDER BY ${keys}`;
}

export function printExpression(expression: Expression): string {
  switch (expression.kind) {
    case 'and':
      // An AND inside an AND, or an OR inside it, needs parentheses to stay one operand.
      return expression.operands
        .map((e) => (e.kind === 'and' || e.kind === 'or' ? `(${printExpression(e)})` : printExpression(e)))
        .join(' AND ');
    case 'or':
      return expression.operands.map((e) => (e.kind === 'or' ? `(${printExpression(e)})` : printExpression(e))).join(' OR ');
    case 'not': {
      const operand = expression.operand;
      const inner = printExpression(operand);
      return `NOT ${operand.kind === 'and' || operand.kind === 'or' ? `(${inner})` : inner}`;
    }
    default:
      return printClause(expression);
  }
}

function printClause(clause: Clause): string {
  switch (clause.kind) {
    case 'compare':
      return `${printField(clause.field)} ${clause.op} ${printValue(clause.value)}`;
    case 'in': {
      const only = clause.values[0];
      // One function call stands for a whole list: `sprint IN openSprints()`.
      const list =
        clause.values.length === 1 && only?.kind === 'function'
          ? printValue(only)
          : `(${clause.values.map(printValue).join(', ')})`;
      return `${printField(clause.field)} ${clause.negated ? 'NOT IN' : 'IN'} ${list}`;
    }
    case 'empty':
      return `${printField(clause.field)} IS ${clause.negated ? 'NOT ' : ''}EMPTY`;
  }
}

/** Our field by its name; a custom field always quoted, as the parser knows it. */
function printField(field: ClauseField): string {
  return typeof field === 'string' ? field : quoted(field.custom);
}

const quoted = (text: string): string => `"${text.replace(/["\\]/g, (char) => `\\${char}`)}"`;

export function printValue(value: Value): string {
  if (value.kind === 'function') return `${value.name}(${value.args.map(printValue).join(', ')})`;
  const upper = value.text.toUpperCase();
  if (isBareWord(value.text) && !KEYWORDS.some((keyword) => keyword === upper)) return value.text;
  return quoted(value.text);
}
