import { describe, expect, test } from "vitest";
import { parseReadQuery, printScoped } from "../../src/graph/cypher/index.ts";
import { REGEX_LIMITS, unsafeRegexReason } from "../../src/graph/cypher/safe-regex.ts";

const S = "W_00000000000000000000000000000000_A";
const refusal = (q: string) => {
  try {
    printScoped(parseReadQuery(q), S);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`not refused: ${q}`);
};

describe("=~ patterns: only shapes whose backtracking is bounded", () => {
  test.each([
    "(?i).*crm.*",
    "^Customer [A-Z]\\w+$",
    "(?i)(foo|bar|qux)+",
    "\\d{3}-\\d{4}",
    "(\\d{3}-){2}\\d{4}",
    "[a-z]+@example\\.com",
    "\\Q(.*a){12}\\E",
    "(?<year>\\d{4})-\\d{2}",
  ])("accepted: %s", (pattern) => {
    expect(unsafeRegexReason(pattern)).toBeUndefined();
  });

  test.each([
    ["(.*a){12}", /nested quantifiers/],
    ["(a+)+$", /nested quantifiers/],
    ["(a*)*b", /nested quantifiers/],
    ["(\\w+\\s?)*$", /nested quantifiers/],
    ["(a|a)*b", /same character/],
    ["(a|ab)+c", /same character/],
    ["(\\d|[0-9])+x", /not plain text/],
    ["(a)\\1", /back-reference/],
    ["a?a?a?aaa", /3 variable quantifiers/],
    [".*a.*a.*a!", /3 variable quantifiers/],
    ["a{1001}", /more than 1000 times/],
    ["(?x)(a #)*", /comments flag/],
    ["[abc", /unterminated character class/],
    ["(abc", /unclosed/],
    [`${"a".repeat(REGEX_LIMITS.length)}b`, /at most 256/],
  ])("refused: %s", (pattern, reason) => {
    expect(unsafeRegexReason(pattern)).toMatch(reason);
  });

  test("a literal pattern is checked where the query is parsed, with the offset", () => {
    expect(refusal('RETURN $s =~ "(.*a){12}" AS m')).toMatch(/the pattern of =~ repeats .* \(at offset 13\)/);
  });

  test("a pattern computed inside the query is refused; a parameter is remembered for checking its value", () => {
    expect(refusal("MATCH (n) WHERE n.name =~ n.documentation RETURN n")).toMatch(/string literal or a parameter/);
    expect(refusal("RETURN 'a' =~ ('(a+)' + '+') AS m")).toMatch(/string literal or a parameter/);
    expect(parseReadQuery("MATCH (n) WHERE n.name =~ $p OR n.id =~ $q RETURN n").regexParameters).toEqual(["p", "q"]);
  });

  test("the subject is bounded when the query runs: a longer one gets a pattern that cannot compile", () => {
    const printed = printScoped(parseReadQuery("RETURN $s =~ 'a.*' AS m"), S);
    expect(printed).toBe(
      "RETURN ($s =~ CASE WHEN size($s) > 2048 THEN '\\\\k<subjectLongerThan2048Characters>' ELSE 'a.*' END) AS `m`",
    );
  });
});

describe("reduce(): the accumulator may grow, but not exponentially", () => {
  test.each([
    "RETURN reduce(s = '', x IN range(1, 100) | s + toString(x)) AS s",
    "RETURN reduce(l = [], x IN range(1, 100) | l + [x]) AS l",
    "RETURN reduce(n = 0, x IN range(1, 100) | n * 2 + size(toString(n))) AS n",
    "RETURN reduce(s = '', x IN ['a', 'b'] | CASE WHEN size(s) > 3 THEN s ELSE s + x END) AS s",
    "RETURN reduce(l = [1], x IN range(1, 10) | [y IN l | y + 1]) AS l",
    "RETURN reduce(s = 'a', x IN range(1, 10) | left(s + s, 10)) AS s",
  ])("accepted: %s", (query) => {
    expect(() => parseReadQuery(query)).not.toThrow();
  });

  test.each([
    "RETURN size(reduce(s = 'a', x IN range(1, 40) | s + s)) AS n",
    "RETURN reduce(l = [1], x IN range(1, 40) | l + l) AS l",
    "RETURN reduce(l = [1], x IN range(1, 40) | [l, l]) AS l",
    "RETURN reduce(s = 'a', x IN range(1, 40) | replace(s, 'a', 'aa')) AS s",
    "RETURN reduce(l = ['a'], x IN range(1, 40) | [y IN l | y + y]) AS l",
    "RETURN reduce(l = [1], x IN range(1, 40) | [y IN range(1, 2) | l]) AS l",
    "RETURN reduce(m = {}, x IN range(1, 40) | {a: m, b: m}) AS m",
    "RETURN reduce(s = 'a', x IN range(1, 40) | reduce(t = s, y IN [1] | t + t)) AS s",
  ])("refused: %s", (query) => {
    expect(refusal(query)).toMatch(/reduce\(\) may use its accumulator '\w' at most once/);
  });
});
