import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import type { Upstream } from "../../gateway/upstream.ts";

type Doc = {
  openapi: string;
  info: Record<string, unknown>;
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: { name: string }[];
};

/**
 * One OpenAPI document for the whole product: control's own routes and the tenant's, each generated from the
 * route definitions themselves, so the document cannot drift from the code. The tenant's part is fetched once
 * (through the same upstream the gateway forwards to) and cached.
 */
export function createOpenApiDocument<E extends Env>(control: OpenAPIHono<E>, tenant: Upstream) {
  let cached: Promise<Doc> | null = null;
  async function build(): Promise<Doc> {
    const own = control.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "ArchiMate modeling service",
        version: "1.0.0",
        description:
          "REST API of the ArchiMate 3.1 modeling service. Authenticate with the access_token cookie, " +
          "`Authorization: Bearer <access JWT>`, or a personal API token (`Authorization: Bearer ams_pat_...`). " +
          "The MCP endpoint is at /mcp/ (Streamable HTTP, personal API tokens only).",
      },
    }) as unknown as Doc;
    let remote: Doc | null = null;
    try {
      const res = await tenant.fetch(new Request("http://tenant/api/openapi.json"));
      if (res.ok) remote = (await res.json()) as Doc;
    } catch {
      remote = null;
    }
    const doc: Doc = {
      ...own,
      paths: { ...(remote?.paths ?? {}), ...(own.paths ?? {}) },
      components: {
        schemas: { ...(remote?.components?.schemas ?? {}), ...(own.components?.schemas ?? {}) },
        securitySchemes: {
          cookieAuth: { type: "apiKey", in: "cookie", name: "access_token" },
          bearerAuth: { type: "http", scheme: "bearer", description: "Access JWT or personal API token (ams_pat_...)" },
        },
      },
      security: [{ cookieAuth: [] }, { bearerAuth: [] }],
    } as Doc;
    if (!remote) cached = null;
    return doc;
  }
  return () => {
    cached ??= build();
    return cached;
  };
}
