import { auditByCaller } from "../audit/record.ts";
import * as members from "../organizations/members.ts";
import { assertMayTouchOwnerRole, assertProfileRole } from "../organizations/profile-roles.ts";
import type { Member, MemberRole } from "../organizations/schemas.ts";
import type { MemberContext } from "./context.ts";

/** The members of the caller's organization with role and username, owners first. */
export function listMembers({ ctx }: { ctx: MemberContext }): Promise<Member[]> {
  return members.listMembers(ctx.database, ctx.organizationId);
}

/** Adds an existing account by username; 422 when there is none (invite by e-mail instead), 409 when a member. */
export function addMember({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { username: string; role: MemberRole };
}): Promise<Member> {
  assertProfileRole(ctx.env, input.role);
  assertMayTouchOwnerRole(ctx.role, [input.role]);
  return members.addMember(ctx.database, ctx.directory, ctx.organizationId, input, ctx.clock(), auditByCaller(ctx));
}

/** Changes a member's role; demoting the last owner is refused (409); only owners make or unmake owners (403). */
export function updateMemberRole({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { userId: string; role: MemberRole };
}): Promise<Member> {
  assertProfileRole(ctx.env, input.role);
  return members.updateMemberRole(
    ctx.database,
    ctx.organizationId,
    input.userId,
    input.role,
    auditByCaller(ctx),
    ctx.role,
  );
}

/**
 * Removes a member (self-removal included) and their API tokens of the organization; never the last owner, and an
 * owner only when an owner asks.
 */
export function removeMember({ ctx, input }: { ctx: MemberContext; input: { userId: string } }): Promise<void> {
  return members.removeMember(
    ctx.database,
    ctx.organizationId,
    input.userId,
    ctx.clock(),
    auditByCaller(ctx),
    ctx.role,
  );
}
