import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  clearRasterCache,
  createElement,
  createNode,
  createPropertyDefinition,
  createView,
  type RequestContext,
  renderViewImage,
  updateElement,
  updateNode,
} from "../../src/index.ts";
import { ownerContext } from "../history/support.ts";

/** Pictures of current views remembered per workspace revision: answered again unchanged, never stale. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_picture_memory");
});
afterAll(async () => database?.drop());
beforeEach(() => clearRasterCache());

const GEAR =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="#c00"/></svg>';

async function seeded(resolveIcon?: RequestContext["resolveIcon"]) {
  const ctx = { ...(await ownerContext(database)), resolveIcon };
  await createElement({
    ctx,
    input: {
      id: "crm",
      name: "CRM",
      type: "ApplicationComponent",
      properties: { "Service Plugin IconPack": "test-gear" },
    },
  });
  await createElement({ ctx, input: { id: "billing", name: "Billing", type: "ApplicationComponent" } });
  await createView({ ctx, input: { id: "landscape", name: "Landscape" } });
  await createNode({ ctx, input: { view_id: "landscape", id: "n-crm", element_id: "crm", x: 10, y: 10 } });
  await createNode({ ctx, input: { view_id: "landscape", id: "n-billing", element_id: "billing", x: 300, y: 10 } });
  return ctx;
}

const png = (ctx: RequestContext) =>
  renderViewImage({ ctx, input: { id: "landscape", format: "png", fit: 1568, summary: true } });
const svg = async (ctx: RequestContext) =>
  (await renderViewImage({ ctx, input: { id: "landscape", format: "svg" } })).data as string;

describe("remembered view pictures", () => {
  test("an unchanged view is answered from memory; any change to the workspace's content is drawn anew", async () => {
    const ctx = await seeded();
    const first = await png(ctx);
    expect(await png(ctx)).toBe(first);
    expect(await svg(ctx)).toBe(await svg(ctx));

    await updateElement({ ctx, input: { id: "billing", name: "Invoicing" } });
    const renamed = await png(ctx);
    expect(renamed).not.toBe(first);
    expect(Buffer.compare(renamed.data as Buffer, first.data as Buffer)).not.toBe(0);
    expect(renamed.summary).toMatchObject({ element_count: 2 });
    expect(await svg(ctx)).toContain("Invoicing");

    await updateNode({ ctx, input: { view_id: "landscape", id: "n-billing", x: 320, y: 40 } });
    const moved = await png(ctx);
    expect(moved).not.toBe(renamed);
    expect(await svg(ctx)).toContain('d="M320 40');
  });

  test("the remembered picture is per workspace and per scale", async () => {
    const a = await seeded();
    const b = await seeded();
    const pa = await png(a);
    const pb = await png(b);
    expect(pb).not.toBe(pa);
    const larger = await renderViewImage({ ctx: a, input: { id: "landscape", format: "png", scale: 2 } });
    expect(larger.width).toBe(2 * (pa.width as number));
  });

  test("a plugin icon enabled or disabled since is drawn anew, though the workspace did not change", async () => {
    let enabled = true;
    const ctx = await seeded((value) => (value === "test-gear" && enabled ? { svg: GEAR } : undefined));
    const withGear = await svg(ctx);
    expect(withGear).toContain("#c00");
    expect(await svg(ctx)).toBe(withGear);
    const picture = await png(ctx);
    enabled = false;
    const without = await svg(ctx);
    expect(without).not.toContain("#c00");
    expect(await png(ctx)).not.toBe(picture);
    enabled = true;
    expect(await svg(ctx)).toContain("#c00");
  });

  test("a heatmap is remembered apart from the plain view, per colouring, and drawn anew when its values change", async () => {
    const ctx = await seeded();
    const plain = await png(ctx);
    const heat = await renderViewImage({
      ctx,
      input: { id: "landscape", format: "png", fit: 1568, summary: true, color_by: "relationship_count" },
    });
    expect(heat).not.toBe(plain);
    const byCount = () =>
      renderViewImage({ ctx, input: { id: "landscape", format: "svg", color_by: "relationship_count" } });
    const counted = await byCount();
    expect(await byCount()).toBe(counted);
    await createPropertyDefinition({ ctx, input: { name: "Owner" } });
    await updateElement({ ctx, input: { id: "crm", properties: { Owner: "Architecture" } } });
    const recounted = await byCount();
    expect(recounted).not.toBe(counted);
    const byOwner = await renderViewImage({ ctx, input: { id: "landscape", format: "svg", color_by: "Owner" } });
    expect(byOwner.data).toContain("Architecture");
    expect(byOwner).not.toBe(recounted);
    expect(byOwner.data).toContain("Owner");
    expect(
      await renderViewImage({ ctx, input: { id: "landscape", format: "svg", color_by: "Owner", palette: "blues" } }),
    ).not.toBe(byOwner);

    // A property value is the workspace's content: changing it moves the revision, and the heatmap shows the new value.
    await updateElement({ ctx, input: { id: "crm", properties: { Owner: "Claims team" } } });
    const after = await renderViewImage({ ctx, input: { id: "landscape", format: "svg", color_by: "Owner" } });
    expect(after).not.toBe(byOwner);
    expect(after.data).toContain("Claims team");
    expect(byOwner.data).not.toContain("Claims team");
  });
});
