import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type SmtpTestServer, startSmtpServer } from "../../../services/control/test/support/smtp.ts";
import { SPEC_TOOLS } from "../../../services/mcp/test/support/tool-names.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { PASSWORDS, signedIn } from "./support/users.ts";

/**
 * Organization administration, invitations and personal API tokens in real Chromium against the real server, with
 * a real SMTP server capturing the invitation e-mail and the official MCP client using the configuration the page
 * handed out.
 */

let server: RunningServer;
let browser: Browser;
let smtp: SmtpTestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  [server, browser] = await Promise.all([
    startServer({ SMTP_URL: smtp.url, MAIL_FROM: "ArchiMate <no-reply@example.com>" }),
    launchChromium(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

describe("organization administration", () => {
  test("the owner invites an e-mail; the invitee follows the link, signs in, accepts and is a member with that role", async () => {
    const owner = await signedIn(browser, server.base, "archi");
    const page = owner.page;
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Organization" }).click();
    await page.getByRole("heading", { name: "Members" }).waitFor();
    await page.getByRole("table", { name: "Members" }).getByText("contrib", { exact: true }).waitFor();
    expect(await seriousViolations(page), "organization page").toEqual([]);
    // Teams belong to the session profile: the owner's sections here are Members and Audit, no Teams.
    const sections = page.getByRole("navigation", { name: "Organization administration" });
    await sections.getByRole("link", { name: "Audit" }).waitFor();
    expect(await page.getByRole("link", { name: "Teams" }).count()).toBe(0);

    await page.getByLabel("E-mail address").fill("open@example.com");
    await page.locator("#invite-role").selectOption("editor");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Invitation created" });
    await dialog.getByText("The invitation e-mail was sent to open@example.com.").waitFor();
    expect(await dialog.getByLabel("Invitation link").inputValue()).toMatch(/\/invitations\/.+/);
    expect(await seriousViolations(page), "invitation dialog").toEqual([]);
    await screenshot(page, "organization-invitation-sent");
    await dialog.getByRole("button", { name: "Done" }).click();
    await page.getByRole("table", { name: "Pending invitations" }).getByText("open@example.com").waitFor();
    await screenshot(page, "organization-members");

    const [mail] = await smtp.waitFor(1);
    expect(mail?.to).toEqual(["open@example.com"]);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/invitations\/[A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    expect(link, mail?.text).toBeTruthy();

    // The invitee, signed out, follows the link from the e-mail: they have an account, so "Sign in" (beside
    // "Create your account"), then back to the invitation.
    const invitee = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    invitee.setDefaultTimeout(20_000);
    const ip = await invitee.newPage();
    await ip.goto(link!);
    await ip.getByRole("heading", { name: "Create your account" }).waitFor();
    await ip.getByRole("link", { name: "Sign in", exact: true }).click();
    await ip.waitForURL(/\/login\?from=/);
    await ip.getByLabel("Username").fill("open");
    await ip.getByLabel("Password").fill(PASSWORDS.open!);
    await ip.getByRole("button", { name: "Sign in", exact: true }).click();
    await ip.waitForURL((u) => u.pathname.startsWith("/invitations/"));
    await ip
      .getByRole("button", { name: "Accept invitation" })
      .waitFor()
      .catch(async (err) => {
        throw new Error(`${err}\n${await ip.locator("main").textContent()}`);
      });
    expect(await ip.locator("main").textContent()).toContain("to join ArchiSurance as editor");
    expect(await seriousViolations(ip), "invitation page").toEqual([]);
    await screenshot(ip, "invitation-preview");
    await ip.getByRole("button", { name: "Accept invitation" }).click();
    await ip.getByText("You joined ArchiSurance as editor.").waitFor();

    // The link works once: opened again, the refusal says so.
    await ip.goto(link!);
    await ip.getByRole("heading", { name: "This invitation was already used" }).waitFor();
    expect(await seriousViolations(ip), "invitation already used").toEqual([]);
    await screenshot(ip, "invitation-refused-used");
    await invitee.close();

    await page.reload();
    const row = page.getByRole("table", { name: "Members" }).locator('tr[data-username="open"]');
    await row.waitFor();
    expect(await row.getByLabel("Role of open").inputValue()).toBe("editor");
    await owner.context.close();
  });

  test("an invitation for another address is refused with the reason and a way to switch account", async () => {
    const owner = await signedIn(browser, server.base, "archi");
    const created = await owner.page.request.post(
      `${server.base}/api/organizations/${await activeOrg(owner.page)}/invitations`,
      {
        headers: { origin: server.base },
        data: { email: "someone.else@example.com", role: "viewer", delivery_mode: "manual" },
      },
    );
    const { accept_url } = (await created.json()) as { accept_url: string };
    await owner.context.close();
    const other = await signedIn(browser, server.base, "user");
    await other.page.goto(accept_url);
    await other.page.getByRole("heading", { name: "This invitation is for another e-mail address" }).waitFor();
    await other.page.getByRole("button", { name: "Sign in with another account" }).waitFor();
    expect(await seriousViolations(other.page), "invitation for another address").toEqual([]);
    await screenshot(other.page, "invitation-refused-other-address");
    await other.context.close();
  });

  test("an editor sees the members but nothing to manage them with", async () => {
    const { context, page } = await signedIn(browser, server.base, "contrib");
    await page.getByRole("link", { name: "Organization" }).click();
    await page.getByRole("table", { name: "Members" }).getByText("archi", { exact: true }).waitFor();
    await page.getByText("Only owners add, change or remove members").waitFor();
    expect(await page.getByRole("button", { name: "Add member" }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Invitations" }).count()).toBe(0);
    expect(await page.getByRole("combobox").count()).toBe(0);
    expect(await page.getByRole("button", { name: /Remove|Leave/ }).count()).toBe(0);
    expect(await seriousViolations(page), "organization page as editor").toEqual([]);
    await screenshot(page, "organization-as-editor");
    await page.goto(`${server.base}/organization/teams`);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await context.close();
  });

  test("the last owner cannot leave, and is told why; roles change from the list", async () => {
    const { context, page } = await signedIn(browser, server.base, "archi");
    await page.goto(`${server.base}/organization`);
    await page.getByRole("button", { name: "Leave the organization" }).click();
    await page.getByRole("dialog", { name: "Leave the organization" }).getByRole("button", { name: "Leave" }).click();
    await page.getByText("You cannot leave: every organization needs at least one owner.").waitFor();
    await page.getByLabel("Role of user").selectOption("editor");
    await page.getByText("user is now editor.").waitFor();
    await page.getByLabel("Role of user").selectOption("viewer");
    await page.getByText("user is now viewer.").waitFor();
    await context.close();
  });

  test("the owner renames the organization", async () => {
    // open joined ArchiSurance above, so it switches to its own organization first.
    const { context, page } = await signedIn(browser, server.base, "open");
    await page.getByRole("combobox", { name: "Organization" }).selectOption({ label: "Open Org" });
    await page.getByRole("heading", { name: "Workspaces of Open Org" }).waitFor();
    await page.getByRole("link", { name: "Organization" }).click();
    await page.getByLabel("Organization name").fill("Open Org Renamed");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("heading", { name: "Open Org Renamed", level: 1 }).waitFor();
    await context.close();
  });
});

describe("personal API tokens", () => {
  test("the owner creates a token; an MCP client configured with exactly the copied text lists the tools", async () => {
    const { context, page } = await signedIn(browser, server.base, "archi", {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await page.getByRole("button", { name: /Demo Architect/ }).click();
    await page.getByRole("link", { name: "Settings and API tokens" }).click();
    await page.getByRole("heading", { name: "Personal API tokens" }).waitFor();
    await page.getByRole("link", { name: "Change password" }).waitFor();
    expect(await seriousViolations(page), "settings page").toEqual([]);
    await page.getByRole("button", { name: "New API token" }).click();
    await page.getByLabel("Name").fill("Claude at my desk");
    await page.getByRole("button", { name: "Create token" }).click();
    const dialog = page.getByRole("dialog", { name: "API token created" });
    const secret = await dialog.getByLabel("Token").inputValue();
    expect(secret).toMatch(/^ams_pat_/);
    expect(await seriousViolations(page), "token dialog").toEqual([]);
    await screenshot(page, "settings-token-created");
    await dialog.getByRole("button", { name: "Copy configuration" }).click();
    await dialog.getByRole("button", { name: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    await dialog.getByRole("button", { name: "Done" }).click();
    await page.getByRole("table", { name: "API tokens" }).getByText("Claude at my desk").waitFor();
    await screenshot(page, "settings-tokens");

    const config = JSON.parse(copied) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const entry = Object.values(config.mcpServers)[0]!;
    expect(entry.url).toBe(`${server.base}/mcp`);
    const client = new Client({ name: "web-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }),
    );
    const { tools } = await client.listTools();
    await client.close();
    const names = tools.map((t) => t.name);
    for (const name of SPEC_TOOLS) expect(names).toContain(name);
    expect(SPEC_TOOLS).toHaveLength(37);

    // Revoked, the same configuration no longer connects.
    await page.getByRole("button", { name: "Revoke Claude at my desk" }).click();
    await page.getByRole("dialog", { name: "Revoke API token" }).getByRole("button", { name: "Revoke" }).click();
    await page.getByText("No tokens.").waitFor();
    const refused = await fetch(entry.url, {
      method: "POST",
      headers: { ...entry.headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    await context.close();
  });
});

describe("personal settings", () => {
  test("the change-password page explains a wrong current password and a mismatch, and keeps the password", async () => {
    const { context, page } = await signedIn(browser, server.base, "user");
    await page.getByRole("button", { name: /Demo Viewer/ }).click();
    await page.getByRole("link", { name: "Change password" }).click();
    await page.getByRole("heading", { name: "Change your password" }).waitFor();
    expect(await seriousViolations(page), "change password page").toEqual([]);
    await page.getByLabel("Current password").fill(PASSWORDS.user!);
    await page.getByLabel("New password", { exact: true }).fill("a-new-password-for-user");
    await page.getByLabel("Repeat the new password").fill("a-different-repetition");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").getByText("The two new passwords differ.").waitFor();
    await page.getByLabel("Current password").fill("not-the-current-password");
    await page.getByLabel("Repeat the new password").fill("a-new-password-for-user");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").getByText("The current password is not correct.").waitFor();
    expect(await seriousViolations(page), "change password refused").toEqual([]);
    await screenshot(page, "change-password-refused");
    await context.close();
    // Refused changes changed nothing: the old password still signs in.
    const again = await signedIn(browser, server.base, "user");
    await again.context.close();
  });
});

async function activeOrg(page: import("playwright-core").Page): Promise<string> {
  const me = (await (await page.request.get(`${server.base}/api/me`)).json()) as { active_organization_id: string };
  return me.active_organization_id;
}
