import { escapeHtml, headerSafe } from "./html.ts";
import type { MailMessage } from "./mailer.ts";

export type InvitationEmailInput = {
  to: string;
  /** invitation: the address has an account; onboarding: one was just created at the identity provider. */
  kind: "invitation" | "onboarding";
  /** Password accounts (no identity provider): no account has this address yet; the link creates one. */
  accountMissing: boolean;
  organizationName: string;
  inviterName: string;
  role: string;
  acceptUrl: string;
  expiresAt: Date;
};

const formatDate = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The invitation e-mail in plain text and HTML. Every user-supplied value is escaped in the HTML part. */
export function composeInvitationEmail(input: InvitationEmailInput): MailMessage {
  const org = input.organizationName;
  const inviter = input.inviterName;
  const expires = formatDate(input.expiresAt);
  const note =
    input.kind === "onboarding"
      ? `An account has been created for you. You will receive a separate e-mail from the sign-in service to set your password and confirm your address; do that first, then open the link below.`
      : input.accountMissing
        ? `There is no account for ${input.to} yet: open the link below and choose "Create your account" (the link proves this address, no further confirmation needed). If you have an account with this address, sign in instead.`
        : `Sign in with the account of ${input.to} and open the link below.`;

  const text = [
    "Hello,",
    "",
    `${inviter} invited you to join the organization "${org}" as ${input.role}.`,
    "",
    note,
    "",
    `Accept the invitation: ${input.acceptUrl}`,
    "",
    `The link works once and expires on ${expires}. If you did not expect this invitation, ignore this e-mail.`,
  ].join("\n");

  const e = escapeHtml;
  const html = `<!DOCTYPE html>
<html><body style="font-family:sans-serif;line-height:1.5">
<p>Hello,</p>
<p><strong>${e(inviter)}</strong> invited you to join the organization <strong>${e(org)}</strong> as ${e(input.role)}.</p>
<p>${e(note)}</p>
<p><a href="${e(input.acceptUrl)}">Accept the invitation</a></p>
<p style="color:#666;font-size:90%">The link works once and expires on ${e(expires)}. If you did not expect this invitation, ignore this e-mail.<br>${e(input.acceptUrl)}</p>
</body></html>`;

  return { to: input.to, subject: headerSafe(`Invitation to join ${org}`), text, html };
}
