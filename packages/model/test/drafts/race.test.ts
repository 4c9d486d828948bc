import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createElement,
  forkDraft,
  getElement,
  mergeDraft,
  type RequestContext,
  updateElement,
} from "../../src/index.ts";
import { ownerContext } from "../history/support.ts";

/**
 * Merges racing other merges and writes to the base, on real PostgreSQL (concurrent transactions, row locks): one
 * merge of a draft wins; a write to the base is merged, reported as a conflict, or lands on top — never lost.
 */
let database: TestDatabase;
let base: RequestContext;
beforeAll(async () => {
  database = await createTestDatabase("ams_drafts_race");
  base = await ownerContext(database);
});
afterAll(async () => database?.drop());

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string }) => e.code ?? "error",
  );

describe("merge races", () => {
  test("30 races of a merge against a write to the base and against a second merge of the same draft", async () => {
    const tally = { merged: 0, conflicts: 0, secondRefused: 0 };
    for (let i = 0; i < 30; i++) {
      const a = await createElement({ ctx: base, input: { name: `A${i}`, type: "ApplicationComponent" } });
      const b = await createElement({ ctx: base, input: { name: `B${i}`, type: "ApplicationComponent" } });
      const draft = await forkDraft({ ctx: base, input: { name: `Race ${i}` } });
      const inDraft = { ...base, workspaceId: draft.id };
      await updateElement({ ctx: inDraft, input: { id: a.id, name: `A${i} (draft)` } });
      await updateElement({ ctx: inDraft, input: { id: b.id, documentation: "draft notes" } });
      // Half the races write a field the draft did not touch, half the same field.
      const sameField = i % 2 === 1;
      const write = sameField
        ? updateElement({ ctx: base, input: { id: a.id, name: `A${i} (base)` } })
        : updateElement({ ctx: base, input: { id: a.id, documentation: "base notes" } });
      const [merge, second, written] = await Promise.all([
        outcome(mergeDraft({ ctx: inDraft, input: {} })),
        outcome(mergeDraft({ ctx: inDraft, input: {} })),
        outcome(write),
      ]);
      expect(written).toBe("ok");
      const now = await getElement({ ctx: base, input: { id: a.id } });
      const results = [merge, second].sort();
      if (results.includes("ok")) {
        // Exactly one merge went through; the other found it merged.
        expect(results).toEqual(["CONFLICT", "ok"]);
        tally.merged++;
        tally.secondRefused++;
        expect((await getElement({ ctx: base, input: { id: b.id } })).documentation).toBe("draft notes");
        if (sameField) {
          // The merge went first and the base's rename landed on top of it: not lost.
          expect(now.name).toBe(`A${i} (base)`);
        } else {
          expect(now).toMatchObject({ name: `A${i} (draft)`, documentation: "base notes" });
        }
      } else {
        // The base's rename committed first: both merges report the conflict; nothing of the draft was written.
        expect(sameField).toBe(true);
        expect(results).toEqual(["CONFLICT", "CONFLICT"]);
        expect(now.name).toBe(`A${i} (base)`);
        expect((await getElement({ ctx: base, input: { id: b.id } })).documentation).toBeNull();
        tally.conflicts++;
      }
    }
    expect(tally.merged + tally.conflicts).toBe(30);
    expect(tally.merged).toBeGreaterThan(0);
  });
});
