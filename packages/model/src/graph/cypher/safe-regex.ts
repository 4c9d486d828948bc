/**
 * Which `=~` patterns explore lets Neo4j run. Java's regex engine backtracks, and Neo4j checks a transaction's time
 * limit between rows, never inside one match: `$s =~ "(.*a){12}"` kept both cores of the shared server busy for more
 * than a minute after the caller's timeout. So a pattern must be short and of a shape whose backtracking is bounded:
 * no quantifier inside a repeated part (star height 1), no back-references, a repeated group's alternatives told
 * apart by their first character, bounded counts, and few variable quantifiers (each one multiplies the work by the
 * subject's length at worst).
 */
export const REGEX_LIMITS = { length: 256, variableQuantifiers: 2, count: 1000 } as const;

/**
 * The longest string `=~` matches in explore: with two variable quantifiers the work grows with the square of the
 * subject's length (measured on the local Neo4j: 0.75 s for one worst-case match of 4,000 characters, 0.2 s at 2,048).
 */
export const REGEX_SUBJECT_LIMIT = 2048;
/** A pattern that never compiles (a back-reference to a group that does not exist), named so the error says why. */
export const SUBJECT_TOO_LONG = `\\k<subjectLongerThan${REGEX_SUBJECT_LIMIT}Characters>`;

/** Why the pattern is unsafe, or undefined when explore may run it. */
export function unsafeRegexReason(pattern: string): string | undefined {
  if (pattern.length > REGEX_LIMITS.length)
    return `is ${pattern.length} characters long; explore accepts patterns of at most ${REGEX_LIMITS.length}`;
  try {
    const p = new PatternReader(pattern);
    p.alternation();
    if (p.i < pattern.length) throw new Unsafe("has an unbalanced ')'");
    if (p.variable > REGEX_LIMITS.variableQuantifiers)
      throw new Unsafe(
        `has ${p.variable} variable quantifiers (*, +, ?, {n,m}); explore accepts at most ${REGEX_LIMITS.variableQuantifiers}`,
      );
    return undefined;
  } catch (err) {
    if (err instanceof Unsafe) return err.message;
    throw err;
  }
}

class Unsafe extends Error {}

/** What a parsed piece of the pattern is, as far as backtracking goes. */
type Piece = {
  /** Holds a variable quantifier (anything but an exact {n}). */
  variable: boolean;
  /** Holds any quantifier. */
  quantified: boolean;
  /** Alternatives of a group, each as literal text, or undefined when one of them is not plain literal text. */
  literalAlternatives?: string[] | undefined;
  /** The piece is plain literal text (for a group's alternatives). */
  literal?: string | undefined;
};

const SIMPLE_ESCAPES = new Set("dDwWsShHvVRXbBAzZGtnrfae".split(""));

class PatternReader {
  i = 0;
  variable = 0;
  readonly s: string;
  constructor(pattern: string) {
    this.s = pattern;
  }

  /** a|b|c: the alternatives of the whole pattern or of one group. */
  alternation(): Piece & { alternatives: (string | undefined)[] } {
    const alternatives: (string | undefined)[] = [];
    let variable = false;
    let quantified = false;
    for (;;) {
      const seq = this.sequence();
      alternatives.push(seq.literal);
      variable ||= seq.variable;
      quantified ||= seq.quantified;
      if (this.s[this.i] !== "|") break;
      this.i++;
    }
    const literalAlternatives = alternatives.every((a) => a !== undefined) ? (alternatives as string[]) : undefined;
    return { variable, quantified, literalAlternatives, alternatives };
  }

  private sequence(): Piece {
    let variable = false;
    let quantified = false;
    let literal: string | undefined = "";
    while (this.i < this.s.length && this.s[this.i] !== "|" && this.s[this.i] !== ")") {
      const atom = this.atom();
      const q = this.quantifier();
      if (q) {
        if (q.variable) this.variable++;
        if (atom.variable || (atom.quantified && q.variable))
          throw new Unsafe(
            "repeats a part that holds a quantifier itself (nested quantifiers backtrack exponentially)",
          );
        const alts = atom.literalAlternatives;
        if (alts && alts.length > 1 && !distinctFirstCharacters(alts))
          throw new Unsafe(
            "repeats a group whose alternatives can start with the same character (they backtrack exponentially); " +
              "give each alternative a different first character or use a character class",
          );
        if (!alts && atom.literal === undefined && atom.alternation)
          throw new Unsafe(
            "repeats a group whose alternatives are not plain text (they may overlap and backtrack exponentially)",
          );
        variable ||= q.variable;
        quantified = true;
        literal = undefined;
      } else {
        variable ||= atom.variable;
        quantified ||= atom.quantified;
        literal = literal !== undefined && atom.literal !== undefined ? literal + atom.literal : undefined;
      }
    }
    return { variable, quantified, literal };
  }

  private atom(): Piece & { alternation?: boolean } {
    const ch = this.s[this.i++] as string;
    if (ch === "\\") return this.escape();
    if (ch === "[") return this.characterClass();
    if (ch === "(") return this.group();
    if ("*+?{".includes(ch)) throw new Unsafe(`has a quantifier '${ch}' with nothing before it to repeat`);
    if (ch === "." || ch === "^" || ch === "$") return { variable: false, quantified: false };
    return { variable: false, quantified: false, literal: ch };
  }

  private escape(): Piece {
    const ch = this.s[this.i++];
    if (ch === undefined) throw new Unsafe("ends with a lone backslash");
    if (/[1-9]/.test(ch) || ch === "k") throw new Unsafe("uses a back-reference, which explore does not run");
    if (ch === "Q") {
      const end = this.s.indexOf("\\E", this.i);
      const text = this.s.slice(this.i, end < 0 ? undefined : end);
      this.i = end < 0 ? this.s.length : end + 2;
      return { variable: false, quantified: false, literal: text };
    }
    if (ch === "p" || ch === "P") {
      if (this.s[this.i] === "{") this.skipPast("}");
      else this.i++;
      return { variable: false, quantified: false };
    }
    if (ch === "x" && this.s[this.i] === "{") this.skipPast("}");
    else if (ch === "x") this.i += 2;
    else if (ch === "u") this.i += 4;
    else if (ch === "c") this.i += 1;
    else if (ch === "0") while (/[0-7]/.test(this.s[this.i] ?? "") && this.i < this.s.length) this.i++;
    if (SIMPLE_ESCAPES.has(ch) || "xuc0pP".includes(ch)) return { variable: false, quantified: false };
    return { variable: false, quantified: false, literal: ch };
  }

  private characterClass(): Piece {
    let depth = 1;
    if (this.s[this.i] === "^") this.i++;
    if (this.s[this.i] === "]") this.i++;
    while (this.i < this.s.length && depth > 0) {
      const ch = this.s[this.i++];
      if (ch === "\\") this.i++;
      else if (ch === "[") depth++;
      else if (ch === "]") depth--;
    }
    if (depth > 0) throw new Unsafe("has an unterminated character class '['");
    return { variable: false, quantified: false };
  }

  private group(): Piece & { alternation?: boolean } {
    if (this.s[this.i] === "?") {
      this.i++;
      const rest = this.s.slice(this.i);
      const prefix = /^(?:[:=!>]|<[=!]|<[A-Za-z][A-Za-z0-9]*>)/.exec(rest);
      if (prefix) this.i += prefix[0].length;
      else {
        const flags = /^([idmsuxU-]*)([:)])/.exec(rest);
        if (!flags) throw new Unsafe("has a '(?' construct explore does not know");
        if (flags[1]?.includes("x"))
          throw new Unsafe("uses the comments flag (?x), which explore does not accept (write the pattern without it)");
        this.i += flags[0].length;
        if (flags[2] === ")") return { variable: false, quantified: false, literal: "" };
      }
    }
    const inner = this.alternation();
    if (this.s[this.i] !== ")") throw new Unsafe("has an unclosed '('");
    this.i++;
    const alts = inner.literalAlternatives;
    return {
      variable: inner.variable,
      quantified: inner.quantified,
      literalAlternatives: alts,
      literal: alts?.length === 1 ? alts[0] : undefined,
      alternation: inner.alternatives.length > 1,
    };
  }

  /** * + ? {n} {n,} {n,m}, each optionally lazy (?) or possessive (+); undefined when none follows. */
  private quantifier(): { variable: boolean } | undefined {
    const ch = this.s[this.i];
    let variable: boolean;
    if (ch === "*" || ch === "+" || ch === "?") {
      this.i++;
      variable = true;
    } else if (ch === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.i));
      if (!m) throw new Unsafe("has a '{' that is not a repetition count {n}, {n,} or {n,m}");
      const low = Number(m[1]);
      const high = m[3] ? Number(m[3]) : low;
      if (Math.max(low, high) > REGEX_LIMITS.count)
        throw new Unsafe(`repeats a part more than ${REGEX_LIMITS.count} times`);
      this.i += m[0].length;
      variable = m[2] !== undefined;
    } else {
      return undefined;
    }
    if (this.s[this.i] === "?" || this.s[this.i] === "+") this.i++;
    return { variable };
  }

  private skipPast(end: string): void {
    const at = this.s.indexOf(end, this.i);
    if (at < 0) throw new Unsafe(`has an unterminated '${this.s[this.i]}'`);
    this.i = at + 1;
  }
}

function distinctFirstCharacters(alternatives: string[]): boolean {
  const firsts = alternatives.map((a) => a[0]?.toLowerCase());
  if (firsts.some((f) => f === undefined)) return false;
  return new Set(firsts).size === firsts.length;
}
