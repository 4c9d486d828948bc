import { AppError } from "@ams/shared";
import type { z } from "zod";
import { recordCallerEvent, subjectOf } from "../audit/record.ts";
import { requireInWindow } from "../auth/rate-window.ts";
import { issueInvitation } from "../invitations/issue.ts";
import {
  getInvitationInOrganization,
  listInvitations as listInOrganization,
  revokeInvitation as revoke,
} from "../invitations/manage.ts";
import { acceptInvitation as accept, previewInvitation as preview } from "../invitations/redeem.ts";
import { type Registered, registerFromInvitation as register } from "../invitations/register.ts";
import type {
  AcceptedInvitation,
  CreateInvitationInput,
  DeliveryMode,
  Invitation,
  InvitationPreview,
  IssuedInvitation,
  ListInvitationsQuery,
  RegisterInput,
} from "../invitations/schemas.ts";
import { assertMayTouchOwnerRole, assertProfileRole } from "../organizations/profile-roles.ts";
import type { MemberRole } from "../organizations/schemas.ts";
import { LIMITS } from "../password-reset/limits.ts";
import type { MemberContext, PublicContext, SignedInContext } from "./context.ts";

const inviterOf = (ctx: SignedInContext) => ({
  userId: ctx.principal.userId,
  username: ctx.principal.username,
  name: ctx.principal.name,
});

/** The owner invites an e-mail address with a role (an earlier active invitation of the address is revoked). */
export async function createInvitation({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: CreateInvitationInput;
}): Promise<z.infer<typeof IssuedInvitation>> {
  assertProfileRole(ctx.env, input.role);
  assertMayTouchOwnerRole(ctx.role, [input.role]);
  const issued = await issueInvitation(ctx.invitations, {
    organizationId: ctx.organizationId,
    email: input.email,
    role: input.role,
    deliveryMode: input.delivery_mode,
    inviter: inviterOf(ctx),
  });
  await recordInvitationEvent(ctx, "invitation.created", issued);
  return issued;
}

function recordInvitationEvent(
  ctx: MemberContext,
  kind: "invitation.created" | "invitation.resent" | "invitation.revoked",
  invitation: { id: string; email: string; role: string },
): Promise<void> {
  return recordCallerEvent(ctx, {
    kind,
    organizationId: ctx.organizationId,
    details: { invitation_id: invitation.id, email: invitation.email, role: invitation.role },
  });
}

/** The organization's invitations, optionally of one status, without their links. */
export function listInvitations({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: ListInvitationsQuery;
}): Promise<z.infer<typeof Invitation>[]> {
  return listInOrganization(ctx.database, ctx.organizationId, input.status, ctx.clock());
}

export async function revokeInvitation({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { invitationId: string };
}): Promise<void> {
  await revoke(ctx.database, ctx.organizationId, input.invitationId, ctx.clock());
  const gone = await getInvitationInOrganization(ctx.database, ctx.organizationId, input.invitationId);
  await recordInvitationEvent(ctx, "invitation.revoked", gone);
}

/** Reissues an active (possibly expired or unsent) invitation, optionally with another delivery mode. */
export async function resendInvitation({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { invitationId: string; delivery_mode?: DeliveryMode };
}): Promise<z.infer<typeof IssuedInvitation>> {
  const old = await getInvitationInOrganization(ctx.database, ctx.organizationId, input.invitationId);
  if (old.acceptedAt) throw new AppError("CONFLICT", "This invitation has been accepted already");
  if (old.revokedAt) throw new AppError("CONFLICT", "This invitation was revoked or replaced; create a new one");
  assertMayTouchOwnerRole(ctx.role, [old.role]);
  const issued = await issueInvitation(ctx.invitations, {
    organizationId: ctx.organizationId,
    email: old.email,
    role: old.role as MemberRole,
    deliveryMode: input.delivery_mode ?? (old.deliveryMode as DeliveryMode),
    inviter: inviterOf(ctx),
    replaces: old.id,
  });
  await recordInvitationEvent(ctx, "invitation.resent", issued);
  return issued;
}

/** The invitation behind a link, for the invited and verified address. */
export function previewInvitation({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { token: string };
}): Promise<z.infer<typeof InvitationPreview>> {
  return preview(ctx.database, input.token, ctx.principal, ctx.clock());
}

/** Accepts the invitation: the caller becomes a member with its role. */
export async function acceptInvitation({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { token: string };
}): Promise<z.infer<typeof AcceptedInvitation>> {
  const accepted = await accept(ctx.database, input.token, ctx.principal, ctx.clock());
  await recordCallerEvent(ctx, {
    kind: "invitation.accepted",
    organizationId: accepted.organization_id,
    target: subjectOf(ctx.principal),
    details: { role: accepted.role, already_member: accepted.already_member },
  });
  return accepted;
}

/**
 * An invited person without an account creates it from the link (anonymous; the token is the proof): the account,
 * the claim of the invitation and the membership in one transaction. The route then signs the person in.
 */
export async function registerFromInvitation({
  ctx,
  input,
}: {
  ctx: PublicContext;
  input: RegisterInput & { token: string; clientIp: string };
}): Promise<Registered> {
  await requireInWindow(
    ctx.database.db,
    `register-ip:${input.clientIp}`,
    LIMITS.registerPerIp,
    ctx.clock(),
    "Too many accounts created from this address; try again later",
  );
  const { token, clientIp: _ip, ...account } = input;
  return register(ctx.database, token, account, ctx.clock(), ctx.address ?? input.clientIp);
}
