import {
  AddToViewInput,
  AddToViewResult,
  addToView,
  analyzeImpact,
  DerivedQuery,
  DerivedResult,
  deriveRelationships,
  ImpactQuery,
  ImpactResult,
} from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Analysis"];

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
}
