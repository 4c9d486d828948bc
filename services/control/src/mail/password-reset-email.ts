import { escapeHtml, headerSafe } from "./html.ts";
import type { MailMessage } from "./mailer.ts";

export type PasswordResetEmailInput = {
  to: string;
  /** The name the account goes by, to greet with. */
  name: string;
  username: string;
  resetUrl: string;
  validMinutes: number;
};

/** The "forgot password" e-mail in plain text and HTML (both profiles). Every user value is escaped in the HTML. */
export function composePasswordResetEmail(input: PasswordResetEmailInput): MailMessage {
  const lines = [
    `Hello ${input.name},`,
    "",
    `Someone (hopefully you) asked to set a new password for the account "${input.username}".`,
    "",
    `Set a new password: ${input.resetUrl}`,
    "",
    `The link works once and for ${input.validMinutes} minutes. Setting a new password signs the account out ` +
      "everywhere. If you did not ask for this, ignore this e-mail: your password stays as it is.",
  ];
  const e = escapeHtml;
  const html = `<!DOCTYPE html>
<html><body style="font-family:sans-serif;line-height:1.5">
<p>Hello ${e(input.name)},</p>
<p>Someone (hopefully you) asked to set a new password for the account <strong>${e(input.username)}</strong>.</p>
<p><a href="${e(input.resetUrl)}">Set a new password</a></p>
<p style="color:#666;font-size:90%">The link works once and for ${input.validMinutes} minutes. Setting a new password signs the account out everywhere. If you did not ask for this, ignore this e-mail: your password stays as it is.<br>${e(input.resetUrl)}</p>
</body></html>`;
  return { to: input.to, subject: headerSafe("Set a new password"), text: lines.join("\n"), html };
}

/**
 * The page a reset link opens. The token travels in the fragment: browsers never send it to a server, not even
 * in a Referer, so it stays out of access logs and third-party requests.
 */
export function resetPageUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/reset-password#token=${encodeURIComponent(token)}`;
}
