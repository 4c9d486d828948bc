import { users } from "@ams/db";
import { eq } from "drizzle-orm";
import { composeInvitationEmail } from "../mail/invitation-email.ts";
import { type IdentityAdmin, ONBOARDING_ACTIONS } from "../sso/identity-admin.ts";
import type { DeliveryKind } from "./schemas.ts";
import type { InvitationServices } from "./services.ts";

export type Delivery = {
  email: string;
  role: string;
  deliveryMode: "both" | "email" | "manual";
  expiresAt: Date;
  organizationName: string;
  inviterName: string;
  acceptUrl: string;
};

/**
 * Sends an invitation (after its row is committed: the two are not atomic, so a failure leaves sent_at null and
 * the invitation is resent, not lost). manual sends nothing and provisions nothing. Otherwise:
 * - with the identity provider's admin client, an address without an identity gets one (enabled, no credentials)
 *   and the provider e-mails it the profile, password and e-mail-verification actions; when that first e-mail
 *   fails the new identity is removed again and nothing else is sent ("onboarding");
 * - then our invitation e-mail goes out ("invitation", or "onboarding" for a just-provisioned identity).
 * With password accounts (no identity provider, either profile) an address without an account gets the same e-mail,
 * saying that the link creates the account (POST /api/invitations/:token/register: the link proves the address);
 * the link works once, until it expires, resend issues a new one.
 * Never throws: `sent` says whether our e-mail went out.
 */
export async function deliverInvitation(
  s: InvitationServices,
  d: Delivery,
): Promise<{ kind: DeliveryKind; sent: boolean }> {
  if (d.deliveryMode === "manual") return { kind: "manual", sent: false };
  let kind: DeliveryKind = "invitation";
  try {
    let accountMissing = false;
    if (s.identityAdmin) {
      if (!(await s.identityAdmin.findByEmail(d.email))) {
        kind = "onboarding";
        await provisionIdentity(s.identityAdmin, s, d);
      }
    } else if (!s.settings.ssoEnabled) {
      const [row] = await s.database.db.select({ id: users.id }).from(users).where(eq(users.email, d.email));
      accountMissing = !row;
    }
    await s.mailer.send(
      composeInvitationEmail({
        to: d.email,
        kind: kind === "onboarding" ? "onboarding" : "invitation",
        accountMissing,
        organizationName: d.organizationName,
        inviterName: d.inviterName,
        role: d.role,
        acceptUrl: d.acceptUrl,
        expiresAt: d.expiresAt,
      }),
    );
    return { kind, sent: true };
  } catch (err) {
    s.log.error("invitation e-mail not sent", { err });
    return { kind, sent: false };
  }
}

async function provisionIdentity(admin: IdentityAdmin, s: InvitationServices, d: Delivery): Promise<void> {
  const created = await admin.createUser({ username: d.email, email: d.email });
  try {
    await admin.executeActionsEmail(created.id, ONBOARDING_ACTIONS, {
      lifespanSeconds: s.settings.ttlHours * 3600,
      clientId: s.settings.webClientId,
      // Back to the service, not to the accept link: the clear token stays out of the provider's hands.
      redirectUri: `${s.settings.publicUrl}/`,
    });
  } catch (err) {
    try {
      await admin.deleteUser(created.id);
    } catch (cleanup) {
      s.log.error(`could not remove identity ${created.id} after its onboarding e-mail failed`, { err: cleanup });
    }
    throw err;
  }
}
