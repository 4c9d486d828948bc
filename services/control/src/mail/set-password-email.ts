import { escapeHtml, headerSafe } from "./html.ts";
import type { MailMessage } from "./mailer.ts";

export type SetPasswordEmailInput = {
  to: string;
  name: string;
  username: string;
  /** created: a new account; reset: the platform admin reset the password. */
  reason: "created" | "reset";
  url: string;
  expiresAt: Date;
};

const formatDate = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The e-mail with a one-time link to choose a password, in plain text and HTML (every value escaped in HTML). */
export function composeSetPasswordEmail(input: SetPasswordEmailInput): MailMessage {
  const lead =
    input.reason === "created"
      ? `An account with the username "${input.username}" has been created for you.`
      : `The password of your account "${input.username}" has been reset by the administrator, and every session of it has ended.`;
  const expires = formatDate(input.expiresAt);
  const text = [
    `Hello ${input.name},`,
    "",
    lead,
    "",
    `Choose your password: ${input.url}`,
    "",
    `The link works once and expires on ${expires}. If you did not expect this e-mail, tell your administrator.`,
  ].join("\n");
  const e = escapeHtml;
  const html = `<!DOCTYPE html>
<html><body style="font-family:sans-serif;line-height:1.5">
<p>Hello ${e(input.name)},</p>
<p>${e(lead)}</p>
<p><a href="${e(input.url)}">Choose your password</a></p>
<p style="color:#666;font-size:90%">The link works once and expires on ${e(expires)}. If you did not expect this e-mail, tell your administrator.<br>${e(input.url)}</p>
</body></html>`;
  const subject = input.reason === "created" ? "Your new account" : "Your password was reset";
  return { to: input.to, subject: headerSafe(subject), text, html };
}
