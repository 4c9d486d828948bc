import { fileURLToPath } from "node:url";
import { createPluginRegistry, loadPluginCatalog, loadPluginRegistry, type PluginRegistry } from "@ams/model";
import { silentLogger } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "../src/index.ts";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

const basicRoot = fileURLToPath(new URL("./fixtures/plugins/basic", import.meta.url));
const GEAR_PATH = 'd="M12 2L22 12L12 22L2 12Z"';

type TenantApp = ReturnType<typeof createTenantApp>;
type Json = any;
type Who = { userId: string; platformAdmin: boolean; org?: OrgFixture; role?: "owner" | "editor" | "viewer" };

let h: TenantHarness;
let org: OrgFixture;
let plugins: PluginRegistry;
let app: TenantApp;

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
  plugins = await loadPluginRegistry({ root: basicRoot, database: h.database });
  app = createTenantApp({ database: h.database, tokens: h.tokens, plugins, log: silentLogger });
});
afterAll(() => h.close());

/** A request to `target` as the gateway would forward it: signed claims, or none for the public icon route. */
async function call(
  target: TenantApp,
  who: Who | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const h2: Record<string, string> = { ...headers };
  if (who) {
    h2[SERVICE_TOKEN_HEADER] = await h.tokens.sign(
      {
        userId: who.userId,
        username: who.userId,
        organizationId: who.org?.orgId ?? null,
        workspaceId: who.org?.workspaceId ?? null,
        role: who.role ?? null,
        platformAdmin: who.platformAdmin,
        apiTokenId: null,
      },
      "tenant",
    );
  }
  if (body !== undefined) h2["content-type"] = "application/json";
  const res = await target.request(path, {
    method,
    headers: h2,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, headers: res.headers, text, body: json };
}

const admin: Who = { userId: "admin-1", platformAdmin: true };
const asAdmin = (method: string, path: string, body?: unknown) => call(app, admin, method, path, body);
const user = (): Who => ({ userId: `editor-${org.orgId}`, platformAdmin: false, org, role: "editor" });
const setEnabled = async (enabled: boolean, slug = "test-pack") => {
  const res = await asAdmin("PUT", `/api/platform/plugins/${slug}`, { enabled });
  expect(res.status).toBe(200);
  return res;
};

describe("platform plugin routes", () => {
  test("the Admin lists every plugin: the icon pack and the placeholder of an unknown type, disabled by default", async () => {
    const res = await asAdmin("GET", "/api/platform/plugins");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        slug: "future-theme",
        name: "Dark theme",
        version: "0.1.0",
        type: "color-theme",
        icon_count: 0,
        enabled: false,
        placeholder: true,
      }),
      expect.objectContaining({
        slug: "test-pack",
        name: "Test pack",
        version: "1.2.3",
        type: "icon-pack",
        icon_count: 2,
        enabled: false,
        placeholder: false,
      }),
    ]);
  });

  test("the detail has the type and the full icon list", async () => {
    const res = await asAdmin("GET", "/api/platform/plugins/test-pack");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: "icon-pack", source: { license: "CC0-1.0" } });
    expect(res.body.icons).toEqual([
      {
        slug: "test-gear",
        name: "Gear",
        file: "icons/gear.svg",
        url: "/api/platform/plugins/test-pack/icons/test-gear",
      },
      {
        slug: "test-evil",
        name: "Evil",
        file: "icons/evil.svg",
        url: "/api/platform/plugins/test-pack/icons/test-evil",
      },
    ]);
    expect((await asAdmin("GET", "/api/platform/plugins/nope")).status).toBe(404);
  });

  test("a non-Admin gets 403 on every platform route, whatever its organization role", async () => {
    for (const who of [user(), { ...user(), role: "owner" as const }, { userId: "nobody", platformAdmin: false }]) {
      for (const [method, path, body] of [
        ["GET", "/api/platform/plugins"],
        ["GET", "/api/platform/plugins/test-pack"],
        ["GET", "/api/platform/plugins/nope"],
        ["PUT", "/api/platform/plugins/test-pack", { enabled: true }],
        ["GET", "/api/platform/plugins/test-pack/icons/test-gear"],
      ] as const) {
        const res = await call(app, who, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
      }
    }
    expect(plugins.isEnabled("test-pack")).toBe(false);
  });

  test("without the gateway's token, platform routes and the plugin list answer 401", async () => {
    expect((await call(app, null, "GET", "/api/platform/plugins")).status).toBe(401);
    expect((await call(app, null, "PUT", "/api/platform/plugins/test-pack", { enabled: true })).status).toBe(401);
    expect((await call(app, null, "GET", "/api/plugins")).status).toBe(401);
  });

  test("PUT takes exactly {enabled: boolean}", async () => {
    for (const body of [{ enabled: "yes" }, { enabled: true, extra: 1 }, {}, [true]]) {
      const res = await asAdmin("PUT", "/api/platform/plugins/test-pack", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await asAdmin("PUT", "/api/platform/plugins/nope", { enabled: true })).status).toBe(404);
    expect(plugins.isEnabled("test-pack")).toBe(false);
  });

  test("a placeholder plugin cannot be enabled and its icon route answers 404", async () => {
    const res = await asAdmin("PUT", "/api/platform/plugins/future-theme", { enabled: true });
    expect(res.status).toBe(409);
    expect((await asAdmin("PUT", "/api/platform/plugins/future-theme", { enabled: false })).status).toBe(200);
    expect((await call(app, null, "GET", "/api/plugins/future-theme/icons/theme-dark")).status).toBe(404);
    expect((await asAdmin("GET", "/api/platform/plugins/future-theme/icons/theme-dark")).status).toBe(404);
  });

  test("the Admin previews an icon of a disabled plugin", async () => {
    expect(plugins.isEnabled("test-pack")).toBe(false);
    const res = await asAdmin("GET", "/api/platform/plugins/test-pack/icons/test-gear");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(res.text).toContain(GEAR_PATH);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect((await asAdmin("GET", "/api/platform/plugins/test-pack/icons/no-such")).status).toBe(404);
  });
});

describe("enabling and disabling a plugin", () => {
  let viewId: string;
  let legacyViewId: string;

  beforeAll(async () => {
    // One view with an element whose `Service Plugin IconPack` is the pack's slug, one with legacy values.
    const el = await call(app, user(), "POST", "/api/elements", {
      name: "CRM",
      type: "ApplicationComponent",
      properties: { "Service Plugin IconPack": "test-gear" },
    });
    expect(el.status).toBe(201);
    viewId = (await call(app, user(), "POST", "/api/views", { name: "Landscape" })).body.id;
    expect(
      (await call(app, user(), "POST", `/api/views/${viewId}/nodes`, { element_id: el.body.id, w: 200, h: 80 })).status,
    ).toBe(201);

    legacyViewId = (await call(app, user(), "POST", "/api/views", { name: "Legacy" })).body.id;
    for (const [i, value] of ["https://cdn.example.com/crm.png", "http://insecure.example.com/crm.png"].entries()) {
      const legacy = await call(app, user(), "POST", "/api/elements", {
        name: `Legacy ${i}`,
        type: "Node",
        properties: { "Service Plugin IconPack": value },
      });
      await call(app, user(), "POST", `/api/views/${legacyViewId}/nodes`, {
        element_id: legacy.body.id,
        x: i * 300,
        w: 200,
        h: 80,
      });
    }
  });

  const image = async (id: string) => {
    const res = await call(app, user(), "GET", `/api/views/${id}/image`);
    expect(res.status).toBe(200);
    return res.text;
  };
  const publicList = async () => (await call(app, user(), "GET", "/api/plugins")).body as Json[];
  const publicIcon = (icon = "test-gear", headers: Record<string, string> = {}) =>
    call(app, null, "GET", `/api/plugins/test-pack/icons/${icon}`, undefined, headers);

  test("disabled (default): not listed, icon route 404, the element shows its type icon", async () => {
    expect(await publicList()).toEqual([]);
    const icon = await publicIcon();
    expect(icon.status).toBe(404);
    expect(icon.headers.get("content-type")).toBe("application/problem+json");
    expect(icon.body).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(icon.headers.get("cache-control")).toBe("no-store");
    const svg = await image(viewId);
    expect(svg).not.toContain(GEAR_PATH);
    expect(svg).toMatch(/<use class="icon" href="#ams-i-ApplicationComponent"/);
  });

  test("enabled: listed with icon URLs, served without authentication, drawn in the view's SVG", async () => {
    const put = await setEnabled(true);
    expect(put.body).toMatchObject({ slug: "test-pack", enabled: true, icon_count: 2 });

    expect(await publicList()).toEqual([
      expect.objectContaining({
        slug: "test-pack",
        name: "Test pack",
        version: "1.2.3",
        icons: [
          { slug: "test-gear", name: "Gear", url: "/api/plugins/test-pack/icons/test-gear" },
          { slug: "test-evil", name: "Evil", url: "/api/plugins/test-pack/icons/test-evil" },
        ],
      }),
    ]);
    expect((await asAdmin("GET", "/api/platform/plugins")).body.find((p: Json) => p.slug === "test-pack").enabled).toBe(
      true,
    );

    const icon = await publicIcon();
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(icon.headers.get("x-content-type-options")).toBe("nosniff");
    expect(icon.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    expect(icon.headers.get("etag")).toMatch(/^"test-pack@1\.2\.3-[A-Za-z0-9_-]+"$/);
    expect(icon.text).toContain(GEAR_PATH);

    const svg = await image(viewId);
    expect(svg).toContain(GEAR_PATH);
    expect(svg).toMatch(/<svg class="icon" [^>]*viewBox="0 0 24 24"/);
    expect(svg).not.toContain('href="#ams-i-ApplicationComponent"');
  });

  test("an icon whose SVG carried script and onload comes out of the icon route clean", async () => {
    const res = await publicIcon("test-evil");
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>/);
    expect(res.text).toContain("<circle");
    expect(res.text).not.toMatch(
      /<script|onload|onclick|onmouseover|javascript:|evil\.example|foreignObject|<iframe|<image|<!DOCTYPE|<!ENTITY/i,
    );
  });

  test("the ETag makes a repeated request a 304; another ETag gets the icon again", async () => {
    const first = await publicIcon();
    const etag = first.headers.get("etag") ?? "";
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await publicIcon("test-gear", { "if-none-match": ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toMatch(/^public, max-age=/);
    }
    const other = await publicIcon("test-gear", { "if-none-match": '"test-pack@1.2.2-abc"' });
    expect(other.status).toBe(200);
    expect(other.text).toContain(GEAR_PATH);
    const head = await call(app, null, "HEAD", "/api/plugins/test-pack/icons/test-gear");
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.text).toBe("");
    // Each icon has its own ETag.
    expect((await publicIcon("test-evil")).headers.get("etag")).not.toBe(etag);
  });

  test("an unknown icon, or an icon asked for under the wrong plugin, is 404 even while enabled", async () => {
    expect((await publicIcon("no-such-icon")).status).toBe(404);
    expect((await call(app, null, "GET", "/api/plugins/future-theme/icons/test-gear")).status).toBe(404);
    expect((await call(app, null, "GET", "/api/plugins/nope/icons/test-gear")).status).toBe(404);
  });

  test("disabled again: its elements fall back to the type icon at once, and the public side forgets it", async () => {
    await setEnabled(false);
    const svg = await image(viewId);
    expect(svg).not.toContain(GEAR_PATH);
    expect(svg).toMatch(/<use class="icon" href="#ams-i-ApplicationComponent"/);
    expect(await publicList()).toEqual([]);
    expect((await publicIcon()).status).toBe(404);
    // A client holding the old ETag gets a 404, not a 304.
    expect((await publicIcon("test-gear", { "if-none-match": "*" })).status).toBe(404);
  });

  test("legacy values: an https URL is drawn as an image, an http URL falls back to the type icon", async () => {
    const svg = await image(legacyViewId);
    expect(svg).toContain('href="https://cdn.example.com/crm.png"');
    expect(svg).not.toContain("insecure.example.com");
    expect(svg).toMatch(/<use class="icon" href="#ams-i-Node"/);
  });
});

describe("several replicas", () => {
  test("a change made on one replica is seen by another within the TTL", async () => {
    let clock = 1_000_000;
    const replica = createPluginRegistry({
      catalog: loadPluginCatalog({ root: basicRoot }),
      database: h.database,
      ttlMs: 5000,
      now: () => clock,
    });
    const other = createTenantApp({ database: h.database, tokens: h.tokens, plugins: replica, log: silentLogger });
    const icon = () => call(other, null, "GET", "/api/plugins/test-pack/icons/test-gear");

    expect((await icon()).status).toBe(404); // first request reads the flags: disabled
    await setEnabled(true); // on the first app's registry
    expect((await icon()).status).toBe(404); // still inside the TTL: cached
    clock += 5000;
    expect((await icon()).status).toBe(200); // TTL over: read again
    await setEnabled(false);
    clock += 5000;
    expect((await icon()).status).toBe(404);
    expect(replica.resolveIcon("test-gear")).toBeUndefined();
  });

  test("the flags survive a restart: a new registry reads them from the database", async () => {
    await setEnabled(true);
    const restarted = await loadPluginRegistry({ root: basicRoot, database: h.database });
    expect(restarted.isEnabled("test-pack")).toBe(true);
    expect(restarted.resolveIcon("test-gear")).toEqual({ svg: expect.stringContaining(GEAR_PATH) });
    expect(restarted.iconUrl("test-gear")).toBe("/api/plugins/test-pack/icons/test-gear");
    await setEnabled(false);
    expect(plugins.iconUrl("test-gear")).toBeUndefined();
    expect(plugins.iconUrl("https://cdn.example.com/a.svg")).toBe("https://cdn.example.com/a.svg");
  });
});

describe("an app composed without plugins", () => {
  test("lists none and serves no icon", async () => {
    const bare = createTenantApp({ database: h.database, tokens: h.tokens, log: silentLogger });
    expect((await call(bare, admin, "GET", "/api/platform/plugins")).body).toEqual([]);
    expect((await call(bare, user(), "GET", "/api/plugins")).body).toEqual([]);
    expect((await call(bare, null, "GET", "/api/plugins/test-pack/icons/test-gear")).status).toBe(404);
  });
});
