import { ELEMENT_TYPES, RELATIONSHIP_TYPES, VIEWPOINTS } from "@ams/shared";
import { describe, expect, test } from "vitest";
import { withArticle } from "../src/words.ts";

describe("withArticle", () => {
  test.each([
    ["Access", "an Access"],
    ["ApplicationComponent", "an ApplicationComponent"],
    ["Equipment", "an Equipment"],
    ["Implementation and Deployment", "an Implementation and Deployment"],
    ["Outcome", "an Outcome"],
    ["Node", "a Node"],
    ["BusinessActor", "a BusinessActor"],
    ["Serving", "a Serving"],
  ])("%s", (name, expected) => expect(withArticle(name)).toBe(expected));

  test("no metamodel name starts with a letter whose sound disagrees with it (the first letter is enough)", () => {
    const names = [
      ...ELEMENT_TYPES.map((t) => t.name),
      ...RELATIONSHIP_TYPES.map((t) => t.name),
      ...VIEWPOINTS.map((v) => v.name),
    ];
    // The English exceptions: a vowel letter read as a consonant ("a Unit", "a One-"), a silent h ("an Hour").
    expect(names.filter((n) => /^(U[nst]i|Uni|Eu|One|Hour|Honou?r|Heir)/.test(n))).toEqual([]);
  });
});
