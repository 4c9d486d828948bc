import { invitations, memberships, organizations } from "@ams/db";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../src/auth/secrets.ts";
import { createSmtpMailer } from "../src/mail/mailer.ts";
import type { Credentials, TestUser } from "./support/harness.ts";
import { createIdentityHarness, type IdentityHarness } from "./support/identity-harness.ts";
import { firstRow } from "./support/rows.ts";
import { type SmtpTestServer, startSmtpServer } from "./support/smtp.ts";

/**
 * Invitations with local accounts, end to end: the real gateway and routes on a real PostgreSQL database, e-mail
 * through nodemailer to a real SMTP server started here.
 */
const PUBLIC_URL = "https://models.example.test";
const MAIL_FROM = "ArchiMate Service <invites@models.example.test>";
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

let h: IdentityHarness;
let smtp: SmtpTestServer;
let owner: TestUser;
let ownerSession: Credentials;
let editorSession: Credentials;
let outsiderSession: Credentials;
let org: { id: string; name: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await createIdentityHarness({
    env: { PUBLIC_URL, MAIL_FROM, SMTP_URL: smtp.url, INVITATION_TTL_HOURS: "48" },
  });
  owner = await h.verifiedUser("inv-owner");
  const editor = await h.user("inv-editor");
  const outsider = await h.user("inv-outsider");
  org = await h.org(`Acme <script>alert("x")</script> & Co`, [
    [owner, "owner"],
    [editor, "editor"],
  ]);
  [ownerSession, editorSession, outsiderSession] = await Promise.all([
    h.session(owner),
    h.session(editor),
    h.session(outsider),
  ]);
}, 30_000);
afterAll(async () => {
  await h.close();
  await smtp.stop();
});

const invite = (body: Record<string, unknown>, as: Credentials = ownerSession, orgId = org.id) =>
  h.call("POST", `/api/organizations/${orgId}/invitations`, { as, body });
const tokenOf = (acceptUrl: string) => acceptUrl.split("/").pop()!;
const mailTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

describe("creating an invitation", () => {
  test("issues a one-time link, stores only its SHA-256 and sends text and HTML mail with every value escaped", async () => {
    const before = smtp.messages.length;
    const res = await invite({ email: "  Dana@Example.TEST ", role: "editor" });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      organization_id: org.id,
      email: "dana@example.test",
      role: "editor",
      delivery_mode: "both",
      delivery_kind: "invitation",
      status: "active",
      invited_by: owner.username,
    });
    expect(body.sent_at).not.toBeNull();
    expect(body.accept_url).toMatch(new RegExp(`^${PUBLIC_URL}/invitations/[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(body.accept_url);
    expect(new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()).toBe(48 * 3600 * 1000);

    const row = await firstRow(h.db.select().from(invitations).where(eq(invitations.id, body.id)), "the invitation");
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const mail = await smtp.mail(before);
    expect(mail.to).toEqual(["dana@example.test"]);
    expect(mail.raw).toContain("invites@models.example.test");
    expect(mail.subject).toBe(`Invitation to join ${org.name}`);
    expect(mail.text).toContain(`Accept the invitation: ${body.accept_url}`);
    expect(mail.text).toContain(org.name);
    expect(mail.html).toContain(`href="${body.accept_url}"`);
    expect(mail.html).toContain("Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co");
    expect(mail.html).not.toContain("<script>");
  });

  test("the inviter's name is escaped in the HTML part too", async () => {
    const evil = await h.verifiedUser("inv-evil");
    await h.db.execute(sql`update users set name = ${'<img src=x onerror="alert(1)">'} where id = ${evil.id}`);
    const evilOrg = await h.org("Evil Org", [[evil, "owner"]]);
    const before = smtp.messages.length;
    const res = await invite({ email: "victim@example.test", role: "viewer" }, await h.session(evil), evilOrg.id);
    expect(res.status).toBe(201);
    const mail = await smtp.mail(before);
    expect(mail.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(mail.html).not.toContain("<img");
    expect(mail.text).toContain('<img src=x onerror="alert(1)"> invited you');
  });

  test("listings never show the link or the delivery kind", async () => {
    const res = await h.call("GET", `/api/organizations/${org.id}/invitations`, { as: ownerSession });
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list.length).toBeGreaterThan(0);
    for (const item of list) {
      expect(item).not.toHaveProperty("accept_url");
      expect(item).not.toHaveProperty("delivery_kind");
      expect(Object.keys(item)).not.toContain("token");
    }
    const text = JSON.stringify(list);
    expect(text).not.toMatch(/\/invitations\/[A-Za-z0-9_-]{43}/);
  });

  test("inviting the same address again revokes the old invitation and its link", async () => {
    const first = await (await invite({ email: "erin@example.test", role: "viewer" })).json();
    const second = await (await invite({ email: "ERIN@example.test", role: "editor" })).json();
    expect(second.id).not.toBe(first.id);
    const rows = await h.db
      .select()
      .from(invitations)
      .where(and(eq(invitations.organizationId, org.id), sql`lower(${invitations.email}) = 'erin@example.test'`));
    expect(rows.filter((r) => r.revokedAt === null && r.acceptedAt === null).map((r) => r.id)).toEqual([second.id]);
    expect(rows.find((r) => r.id === first.id)?.revokedAt).not.toBeNull();
    const erin = await h.verifiedUser("erin", "erin@example.test");
    const erinSession = await h.session(erin);
    expect((await h.call("GET", `/api/invitations/${tokenOf(first.accept_url)}`, { as: erinSession })).status).toBe(
      410,
    );
    const preview = await h.call("GET", `/api/invitations/${tokenOf(second.accept_url)}`, { as: erinSession });
    expect(preview.status).toBe(200);
    expect(await preview.json()).toMatchObject({ role: "editor", email: "erin@example.test" });
  });

  test("one active invitation per (organization, lower(email)) holds at the data level", async () => {
    await invite({ email: "frank@example.test", role: "viewer" });
    const duplicate = h.db.insert(invitations).values({
      organizationId: org.id,
      email: "Frank@Example.test",
      role: "viewer",
      deliveryMode: "manual",
      tokenHash: sha256Hex("another"),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    await expect(duplicate).rejects.toThrow();
  });

  test("concurrent invitations of one address leave exactly one active", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => invite({ email: "gina@example.test", role: "viewer", delivery_mode: "manual" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    const active = await h.db
      .select()
      .from(invitations)
      .where(and(eq(invitations.email, "gina@example.test"), isNull(invitations.revokedAt)));
    expect(active).toHaveLength(1);
  });

  test("manual delivery sends nothing and returns the link; e-mail delivery returns no link", async () => {
    const before = smtp.messages.length;
    const manual = await (await invite({ email: "hank@example.test", role: "viewer", delivery_mode: "manual" })).json();
    expect(manual).toMatchObject({ delivery_kind: "manual", sent_at: null, delivery_mode: "manual" });
    expect(tokenOf(manual.accept_url)).toMatch(TOKEN);
    const emailOnly = await (
      await invite({ email: "ivy@example.test", role: "viewer", delivery_mode: "email" })
    ).json();
    expect(emailOnly).toMatchObject({ delivery_kind: "invitation", delivery_mode: "email" });
    expect(emailOnly).not.toHaveProperty("accept_url");
    expect(emailOnly.sent_at).not.toBeNull();
    await smtp.waitFor(before + 1);
    expect(mailTo("hank@example.test")).toHaveLength(0);
    expect(mailTo("ivy@example.test")).toHaveLength(1);
  });

  test("an address without a local account still gets the e-mail, telling them an account is needed", async () => {
    const before = smtp.messages.length;
    await invite({ email: "nobody-yet@example.test", role: "viewer" });
    const mail = await smtp.mail(before);
    expect(mail.text).toContain("There is no account for nobody-yet@example.test yet");
    const known = await h.verifiedUser("known", "known@example.test");
    expect(known.id).toBeTruthy();
    await invite({ email: "known@example.test", role: "viewer" });
    const second = await smtp.mail(before + 1);
    expect(second.text).not.toContain("There is no account");
    expect(second.text).toContain("Sign in with the account of known@example.test");
  });

  test("validation, role and membership are checked", async () => {
    expect((await invite({ email: "not-an-address", role: "viewer" })).status).toBe(422);
    expect((await invite({ email: "x@example.test", role: "platform_admin" })).status).toBe(422);
    expect((await invite({ email: "x@example.test", role: "viewer", delivery_mode: "pigeon" })).status).toBe(422);
    expect((await invite({ email: "x@example.test", role: "viewer" }, editorSession)).status).toBe(403);
    expect((await invite({ email: "x@example.test", role: "viewer" }, outsiderSession)).status).toBe(404);
    expect((await invite({ email: "x@example.test", role: "viewer" }, null)).status).toBe(401);
  });
});

describe("sending failures", () => {
  test("a dead SMTP server leaves sent_at null; resend later reissues and delivers", async () => {
    const flaky = await startSmtpServer();
    const port = flaky.port;
    const app = await createIdentityHarness({
      env: { PUBLIC_URL, MAIL_FROM },
      deps: () => ({ mailer: createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: MAIL_FROM }) }),
    });
    try {
      const o = await app.verifiedUser("flaky-owner");
      const o2 = await app.org("Flaky", [[o, "owner"]]);
      const session = await app.session(o);
      await flaky.stop();
      const res = await app.call("POST", `/api/organizations/${o2.id}/invitations`, {
        as: session,
        body: { email: "jill@example.test", role: "viewer" },
      });
      expect(res.status).toBe(201);
      const failed = await res.json();
      expect(failed.sent_at).toBeNull();
      expect(failed.accept_url).toBeDefined();
      expect(app.logged.map((l) => l.message)).toContain("invitation e-mail not sent");
      const listed = await (await app.call("GET", `/api/organizations/${o2.id}/invitations`, { as: session })).json();
      expect(listed).toEqual([expect.objectContaining({ id: failed.id, sent_at: null, status: "active" })]);

      const revived = await startSmtpServerOn(port);
      try {
        const resent = await app.call("POST", `/api/organizations/${o2.id}/invitations/${failed.id}/resend`, {
          as: session,
        });
        expect(resent.status).toBe(201);
        const body = await resent.json();
        expect(body.id).not.toBe(failed.id);
        expect(body.sent_at).not.toBeNull();
        const mail = await revived.mail(0);
        expect(mail.text).toContain(body.accept_url);
        expect(mail.text).not.toContain(failed.accept_url);
        const old = await firstRow(
          app.db.select().from(invitations).where(eq(invitations.id, failed.id)),
          "the first invitation",
        );
        expect(old.revokedAt).not.toBeNull();
      } finally {
        await revived.stop();
      }
    } finally {
      await app.close();
    }
  });
});

/** Restarts a capturing SMTP server on the port a stopped one used (retrying briefly while the port frees). */
async function startSmtpServerOn(port: number): Promise<SmtpTestServer> {
  for (let i = 0; ; i++) {
    try {
      return await startSmtpServer({ port });
    } catch (err) {
      if (i >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe("managing invitations", () => {
  test("revoke: 204, idempotent; the link answers 410; accepted ones are a conflict; unknown ids 404", async () => {
    const kim = await h.verifiedUser("kim", "kim@example.test");
    const kimSession = await h.session(kim);
    const inv = await (await invite({ email: "kim@example.test", role: "viewer" })).json();
    const path = `/api/organizations/${org.id}/invitations/${inv.id}`;
    expect((await h.call("DELETE", path, { as: editorSession })).status).toBe(403);
    expect((await h.call("DELETE", path, { as: ownerSession })).status).toBe(204);
    expect((await h.call("DELETE", path, { as: ownerSession })).status).toBe(204);
    const gone = await h.call("GET", `/api/invitations/${tokenOf(inv.accept_url)}`, { as: kimSession });
    expect(gone.status).toBe(410);
    expect((await gone.json()).detail).toMatch(/withdrawn/);
    expect((await h.call("POST", `${path}/resend`, { as: ownerSession })).status).toBe(409);
    const missing = `/api/organizations/${org.id}/invitations/${crypto.randomUUID()}`;
    expect((await h.call("DELETE", missing, { as: ownerSession })).status).toBe(404);
    expect((await h.call("DELETE", `/api/organizations/${org.id}/invitations/nope`, { as: ownerSession })).status).toBe(
      404,
    );

    const again = await (await invite({ email: "kim@example.test", role: "viewer" })).json();
    expect(
      (await h.call("POST", `/api/invitations/${tokenOf(again.accept_url)}/accept`, { as: kimSession })).status,
    ).toBe(200);
    const acceptedPath = `/api/organizations/${org.id}/invitations/${again.id}`;
    expect((await h.call("DELETE", acceptedPath, { as: ownerSession })).status).toBe(409);
    expect((await h.call("POST", `${acceptedPath}/resend`, { as: ownerSession })).status).toBe(409);
  });

  test("another organization's invitation cannot be touched through mine", async () => {
    const other = await h.verifiedUser("inv-other-owner");
    const otherOrg = await h.org("Other", [[other, "owner"]]);
    const theirs = await (
      await invite({ email: "liam@example.test", role: "viewer" }, await h.session(other), otherOrg.id)
    ).json();
    expect(
      (await h.call("DELETE", `/api/organizations/${org.id}/invitations/${theirs.id}`, { as: ownerSession })).status,
    ).toBe(404);
    expect(
      (await h.call("POST", `/api/organizations/${org.id}/invitations/${theirs.id}/resend`, { as: ownerSession }))
        .status,
    ).toBe(404);
  });

  test("resend may switch the delivery mode", async () => {
    const inv = await (await invite({ email: "mona@example.test", role: "viewer", delivery_mode: "email" })).json();
    const res = await h.call("POST", `/api/organizations/${org.id}/invitations/${inv.id}/resend`, {
      as: ownerSession,
      body: { delivery_mode: "manual" },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ delivery_mode: "manual", delivery_kind: "manual", sent_at: null });
  });
});

describe("preview and accept", () => {
  let nora: TestUser;
  let noraSession: Credentials;
  beforeAll(async () => {
    nora = await h.verifiedUser("nora", "Nora@Example.test");
    noraSession = await h.session(nora);
  });

  test("need credentials before anything else (401 even for a nonsense token)", async () => {
    const inv = await (await invite({ email: "nora@example.test", role: "viewer", delivery_mode: "manual" })).json();
    for (const token of [tokenOf(inv.accept_url), "nonsense"]) {
      expect((await h.call("GET", `/api/invitations/${token}`)).status).toBe(401);
      expect((await h.call("POST", `/api/invitations/${token}/accept`)).status).toBe(401);
      expect((await h.call("GET", `/api/invitations/${token}`, { as: { bearer: "forged" } })).status).toBe(401);
    }
  });

  test("404 for unknown tokens, 403 for another or an unverified address, 410 when expired", async () => {
    const inv = await (await invite({ email: "nora@example.test", role: "editor", delivery_mode: "manual" })).json();
    const token = tokenOf(inv.accept_url);
    expect((await h.call("GET", "/api/invitations/short", { as: noraSession })).status).toBe(404);
    expect((await h.call("GET", `/api/invitations/${"A".repeat(43)}`, { as: noraSession })).status).toBe(404);
    const wrong = await h.call("POST", `/api/invitations/${token}/accept`, { as: outsiderSession });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).detail).toMatch(/another e-mail address/);

    const unverified = await h.user("unverified-nora");
    await h.db.execute(sql`update users set email = 'nora2@example.test' where id = ${unverified.id}`);
    const inv2 = await (await invite({ email: "nora2@example.test", role: "viewer", delivery_mode: "manual" })).json();
    const res = await h.call("POST", `/api/invitations/${tokenOf(inv2.accept_url)}/accept`, {
      as: await h.session(unverified),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toMatch(/Verify your e-mail/);

    const preview = await h.call("GET", `/api/invitations/${token}`, { as: noraSession });
    expect(preview.status).toBe(200);
    expect(await preview.json()).toEqual({
      organization: { id: org.id, name: org.name },
      email: "nora@example.test",
      role: "editor",
      invited_by: expect.any(String),
      expires_at: inv.expires_at,
    });
    h.clock.advance(48 * 3600 * 1000 + 1000);
    try {
      const fresh = await h.session(nora);
      const expired = await h.call("POST", `/api/invitations/${token}/accept`, { as: fresh });
      expect(expired.status).toBe(410);
      expect((await expired.json()).detail).toMatch(/expired/);
      const listed = await (
        await h.call("GET", `/api/organizations/${org.id}/invitations`, { as: await h.session(owner) })
      ).json();
      expect(listed.find((i: { id: string }) => i.id === inv.id).status).toBe("expired");
    } finally {
      h.clock.advance(-(48 * 3600 * 1000 + 1000));
    }
  });

  test("accept makes the caller a member with the invited role; a second accept is 410", async () => {
    const inv = await (await invite({ email: "nora@example.test", role: "editor", delivery_mode: "manual" })).json();
    const token = tokenOf(inv.accept_url);
    const res = await h.call("POST", `/api/invitations/${token}/accept`, { as: noraSession });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ organization_id: org.id, role: "editor", already_member: false });
    const m = await firstRow(
      h.db
        .select()
        .from(memberships)
        .where(and(eq(memberships.organizationId, org.id), eq(memberships.userId, nora.id))),
      "nora's membership",
    );
    expect(m.role).toBe("editor");
    expect((await h.call("GET", `/api/organizations/${org.id}/members`, { as: noraSession })).status).toBe(200);
    const again = await h.call("POST", `/api/invitations/${token}/accept`, { as: noraSession });
    expect(again.status).toBe(410);
    expect((await again.json()).detail).toMatch(/already been accepted/);
    const row = await firstRow(h.db.select().from(invitations).where(eq(invitations.id, inv.id)), "the invitation");
    expect(row.acceptedBy).toBe(nora.id);
  });

  test("an existing membership is kept as it is", async () => {
    const inv = await (await invite({ email: "nora@example.test", role: "viewer", delivery_mode: "manual" })).json();
    const res = await h.call("POST", `/api/invitations/${tokenOf(inv.accept_url)}/accept`, { as: noraSession });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ organization_id: org.id, role: "editor", already_member: true });
  });

  test("ten concurrent accepts: exactly one succeeds", async () => {
    const olga = await h.verifiedUser("olga", "olga@example.test");
    const session = await h.session(olga);
    const inv = await (await invite({ email: "olga@example.test", role: "viewer", delivery_mode: "manual" })).json();
    const token = tokenOf(inv.accept_url);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h.call("POST", `/api/invitations/${token}/accept`, { as: session })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 410, 410, 410, 410, 410, 410, 410, 410, 410]);
    const rows = await h.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, org.id), eq(memberships.userId, olga.id)));
    expect(rows).toHaveLength(1);
  });

  test("a suspended organization cannot be joined", async () => {
    const paul = await h.verifiedUser("paul", "paul@example.test");
    const suspended = await h.org("Suspended Inc", [[owner, "owner"]]);
    const inv = await (
      await invite({ email: "paul@example.test", role: "viewer", delivery_mode: "manual" }, ownerSession, suspended.id)
    ).json();
    await h.db.update(organizations).set({ enabled: false }).where(eq(organizations.id, suspended.id));
    const res = await h.call("POST", `/api/invitations/${tokenOf(inv.accept_url)}/accept`, {
      as: await h.session(paul),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toMatch(/suspended/);
  });
});

describe("sign-in entry points without the identity provider (the default)", () => {
  test("login sends the browser to the local sign-in page, keeping only a same-site path; callback to /login", async () => {
    const res = await h.call("GET", `/api/auth/login?from=${encodeURIComponent("/models/1?tab=a")}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/login?from=${encodeURIComponent("/models/1?tab=a")}`);
    expect(res.headers.getSetCookie()).toEqual([]);
    for (const from of ["https://evil.example", "//evil.example", "/\\evil.example"]) {
      const refused = await h.call("GET", `/api/auth/login?from=${encodeURIComponent(from)}`);
      expect(refused.headers.get("location")).toBe("/login");
    }
    const callback = await h.call("GET", "/api/auth/callback?code=x&state=y");
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/login");
  });
});
