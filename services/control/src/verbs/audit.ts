import { listAuditEvents } from "../audit/list.ts";
import type { AuditPage, AuditQuery } from "../audit/schemas.ts";
import type { MemberContext, SignedInContext } from "./context.ts";

export type { AuditKind } from "../audit/kinds.ts";

/** The platform admin's audit: every account and organization event (the gateway lets only Admin call it). */
export function listPlatformAudit({ ctx, input }: { ctx: SignedInContext; input: AuditQuery }): Promise<AuditPage> {
  return listAuditEvents(ctx.database, input);
}

/** One organization's audit (owners; admins in the session profile: the gateway checks org:audit). */
export function listOrganizationAudit({ ctx, input }: { ctx: MemberContext; input: AuditQuery }): Promise<AuditPage> {
  return listAuditEvents(ctx.database, input, { organizationId: ctx.organizationId });
}
