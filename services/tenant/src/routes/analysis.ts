import {
  AddToViewInput,
  AddToViewResult,
  addToView,
  analyzeImpact,
  Colouring,
  ColouringList,
  CreateColouringInput,
  DerivedQuery,
  DerivedResult,
  deleteColouring,
  deriveRelationships,
  GapImageQuery,
  GapQuery,
  GapResult,
  ImpactQuery,
  ImpactResult,
  listColourings,
  plateauGap,
  type RequestContext,
  renderPlateauGap,
  saveColouring,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Analysis"];

/** The workspace the gateway authorized (path :id); the context names it, anything else is not this workspace. */
function inWorkspace(ctx: RequestContext, id: string): RequestContext {
  if (ctx.workspaceId !== id) throw new AppError("NOT_FOUND", `Workspace '${id}' not found`);
  return ctx;
}

const ColouringParams = z.object({ id: z.string(), colouringId: z.string().min(1).max(100) });

/** Impact analysis, derived relationships and plateau gaps: reads over the model's own tables, always current. */
export function registerAnalysisRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/elements/{id}/impact",
      tags,
      operationId: "analyzeImpact",
      description:
        "The elements affected when this one changes (dependents), those it depends on (dependencies), or both, up " +
        "to `depth` relationships away, each with its shortest path, grouped by ArchiMate layer.",
      params: IdParam,
      query: ImpactQuery,
      output: { schema: ImpactResult, description: "The affected elements by layer" },
    },
    (c, { params, query }) => analyzeImpact({ ctx: c.var.ctx, input: { ...query, ...params } }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/elements/{id}/derived-relationships",
      tags,
      operationId: "deriveRelationships",
      description:
        "The relationships ArchiMate 3.1 derives from this element through chains of relationships (§5.7, Appendix " +
        "B), each with its chain and whether the derivation is certain or only potential. Never stored: add one with " +
        "POST /api/relationships.",
      params: IdParam,
      query: DerivedQuery,
      output: { schema: DerivedResult, description: "The derivable relationships, certain ones first" },
    },
    (c, { params, query }) => deriveRelationships({ ctx: c.var.ctx, input: { ...query, ...params } }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/analysis/gap",
      tags,
      operationId: "plateauGap",
      description:
        "What changes between two Plateau elements: the elements each is composed of or aggregates (added, removed, " +
        "kept), the relationships among them, and the Gap elements associated with both.",
      query: GapQuery,
      output: { schema: GapResult, description: "The difference" },
    },
    (c, { query }) => plateauGap({ ctx: c.var.ctx, input: query }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/analysis/gap/image",
      tags,
      operationId: "renderPlateauGap",
      description:
        "The difference between two plateaus drawn as a view laid out by layer, coloured as a heatmap (added green, " +
        "removed red, kept grey) with its legend; nothing is stored.",
      query: GapImageQuery,
      output: {
        raw: {
          200: {
            description: "SVG (default) or PNG",
            content: { "image/svg+xml": z.string(), "image/png": z.string().openapi({ format: "binary" }) },
          },
        },
      },
    },
    async (c, { query }) => {
      const image = await renderPlateauGap({ ctx: c.var.ctx, input: query });
      if (typeof image.data !== "string") {
        return c.body(new Uint8Array(image.data), 200, { "content-type": "image/png" });
      }
      return c.body(image.data, 200, {
        "content-type": "image/svg+xml; charset=utf-8",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      });
    },
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/views/{id}/elements",
      tags: ["Views"],
      operationId: "addToView",
      description:
        "Shows several elements on the view in one change: a node for each element not yet on it, and a connection " +
        "for each relationship between them and the view's elements; `layout: layered` lays the whole view out by " +
        "ArchiMate layer.",
      params: IdParam,
      body: AddToViewInput,
      output: { schema: AddToViewResult, status: 201, description: "The nodes and connections added" },
    },
    (c, { params, body }) => addToView({ ctx: c.var.ctx, input: { ...body, view_id: params.id } }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces/{id}/colourings",
      tags,
      operationId: "listColourings",
      description: "The workspace's saved colourings (a heatmap's property or metric and palette under a name).",
      params: IdParam,
      output: { schema: ColouringList, description: "Saved colourings by name" },
    },
    (c, { params }) => listColourings({ ctx: inWorkspace(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/colourings",
      tags,
      operationId: "saveColouring",
      description:
        "Saves a colouring for everyone in the workspace; one of the same name is replaced. `color_by` must be a " +
        "property of the workspace or a metric (422 otherwise), `palette` one of the heatmap's.",
      params: IdParam,
      body: CreateColouringInput,
      output: { schema: Colouring, status: 201, description: "Saved" },
    },
    (c, { params, body }) => saveColouring({ ctx: inWorkspace(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/workspaces/{id}/colourings/{colouringId}",
      tags,
      operationId: "deleteColouring",
      description: "Deletes a saved colouring; no view changes.",
      params: ColouringParams,
    },
    async (c, { params }) => {
      await deleteColouring({ ctx: inWorkspace(c.var.ctx, params.id), input: { colouringId: params.colouringId } });
    },
  );
}
