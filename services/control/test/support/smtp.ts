import type { AddressInfo } from "node:net";
import { must } from "@ams/shared/testing";
import { SMTPServer } from "smtp-server";

/** One message as the SMTP server received it, with its text and HTML parts decoded. */
export type CapturedMail = {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
};

/**
 * A REAL SMTP server (the smtp-server package) on a random local port, capturing every message it accepts.
 * stop() closes it; the port then refuses connections, which is how the tests make sending fail.
 */
export async function startSmtpServer(opts: { port?: number } = {}) {
  const messages: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMessage(raw),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  /** Resolves once `count` messages have arrived in total. */
  async function waitFor(count: number, timeoutMs = 5000): Promise<CapturedMail[]> {
    const until = Date.now() + timeoutMs;
    while (messages.length < count) {
      if (Date.now() > until) throw new Error(`expected ${count} messages, got ${messages.length}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return messages;
  }
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor,
    /**
     * The message at `index` (0 = the first this server received), once it has arrived. The bound is generous: the
     * product sends some mail after answering (a password reset answers the same whether or not the address exists),
     * and a loaded two-core CI machine has taken more than 5 s; a message that arrives is returned at once.
     */
    async mail(index: number, timeoutMs = 20_000): Promise<CapturedMail> {
      return must((await waitFor(index + 1, timeoutMs))[index], `message ${index + 1}`);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpTestServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** Just enough MIME for nodemailer's output: headers, multipart/alternative, 7bit/quoted-printable/base64 bodies. */
function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const { headers, body } = splitHeaders(raw);
  const subject = decodeWords(headers.get("subject") ?? "");
  const type = headers.get("content-type") ?? "text/plain";
  const parts = type.startsWith("multipart/") ? splitMultipart(body, boundaryOf(type)) : [{ headers, body }];
  let text = "";
  let html = "";
  for (const part of parts) {
    const partType = part.headers.get("content-type") ?? "text/plain";
    const decoded = decodeBody(part.body, part.headers.get("content-transfer-encoding") ?? "7bit");
    if (partType.startsWith("text/plain")) text = decoded;
    if (partType.startsWith("text/html")) html = decoded;
  }
  return { subject, text, html };
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const cut = raw.indexOf("\r\n\r\n");
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const body = cut < 0 ? "" : raw.slice(cut + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function boundaryOf(type: string): string {
  const match = /boundary="?([^";]+)"?/i.exec(type);
  if (!match) throw new Error(`no boundary in ${type}`);
  return must(match[1], `the boundary in ${type}`);
}

function splitMultipart(body: string, boundary: string) {
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith("--"))
    .map((chunk) => splitHeaders(chunk.replace(/^\r\n/, "")));
}

function decodeBody(body: string, encoding: string): string {
  const enc = encoding.toLowerCase();
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") {
    const soft = body.replace(/=\r\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft.charAt(i), "utf8"));
    }
    return Buffer.from(bytes).toString("utf8").replace(/\r\n$/, "");
  }
  return body.replace(/\r\n$/, "");
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeBody(data.replace(/_/g, " "), "quoted-printable"),
    );
}
