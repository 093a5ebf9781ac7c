// The parser of the query language: tokens in, the typed tree of ast.ts out. Recursive
// descent, one function per rule of the grammar, lowest precedence first:
//
//   query      := [or] [ORDER BY sortKey {"," sortKey}]
//   or         := and {OR and}
//   and        := not {AND not}
//   not        := NOT not | primary
//   primary    := "(" or ")" | clause
//   clause     := field compareOp value
//               | field [NOT] IN ( "(" value {"," value} ")" | function )
//               | field IS [NOT] (EMPTY | NULL) | field (= | !=) (EMPTY | NULL)
//   value      := word | string | function
//   function   := word "(" [argument {"," argument}] ")"      argument := word | string
//   sortKey    := orderField [ASC | DESC]
//
// A field is one of ours or Jira's name for it (issuetype is type), case-insensitive, bare or
// quoted; a Jira field we do not have is answered with what to write instead (jira-words.ts).
//
// Keywords are case-insensitive words; a quoted string is always a value, so "AND" can be
// searched for. Every error names what was expected, the column of what was found, and what that was.
import {
  COMPARE_OPERATORS,
  FIELD_ALIASES,
  FIELDS,
  FUNCTION_ARGUMENTS,
  FUNCTIONS,
  KEYWORDS,
  ORDER_FIELDS,
  type Clause,
  type CompareOperator,
  type Expression,
  type ClauseField,
  type Field,
  type FunctionName,
  type Literal,
  type OrderField,
  type Query,
  type SortKey,
  type Value,
} from './ast.js';
import type { DomainError } from '../../model/errors.js';
import { jqlError } from './errors.js';
import { jiraFieldHelp, jiraFunctionHelp } from './jira-words.js';
import { tokenize, type Token } from './tokens.js';

export const JQL_LIMITS = {
  /** Characters in one query: far more than a person or a model writes, and it bounds the work of all below. */
  queryMax: 2_000,
  /** Parentheses and NOTs inside each other: bounds the parser's recursion and the evaluator's. */
  depthMax: 32,
  /** Values in one IN list. */
  listMax: 100,
} as const;

export function parseQuery(text: unknown): Query {
  if (typeof text !== 'string') throw jqlError('The query must be a string', 1);
  if (text.length > JQL_LIMITS.queryMax) {
    throw jqlError(`The query is ${text.length} characters long; the limit is ${JQL_LIMITS.queryMax}`, JQL_LIMITS.queryMax + 1);
  }
  return new Parser(tokenize(text)).query();
}

class Parser {
  private at = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  query(): Query {
    const where = this.isKeyword('ORDER') || this.peek().kind === 'end' ? null : this.or();
    const orderBy = this.isKeyword('ORDER') ? this.orderBy() : [];
    const next = this.peek();
    if (next.kind !== 'end') {
      const wanted = orderBy.length > 0 ? "',', ASC, DESC or the end of the query" : 'AND, OR, ORDER BY or the end of the query';
      throw jqlError(`Unexpected ${describe(next)}`, next.column, `Expected ${wanted}.`);
    }
    return { where, orderBy };
  }

  private or(): Expression {
    const operands = [this.and()];
    while (this.isKeyword('OR')) {
      this.take();
      operands.push(this.and());
    }
    return operands.length === 1 ? (operands[0] as Expression) : { kind: 'or', operands };
  }

  private and(): Expression {
    const operands = [this.not()];
    while (this.isKeyword('AND')) {
      this.take();
      operands.push(this.not());
    }
    return operands.length === 1 ? (operands[0] as Expression) : { kind: 'and', operands };
  }

  private not(): Expression {
    if (!this.isKeyword('NOT')) return this.primary();
    const column = this.take().column;
    return { kind: 'not', operand: this.nested(column, () => this.not()), column };
  }

  private primary(): Expression {
    if (!this.isPunct('(')) return this.clause();
    const open = this.take();
    const inner = this.nested(open.column, () => this.or());
    this.expectPunct(')', `to close the '(' at column ${open.column}`);
    return inner;
  }

  /** Runs a rule one level deeper, refusing to go past the depth limit. */
  private nested(column: number, rule: () => Expression): Expression {
    if (this.depth >= JQL_LIMITS.depthMax) {
      throw jqlError(`The query nests deeper than ${JQL_LIMITS.depthMax} parentheses or NOTs`, column);
    }
    this.depth += 1;
    try {
      return rule();
    } finally {
      this.depth -= 1;
    }
  }

  private clause(): Clause {
    const token = this.peek();
    const field = this.field(token);
    this.take();
    const next = this.peek();
    if (next.kind === 'op') {
      const op = this.take().text as CompareOperator;
      // Jira's spelling of IS EMPTY, `assignee = EMPTY`, means the same and is parsed as it.
      if ((op === '=' || op === '!=') && (this.isKeyword('EMPTY') || this.isKeyword('NULL'))) {
        this.take();
        return { kind: 'empty', field, negated: op === '!=', column: token.column };
      }
      return { kind: 'compare', field, op, value: this.value(`after '${op}'`), column: token.column };
    }
    if (this.isKeyword('IN')) {
      this.take();
      return { kind: 'in', field, negated: false, values: this.list(), column: token.column };
    }
    if (this.isKeyword('NOT')) {
      this.take();
      if (!this.isKeyword('IN')) throw expected(`IN after NOT`, this.peek());
      this.take();
      return { kind: 'in', field, negated: true, values: this.list(), column: token.column };
    }
    if (this.isKeyword('IS')) {
      this.take();
      const negated = this.isKeyword('NOT');
      if (negated) this.take();
      if (!this.isKeyword('EMPTY') && !this.isKeyword('NULL')) {
        throw expected(`EMPTY after IS${negated ? ' NOT' : ''}`, this.peek());
      }
      this.take();
      return { kind: 'empty', field, negated, column: token.column };
    }
    if (this.isKeyword('WAS') || this.isKeyword('CHANGED')) {
      throw jqlError(
        `${next.text.toUpperCase()} searches a field's history, which queries do not`,
        next.column,
        "Ask for the value now, or read an issue's history with get_issue.",
      );
    }
    const operators = [...COMPARE_OPERATORS, 'IN', 'NOT IN', 'IS EMPTY', 'IS NOT EMPTY'].join(', ');
    throw expected(`an operator after '${token.text}'`, next, `Operators: ${operators}.`);
  }

  private field(token: Token): ClauseField {
    if (token.kind !== 'word' && token.kind !== 'string') {
      const previous = this.tokens[this.at - 1];
      const where = previous === undefined ? '' : ` after ${describe(previous)}`;
      throw expected(`a field name${where}`, token, `Fields: ${FIELDS.join(', ')}.`);
    }
    const field = fieldNamed(token.text);
    if (field !== null) return field;
    // A quoted name is a custom field, as Jira writes it: only the store knows whether a project
    // defines it (jql/field-conditions.ts answers one that none does, with Jira's words for it).
    if (token.kind === 'string') return { custom: token.text.trim() };
    const fields = `Fields: ${FIELDS.join(', ')}.`;
    const jira = jiraFieldHelp(token.text);
    throw jqlError(`Unknown field '${token.text}'`, token.column, jira === null ? fields : `${jira} ${fields}`);
  }

  private value(after: string): Value {
    const token = this.peek();
    if (token.kind === 'string') {
      this.take();
      return { kind: 'literal', text: token.text, column: token.column };
    }
    if (token.kind !== 'word' || isKeyword(token.text)) {
      throw expected(`a value ${after}`, token);
    }
    this.take();
    if (!this.isPunct('(')) return { kind: 'literal', text: token.text, column: token.column };
    const name = FUNCTIONS.find((f) => f.toLowerCase() === token.text.toLowerCase());
    if (name === undefined) {
      const jira = jiraFunctionHelp(token.text);
      throw jqlError(
        `Unknown function '${token.text}()'`,
        token.column,
        `${jira === null ? '' : `${jira} `}Functions: ${FUNCTIONS.map((f) => `${f}()`).join(', ')}.`,
      );
    }
    const open = this.take();
    const args: Literal[] = [];
    if (!this.isPunct(')')) {
      args.push(this.argument(name));
      while (this.isPunct(',')) {
        this.take();
        args.push(this.argument(name));
      }
    }
    const [least, most] = FUNCTION_ARGUMENTS[name];
    if (args.length < least || args.length > most) {
      const wanted = most === 0 ? 'no arguments' : least === most ? `${least}` : `${least} to ${most} arguments`;
      throw jqlError(`${name}() takes ${wanted}, not ${args.length}`, token.column);
    }
    this.expectPunct(')', `to close ${name}( at column ${open.column}`);
    return { kind: 'function', name: name satisfies FunctionName, args, column: token.column };
  }

  /** One argument of a function: a word or a string, never a keyword or another call. */
  private argument(name: FunctionName): Literal {
    const token = this.peek();
    if (token.kind === 'string' || (token.kind === 'word' && !isKeyword(token.text))) {
      this.take();
      return { kind: 'literal', text: token.text, column: token.column };
    }
    throw expected(`an argument of ${name}()`, token);
  }

  private list(): Value[] {
    if (!this.isPunct('(')) return [this.value("after IN: a '(' list or a function")];
    const open = this.take();
    const values = [this.value(`after '('`)];
    while (this.isPunct(',')) {
      this.take();
      values.push(this.value("after ','"));
      if (values.length > JQL_LIMITS.listMax) {
        throw jqlError(`The list has more than ${JQL_LIMITS.listMax} values`, open.column);
      }
    }
    this.expectPunct(')', `to close the list at column ${open.column}`);
    return values;
  }

  private orderBy(): SortKey[] {
    this.take();
    if (!this.isKeyword('BY')) throw expected(`BY after ORDER`, this.peek());
    this.take();
    const keys = [this.sortKey()];
    while (this.isPunct(',')) {
      this.take();
      keys.push(this.sortKey());
    }
    return keys;
  }

  private sortKey(): SortKey {
    const token = this.peek();
    const named = token.kind === 'word' ? fieldNamed(token.text) : null;
    const field = ORDER_FIELDS.find((f) => f === named);
    if (field === undefined) {
      const jira = token.kind === 'word' ? jiraFieldHelp(token.text) : null;
      throw expected('a field to order by', token, `${jira === null ? '' : `${jira} `}Fields: ${ORDER_FIELDS.join(', ')}.`);
    }
    this.take();
    let direction: SortKey['direction'] = 'ASC';
    if (this.isKeyword('ASC') || this.isKeyword('DESC')) direction = this.take().text.toUpperCase() as SortKey['direction'];
    return { field: field satisfies OrderField, direction, column: token.column };
  }

  private peek(): Token {
    return this.tokens[this.at] as Token; // the last token is always `end`, never passed
  }

  private take(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.at += 1;
    return token;
  }

  private isKeyword(keyword: string): boolean {
    const token = this.peek();
    return token.kind === 'word' && token.text.toUpperCase() === keyword;
  }

  private isPunct(text: string): boolean {
    const token = this.peek();
    return token.kind === 'punct' && token.text === text;
  }

  private expectPunct(text: string, why: string): void {
    if (this.isPunct(text)) {
      this.take();
      return;
    }
    throw expected(`'${text}' ${why}`, this.peek());
  }
}

/** Our field of this name, or of the Jira name for it, in any case: null when there is none. */
function fieldNamed(text: string): Field | null {
  const lower = text.trim().toLowerCase();
  return FIELDS.find((f) => f.toLowerCase() === lower) ?? FIELD_ALIASES.get(lower) ?? null;
}

/** "Expected a value after '=' at column 18. Found the end of the query." */
function expected(what: string, found: Token, help?: string): DomainError {
  return jqlError(`Expected ${what}`, found.column, `Found ${describe(found)}.${help === undefined ? '' : ` ${help}`}`);
}

function isKeyword(word: string): boolean {
  const upper = word.toUpperCase();
  return KEYWORDS.some((keyword) => keyword === upper);
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the query';
  if (token.kind === 'string') return `the string "${token.text.length > 20 ? `${token.text.slice(0, 20)}…` : token.text}"`;
  return `'${token.text.length > 20 ? `${token.text.slice(0, 20)}…` : token.text}'`;
}
