import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";

/** render_view and GET /api/views/:id/image as an assistant and an API client meet them, through the gateway. */
let stack: Stack;
let client: Client;
let token: string;
let viewId: string;
let svgSize: { width: number; height: number };

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Pictures" });
  token = (await stack.apiToken(archi)).token;
  client = await stack.mcpClient(token);
  await client.listTools();
  const post = async (path: string, body: unknown) => (await stack.rest(token, "POST", path, body)).body;
  const crm = await post("/api/elements", { name: "CRM System", type: "ApplicationComponent" });
  const portal = await post("/api/elements", { name: "Customer Portal", type: "ApplicationComponent" });
  const data = await post("/api/elements", { name: "Customer Data", type: "DataObject" });
  await post("/api/relationships", { type: "Serving", source: crm.id, target: portal.id });
  const access = await post("/api/relationships", { type: "Access", source: crm.id, target: data.id });
  viewId = (await post("/api/views", { name: "Customer apps" })).id;
  const nodes = `/api/views/${viewId}/nodes`;
  const a = await post(nodes, { element_id: crm.id, x: 40, y: 40, w: 120, h: 55 });
  // Overlaps the CRM node on purpose.
  await post(nodes, { element_id: portal.id, x: 100, y: 60, w: 120, h: 55 });
  const d = await post(nodes, { element_id: data.id, x: 40, y: 200, w: 120, h: 55 });
  await post(`/api/views/${viewId}/connections`, { source: a.id, target: d.id, relationship_id: access.id });
  const svg = await stack.http("GET", `/api/views/${viewId}/image`, { headers: { authorization: `Bearer ${token}` } });
  const [, w, h] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg.text)!;
  svgSize = { width: Number(w), height: Number(h) };
});
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

const decode = (bytes: Buffer) => PNG.sync.read(bytes);
const colours = (png: PNG) => {
  const seen = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) seen.add(png.data.readUInt32BE(i));
  return seen.size;
};

describe("render_view", () => {
  test("answers a PNG image by default, the size of the SVG, with a summary of what it shows", async () => {
    const res = (await client.callTool({ name: "render_view", arguments: { view_id: viewId } })) as CallToolResult;
    expect(res.isError).toBeFalsy();
    const image = res.content.find((c) => c.type === "image") as { data: string; mimeType: string };
    expect(image.mimeType).toBe("image/png");
    const png = decode(Buffer.from(image.data, "base64"));
    expect({ width: png.width, height: png.height }).toEqual(svgSize);
    // Shapes, layer colours, icons and anti-aliased text: far more than a blank or single-colour picture.
    expect(colours(png)).toBeGreaterThan(50);
    const summary = res.structuredContent as any;
    expect(summary).toMatchObject({ format: "png", element_count: 3, node_count: 3, connection_count: 1 });
    expect(summary.overlap_count).toBe(1);
    expect(summary.overlaps[0]).toMatchObject({ a_label: "CRM System", b_label: "Customer Portal" });
    expect(summary.undrawn_count).toBe(1);
    expect(summary.undrawn_relationships[0]).toMatchObject({
      type: "Serving",
      source_name: "CRM System",
      target_name: "Customer Portal",
    });
    const text = textOf(res);
    expect(text).toContain("3 element(s) on 3 node(s), 1 connection(s)");
    expect(text).toContain("1 pair(s) of nodes overlap");
    expect(text).toContain("- Serving 'CRM System' -> 'Customer Portal'");
  });

  test("scale changes the pixel size; the same view gives the same bytes twice", async () => {
    const render = async (scale: number) => {
      const res = (await client.callTool({
        name: "render_view",
        arguments: { view_id: viewId, scale },
      })) as CallToolResult;
      return Buffer.from((res.content.find((c) => c.type === "image") as { data: string }).data, "base64");
    };
    const double = decode(await render(2));
    expect({ width: double.width, height: double.height }).toEqual({
      width: svgSize.width * 2,
      height: svgSize.height * 2,
    });
    expect((await render(0.5)).equals(await render(0.5))).toBe(true);
  });

  test("a view wider than 1568 px is drawn to fit unless a scale is given", async () => {
    const wide = (await stack.rest(token, "POST", "/api/views", { name: "Wide" })).body.id;
    await stack.rest(token, "POST", `/api/views/${wide}/nodes`, { kind: "label", label: "far right", x: 3000, y: 0 });
    await stack.rest(token, "POST", `/api/views/${wide}/nodes`, { kind: "label", label: "left", x: 0, y: 0 });
    const fitted = (await client.callTool({ name: "render_view", arguments: { view_id: wide } })) as CallToolResult;
    const meta = fitted.structuredContent as { width: number; scale: number };
    expect(meta.width).toBeLessThanOrEqual(1568);
    expect(meta.scale).toBeLessThan(1);
    const png = decode(Buffer.from((fitted.content[0] as { data: string }).data, "base64"));
    expect(png.width).toBe(meta.width);
    const full = (await client.callTool({
      name: "render_view",
      arguments: { view_id: wide, scale: 1 },
    })) as CallToolResult;
    expect((full.structuredContent as { width: number }).width).toBeGreaterThan(3000);
  });

  test("format svg gives the SVG document as text and the same summary", async () => {
    const res = (await client.callTool({
      name: "render_view",
      arguments: { view_id: viewId, format: "svg" },
    })) as CallToolResult;
    expect(res.content.some((c) => c.type === "image")).toBe(false);
    expect(textOf(res)).toMatch(/^<svg [\s\S]*CRM System[\s\S]*<\/svg>$/);
    expect((res.structuredContent as any).format).toBe("svg");
    expect((res.content[1] as { text: string }).text).toContain("1 pair(s) of nodes overlap");
  });
});

describe("GET /api/views/:id/image", () => {
  const get = (query: string) =>
    fetch(`${stack.base}/api/views/${viewId}/image${query}`, { headers: { authorization: `Bearer ${token}` } });

  test("format=png&scale=2 answers a decodable PNG of twice the SVG's size", async () => {
    const res = await get("?format=png&scale=2");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = decode(Buffer.from(await res.arrayBuffer()));
    expect({ width: png.width, height: png.height }).toEqual({ width: svgSize.width * 2, height: svgSize.height * 2 });
  });

  test("a scale out of range or a scale that would make a giant picture is refused naming scale", async () => {
    const tooBig = await get("?format=png&scale=9");
    expect(tooBig.status).toBe(422);
    expect(((await tooBig.json()) as { errors: { path: string }[] }).errors[0]!.path).toBe("query.scale");
  });
});
