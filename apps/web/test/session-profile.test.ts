import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
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
