import { AuditPage, AuditQuery } from "../../../audit/schemas.ts";
import { controlRoute } from "../../../http/route.ts";
import { listPlatformAudit } from "../../../verbs/audit.ts";

export const platformListAuditRoute = controlRoute(
  {
    method: "get",
    path: "/api/platform/audit",
    operationId: "platformListAudit",
    tags: ["platform"],
    who: "signed-in",
    query: AuditQuery,
    output: { schema: AuditPage, description: "Audit events, newest first" },
  },
  ({ ctx, query }) => listPlatformAudit({ ctx, input: query }),
);
