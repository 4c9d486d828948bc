import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import {
  type CreateWorkspaceInput,
  createWorkspaceFromXml,
  decodeXml,
  ExportQuery,
  exportCsv,
  exportModelStream,
  exportReport,
  exportZip,
  ImportResult,
  importCsv,
  importModel,
  parseImageFormat,
  type RequestContext,
  renderViewDiffImage,
  renderViewImage,
  ViewDiffImageQuery,
  type ViewImage,
  ViewImageQuery,
} from "@ams/model";
import { AppError, invalid } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { TenantEnv } from "../middleware/service-auth.ts";
import { readMultipart } from "./multipart.ts";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Import and export"];

function zipResponse({ fileName, body }: { fileName: string; body: ReadableStream<Uint8Array> }) {
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${fileName}"` },
  });
}

export type TransferOptions = {
  /** Directories whose files POST /api/workspaces {path} may import; empty disables server-side paths. */
  importRoots?: string[];
};

/** The XML media types an import takes as a raw body (RFC 7303), besides multipart/form-data. */
const XML_TYPE = /^(?:application|text)\/(?:[\w.+-]+\+)?xml\s*(?:;|$)/i;

/**
 * The XML of an import request: a raw body of an XML type, or the multipart field `file` (read by readMultipart,
 * bounded). Any other type (text/plain, a form) is 415 before the body is read: it is not an import a client meant,
 * and those are the types a page of another site can make a browser send without asking.
 */
async function uploadedXml(
  c: Context<TenantEnv>,
  uploadLimit: number,
): Promise<{ xml: string; fields: Record<string, string>; fileName?: string }> {
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith("multipart/form-data") && !XML_TYPE.test(type)) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type ${type ? `'${type.slice(0, 100)}'` : "(none)"} is not an import: send application/xml or multipart/form-data with the field 'file'`,
    );
  }
  if (type.startsWith("multipart/form-data")) {
    const { file, fields } = await readMultipart(c.req.raw, uploadLimit);
    if (!file) throw invalid("file", "the multipart upload has no file field named 'file'");
    return { xml: decodeXml(file.bytes), fields, fileName: file.name };
  }
  const xml = decodeXml(new Uint8Array(await c.req.arrayBuffer()));
  if (!xml.trim())
    throw invalid("body", "send the Open Exchange XML as the request body or as the multipart field 'file'");
  return { xml, fields: {} };
}

const ImportQuery = z.strictObject({
  format: z
    .enum(["xml", "csv"])
    .optional()
    .describe("xml (default): Open Exchange XML replacing the model; csv: Archi's CSV files merged into it"),
});
const ExportFormatQuery = ExportQuery.extend({
  format: z
    .enum(["xml", "csv", "html"])
    .optional()
    .describe(
      "xml (default): Open Exchange XML; csv: a ZIP of Archi's elements.csv, relations.csv, properties.csv; html: a ZIP of the static HTML report",
    ),
});

/** A ZIP or CSV body of a CSV import: the multipart files (up to three, or one ZIP), or a raw ZIP or CSV body. */
const CSV_BODY = /^(?:application\/(?:zip|x-zip-compressed)|text\/csv)\s*(?:;|$)/i;

async function uploadedCsv(c: Context<TenantEnv>, uploadLimit: number) {
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    const { files } = await readMultipart(c.req.raw, uploadLimit, { files: 3 });
    return files;
  }
  if (!CSV_BODY.test(type)) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type ${type ? `'${type.slice(0, 100)}'` : "(none)"} is not a CSV import: send multipart/form-data with Archi's three files (or one ZIP of them), or an application/zip body`,
    );
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  return [{ name: type.startsWith("text/csv") ? "elements.csv" : "upload.zip", bytes }];
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

export function workspaceFileCreator(opts: TransferOptions) {
  return async (ctx: RequestContext, input: CreateWorkspaceInput) => {
    const { path: file, ...rest } = input;
    return createWorkspaceFromXml({
      ctx,
      input: { ...rest, xml: await readAllowedFile(file ?? "", opts.importRoots ?? []) },
    });
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
      await createWorkspaceFromXml({
        ctx: c.var.ctx,
        input: { name, description: fields.description ?? null, organization_id: fields.organization_id, xml },
      }),
      201,
    );
  });

  registerRoute(
    app,
    {
      method: "post",
      path: "/api/import",
      tags,
      operationId: "importModel",
      description:
        "`format=xml` (default): replaces the active workspace's model by an Open Exchange XML file (raw body or multipart field `file`). `format=csv`: merges Archi's CSV files (multipart: `elements.csv`, `relations.csv`, `properties.csv` with any prefix, or one ZIP of them; or an `application/zip` body) with Archi's semantics: an existing ID is updated, a new one created; all or nothing, one change group.",
      query: ImportQuery,
      rawBody: {
        "application/xml": z.string(),
        "application/zip": z.string().openapi({ format: "binary" }),
        // A plain OpenAPI schema, not zod: the form is read by readMultipart as it streams, with its limits.
        "multipart/form-data": {
          type: "object",
          properties: { file: { type: "string", format: "binary" } },
          required: ["file"],
        },
      },
      output: { schema: ImportResult, description: "Imported: counts and warnings" },
    },
    async (c, { query }) => {
      if (query.format === "csv") {
        const files = await uploadedCsv(c, opts.uploadLimit);
        return importCsv({ ctx: c.var.ctx, input: { files, maxBytes: opts.uploadLimit * 4 } });
      }
      const { xml, fileName } = await uploadedXml(c, opts.uploadLimit);
      return importModel({ ctx: c.var.ctx, input: { xml, fileName } });
    },
  );

  registerRoute(
    app,
    {
      method: "get",
      path: "/api/export",
      tags,
      operationId: "exportModel",
      description:
        "The model as Open Exchange XML (or with `format=csv` as a ZIP of Archi's three CSV files, with `format=html` as a ZIP of a static HTML report: model tree, views with clickable elements, a page per element and relationship, search; works offline); with `version`, as it was at that version of the workspace.",
      query: ExportFormatQuery,
      output: {
        raw: {
          200: {
            description:
              "Open Exchange XML, or a ZIP of elements.csv, relations.csv and properties.csv, or the HTML report's ZIP",
            content: { "application/xml": z.string(), "application/zip": z.string().openapi({ format: "binary" }) },
          },
        },
      },
    },
    async (c, { query }) => {
      const { format, ...rest } = query;
      if (format === "html") return zipResponse(await exportReport({ ctx: c.var.ctx, input: rest }));
      if (format === "csv") return zipResponse(await exportCsv({ ctx: c.var.ctx, input: rest }));
      const { body, fileName } = await exportModelStream({ ctx: c.var.ctx, input: rest });
      return c.body(body, 200, {
        "content-type": "application/xml; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
      });
    },
  );

  registerRoute(
    app,
    {
      method: "get",
      path: "/api/export/zip",
      tags,
      operationId: "exportZip",
      description: "The XML and one SVG per view; with `version`, as they were at that version of the workspace.",
      query: ExportQuery,
      output: {
        raw: {
          200: {
            description: "ZIP of the XML and one SVG per view",
            content: { "application/zip": z.string().openapi({ format: "binary" }) },
          },
        },
      },
    },
    async (c, { query }) => {
      const { fileName, body } = await exportZip({ ctx: c.var.ctx, input: query });
      return new Response(body, {
        status: 200,
        headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${fileName}"` },
      });
    },
  );

  registerRoute(
    app,
    {
      method: "get",
      path: "/api/views/{id}/image",
      tags: ["Views"],
      operationId: "renderView",
      params: IdParam,
      query: ViewImageQuery,
      output: {
        raw: {
          200: {
            description:
              "The view in ArchiMate notation: SVG (default) or PNG drawn on the server with the project's fonts",
            content: {
              "image/svg+xml": z.string(),
              "image/png": z.string().openapi({ format: "binary" }),
            },
          },
        },
      },
    },
    async (c, { params, query }) => {
      const format = parseImageFormat(query.format, "svg");
      if (format === "svg" && query.scale !== undefined) {
        throw invalid("scale", "only a PNG has a scale; an SVG scales itself");
      }
      const image = await renderViewImage({
        ctx: c.var.ctx,
        input: {
          ...params,
          format,
          scale: query.scale,
          version: query.version,
          color_by: query.color_by,
          palette: query.palette,
        },
      });
      return imageResponse(c, image);
    },
  );

  registerRoute(
    app,
    {
      method: "get",
      path: "/api/views/{id}/diff-image",
      tags: ["Views", "History"],
      operationId: "renderViewDiff",
      description:
        "The view's changes between two points of history (`from`, `to`: a version id, a revision or `current`, the default for `to`), drawn on the server: the view at `to` with added objects green, removed ones red and ghosted (as they were at `from`), changed and moved ones amber (a moved node's former outline faint), and a legend.",
      params: IdParam,
      query: ViewDiffImageQuery,
      output: {
        raw: {
          200: {
            description: "The comparison picture: SVG (default) or PNG",
            content: {
              "image/svg+xml": z.string(),
              "image/png": z.string().openapi({ format: "binary" }),
            },
          },
        },
      },
    },
    async (c, { params, query }) => {
      const format = parseImageFormat(query.format, "svg");
      if (format === "svg" && query.scale !== undefined) {
        throw invalid("scale", "only a PNG has a scale; an SVG scales itself");
      }
      const image = await renderViewDiffImage({
        ctx: c.var.ctx,
        input: { ...params, format, scale: query.scale, from: query.from, to: query.to },
      });
      return imageResponse(c, image);
    },
  );
}

/** A drawn view as its HTTP answer; an SVG may not run or fetch anything when opened on its own. */
function imageResponse(c: Context<TenantEnv>, image: ViewImage) {
  if (typeof image.data !== "string") {
    return c.body(new Uint8Array(image.data), 200, { "content-type": "image/png" });
  }
  return c.body(image.data, 200, {
    "content-type": "image/svg+xml; charset=utf-8",
    "content-security-policy": "default-src 'none'; img-src 'self' https:; style-src 'unsafe-inline'",
  });
}
