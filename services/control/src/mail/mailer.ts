import type { Transporter } from "nodemailer";

export type MailMessage = { to: string; subject: string; text: string; html: string };

/** Sends one message or throws; callers decide what a failure means (an invitation keeps sent_at null). */
export type Mailer = { send(message: MailMessage): Promise<void> };

/** A bounded wait, so a dead or stalled SMTP server fails the send instead of hanging the request. */
const SMTP_TIMEOUT_MS = 10_000;

/** nodemailer over SMTP_URL (smtp://host:port, smtps:// for implicit TLS, credentials in the URL's user info). */
export function createSmtpMailer(opts: { url: string; from: string }): Mailer {
  const url = new URL(opts.url);
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new Error(`SMTP_URL must be smtp:// or smtps://, got ${url.protocol}`);
  }
  const options = {
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 25,
    secure: url.protocol === "smtps:",
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  };
  // nodemailer is loaded with the first message, not with the service: most processes never send one, and it holds
  // about 5 MB of heap.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import("nodemailer").then((m) => m.default.createTransport(options));
      await (await transport).sendMail({ from: opts.from, ...message });
    },
  };
}

/** Without SMTP_URL nothing can be sent: every send fails, so invitations stay unsent and can be resent later. */
export const unconfiguredMailer: Mailer = {
  async send() {
    throw new Error("E-mail is not configured (SMTP_URL is not set)");
  },
};

export function mailerFromEnv(env: { SMTP_URL?: string; MAIL_FROM: string }): Mailer {
  return env.SMTP_URL ? createSmtpMailer({ url: env.SMTP_URL, from: env.MAIL_FROM }) : unconfiguredMailer;
}
