import { AuditPage, AuditQuery } from "../../audit/schemas.ts";
import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { listOrganizationAudit } from "../../verbs/audit.ts";

export const organizationAuditRoute = controlRoute(
  {
    method: "get",
    path: "/api/organizations/{id}/audit",
    operationId: "listOrganizationAudit",
    tags: ["organizations"],
    who: "member",
    params: IdParam,
    query: AuditQuery,
    output: { schema: AuditPage, description: "The organization's audit events, newest first" },
  },
  ({ ctx, query }) => listOrganizationAudit({ ctx, input: query }),
);
