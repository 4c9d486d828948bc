import type { Context } from "hono";
import { clientIp } from "../auth/client-ip.ts";
import type { LoginAttempt } from "../auth/login-limit.ts";
import { burnPasswordCheck, verifyPassword } from "../auth/passwords.ts";
import type { Principal } from "../auth/principal.ts";
import { startLocalSession } from "../auth/session.ts";
import { findLocalCredential, identityOf, normalizeUsername } from "../auth/users.ts";
import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { SESSION_BASE_PATH } from "../session/better-auth.ts";
import { consentToken, consentTokenMatches, grantableOrganizations, issueCode } from "./grants.ts";
import { escapeHtml, hiddenFields, PAGE_HEADERS, page } from "./page.ts";
import {
  type AuthorizationParams,
  type CheckedRequest,
  checkAuthorizationRequest,
  pickParams,
  redirectTo,
} from "./request.ts";

type Ok = Extract<CheckedRequest, { kind: "ok" }>;

const html = (c: Context, status: 200 | 400 | 401 | 403, body: string) => c.body(body, status, PAGE_HEADERS);

/** What the consent binds: the user and the exact request (so a form cannot be replayed for another client). */
const bound = (r: Ok) => [r.clientId, r.redirectUri, r.codeChallenge, r.state ?? ""];

/** A signed-in browser session (an API token cannot approve a grant for itself). */
async function sessionUser(c: Context, ctx: ControlContext): Promise<Principal | null> {
  if (c.req.header("authorization")) return null;
  const principal = await ctx.authenticate(c);
  return principal && !principal.apiToken ? principal : null;
}

function signInPage(c: Context, r: Ok, message?: string) {
  const query = new URLSearchParams(
    Object.entries(r.params).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
  const body = `<p><strong>${escapeHtml(r.clientName)}</strong> asks to use this service's MCP endpoint on your
behalf. Sign in to choose what it may reach.</p>
${message ? `<p class="error">${escapeHtml(message)}</p>` : ""}
<form method="post" action="/oauth/sign-in">
${hiddenFields({ return_to: `/oauth/authorize?${query}` })}
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div></form>`;
  return html(c, message ? 401 : 200, page("Sign in to connect an MCP client", body));
}

async function consentPage(c: Context, ctx: ControlContext, r: Ok, user: Principal) {
  const orgs = await grantableOrganizations(ctx, user.userId);
  if (orgs.length === 0) {
    return html(c, 403, page("Nothing to grant", "<p>You are not a member of any organization.</p>"));
  }
  const options = orgs
    .map((o) => {
      const all = `<option value="${escapeHtml(o.id)}">${escapeHtml(o.name)}: every workspace (as ${escapeHtml(o.role)})</option>`;
      const each = o.workspaces
        .map(
          (w) =>
            `<option value="${escapeHtml(`${o.id}/${w.id}`)}">${escapeHtml(o.name)} / ${escapeHtml(w.name)} only</option>`,
        )
        .join("");
      return all + each;
    })
    .join("");
  const body = `<p><strong>${escapeHtml(r.clientName)}</strong> wants to read and, where your role allows, change
ArchiMate models through this service's MCP endpoint as <strong>${escapeHtml(user.username)}</strong>.</p>
<form method="post" action="/oauth/authorize">
${hiddenFields({ ...r.params, consent: consentToken(ctx, user.userId, bound(r)) })}
<label for="grant">Organization and workspace</label><select id="grant" name="grant">${options}</select>
<p class="muted">Your role in the organization applies to every call and is checked again each time. The access
lasts 30 days; revoke it any time on your API tokens page, where it is listed as
"MCP: ${escapeHtml(r.clientName)}". It is sent to <code>${escapeHtml(r.redirectUri)}</code>.</p>
<div class="actions"><button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div></form>`;
  return html(c, 200, page("Connect an MCP client", body));
}

async function checked(c: Context, ctx: ControlContext, params: AuthorizationParams) {
  const r = await checkAuthorizationRequest(ctx, params);
  if (r.kind === "fatal")
    return { done: html(c, 400, page("This authorization request cannot be used", `<p>${escapeHtml(r.message)}</p>`)) };
  if (r.kind === "redirect-error") {
    return {
      done: c.redirect(
        redirectTo(ctx, r.redirectUri, { error: r.error, error_description: r.description, state: r.state }),
        302,
      ),
    };
  }
  return { request: r };
}

/**
 * The authorization endpoint and its consent page (server-rendered, no script): sign in when needed, choose the
 * organization and optionally one workspace, allow or deny. Approving stores a code bound to that choice and the
 * PKCE challenge, and sends the browser back to the client.
 */
export function registerOAuthAuthorize(app: App, ctx: ControlContext) {
  app.get("/oauth/authorize", async (c) => {
    const { done, request } = await checked(c, ctx, pickParams(c.req.query()));
    if (done) return done;
    const user = await sessionUser(c, ctx);
    return user ? consentPage(c, ctx, request!, user) : signInPage(c, request!);
  });

  app.post("/oauth/authorize", async (c) => {
    const form = await c.req.parseBody();
    const { done, request } = await checked(c, ctx, pickParams(form));
    if (done) return done;
    const r = request!;
    const user = await sessionUser(c, ctx);
    if (!user) return signInPage(c, r, "Your session ended: sign in again.");
    const consent = typeof form.consent === "string" ? form.consent : "";
    if (!consentTokenMatches(ctx, user.userId, bound(r), consent)) {
      return html(
        c,
        400,
        page("This form cannot be used", "<p>The form was not issued for this request; start again.</p>"),
      );
    }
    if (form.decision !== "approve") {
      return c.redirect(
        redirectTo(ctx, r.redirectUri, {
          error: "access_denied",
          error_description: "the user denied access",
          state: r.state,
        }),
        302,
      );
    }
    const [organizationId, workspaceId] = String(form.grant ?? "").split("/");
    const org = (await grantableOrganizations(ctx, user.userId)).find((o) => o.id === organizationId);
    const workspace = workspaceId ? org?.workspaces.find((w) => w.id === workspaceId) : undefined;
    if (!org || (workspaceId && !workspace)) {
      return html(
        c,
        400,
        page("This choice is not available", "<p>Choose one of your organizations or its workspaces.</p>"),
      );
    }
    const code = await issueCode(ctx, {
      clientId: r.clientId,
      userId: user.userId,
      organizationId: org.id,
      workspaceId: workspace?.id ?? null,
      redirectUri: r.redirectUri,
      codeChallenge: r.codeChallenge,
    });
    return c.redirect(redirectTo(ctx, r.redirectUri, { code, state: r.state }), 302);
  });

  // Sign-in on the way to the consent page: the same checks and limits as POST /api/auth/local/login.
  app.post("/oauth/sign-in", async (c) => {
    const form = await c.req.parseBody();
    const returnTo = typeof form.return_to === "string" ? form.return_to : "";
    if (!returnTo.startsWith("/oauth/authorize?")) {
      return html(c, 400, page("This form cannot be used", "<p>Start again from your MCP client.</p>"));
    }
    const { done, request } = await checked(
      c,
      ctx,
      pickParams(Object.fromEntries(new URLSearchParams(returnTo.slice(17)))),
    );
    if (done) return done;
    const username = normalizeUsername(typeof form.username === "string" ? form.username : "");
    const password = typeof form.password === "string" ? form.password : "";
    if (!username || !password || password.length > 1024)
      return signInPage(c, request!, "Enter your username and password.");
    const ip = clientIp(c, ctx.env.TRUST_PROXY_HOPS);
    const attempt = await ctx.limiter.begin({ username, ip });
    if (ctx.session) return sessionProfileSignIn(c, ctx, request!, { username, password, ip, returnTo, attempt });
    const found = await findLocalCredential(ctx.database.db, username);
    if (!found) {
      await burnPasswordCheck(password);
      return signInPage(c, request!, "Invalid username or password.");
    }
    if (!(await verifyPassword(found.passwordHash, password)))
      return signInPage(c, request!, "Invalid username or password.");
    await attempt.succeeded();
    await startLocalSession(c, ctx, identityOf(found.user));
    return c.redirect(returnTo, 303);
  });
}

/**
 * The session profile (AUTH_MODE=session) signs in through better-auth, as its own sign-in page does: the same
 * credentials check, the same database sign-in limit (counted by the caller), and its session cookie, which the
 * consent page then recognises.
 */
async function sessionProfileSignIn(
  c: Context,
  ctx: ControlContext,
  request: Ok,
  input: { username: string; password: string; ip: string; returnTo: string; attempt: LoginAttempt },
) {
  const origin = new URL(ctx.env.PUBLIC_URL).origin;
  const res = await ctx.session!.auth.handler(
    new Request(`${origin}${SESSION_BASE_PATH}/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, "x-forwarded-for": input.ip },
      body: JSON.stringify({ username: input.username, password: input.password }),
    }),
  );
  if (!res.ok) return signInPage(c, request, "Invalid username or password.");
  await input.attempt.succeeded();
  for (const cookie of res.headers.getSetCookie()) c.header("set-cookie", cookie, { append: true });
  return c.redirect(input.returnTo, 303);
}
