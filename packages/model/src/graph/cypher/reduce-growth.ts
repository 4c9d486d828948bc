import type { Expr } from "./ast.ts";
import { refuse } from "./refusal.ts";

/**
 * Refuses a reduce() whose accumulator can grow faster than linearly: `reduce(s = 'a', x IN range(1, 40) | s + s)`
 * doubles a string forty times inside one expression, which Neo4j neither interrupts at its time limit nor counts
 * against its memory limit until far too late. Allowed: bodies that use the accumulator at most once as a value
 * (`s + x`, `s + [x]`, `CASE WHEN ... THEN s + x ELSE s END`, `[y IN s | y + 1]`), or only inside values of bounded
 * size (`size(s)`, comparisons, arithmetic).
 */
export function checkReduceGrowth(e: Extract<Expr, { k: "reduce" }>, pos: number): void {
  const copies = valueCopies(e.body, new Set([e.acc]));
  if (copies > 1)
    refuse(
      `reduce() may use its accumulator '${e.acc}' at most once in the value it builds (using it twice, ` +
        "in replace() or in a list built per element makes it grow exponentially)",
      pos,
    );
}

const TOO_MANY = 2;

/** Functions whose result is never larger than their arguments together (or a scalar built from them). */
const NON_GROWING = new Set(
  `left right substring trim ltrim rtrim btrim tolower toupper lower upper reverse head last tail split normalize
  tostring tostringornull tostringlist tofloatlist tointegerlist tobooleanlist coalesce keys properties nodes
  relationships startnode endnode nullif`.split(/\s+/),
);

/**
 * How many copies of a tainted value (the accumulator, or a variable drawn from it) `e` can hold; TOO_MANY stands
 * for "unbounded". Values of bounded size (numbers, booleans, sizes) hold none.
 */
function valueCopies(e: Expr, tainted: Set<string>): number {
  const sum = (parts: (Expr | undefined)[]) =>
    Math.min(
      TOO_MANY,
      parts.reduce((n, p) => n + (p ? valueCopies(p, tainted) : 0), 0),
    );
  switch (e.k) {
    case "var":
      return tainted.has(e.name) ? 1 : 0;
    case "lit":
    case "str":
    case "param":
    case "countStar":
    case "labelTest":
    case "isNull":
    case "quant":
      return 0;
    case "unary":
      return 0;
    case "bin":
      return e.op === "+" || e.op === "||" ? sum([e.l, e.r]) : 0;
    case "prop":
    case "index":
    case "slice":
      return valueCopies(e.obj, tainted);
    case "list":
      return sum(e.items);
    case "map":
      return sum(e.entries.map(([, v]) => v));
    case "mapProj":
      return sum([
        { k: "var", name: e.variable },
        ...e.items.map((i): Expr | undefined =>
          i.t === "entry" ? i.expr : i.t === "var" ? { k: "var", name: i.name } : undefined,
        ),
      ]);
    case "case":
      return Math.max(
        0,
        ...e.whens.map(([, then]) => valueCopies(then, tainted)),
        e.otherwise ? valueCopies(e.otherwise, tainted) : 0,
      );
    case "call": {
      const lower = e.name.toLowerCase();
      // left(s + s, 100): cut to a literal length, whatever it was built from.
      const cut = lower === "left" || lower === "right" ? e.args[1] : lower === "substring" ? e.args[2] : undefined;
      if (cut?.k === "lit") return 0;
      if (NON_GROWING.has(lower)) return sum(e.args);
      // replace(s, x, s) or replace(s, 'a', 'aa') multiply the text; other functions answer scalars.
      if (lower === "replace") return e.args.some((a) => mentions(a, tainted)) ? TOO_MANY : 0;
      return 0;
    }
    case "listComp": {
      const fromTainted = valueCopies(e.source, tainted);
      const inner = new Set(tainted);
      if (fromTainted > 0) inner.add(e.variable);
      else inner.delete(e.variable);
      if (!e.proj) return fromTainted;
      // A projection that reads the accumulator (not the element) repeats it once per element.
      const outer = new Set(tainted);
      outer.delete(e.variable);
      if (mentions(e.proj, outer)) return TOO_MANY;
      return fromTainted === 0 ? 0 : Math.min(TOO_MANY, fromTainted * valueCopies(e.proj, inner));
    }
    default:
      // reduce, pattern comprehensions and subqueries: refused when they read the accumulator at all.
      return mentions(e, tainted) ? TOO_MANY : 0;
  }
}

/** Whether `e` reads any of `names` anywhere (conservatively: shadowing is ignored). */
function mentions(e: unknown, names: Set<string>): boolean {
  if (e === null || typeof e !== "object") return false;
  if (Array.isArray(e)) return e.some((x) => mentions(x, names));
  const o = e as Record<string, unknown>;
  if (o.k === "var" && typeof o.name === "string") return names.has(o.name);
  if (o.t === "var" && typeof o.name === "string" && names.has(o.name)) return true;
  if (o.k === "mapProj" && typeof o.variable === "string" && names.has(o.variable)) return true;
  return Object.values(o).some((v) => mentions(v, names));
}
