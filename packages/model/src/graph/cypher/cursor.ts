import type { LabelExpr, Pattern, PatternPart, Query } from "./ast.ts";
import { refuse } from "./refusal.ts";
import type { Token } from "./tokenize.ts";

/** Words that never name a variable when written without backticks. */
export const RESERVED = new Set(
  `all and any as asc ascending by call case contains create delete desc descending detach distinct else end ends exists
  false foreach in is limit load match merge none not null offset on optional or order remove return set single skip
  starts then true union unwind use when where with xor yield count collect reduce shortestpath allshortestpaths show
  drop alter grant deny revoke terminate start stop explain profile cypher finish insert`
    .split(/\s+/)
    .filter(Boolean),
);

/** Clause keywords refused with a reason that names them. */
export const REFUSED_CLAUSES: Record<string, string> = {
  create: "CREATE writes to the graph; explore is read-only",
  merge: "MERGE writes to the graph; explore is read-only",
  set: "SET writes to the graph; explore is read-only",
  delete: "DELETE writes to the graph; explore is read-only",
  detach: "DETACH DELETE writes to the graph; explore is read-only",
  remove: "REMOVE writes to the graph; explore is read-only",
  foreach: "FOREACH is a write clause; explore is read-only",
  insert: "INSERT writes to the graph; explore is read-only",
  call: "CALL (procedures and subqueries) is not allowed in explore queries",
  load: "LOAD CSV is not allowed in explore queries",
  use: "USE (choosing a database or graph) is not allowed in explore queries",
  show: "SHOW commands are not allowed in explore queries",
  drop: "schema and administration commands are not allowed in explore queries",
  alter: "schema and administration commands are not allowed in explore queries",
  grant: "administration commands are not allowed in explore queries",
  deny: "administration commands are not allowed in explore queries",
  revoke: "administration commands are not allowed in explore queries",
  terminate: "administration commands are not allowed in explore queries",
  start: "administration commands are not allowed in explore queries",
  stop: "administration commands are not allowed in explore queries",
  enable: "administration commands are not allowed in explore queries",
  rename: "administration commands are not allowed in explore queries",
  explain: "EXPLAIN and PROFILE are not accepted; send the query itself",
  profile: "EXPLAIN and PROFILE are not accepted; send the query itself",
  cypher: "CYPHER options (version, planner, runtime) are not accepted",
  finish: "FINISH is not allowed; end the query with RETURN",
  yield: "YIELD belongs to procedure calls, which are not allowed",
};

/**
 * The clause-level parsers expressions call back into (subqueries, pattern predicates, label tests). parse.ts gives
 * them to the cursor, so the expression parser depends on this interface rather than on parse.ts.
 */
export type ClauseParsers = {
  parseQuery(c: Cursor, requireReturn: boolean): Query;
  parsePattern(c: Cursor): Pattern;
  parseChain(c: Cursor): PatternPart[];
  parseLabelExpr(c: Cursor, colonMeansAnd: boolean): LabelExpr;
};

export class Cursor {
  readonly tokens: Token[];
  readonly source: string;
  readonly clauses: ClauseParsers;
  i: number;
  /**
   * The product of the sizes of the range() lists the query builds so far: iteration over them may nest, and Neo4j
   * cannot interrupt an expression (a reduce() over a huge range runs on past any timeout), so it is bounded here.
   */
  rangeProduct = 1;
  /** Parameters used as the pattern of =~: their values are checked before the query runs. */
  regexParameters = new Set<string>();
  /** Tokens consumed, backtracking included: bounds the work a hostile query can cause. */
  steps: number;
  /** Nesting depth of expressions and subqueries, capped so a hostile query cannot exhaust the stack. */
  depth: number;
  constructor(tokens: Token[], source: string, clauses: ClauseParsers) {
    this.tokens = tokens;
    this.source = source;
    this.clauses = clauses;
    this.i = 0;
    this.steps = 0;
    this.depth = 0;
  }
  peek(ahead = 0): Token {
    return (
      this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)] ?? { t: "eof", v: "", pos: this.source.length }
    );
  }
  next(): Token {
    const t = this.peek();
    if (++this.steps > 50 * this.tokens.length + 1000) this.fail("the query is too complex to check");
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }
  /** The unquoted word at `ahead`, lower-cased, or undefined. */
  word(ahead = 0): string | undefined {
    const t = this.peek(ahead);
    return t.t === "ident" && !t.quoted ? t.v.toLowerCase() : undefined;
  }
  isKw(kw: string, ahead = 0): boolean {
    return this.word(ahead) === kw;
  }
  acceptKw(kw: string): boolean {
    if (!this.isKw(kw)) return false;
    this.next();
    return true;
  }
  expectKw(kw: string): void {
    if (!this.acceptKw(kw)) this.fail(`expected ${kw.toUpperCase()}`);
  }
  isSym(s: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.t === "sym" && t.v === s;
  }
  acceptSym(s: string): boolean {
    if (!this.isSym(s)) return false;
    this.next();
    return true;
  }
  expectSym(s: string): void {
    if (!this.acceptSym(s)) this.fail(`expected '${s}'`);
  }
  /** A name: a variable, alias or label. Reserved words need backticks. */
  isName(ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.t === "ident" && (t.quoted || !RESERVED.has(t.v.toLowerCase()));
  }
  name(what = "a name"): string {
    if (!this.isName()) this.fail(`expected ${what}`);
    return this.next().v;
  }
  /** A property or map key: any word, reserved or not. */
  key(): string {
    const t = this.peek();
    if (t.t !== "ident") this.fail("expected a property name");
    return this.next().v;
  }
  enter(): void {
    if (++this.depth > 60) this.fail("the query nests too deeply");
  }
  leave(): void {
    this.depth--;
  }
  fail(message: string): never {
    const t = this.peek();
    const near = t.t === "eof" ? "end of query" : `'${t.v.length > 30 ? `${t.v.slice(0, 30)}...` : t.v}'`;
    return refuse(`${message}, found ${near}`, t.pos);
  }
}
