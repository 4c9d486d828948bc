import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { errorPage, escapeHtml, PAGE_HEADERS } from "./page.ts";
import { createPendingRequest } from "./pending.ts";
import { checkAuthorizationRequest, pickParams, redirectTo } from "./request.ts";

/**
 * The authorization endpoint: checks the client's request, keeps it server-side and sends the browser to the
 * consent page of the browser UI (/oauth/consent), which signs the user in when needed and posts the decision to
 * /api/oauth/requests/:handle/decision (routes.ts). A request whose client or redirect URI is not known is shown to
 * the user and never redirected (RFC 6749 4.1.2.1); other faults go back to the client's redirect URI.
 */
export function registerOAuthAuthorize(app: App, ctx: ControlContext) {
  app.get("/oauth/authorize", async (c) => {
    const r = await checkAuthorizationRequest(ctx, pickParams(c.req.query()));
    if (r.kind === "fatal") {
      return c.body(
        errorPage("This authorization request cannot be used", `<p>${escapeHtml(r.message)}</p>`),
        400,
        PAGE_HEADERS,
      );
    }
    if (r.kind === "redirect-error") {
      return c.redirect(
        redirectTo(ctx, r.redirectUri, { error: r.error, error_description: r.description, state: r.state }),
        302,
      );
    }
    const handle = await createPendingRequest(ctx, r);
    c.header("cache-control", "no-store");
    c.header("referrer-policy", "no-referrer");
    return c.redirect(`/oauth/consent?request=${encodeURIComponent(handle)}`, 302);
  });
}
