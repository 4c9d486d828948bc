import type { Expr, MapProjItem, Pattern } from "./ast.ts";
import { type Cursor, REFUSED_CLAUSES } from "./cursor.ts";
import { AGGREGATIONS, ALLOWED_FUNCTIONS } from "./functions.ts";
import { checkReduceGrowth } from "./reduce-growth.ts";
import { refuse } from "./refusal.ts";
import { unsafeRegexReason } from "./safe-regex.ts";

const COMPARISONS = new Set(["=", "<>", "<", ">", "<=", ">="]);
const PARAM_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]{0,99}|\d{1,4})$/;

export function parseExpr(c: Cursor): Expr {
  c.enter();
  let l = parseXor(c);
  while (c.acceptKw("or")) l = { k: "bin", op: "OR", l, r: parseXor(c) };
  c.leave();
  return l;
}

function parseXor(c: Cursor): Expr {
  let l = parseAnd(c);
  while (c.acceptKw("xor")) l = { k: "bin", op: "XOR", l, r: parseAnd(c) };
  return l;
}

function parseAnd(c: Cursor): Expr {
  let l = parseNot(c);
  while (c.acceptKw("and")) l = { k: "bin", op: "AND", l, r: parseNot(c) };
  return l;
}

function parseNot(c: Cursor): Expr {
  if (c.acceptKw("not")) {
    c.enter();
    const e: Expr = { k: "unary", op: "NOT", e: parseNot(c) };
    c.leave();
    return e;
  }
  return parseComparison(c);
}

/** a < b < c means a < b AND b < c. */
function parseComparison(c: Cursor): Expr {
  let l = parsePredicate(c);
  let result: Expr | undefined;
  for (;;) {
    const t = c.peek();
    if (t.t !== "sym" || !(COMPARISONS.has(t.v) || t.v === "=~")) break;
    c.next();
    const at = c.peek().pos;
    const r = parsePredicate(c);
    if (t.v === "=~") checkRegexOperand(c, r, at);
    const cmp: Expr = { k: "bin", op: t.v, l, r };
    result = result ? { k: "bin", op: "AND", l: result, r: cmp } : cmp;
    l = r;
  }
  return result ?? l;
}

/**
 * The pattern of `=~` is a string literal, checked here, or a parameter, whose value is checked before the query
 * runs (Cursor.regexParameters): a pattern computed inside the query could not be checked before Neo4j runs it.
 */
function checkRegexOperand(c: Cursor, r: Expr, at: number): void {
  if (r.k === "param") {
    c.regexParameters.add(r.name);
    return;
  }
  if (r.k !== "str")
    refuse("the pattern of =~ must be a string literal or a parameter (so that explore can check it first)", at);
  const reason = unsafeRegexReason(r.value);
  if (reason) refuse(`the pattern of =~ ${reason}`, at);
}

function parsePredicate(c: Cursor): Expr {
  let l = parseAdditive(c);
  for (;;) {
    if (c.isKw("starts") && c.isKw("with", 1)) {
      c.next();
      c.next();
      l = { k: "bin", op: "STARTS WITH", l, r: parseAdditive(c) };
    } else if (c.isKw("ends") && c.isKw("with", 1)) {
      c.next();
      c.next();
      l = { k: "bin", op: "ENDS WITH", l, r: parseAdditive(c) };
    } else if (c.acceptKw("contains")) {
      l = { k: "bin", op: "CONTAINS", l, r: parseAdditive(c) };
    } else if (c.acceptKw("in")) {
      l = { k: "bin", op: "IN", l, r: parseAdditive(c) };
    } else if (c.acceptKw("is")) {
      const not = c.acceptKw("not");
      if (!c.acceptKw("null")) refuse("only IS NULL and IS NOT NULL are supported after IS", c.peek().pos);
      l = { k: "isNull", e: l, not };
    } else {
      return l;
    }
  }
}

function parseAdditive(c: Cursor): Expr {
  let l = parseMultiplicative(c);
  for (;;) {
    const op = c.isSym("+") ? "+" : c.isSym("-") ? "-" : c.isSym("||") ? "||" : undefined;
    if (!op) return l;
    c.next();
    l = { k: "bin", op, l, r: parseMultiplicative(c) };
  }
}

function parseMultiplicative(c: Cursor): Expr {
  let l = parsePower(c);
  for (;;) {
    const op = c.isSym("*") ? "*" : c.isSym("/") ? "/" : c.isSym("%") ? "%" : undefined;
    if (!op) return l;
    c.next();
    l = { k: "bin", op, l, r: parsePower(c) };
  }
}

function parsePower(c: Cursor): Expr {
  let l = parseUnary(c);
  while (c.acceptSym("^")) l = { k: "bin", op: "^", l, r: parseUnary(c) };
  return l;
}

function parseUnary(c: Cursor): Expr {
  if (c.isSym("-") || c.isSym("+")) {
    const op = c.next().v as "-" | "+";
    c.enter();
    const e: Expr = { k: "unary", op, e: parseUnary(c) };
    c.leave();
    return e;
  }
  return parsePostfix(c);
}

function parsePostfix(c: Cursor): Expr {
  let e = parseAtom(c);
  for (;;) {
    if (c.acceptSym(".")) {
      e = { k: "prop", obj: e, key: c.key() };
    } else if (c.acceptSym("[")) {
      if (c.acceptSym("..")) {
        e = { k: "slice", obj: e, to: c.isSym("]") ? undefined : parseExpr(c) };
      } else {
        const index = parseExpr(c);
        if (c.acceptSym("..")) e = { k: "slice", obj: e, from: index, to: c.isSym("]") ? undefined : parseExpr(c) };
        else e = { k: "index", obj: e, index };
      }
      c.expectSym("]");
    } else if (e.k === "var" && c.isSym(":")) {
      c.next();
      e = { k: "labelTest", obj: e, labels: c.clauses.parseLabelExpr(c, true) };
    } else {
      return e;
    }
  }
}

function parseAtom(c: Cursor): Expr {
  const t = c.peek();
  if (t.t === "number") return { k: "lit", text: c.next().v.replaceAll("_", "") };
  if (t.t === "string") return { k: "str", value: c.next().v };
  if (t.t === "param") {
    if (!PARAM_NAME.test(t.v)) refuse("parameter names must be letters, digits and underscores", t.pos);
    c.next();
    return { k: "param", name: t.v };
  }
  if (t.t === "sym") {
    if (t.v === "(") return parseParenthesized(c);
    if (t.v === "[") return parseBracket(c);
    if (t.v === "{") return parseMapLiteral(c);
    if (t.v === "$") refuse("dynamic expressions $(...) are not allowed", t.pos);
    c.fail("expected an expression");
  }
  if (t.t !== "ident") c.fail("expected an expression");
  const w = c.word();
  if (w === "true" || w === "false" || w === "null") return { k: "lit", text: c.next().v.toLowerCase() };
  if (w === "case") return parseCase(c);
  if ((w === "exists" || w === "count" || w === "collect") && c.isSym("{", 1))
    return parseSubquery(c, w.toUpperCase() as "EXISTS");
  if (w === "exists" && c.isSym("(", 1))
    refuse("exists(...) was removed in Neo4j 5: use IS NOT NULL or EXISTS { pattern }", t.pos);
  if (w === "count" && c.isSym("(", 1) && c.isSym("*", 2) && c.isSym(")", 3)) {
    c.i += 4;
    return { k: "countStar" };
  }
  if (
    (w === "all" || w === "any" || w === "none" || w === "single") &&
    c.isSym("(", 1) &&
    c.isName(2) &&
    c.isKw("in", 3)
  ) {
    c.next();
    c.next();
    const variable = c.name();
    c.expectKw("in");
    const source = parseExpr(c);
    c.expectKw("where");
    const where = parseExpr(c);
    c.expectSym(")");
    return { k: "quant", fn: w, variable, source, where };
  }
  if (w === "reduce" && c.isSym("(", 1)) return parseReduce(c);
  if ((w === "shortestpath" || w === "allshortestpaths") && c.isSym("(", 1))
    return { k: "pattern", pattern: c.clauses.parsePattern(c) };
  if (isFunctionCall(c)) return parseCall(c);
  if (c.isName() && c.isSym("{", 1)) return parseMapProjection(c);
  if (c.isName()) return { k: "var", name: c.next().v };
  return c.fail("expected an expression");
}

/** name(...) or a.b.name(...): a dotted name followed by a parenthesis. */
function isFunctionCall(c: Cursor): boolean {
  let j = 0;
  if (c.peek().t !== "ident") return false;
  while (c.isSym(".", j + 1) && c.peek(j + 2).t === "ident") j += 2;
  return c.isSym("(", j + 1);
}

function parseCall(c: Cursor): Expr {
  const start = c.peek().pos;
  let name = c.next().v;
  while (c.acceptSym(".")) name += `.${c.next().v}`;
  const lower = name.toLowerCase();
  if (!/^[A-Za-z][A-Za-z0-9_.]*$/.test(name) || !ALLOWED_FUNCTIONS.has(lower)) {
    refuse(`function ${name}() is not allowed in explore queries (only built-in Cypher functions are)`, start);
  }
  c.expectSym("(");
  const distinct = c.acceptKw("distinct");
  if (distinct && !AGGREGATIONS.has(lower))
    refuse(`DISTINCT is only allowed in aggregating functions, not in ${name}()`, start);
  const args: Expr[] = [];
  if (!c.isSym(")")) {
    do args.push(parseExpr(c));
    while (c.acceptSym(","));
  }
  c.expectSym(")");
  if (lower === "range") checkRange(c, args, start);
  return { k: "call", name, distinct, args };
}

/** Largest list one range() may build, and the largest product of all range() sizes in one query. */
export const RANGE_LIMIT = 10_000;
export const RANGE_PRODUCT_LIMIT = 1_000_000;

function integerLiteral(e: Expr | undefined): number | undefined {
  if (e?.k === "lit" && /^\d+$/.test(e.text)) return Number(e.text);
  if (e?.k === "unary" && e.op === "-") {
    const v = integerLiteral(e.e);
    return v === undefined ? undefined : -v;
  }
  return undefined;
}

/**
 * range() with literal bounds only, at most RANGE_LIMIT elements, and at most RANGE_PRODUCT_LIMIT together: Neo4j
 * checks its transaction timeout between rows, not inside an expression, so `reduce(s = '', x IN range(1, 5000000)
 * | s + 'a')` would keep the shared server busy long after the caller gave up.
 */
function checkRange(c: Cursor, args: Expr[], start: number): void {
  const from = integerLiteral(args[0]);
  const to = integerLiteral(args[1]);
  const step = args[2] === undefined ? 1 : integerLiteral(args[2]);
  if (from === undefined || to === undefined || step === undefined || step === 0) {
    refuse("range() needs integer literals as bounds and step in explore queries", start);
  }
  const size = Math.max(0, Math.floor((to - from) / step) + 1);
  if (size > RANGE_LIMIT) {
    refuse(`range() may build at most ${RANGE_LIMIT} values in explore queries (this one builds ${size})`, start);
  }
  c.rangeProduct *= Math.max(1, size);
  if (c.rangeProduct > RANGE_PRODUCT_LIMIT) {
    refuse(`the range() lists of one explore query may hold at most ${RANGE_PRODUCT_LIMIT} values together`, start);
  }
}

/** ( expr ) or a pattern predicate such as (a)-[:SERVING]->(b). */
function parseParenthesized(c: Cursor): Expr {
  const pattern = tryPattern(c);
  if (pattern) return { k: "pattern", pattern };
  c.expectSym("(");
  const e = parseExpr(c);
  c.expectSym(")");
  return e;
}

/** A chain with at least one relationship at the cursor, or undefined with the cursor unmoved. */
function tryPattern(c: Cursor, allowVariable = false): Pattern | undefined {
  const at = c.i;
  try {
    let variable: string | undefined;
    if (allowVariable && c.isName() && c.isSym("=", 1)) {
      variable = c.name();
      c.next();
    }
    if (!c.isSym("(")) throw new Error("not a pattern");
    const chain = c.clauses.parseChain(c);
    if (chain.length < 3) throw new Error("not a pattern");
    return { variable, chain };
  } catch {
    c.i = at;
    return undefined;
  }
}

function parseBracket(c: Cursor): Expr {
  c.expectSym("[");
  const pattern = tryPattern(c, true);
  if (pattern) {
    const where = c.acceptKw("where") ? parseExpr(c) : undefined;
    c.expectSym("|");
    const proj = parseExpr(c);
    c.expectSym("]");
    const { variable, ...rest } = pattern;
    return { k: "patternComp", variable, pattern: rest, where, proj };
  }
  if (c.isName() && c.isKw("in", 1)) {
    const variable = c.name();
    c.next();
    const source = parseExpr(c);
    const where = c.acceptKw("where") ? parseExpr(c) : undefined;
    const proj = c.acceptSym("|") ? parseExpr(c) : undefined;
    c.expectSym("]");
    return { k: "listComp", variable, source, where, proj };
  }
  const items: Expr[] = [];
  if (!c.isSym("]")) {
    do items.push(parseExpr(c));
    while (c.acceptSym(","));
  }
  c.expectSym("]");
  return { k: "list", items };
}

export function parseMapLiteral(c: Cursor): Expr {
  c.expectSym("{");
  const entries: [string, Expr][] = [];
  if (!c.isSym("}")) {
    do {
      const key = c.key();
      c.expectSym(":");
      entries.push([key, parseExpr(c)]);
    } while (c.acceptSym(","));
  }
  c.expectSym("}");
  return { k: "map", entries };
}

function parseMapProjection(c: Cursor): Expr {
  const variable = c.name();
  c.expectSym("{");
  const items: MapProjItem[] = [];
  if (!c.isSym("}")) {
    do {
      if (c.acceptSym(".")) {
        if (c.acceptSym("*")) items.push({ t: "all" });
        else items.push({ t: "prop", key: c.key() });
      } else if (c.peek().t === "ident" && c.isSym(":", 1)) {
        const key = c.key();
        c.next();
        items.push({ t: "entry", key, expr: parseExpr(c) });
      } else {
        items.push({ t: "var", name: c.name() });
      }
    } while (c.acceptSym(","));
  }
  c.expectSym("}");
  return { k: "mapProj", variable, items };
}

function parseCase(c: Cursor): Expr {
  c.next();
  const subject = c.isKw("when") ? undefined : parseExpr(c);
  const whens: [Expr, Expr][] = [];
  while (c.acceptKw("when")) {
    const when = parseExpr(c);
    c.expectKw("then");
    whens.push([when, parseExpr(c)]);
  }
  if (whens.length === 0) c.fail("expected WHEN");
  const otherwise = c.acceptKw("else") ? parseExpr(c) : undefined;
  c.expectKw("end");
  return { k: "case", subject, whens, otherwise };
}

function parseReduce(c: Cursor): Expr {
  const start = c.next().pos;
  c.expectSym("(");
  const acc = c.name();
  c.expectSym("=");
  const init = parseExpr(c);
  c.expectSym(",");
  const variable = c.name();
  c.expectKw("in");
  const source = parseExpr(c);
  c.expectSym("|");
  const body = parseExpr(c);
  c.expectSym(")");
  const reduce = { k: "reduce", acc, init, variable, source, body } as const;
  checkReduceGrowth(reduce, start);
  return reduce;
}

const QUERY_START = new Set(["match", "optional", "with", "unwind", "return"]);

function parseSubquery(c: Cursor, fn: "EXISTS" | "COUNT" | "COLLECT"): Expr {
  c.next();
  c.expectSym("{");
  c.enter();
  let result: Expr;
  const w = c.word();
  if (fn === "COLLECT" || (w !== undefined && QUERY_START.has(w))) {
    result = { k: "subquery", fn, query: c.clauses.parseQuery(c, fn === "COLLECT") };
  } else {
    const patterns = [c.clauses.parsePattern(c)];
    while (c.acceptSym(",")) patterns.push(c.clauses.parsePattern(c));
    result = { k: "subquery", fn, patterns, where: c.acceptKw("where") ? parseExpr(c) : undefined };
  }
  const after = c.word();
  if (after !== undefined && Object.hasOwn(REFUSED_CLAUSES, after))
    refuse(REFUSED_CLAUSES[after] ?? `${after} is not allowed`, c.peek().pos);
  c.expectSym("}");
  c.leave();
  return result;
}
