import { clientIp } from "../auth/client-ip.ts";
import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { countPerAddress } from "./address-limit.ts";
import { errorPage, escapeHtml, PAGE_HEADERS } from "./page.ts";
import { createPendingRequest } from "./pending.ts";
import { checkAuthorizationRequest, pickParams } from "./request.ts";

/**
 * The authorization endpoint: checks the client's request, keeps it server-side and sends the browser to the
 * consent page of the browser UI (/oauth/consent), which signs the user in when needed and posts the decision to
 * /api/oauth/requests/:handle/decision (routes.ts). A faulty request is shown to the user and never redirected
 * (request.ts). Each stored request counts against its address's limit (address-limit.ts).
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
    await countPerAddress(ctx, "authorize", clientIp(c, ctx.env.TRUST_PROXY_HOPS));
    const handle = await createPendingRequest(ctx, r);
    c.header("cache-control", "no-store");
    c.header("referrer-policy", "no-referrer");
    return c.redirect(`/oauth/consent?request=${encodeURIComponent(handle)}`, 302);
  });
}
