/**
 * Regular expressions of name_pattern rules. They run in JavaScript's backtracking engine against element names, so
 * a pattern is accepted only when it cannot backtrack catastrophically:
 * - at most MAX_PATTERN_LENGTH characters;
 * - no repeated group (`*`, `+`, `{n,}`, `{n,m}` with m > 1) that itself contains a quantifier or an alternation:
 *   `(a+)+`, `(\w*)*`, `(a|aa)*` are the shapes of exponential backtracking (ReDoS); `[ab]*`, `(ab)+`, `(x|y)?` pass;
 * - no back-references (`\1`, `\k<name>`), which no linear engine can run either;
 * - it must compile (flag `u`).
 * Names are at most a few thousand characters, so an accepted pattern is polynomial in a short input.
 */
export const MAX_PATTERN_LENGTH = 200;

/** The problem with a pattern, or null when it is safe to run. */
export function unsafePattern(pattern: string): string | null {
  if (pattern.length === 0) return "is empty";
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `is ${pattern.length} characters long: at most ${MAX_PATTERN_LENGTH}`;
  }
  try {
    new RegExp(pattern, "u");
  } catch (err) {
    return `is not a valid regular expression (${(err as Error).message})`;
  }
  // Each open group: whether it holds a quantifier or an alternation so far.
  const stack: { quantified: boolean; alternation: boolean }[] = [{ quantified: false, alternation: false }];
  let i = 0;
  const top = () => stack[stack.length - 1] as { quantified: boolean; alternation: boolean };
  const repeatAt = (at: number): { repeats: boolean; length: number } | null => {
    const c = pattern[at];
    if (c === "*" || c === "+") return { repeats: true, length: 1 };
    if (c === "?") return { repeats: false, length: 1 };
    if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
      if (!m) return null;
      const repeats = m[2] !== undefined && (m[3] === "" || Number(m[3]) > 1);
      return { repeats: repeats || Number(m[1]) > 1, length: m[0].length };
    }
    return null;
  };
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9]/.test(next) || next === "k") return "uses a back-reference, which can take exponential time";
      i += 2;
    } else if (c === "[") {
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "(") {
      stack.push({ quantified: false, alternation: false });
      i++;
      // (?:, (?=, (?!, (?<=, (?<!, (?<name>: the prefix is not a quantifier
      const prefix = /^\?(:|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i));
      if (prefix) i += prefix[0].length;
    } else if (c === ")") {
      const group = stack.pop() ?? { quantified: false, alternation: false };
      i++;
      const q = repeatAt(i);
      if (q?.repeats && (group.quantified || group.alternation)) {
        return `repeats a group that ${group.quantified ? "itself repeats" : "has alternatives"} (a nested quantifier, like (a+)+ or (a|aa)*): it can take exponential time; use a character class or a single repetition instead`;
      }
      const outer = top();
      outer.quantified ||= group.quantified || q !== null;
      outer.alternation ||= group.alternation;
      if (q) i += q.length;
    } else if (c === "|") {
      top().alternation = true;
      i++;
    } else {
      const q = repeatAt(i);
      if (q) {
        top().quantified = true;
        i += q.length;
      } else i++;
    }
  }
  return null;
}
