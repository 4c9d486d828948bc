import {
  createValidationRule,
  deleteValidationRule,
  listValidationRules,
  type RequestContext,
  updateValidationRule,
  ValidateInput,
  ValidationResult,
  ValidationRule,
  ValidationRuleInput,
  ValidationRuleList,
  validateModel,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Validation"];
const RuleParams = z.object({ id: z.string(), ruleId: z.string().min(1).max(100) });

/** The workspace the gateway authorized (path :id); the context names it, anything else is not this workspace. */
function inWorkspace(ctx: RequestContext, id: string): RequestContext {
  if (ctx.workspaceId !== id) throw new AppError("NOT_FOUND", `Workspace '${id}' not found`);
  return ctx;
}

/** Model validation (built-in rules and the organization's own) and the organization's rules. */
export function registerValidationRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/validate",
      tags,
      operationId: "validateModel",
      description:
        "Checks the workspace's model against the built-in rules (relationships the ArchiMate 3.1 table does not " +
        "allow, references to missing objects, junction misuse, elements a view's viewpoint does not allow, elements " +
        "and relationships on no view, empty views, possible duplicates, nesting without a relationship, unused " +
        "property definitions; documentation missing when included) and the organization's enabled rules. Reads " +
        "only; every member may run it. The body is optional.",
      params: IdParam,
      body: ValidateInput,
      bodyOptional: true,
      output: { schema: ValidationResult, description: "The issues, errors first, and their counts" },
    },
    (c, { params, body }) => validateModel({ ctx: inWorkspace(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/organizations/{id}/validation-rules",
      tags,
      operationId: "listValidationRules",
      description: "The organization's own validation rules, in the order they were made (every member reads them).",
      params: IdParam,
      output: { schema: ValidationRuleList, description: "The rules" },
    },
    (c, { params }) => listValidationRules({ ctx: c.var.ctx, input: { organization_id: params.id } }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/organizations/{id}/validation-rules",
      tags,
      operationId: "createValidationRule",
      description:
        "Adds a rule (owners and admins): `{type, severity?, enabled?, ...}` with type required_property " +
        "{element_type, property}, allowed_values {element_type, property, values}, name_pattern {element_type, " +
        "pattern}, forbidden_relationship {source_type, relationship_type, target_type} or max_nesting {depth}. " +
        "Unknown types, element or relationship types and fields are a 422 naming them; a pattern is at most 200 " +
        "characters and may not repeat a group that itself repeats or has alternatives (catastrophic backtracking).",
      params: IdParam,
      body: ValidationRuleInput,
      output: { schema: ValidationRule, status: 201, description: "Created" },
    },
    (c, { params, body }) =>
      createValidationRule({ ctx: c.var.ctx, input: { organization_id: params.id, rule: body } }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/organizations/{id}/validation-rules/{ruleId}",
      tags,
      operationId: "updateValidationRule",
      description: "Replaces a rule (owners and admins), checked as on creation.",
      params: RuleParams,
      body: ValidationRuleInput,
      output: { schema: ValidationRule, description: "The rule as stored" },
    },
    (c, { params, body }) =>
      updateValidationRule({
        ctx: c.var.ctx,
        input: { organization_id: params.id, rule_id: params.ruleId, rule: body },
      }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/organizations/{id}/validation-rules/{ruleId}",
      tags,
      operationId: "deleteValidationRule",
      description: "Deletes a rule (owners and admins).",
      params: RuleParams,
    },
    async (c, { params }) => {
      await deleteValidationRule({ ctx: c.var.ctx, input: { organization_id: params.id, rule_id: params.ruleId } });
    },
  );
}
