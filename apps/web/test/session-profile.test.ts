import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";

/**
 * The same browser UI on a server in the session profile (AUTH_MODE=session, better-auth): the sign-in page uses the
 * session sign-in, and organization roles are owner/admin/member — an admin manages members like an owner.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ AUTH_MODE: "session" }), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signInAs(username: string, password: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${server.base}/login`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  const signIn = page.waitForResponse((r) => r.url().endsWith("/auth/sign-in/username"));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  expect((await signIn).status()).toBe(200);
  await page.waitForURL((url) => url.pathname !== "/login");
  return { context, page };
}

describe("the browser UI in the session profile", () => {
  test("sign-in through the session cookie; member roles are owner, admin and member; an admin manages members", async () => {
    const archi = await signInAs("archi", "archi-dev-password");
    const cookies = await archi.context.cookies();
    expect(cookies.some((c) => c.name.endsWith("session_token") && c.httpOnly)).toBe(true);
    expect(cookies.some((c) => c.name === "access_token")).toBe(false);
    await archi.page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Organization" }).click();
    await archi.page.getByRole("heading", { name: "Members" }).waitFor();
    const offered = await archi.page
      .locator("#add-member-role option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(["owner", "admin", "member"]);
    expect(await archi.page.locator("#add-member-role").inputValue()).toBe("member");
    await screenshot(archi.page, "session-profile-organization");
    await archi.context.close();

    // contrib is an admin in this profile: member management is shown (and the server allows it).
    const contrib = await signInAs("contrib", "contrib-dev-password");
    await contrib.page
      .getByRole("navigation", { name: "Sections" })
      .getByRole("link", { name: "Organization" })
      .click();
    await contrib.page.getByRole("heading", { name: "Members" }).waitFor();
    expect(await contrib.page.getByRole("form", { name: "Add a member" }).count()).toBe(1);
    await contrib.context.close();
  }, 120_000);
});

describe("teams in the browser (session profile)", () => {
  test("an owner manages teams and their members and restricts a workspace to a team; a member only sees them", async () => {
    const archi = await signInAs("archi", "archi-dev-password");
    const page = archi.page;
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (e) => {
      throw e;
    });
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Organization" }).click();
    await page
      .getByRole("navigation", { name: "Organization administration" })
      .getByRole("link", { name: "Teams" })
      .click();
    await page.getByText("No teams yet.").waitFor();

    const create = page.getByRole("form", { name: "Create a team" });
    for (const name of ["Core", "Scratch"]) {
      await create.getByLabel("Team name").fill(name);
      await create.getByRole("button", { name: "Create team" }).click();
      await page.getByRole("heading", { name, level: 2 }).waitFor();
    }
    // A duplicate name is refused in words, next to the form.
    await create.getByLabel("Team name").fill("Core");
    await create.getByRole("button", { name: "Create team" }).click();
    await create.getByRole("alert").getByText("A team named 'Core' already exists").waitFor();

    await page.getByRole("button", { name: "Rename team Core" }).click();
    const rename = page.getByRole("dialog", { name: "Rename team Core" });
    await rename.getByLabel("New name").fill("Modelers");
    await rename.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("heading", { name: "Modelers", level: 2 }).waitFor();
    expect(await page.getByRole("heading", { name: "Core", level: 2 }).count()).toBe(0);

    // Deleting asks first; Cancel keeps the team, confirming removes it.
    await page.getByRole("button", { name: "Delete team Scratch" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete team" });
    await confirm.getByText("Delete the team Scratch?").waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByRole("heading", { name: "Scratch", level: 2 }).count()).toBe(1);
    await page.getByRole("button", { name: "Delete team Scratch" }).click();
    await page.getByRole("dialog", { name: "Delete team" }).getByRole("button", { name: "Delete team" }).click();
    await page.getByRole("heading", { name: "Scratch", level: 2 }).waitFor({ state: "detached" });

    // Members come from the organization's members; one is added and removed again.
    const modelers = page.locator('section[data-team="Modelers"]');
    const addTo = modelers.getByRole("form", { name: "Add a member to Modelers" });
    const offered = await addTo
      .getByLabel("Organization member")
      .locator("option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).textContent));
    expect(offered).toEqual([
      "Choose a member…",
      "admin (Platform Admin)",
      "archi (Demo Architect)",
      "contrib (Demo Contributor)",
      "user (Demo Viewer)",
    ]);
    for (const username of ["contrib", "user"]) {
      const label = offered.find((o) => o?.startsWith(`${username} (`)) ?? username;
      await addTo.getByLabel("Organization member").selectOption({ label });
      await addTo.getByRole("button", { name: "Add to team" }).click();
      await modelers
        .getByRole("table", { name: "Members of Modelers" })
        .locator(`tr[data-username="${username}"]`)
        .waitFor();
    }
    await modelers.getByRole("button", { name: "Remove user from Modelers" }).click();
    await modelers.locator('tr[data-username="user"]').waitFor({ state: "detached" });
    expect(
      await modelers
        .getByRole("table", { name: "Members of Modelers" })
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-username"))),
    ).toEqual(["contrib"]);
    expect(await seriousViolations(page), "teams page").toEqual([]);
    await screenshot(page, "session-teams-owner");

    // The workspace side: a new workspace is everyone's until the owner gives it to Modelers.
    await page.evaluate(async () => {
      for (const name of ["Open plans", "Secret plans"]) {
        const res = await fetch("/api/workspaces", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name }),
        });
        if (res.status !== 201) throw new Error(`workspace ${name}: ${res.status}`);
      }
    });
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Workspaces" }).click();
    const secretRow = page.locator("li.workspace", { hasText: "Secret plans" });
    await secretRow.getByText("Visible to everyone").waitFor();
    await page.getByRole("button", { name: "Teams of Secret plans" }).click();
    const assign = page.getByRole("dialog", { name: "Teams of Secret plans" });
    await assign.getByRole("checkbox", { name: "Modelers" }).check();
    expect(await seriousViolations(page), "workspace teams dialog").toEqual([]);
    await screenshot(page, "session-workspace-teams-dialog");
    await assign.getByRole("button", { name: "Save" }).click();
    await secretRow.getByText("Visible to team Modelers (and owners and admins)").waitFor();
    await page.locator("li.workspace", { hasText: "Open plans" }).getByText("Visible to everyone").waitFor();
    await screenshot(page, "session-workspaces-with-teams");
    await archi.context.close();

    // user is a member outside Modelers: the workspace is not listed, and the teams page offers nothing to change.
    const user = await signInAs("user", "user-dev-password");
    await user.page.locator("li.workspace", { hasText: "Open plans" }).waitFor();
    expect(await user.page.locator("li.workspace", { hasText: "Secret plans" }).count()).toBe(0);
    expect(await user.page.getByRole("button", { name: /^Teams of / }).count()).toBe(0);
    await user.page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Organization" }).click();
    await user.page.getByRole("link", { name: "Teams" }).click();
    await user.page.getByRole("heading", { name: "Modelers", level: 2 }).waitFor();
    await user.page.getByText("Only owners and admins create teams and change who is in them.").waitFor();
    // The workspace the member cannot see is counted on its team's card, never named.
    await user.page
      .getByText("Workspaces only this team (and owners and admins) can see: one workspace you cannot see.")
      .waitFor();
    expect(await user.page.getByRole("form", { name: "Create a team" }).count()).toBe(0);
    expect(await user.page.getByRole("button", { name: /Rename|Delete|Remove|Add to team/ }).count()).toBe(0);
    expect(await seriousViolations(user.page), "teams page as member").toEqual([]);
    await screenshot(user.page, "session-teams-member");
    await user.context.close();
  }, 180_000);
});

describe("password change in the session profile", () => {
  test("the page uses better-auth's change: a wrong current password is explained, the right one signs in next time", async () => {
    const { context, page } = await signInAs("contrib", "contrib-dev-password");
    await page.getByRole("button", { name: /Demo Contributor/ }).click();
    await page.getByRole("link", { name: "Change password" }).click();
    await page.getByRole("heading", { name: "Change your password" }).waitFor();
    const fill = async (current: string, next: string) => {
      await page.getByLabel("Current password").fill(current);
      await page.getByLabel("New password", { exact: true }).fill(next);
      await page.getByLabel("Repeat the new password").fill(next);
    };
    await fill("not-the-password", "contrib-new-password-1");
    const refused = page.waitForResponse((r) => r.url().endsWith("/auth/change-password"));
    await page.getByRole("button", { name: "Change password" }).click();
    expect((await refused).status()).toBe(400);
    await page.getByRole("alert").getByText("The current password is not correct.").waitFor();
    expect(await seriousViolations(page), "change password page").toEqual([]);
    await screenshot(page, "session-change-password-refused");

    await fill("contrib-dev-password", "contrib-new-password-1");
    const changed = page.waitForResponse((r) => r.url().endsWith("/auth/change-password"));
    await page.getByRole("button", { name: "Change password" }).click();
    expect((await changed).status()).toBe(200);
    await page.waitForURL((url) => url.pathname === "/");
    // Still signed in (the renewed session), and the new password is the one that works from now on.
    await page.getByRole("heading", { name: /Workspaces/ }).waitFor();
    await context.close();
    const again = await signInAs("contrib", "contrib-new-password-1");
    await again.context.close();
  }, 120_000);
});

describe("sessions on the settings page (session profile)", () => {
  test("two browsers signed in as one user: the first lists both, revokes the second, which is signed out at its next request", async () => {
    const first = await signInAs("user", "user-dev-password");
    const second = await signInAs("user", "user-dev-password");
    first.page.setDefaultTimeout(20_000);
    second.page.setDefaultTimeout(20_000);
    const secondId = await second.page.evaluate(async () => {
      const res = await fetch("/auth/sessions");
      const body = (await res.json()) as { sessions: { id: string; current: boolean }[] };
      return body.sessions.find((s) => s.current)?.id;
    });
    expect(secondId).toBeTruthy();

    const page = first.page;
    await page.getByRole("button", { name: /Demo Viewer/ }).click();
    await page.getByRole("link", { name: "Settings and API tokens" }).click();
    await page.getByRole("heading", { name: "Sessions", level: 2 }).waitFor();
    const table = page.getByRole("table", { name: "Sessions" });
    await table.locator(`tr[data-session="${secondId}"]`).waitFor();
    // This browser is marked and offers Sign out, never Revoke; the other browser is named and revocable.
    const current = table.locator('tr[data-current="true"]');
    expect(await current.count()).toBe(1);
    expect(await current.getAttribute("data-session")).not.toBe(secondId);
    expect(await current.textContent()).toContain("This browser");
    expect(await current.getByRole("button", { name: "Sign out" }).count()).toBe(1);
    expect(await current.getByRole("button", { name: /Revoke/ }).count()).toBe(0);
    const other = table.locator(`tr[data-session="${secondId}"]`);
    expect(await other.textContent()).toContain("Chrome on Linux");
    expect(await other.textContent()).not.toContain("This browser");
    expect(await other.locator("td").nth(1).textContent()).toBe("127.0.0.1");
    expect(await seriousViolations(page), "settings page with sessions").toEqual([]);
    await screenshot(page, "session-settings-sessions");

    // Revoking asks first; Cancel keeps the session.
    await other.getByRole("button", { name: /^Revoke the session on Chrome on Linux/ }).click();
    let dialog = page.getByRole("dialog", { name: "Revoke session" });
    await dialog.getByText("that device is signed out at its next request. This browser stays signed in.").waitFor();
    expect(await seriousViolations(page), "revoke session dialog").toEqual([]);
    await screenshot(page, "session-settings-revoke-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await other.count()).toBe(1);
    await other.getByRole("button", { name: /^Revoke the session/ }).click();
    dialog = page.getByRole("dialog", { name: "Revoke session" });
    const revoked = page.waitForResponse((r) => r.url().endsWith(`/auth/sessions/${secondId}`));
    await dialog.getByRole("button", { name: "Revoke session" }).click();
    expect((await revoked).status()).toBe(204);
    await other.waitFor({ state: "detached" });
    await page.getByText("The session on Chrome on Linux was revoked; that device is signed out.").waitFor();

    // The second browser's next request finds its session gone: it is sent to the sign-in page, its cookie useless.
    await second.page.getByRole("button", { name: /Demo Viewer/ }).click();
    await second.page.getByRole("link", { name: "Settings and API tokens" }).click();
    await second.page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(second.page.url()).searchParams.get("from")).toBe("/settings");
    expect(await second.page.evaluate(async () => (await fetch("/api/me")).status)).toBe(401);
    // The first browser is still signed in.
    expect(await page.evaluate(async () => (await fetch("/api/me")).status)).toBe(200);

    // Sign out from the sessions list ends this browser's session too.
    const signedOut = page.waitForResponse((r) => r.url().endsWith("/auth/sign-out"));
    await table.locator('tr[data-current="true"]').getByRole("button", { name: "Sign out" }).click();
    expect((await signedOut).status()).toBe(200);
    await page.waitForURL((url) => url.pathname === "/login");
    expect(await page.evaluate(async () => (await fetch("/api/me")).status)).toBe(401);
    await first.context.close();
    await second.context.close();
  }, 180_000);

  test("a failed session listing is said in words", async () => {
    const { context, page } = await signInAs("user", "user-dev-password");
    await page.route("**/auth/sessions", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/problem+json",
        body: JSON.stringify({ title: "Unavailable", detail: "The session store is not reachable." }),
      }),
    );
    await page.getByRole("button", { name: /Demo Viewer/ }).click();
    await page.getByRole("link", { name: "Settings and API tokens" }).click();
    await page
      .getByRole("alert")
      .getByText("Your sessions could not be listed: The session store is not reachable.")
      .waitFor({ timeout: 20_000 });
    await context.close();
  }, 120_000);
});
