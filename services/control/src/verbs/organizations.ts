import { memberships, organizations, sessions, users } from "@ams/db";
import { AppError } from "@ams/shared";
import { asc, eq } from "drizzle-orm";
import { resolveActive } from "../gateway/resolve.ts";
import {
  type ActiveSelection,
  type MyOrganizations,
  type Organization,
  toOrganization,
  type UpdateOrganizationInput,
} from "../organizations/schemas.ts";
import { activateOrganization as selectOrganization } from "../organizations/selection.ts";
import type { MemberContext, SignedInContext } from "./context.ts";

/**
 * The caller's memberships with role and which one is active. Admin has none by design (the realm role is no
 * membership), so the list is empty for it. An API token sees only its own organization.
 */
export async function listMyOrganizations({ ctx }: { ctx: SignedInContext }): Promise<MyOrganizations> {
  const { principal } = ctx;
  const rows = await ctx.database.db
    .select({ org: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, principal.userId))
    .orderBy(asc(organizations.name), asc(organizations.id));
  const activeId = principal.apiToken
    ? principal.apiToken.organizationId
    : ((await resolveActive(ctx.database, principal.userId, principal.activeOrganizationId))?.organizationId ?? null);
  const visible = principal.apiToken ? rows.filter((r) => r.org.id === activeId) : rows;
  return {
    organizations: visible.map((r) => ({ ...toOrganization(r.org), role: r.role, active: r.org.id === activeId })),
    active_organization_id: visible.some((r) => r.org.id === activeId) ? activeId : null,
  };
}

/**
 * Changes the organization the gateway resolved (org:rename: owners and admins): its name, the drafts settings
 * (approvals a draft needs, assistants write to drafts), and whether its members must use two-factor (owners only;
 * an owner turns it on only with two-factor on their own account, so the rule cannot lock them out).
 */
export async function updateOrganization({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: UpdateOrganizationInput;
}): Promise<Organization> {
  if (input.require_two_factor !== undefined) {
    if (ctx.role !== "owner") throw new AppError("FORBIDDEN", "Only an owner sets the two-factor rule");
    const [me] = await ctx.database.db.select().from(users).where(eq(users.id, ctx.principal.userId));
    if (input.require_two_factor && !me?.twoFactorEnabled) {
      throw new AppError(
        "CONFLICT",
        "Turn on two-factor for your own account first (Settings, Two-factor authentication)",
      );
    }
  }
  const [row] = await ctx.database.db
    .update(organizations)
    .set({
      name: input.name,
      requireTwoFactor: input.require_two_factor,
      draftApprovalsRequired: input.draft_approvals_required,
      assistantsWriteToDrafts: input.assistants_write_to_drafts,
    })
    .where(eq(organizations.id, ctx.organizationId))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", "Organization not found");
  return toOrganization(row);
}

/**
 * Makes the organization the caller's active one, with its first workspace (or none); in the session profile it
 * also becomes the session's activeOrganizationId.
 */
export async function activateOrganization({ ctx }: { ctx: MemberContext }): Promise<ActiveSelection> {
  const { principal } = ctx;
  const selection = await selectOrganization(ctx.database.db, principal.userId, ctx.organizationId, ctx.clock());
  if (principal.sessionId) {
    await ctx.database.db
      .update(sessions)
      .set({ activeOrganizationId: ctx.organizationId, updatedAt: ctx.clock() })
      .where(eq(sessions.id, principal.sessionId));
    ctx.session?.lookup.forgetUser(principal.userId);
  }
  return selection;
}
