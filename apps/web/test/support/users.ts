import type { Browser, BrowserContext, Page } from "playwright-core";
import { signIn } from "./browser.ts";

/** The demo accounts' passwords (DEMO_SEED development defaults). */
export const PASSWORDS: Record<string, string> = {
  admin: "admin-dev-password",
  archi: "archi-dev-password",
  contrib: "contrib-dev-password",
  user: "user-dev-password",
  open: "open-dev-password",
};

/** A fresh browser context signed in as one demo user at 1280x800; a page error fails the test. */
export async function signedIn(
  browser: Browser,
  base: string,
  username: string,
  opts: { permissions?: string[] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(20_000);
  if (opts.permissions) await context.grantPermissions(opts.permissions, { origin: base });
  const page = await context.newPage();
  page.on("pageerror", (e) => {
    throw e;
  });
  await signIn(page, base, username, PASSWORDS[username]!);
  return { context, page };
}
