import { memberships, organizations } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { asc, eq } from "drizzle-orm";
import { auditByCaller, recordCallerEvent } from "../audit/record.ts";
import { isUuid } from "../gateway/resolve.ts";
import { isUniqueViolation } from "../http/db-errors.ts";
import { requireOrganization } from "../organizations/existing.ts";
import * as members from "../organizations/members.ts";
import { assertProfileRole } from "../organizations/profile-roles.ts";
import {
  type CreateOrganizationInput,
  type Member,
  type MemberRole,
  type Organization,
  toOrganization,
} from "../organizations/schemas.ts";
import { freeSlug } from "../organizations/slug.ts";
import type { SignedInContext } from "./context.ts";

/**
 * The platform administrator's verbs (the gateway lets only Admin call them): every organization's metadata,
 * creating, suspending and deleting organizations, and any organization's members. Never its content.
 */
export async function listAllOrganizations({ ctx }: { ctx: SignedInContext }): Promise<Organization[]> {
  const rows = await ctx.database.db
    .select()
    .from(organizations)
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
  return rows.map(toOrganization);
}

/** Organizations are never self-provisioned: only Admin creates them, optionally with a first owner. */
export async function createOrganization({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: CreateOrganizationInput;
}): Promise<Organization> {
  const owner = input.owner_username ? await ctx.directory.findByUsername(input.owner_username) : null;
  if (input.owner_username && !owner) throw invalid("owner_username", "no account has this username");
  const now = ctx.clock();
  const create = ctx.database.db.transaction(async (tx) => {
    if (input.slug) {
      const [taken] = await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.slug, input.slug));
      if (taken) throw new AppError("CONFLICT", `The slug '${input.slug}' is taken`);
    }
    const slug = input.slug ?? (await freeSlug(tx, input.name));
    const [org] = await tx.insert(organizations).values({ name: input.name, slug, createdAt: now }).returning();
    if (!org) throw new AppError("INTERNAL", "The organization was not created");
    if (owner) {
      await tx.insert(memberships).values({ organizationId: org.id, userId: owner.id, role: "owner", createdAt: now });
    }
    await recordCallerEvent(
      ctx,
      {
        kind: "organization.created",
        organizationId: org.id,
        target: owner && { id: owner.id, name: owner.username },
        details: { name: org.name, slug: org.slug },
      },
      tx,
    );
    return org;
  });
  const row = await create.catch((err: unknown) => {
    // Two creations racing for one slug: the unique index decides.
    throw isUniqueViolation(err) ? new AppError("CONFLICT", "The slug is taken; try again") : err;
  });
  return toOrganization(row);
}

/** Suspends ({enabled:false}) or reactivates an organization; its data is untouched. */
export function setOrganizationEnabled({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string; enabled: boolean };
}): Promise<Organization> {
  return updatePlatformOrganization({ ctx, input });
}

/** Suspends, reactivates and/or renames any organization (the Admin's rename; owners rename their own). */
export async function updatePlatformOrganization({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string; enabled?: boolean; name?: string };
}): Promise<Organization> {
  const changes = {
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    ...(input.name === undefined ? {} : { name: input.name }),
  };
  const [row] = isUuid(input.id)
    ? await ctx.database.db.update(organizations).set(changes).where(eq(organizations.id, input.id)).returning()
    : [];
  if (!row) throw new AppError("NOT_FOUND", "Organization not found");
  await recordCallerEvent(ctx, { kind: "organization.updated", organizationId: row.id, details: changes });
  return toOrganization(row);
}

/**
 * Deletes an organization. The foreign keys cascade to its workspaces (and through them every model table),
 * memberships and API tokens; selections pointing at it are cleared.
 */
export async function deleteOrganization({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string };
}): Promise<void> {
  const deleted = isUuid(input.id)
    ? await ctx.database.db
        .delete(organizations)
        .where(eq(organizations.id, input.id))
        .returning({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    : [];
  const [gone] = deleted;
  if (!gone) throw new AppError("NOT_FOUND", "Organization not found");
  await recordCallerEvent(ctx, {
    kind: "organization.deleted",
    organizationId: gone.id,
    details: { name: gone.name, slug: gone.slug },
  });
}

export async function listOrganizationMembers({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string };
}): Promise<Member[]> {
  return members.listMembers(ctx.database, await requireOrganization(ctx.database, input.id));
}

/** Admin adds any existing account, itself included (that is how Admin gets content access). */
export async function addOrganizationMember({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string; username: string; role: MemberRole };
}): Promise<Member> {
  assertProfileRole(ctx.env, input.role);
  const organizationId = await requireOrganization(ctx.database, input.id);
  return members.addMember(ctx.database, ctx.directory, organizationId, input, ctx.clock(), auditByCaller(ctx));
}

export async function updateOrganizationMember({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string; userId: string; role: MemberRole };
}): Promise<Member> {
  assertProfileRole(ctx.env, input.role);
  const organizationId = await requireOrganization(ctx.database, input.id);
  return members.updateMemberRole(ctx.database, organizationId, input.userId, input.role, auditByCaller(ctx));
}

export async function removeOrganizationMember({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string; userId: string };
}): Promise<void> {
  const organizationId = await requireOrganization(ctx.database, input.id);
  await members.removeMember(ctx.database, organizationId, input.userId, ctx.clock(), auditByCaller(ctx));
}
