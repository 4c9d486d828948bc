import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { PASSWORDS } from "./support/users.ts";

/**
 * Detours come back: a page asked for while signed out (an MCP client's consent page, a dashboard link) is where
 * the user lands after signing in, and after the forced password change that may come first — and never another
 * site. The server runs on real PostgreSQL so that the test can mark an account for a forced change (an operator
 * sets `must_change_password`; no route does).
 */

let database: TestDatabase;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase("ams_web_return");
  [server, browser] = await Promise.all([startServer({ DATABASE_URL: database.url }), launchChromium()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
});

const forceChange = (username: string) =>
  database.rows(sql`update users set must_change_password = true where username = ${username}`);

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  page.on("pageerror", (e) => {
    throw e;
  });
  return page;
}

async function signInHere(page: Page, username: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORDS[username] ?? "");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("coming back after a detour", () => {
  test("signed out, a deep link signs in first and then opens the page asked for", async () => {
    const page = await newPage();
    await page.goto(`${server.base}/dashboards`);
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("from") === "/dashboards");
    await signInHere(page, "archi");
    await page.waitForURL((url) => url.pathname === "/dashboards");
    await page.getByRole("heading", { name: "Dashboards" }).first().waitFor();
    await page.context().close();
  });

  test("a forced password change comes first, then the page asked for (after Skip, and after a change)", async () => {
    await forceChange("contrib");
    const page = await newPage();
    await page.goto(`${server.base}/explore`);
    await page.waitForURL((url) => url.pathname === "/login");
    await signInHere(page, "contrib");
    await page.waitForURL((url) => url.pathname === "/change-password" && url.searchParams.get("from") === "/explore");
    await page.getByRole("button", { name: "Skip for now" }).click();
    await page.waitForURL((url) => url.pathname === "/explore");

    await page.context().close();

    // Marked again (the mark is read at sign-in): this time the password is changed, and the page is reached after.
    await forceChange("contrib");
    const again = await newPage();
    await again.goto(`${server.base}/organization`);
    await again.waitForURL((url) => url.pathname === "/login");
    await signInHere(again, "contrib");
    await again.waitForURL(
      (url) => url.pathname === "/change-password" && url.searchParams.get("from") === "/organization",
    );
    await again.getByLabel("Current password").fill(PASSWORDS.contrib ?? "");
    await again.getByLabel("New password", { exact: true }).fill("contrib-changed-password-1");
    await again.getByLabel("Repeat the new password").fill("contrib-changed-password-1");
    await again.getByRole("button", { name: "Change password" }).click();
    await again.waitForURL((url) => url.pathname === "/organization");
    const flags = await database.rows<{ must_change_password: boolean }>(
      sql`select must_change_password from users where username = 'contrib'`,
    );
    expect(flags[0]?.must_change_password).toBe(false);
    await again.context().close();
  });

  test("a return path to another site is never followed: the user lands on the home page", async () => {
    for (const from of ["//evil.example/x", "/\\evil.example/x", "https://evil.example/x", "/login?from=/x"]) {
      const page = await newPage();
      await page.goto(`${server.base}/login?from=${encodeURIComponent(from)}`);
      await signInHere(page, "user");
      await page.waitForURL((url) => url.pathname !== "/login");
      expect(new URL(page.url()).origin, from).toBe(server.base);
      expect(new URL(page.url()).pathname, from).toBe("/");
      await page.context().close();
    }
  });
});
