import { describe, expect, test } from "vitest";
import { AppError, first, mustExist, toProblem } from "../src/errors.ts";

describe("a value that must exist", () => {
  test("is handed back as it is, falsy values included", () => {
    const row = { id: "a" };
    expect(mustExist(row, "the row")).toBe(row);
    expect(mustExist(0, "a count")).toBe(0);
    expect(mustExist("", "a label")).toBe("");
    expect(mustExist(false, "a flag")).toBe(false);
    expect(first([row, { id: "b" }], "the row")).toBe(row);
  });

  test("when missing, is an INTERNAL error naming what was missing, not a TypeError later on", () => {
    for (const missing of [undefined, null]) {
      const err = (() => {
        try {
          mustExist(missing, "The inserted element");
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "INTERNAL", message: "The inserted element is missing" });
    }
    expect(() => first([], "The inserted view")).toThrow("The inserted view is missing");
  });

  test("the caller of the API sees a plain 500, not what was missing", () => {
    const problem = toProblem(new AppError("INTERNAL", "The inserted view is missing"));
    expect(problem.status).toBe(500);
    expect(problem.detail).not.toContain("inserted view");
  });
});
