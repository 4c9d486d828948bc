import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import {
  type CreateWorkspaceInput,
  createWorkspace,
  decodeXml,
  exportModel,
  importModel,
  listViews,
  type RequestContext,
  renderView,
} from "@ams/model";
import { AppError, invalid } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import { ZipArchive } from "archiver";
import type { Context } from "hono";
import type { TenantEnv } from "../middleware/service-auth.ts";
import { readMultipart } from "./multipart.ts";
import { jsonResponse, Ok, problemResponses, type TenantApp } from "./openapi.ts";

const tags = ["Import and export"];

export type TransferOptions = {
  /** Directories whose files POST /api/workspaces {path} may import; empty disables server-side paths. */
  importRoots?: string[];
};

/** The XML of an import request: a raw body, or the multipart field `file` (read by readMultipart, bounded). */
async function uploadedXml(
  c: Context<TenantEnv>,
  uploadLimit: number,
): Promise<{ xml: string; fields: Record<string, string> }> {
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    const { file, fields } = await readMultipart(c.req.raw, uploadLimit);
    if (!file) throw invalid("file", "the multipart upload has no file field named 'file'");
    return { xml: decodeXml(file.bytes), fields };
  }
  const xml = decodeXml(new Uint8Array(await c.req.arrayBuffer()));
  if (!xml.trim())
    throw invalid("body", "send the Open Exchange XML as the request body or as the multipart field 'file'");
  return { xml, fields: {} };
}

/** A server-side file inside one of the allowed roots (symlinks resolved), or a 422 that says why not. */
async function readAllowedFile(file: string, roots: string[]): Promise<string> {
  if (roots.length === 0)
    throw invalid("path", "server-side import paths are not enabled on this deployment; upload the file instead");
  let real: string;
  try {
    real = await realpath(path.resolve(file));
  } catch {
    throw invalid("path", `no readable file at '${file}'`);
  }
  for (const root of roots) {
    const base = await realpath(root).catch(() => null);
    if (base && (real === base || real.startsWith(base + path.sep)))
      return decodeXml(new Uint8Array(await readFile(real)));
  }
  throw invalid("path", `'${file}' is outside the directories this deployment allows imports from`);
}

/** Creates the workspace and imports the file into it; if the import is refused, the new workspace is removed. */
async function createFromXml(ctx: RequestContext, input: Omit<CreateWorkspaceInput, "path">, xml: string) {
  const ws = await createWorkspace({ ctx, input });
  try {
    const result = await importModel({ ctx: { ...ctx, workspaceId: ws.id }, input: { xml } });
    return { ...ws, import: result };
  } catch (err) {
    await ctx.database.rows(
      (await import("@ams/db"))
        .sql`delete from workspaces where id = ${ws.id} and organization_id = ${ws.organization_id}`,
    );
    throw err;
  }
}

export function workspaceFileCreator(opts: TransferOptions) {
  return async (ctx: RequestContext, input: CreateWorkspaceInput) => {
    const { path: file, ...rest } = input;
    return createFromXml(ctx, rest, await readAllowedFile(file!, opts.importRoots ?? []));
  };
}

export function registerTransferRoutes(app: TenantApp, opts: { uploadLimit: number }) {
  // Multipart creation of a workspace from an uploaded file; JSON bodies go on to the typed route.
  app.post("/api/workspaces", async (c, next) => {
    if (!(c.req.header("content-type") ?? "").startsWith("multipart/form-data")) return next();
    const { xml, fields } = await uploadedXml(c, opts.uploadLimit);
    const name = fields.name?.trim();
    if (!name) throw invalid("name", "give the new workspace a name (multipart field 'name')");
    return c.json(
      await createFromXml(
        c.var.ctx,
        { name, description: fields.description ?? null, organization_id: fields.organization_id },
        xml,
      ),
      201,
    );
  });

  app.openapi(
    createRoute({
      method: "post",
      path: "/api/import",
      tags,
      operationId: "importModel",
      description:
        "Replaces the active workspace's model by an Open Exchange XML file (raw body or multipart field `file`).",
      request: {
        body: {
          content: {
            "application/xml": { schema: z.string() },
            // A plain OpenAPI schema, not zod: the form is read by readMultipart as it streams, with its limits,
            // rather than buffered whole by a validator first.
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: { file: { type: "string", format: "binary" } },
                required: ["file"],
              },
            },
          },
        },
      },
      responses: { 200: jsonResponse(Ok, "Imported: counts and warnings"), ...problemResponses },
    }),
    async (c) => {
      const { xml } = await uploadedXml(c, opts.uploadLimit);
      return c.json(await importModel({ ctx: c.var.ctx, input: { xml } }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/export",
      tags,
      operationId: "exportModel",
      responses: {
        200: { description: "Open Exchange XML", content: { "application/xml": { schema: z.string() } } },
        ...problemResponses,
      },
    }),
    async (c) => {
      const { xml, fileName } = await exportModel({ ctx: c.var.ctx });
      return c.body(xml, 200, {
        "content-type": "application/xml; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
      });
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/export/zip",
      tags,
      operationId: "exportZip",
      responses: {
        200: {
          description: "ZIP of the XML and one SVG per view",
          content: { "application/zip": { schema: z.string() } },
        },
        ...problemResponses,
      },
    }),
    async (c) => {
      const ctx = c.var.ctx;
      const { xml, fileName } = await exportModel({ ctx });
      const views = await listViews({ ctx });
      const svgs: { name: string; svg: string }[] = [];
      const used = new Set<string>();
      for (const v of views) {
        const base =
          (v.name || v.id)
            .replace(/[^\w .()-]+/g, "_")
            .trim()
            .slice(0, 100) || v.id;
        let name = `${base}.svg`;
        for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base} (${i}).svg`;
        used.add(name.toLowerCase());
        svgs.push({ name, svg: await renderView({ ctx, input: { id: v.id } }) });
      }
      const zip = new ZipArchive({ zlib: { level: 6 } });
      const out = new PassThrough();
      zip.pipe(out);
      zip.append(xml, { name: fileName });
      for (const s of svgs) zip.append(s.svg, { name: `views/${s.name}` });
      void zip.finalize();
      return new Response(Readable.toWeb(out) as ReadableStream, {
        status: 200,
        headers: {
          "content-type": "application/zip",
          "content-disposition": `attachment; filename="${fileName.replace(/\.xml$/, "")}.zip"`,
        },
      });
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/views/{id}/image",
      tags: ["Views"],
      operationId: "renderView",
      request: {
        params: z.object({
          id: z
            .string()
            .min(1)
            .max(200)
            .openapi({ param: { name: "id", in: "path" } }),
        }),
        query: z.object({ format: z.string().optional().describe("Only svg; PNG is produced in the browser") }),
      },
      responses: {
        200: { description: "SVG in ArchiMate notation", content: { "image/svg+xml": { schema: z.string() } } },
        ...problemResponses,
      },
    }),
    async (c) => {
      const { format } = c.req.valid("query");
      if (format && format.toLowerCase() !== "svg") {
        throw new AppError(
          "VALIDATION",
          `format: '${format}' is not rendered on the server; only svg is (PNG is made in the browser from the SVG)`,
          {
            errors: [{ path: "format", message: "only svg is supported" }],
          },
        );
      }
      const svg = await renderView({ ctx: c.var.ctx, input: c.req.valid("param") });
      return c.body(svg, 200, {
        "content-type": "image/svg+xml; charset=utf-8",
        "content-security-policy": "default-src 'none'; img-src 'self' https:; style-src 'unsafe-inline'",
      });
    },
  );
}
