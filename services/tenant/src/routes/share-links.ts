import {
  CreatedShareLink,
  CreateShareLinkInput,
  createShareLink,
  deleteShareLink,
  listShareLinks,
  type RequestContext,
  resolveShareLink,
  ShareLink,
  sharedFile,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { TenantEnv } from "../middleware/service-auth.ts";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Share links"];

/** The workspace the gateway authorized (path :id); the context names it, anything else is not this workspace. */
function inWorkspace(ctx: RequestContext, id: string): RequestContext {
  if (ctx.workspaceId !== id) throw new AppError("NOT_FOUND", `Workspace '${id}' not found`);
  return ctx;
}

/** The address the caller reached the product at (the gateway passes it on), for the link's URL. */
function baseUrl(c: Context<TenantEnv>): string {
  const url = new URL(c.req.url);
  const host = c.req.header("x-forwarded-host") ?? url.host;
  const proto = c.req.header("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

const LinkParams = z.object({ id: z.string(), linkId: z.string().min(1).max(100) });
const TokenParams = z.object({ token: z.string() });
const FileParams = TokenParams.extend({ file: z.string() });
const DirFileParams = FileParams.extend({ dir: z.string() });

const sharedOutput = {
  raw: {
    200: {
      description: "The shared page (HTML), the view's SVG, or a file of the shared report (CSS, JS)",
      content: { "text/html": z.string(), "image/svg+xml": z.string(), "text/javascript": z.string() },
    },
    302: { description: "A report link: to its index.html" },
  },
};

/** A page nobody may tell apart from any other missing one: no product name, no detail. */
function notFoundPage(): Response {
  return new Response(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1><p>This link does not exist or no longer works.</p></main></body></html>',
    {
      status: 404,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
      },
    },
  );
}

type Shared = { database: RequestContext["database"]; resolveIcon?: RequestContext["resolveIcon"] };

async function serveShared(deps: Shared, token: string, path: string): Promise<Response> {
  const link = await resolveShareLink(deps.database, token, deps.resolveIcon);
  if (!link) return notFoundPage();
  if (link.scope === "report" && path === "") {
    return new Response(null, {
      status: 302,
      headers: { location: `/s/${token}/index.html`, "cache-control": "no-store", "referrer-policy": "no-referrer" },
    });
  }
  const file = await sharedFile(link, path).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") return null;
    throw err;
  });
  if (!file) return notFoundPage();
  return new Response(file.body, {
    status: 200,
    headers: {
      "content-type": file.type,
      "content-security-policy": file.csp,
      // The token is in the address: no page of it may pass it on, and no shared cache may keep a revoked page.
      "referrer-policy": "no-referrer",
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      "x-robots-tag": "noindex, nofollow",
    },
  });
}

/** What a share link may answer besides its file: the gateway's per-address limit. */
const SHARED_PROBLEMS = {
  429: "Too many requests for shared pages from this client address; see Retry-After",
};

export function registerShareLinkRoutes(app: TenantApp, deps: Shared) {
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/share-links",
      tags,
      operationId: "createShareLink",
      description:
        "Owners and editors: a read-only link to a view (`scope: view`, `view_id`) or to the whole model's HTML report (`scope: report`) for people without an account. The answer's `url` carries the token and is shown this once (only its SHA-256 is stored). The link shows the current model, live. `frame_ancestors` (default 'none') says where it may be embedded in an iframe.",
      params: IdParam,
      body: CreateShareLinkInput,
      output: { schema: CreatedShareLink, status: 201, description: "Created; the url is not shown again" },
    },
    (c, { params, body }) =>
      createShareLink({ ctx: inWorkspace(c.var.ctx, params.id), input: { ...body, base_url: baseUrl(c) } }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces/{id}/share-links",
      tags,
      operationId: "listShareLinks",
      description: "The workspace's links that still work, newest first, without their tokens.",
      params: IdParam,
      output: { schema: z.array(ShareLink), description: "Share links" },
    },
    (c, { params }) => listShareLinks({ ctx: inWorkspace(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/workspaces/{id}/share-links/{linkId}",
      tags,
      operationId: "deleteShareLink",
      description: "Revokes a link: from then on it answers 404.",
      params: LinkParams,
    },
    async (c, { params }) => {
      await deleteShareLink({ ctx: inWorkspace(c.var.ctx, params.id), input: { linkId: params.linkId } });
    },
  );

  registerRoute(
    app,
    {
      method: "get",
      path: "/s/{token}",
      tags,
      operationId: "openShareLink",
      public: true,
      description:
        "A share link, without an account: a view link's page (its picture), a report link's redirect to its index.html. Unknown, revoked or expired: 404.",
      params: TokenParams,
      output: sharedOutput,
      problems: SHARED_PROBLEMS,
    },
    (_c, { params }) => serveShared(deps, params.token, ""),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/s/{token}/{file}",
      tags,
      operationId: "getSharedFile",
      public: true,
      description:
        "A file of a share link: a view link's view.svg; a report link's index.html, model.html, CSS and scripts.",
      params: FileParams,
      output: sharedOutput,
      problems: SHARED_PROBLEMS,
    },
    (_c, { params }) => serveShared(deps, params.token, params.file),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/s/{token}/{dir}/{file}",
      tags,
      operationId: "getSharedPage",
      public: true,
      description: "A page of a report link: elements/, relationships/ or views/.",
      params: DirFileParams,
      output: sharedOutput,
      problems: SHARED_PROBLEMS,
    },
    (_c, { params }) => serveShared(deps, params.token, `${params.dir}/${params.file}`),
  );
}
