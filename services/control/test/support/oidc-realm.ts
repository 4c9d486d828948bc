import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { must } from "@ams/shared/testing";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, jwtVerify } from "jose";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

/**
 * A REAL OpenID Connect provider for the SSO tests: the oidc-provider package, serving Keycloak-shaped realms at
 * /realms/<realm> (endpoints under /protocol/openid-connect/..., JWT access tokens carrying preferred_username,
 * email, email_verified and realm_access.roles, refresh tokens, PKCE, RP-initiated logout, client credentials).
 * Sign-in is a minimal username/password interaction implemented here with the provider's interaction API.
 *
 * Beside it, a small HTTP server implements the handful of Keycloak ADMIN endpoints control calls (user search,
 * create, execute-actions-email, delete) over the same user store: the provider's admin operations behind one
 * small interface, as the issue allows. Its callers must present a client-credentials token the real provider
 * issued to the admin client (verified against the realm's keys). The token endpoint is never stood in for.
 */

export type RealmUser = {
  id: string;
  username: string;
  email: string | null;
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  enabled: boolean;
  /** Absent for an account provisioned without credentials: it cannot sign in. */
  password?: string;
  roles: string[];
};

export type AdminCall = { method: string; path: string; body: unknown };

export type Realm = {
  name: string;
  issuer: string;
  users: Map<string, RealmUser>;
  addUser(user: Partial<RealmUser> & { username: string; password?: string }): RealmUser;
  adminCalls: AdminCall[];
  /** Addresses whose execute-actions e-mail fails (as Keycloak answers when it cannot send). */
  failActionsEmailFor: Set<string>;
  /** Actions e-mails "sent" (what Keycloak would have mailed). */
  actionsEmails: { userId: string; email: string | null; actions: string[]; query: Record<string, string> }[];
  provider: Provider;
};

export const WEB_CLIENT = { id: "svc-web", secret: "svc-web-secret-for-tests" };
export const ADMIN_CLIENT = { id: "svc-admin", secret: "svc-admin-secret-for-tests" };
/** Another application of the same realm: its users' tokens must not open ours. */
export const NEIGHBOUR_CLIENT = { id: "svc-neighbour", secret: "svc-neighbour-secret-for-tests" };
const RESOURCE = "urn:ams:test:api";

export type OidcRealms = {
  url: string;
  realm(name: string): Realm;
  close(): Promise<void>;
};

/**
 * Starts one HTTP server with a provider per realm. All realms sign with the SAME key, so a token of another realm
 * verifies cryptographically and only the issuer check can refuse it.
 */
export async function startOidcRealms(opts: { realms: string[]; appUrl: string }): Promise<OidcRealms> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "shared-test-key", alg: "RS256", use: "sig" };
  const publicJwk: JWK = { kty: jwk.kty, n: jwk.n, e: jwk.e, kid: jwk.kid, alg: jwk.alg, use: jwk.use };
  const realms = new Map<string, Realm>();
  for (const name of opts.realms) {
    realms.set(name, createRealm(name, `${url}/realms/${name}`, jwk, opts.appUrl));
  }
  server.on("request", (req, res) => {
    route(req, res, realms, publicJwk).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err));
    });
  });
  return {
    url,
    realm(name) {
      const realm = realms.get(name);
      if (!realm) throw new Error(`no realm ${name}`);
      return realm;
    },
    close: () => closeServer(server),
  };
}

function createRealm(name: string, issuer: string, jwk: JWK, appUrl: string): Realm {
  const users = new Map<string, RealmUser>();
  const byUsername = (username: string) => [...users.values()].find((u) => u.username === username.toLowerCase());
  const config: Configuration = {
    clients: [
      {
        client_id: WEB_CLIENT.id,
        client_secret: WEB_CLIENT.secret,
        // The local profile's callback, and the session profile's (better-auth's generic OAuth, provider "keycloak").
        redirect_uris: [`${appUrl}/api/auth/callback`, `${appUrl}/auth/callback/keycloak`],
        post_logout_redirect_uris: [`${appUrl}/login`],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: NEIGHBOUR_CLIENT.id,
        client_secret: NEIGHBOUR_CLIENT.secret,
        redirect_uris: [`${appUrl}/neighbour/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: ADMIN_CLIENT.id,
        client_secret: ADMIN_CLIENT.secret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [`cookie-key-${randomUUID()}`] },
    pkce: { required: () => true },
    routes: {
      authorization: "/protocol/openid-connect/auth",
      token: "/protocol/openid-connect/token",
      jwks: "/protocol/openid-connect/certs",
      end_session: "/protocol/openid-connect/logout",
      revocation: "/protocol/openid-connect/revoke",
      introspection: "/protocol/openid-connect/token/introspect",
    },
    claims: {
      openid: ["sub"],
      profile: ["name", "preferred_username", "given_name", "family_name"],
      email: ["email", "email_verified"],
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.body = `<!DOCTYPE html><html><body>${form}<button form="op.logoutForm" name="logout" value="yes">Sign out</button></body></html>`;
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => RESOURCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async () => ({
          scope: "profile email",
          audience: "account",
          accessTokenFormat: "jwt",
          accessTokenTTL: 300,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    interactions: { url: async (_ctx, interaction) => `/realms/${name}/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: {
      AccessToken: 300,
      ClientCredentials: 300,
      IdToken: 300,
      RefreshToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    findAccount: async (_ctx, sub) => {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...profileClaims(user) }) };
    },
    // Keycloak puts the profile, e-mail and realm roles into its access tokens: so does this realm.
    extraTokenClaims: async (_ctx: KoaContextWithOIDC, token) => {
      const accountId = (token as { accountId?: string }).accountId;
      const user = accountId ? users.get(accountId) : undefined;
      if (!user) return undefined;
      return {
        ...profileClaims(user),
        typ: "Bearer",
        azp: (token as { clientId?: string }).clientId,
        realm_access: { roles: ["default-roles", ...user.roles] },
      };
    },
    renderError: async (ctx, out) => {
      ctx.type = "json";
      ctx.body = out;
    },
  };
  const provider = new Provider(issuer, config);
  return {
    name,
    issuer,
    users,
    provider,
    adminCalls: [],
    failActionsEmailFor: new Set(),
    actionsEmails: [],
    addUser(input) {
      if (byUsername(input.username)) throw new Error(`user ${input.username} exists`);
      const user: RealmUser = {
        id: input.id ?? randomUUID(),
        username: input.username.toLowerCase(),
        email: input.email ?? null,
        emailVerified: input.emailVerified ?? false,
        firstName: input.firstName,
        lastName: input.lastName,
        enabled: input.enabled ?? true,
        password: input.password,
        roles: input.roles ?? [],
      };
      users.set(user.id, user);
      return user;
    },
  };
}

function profileClaims(user: RealmUser) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username;
  return {
    preferred_username: user.username,
    name,
    given_name: user.firstName,
    family_name: user.lastName,
    ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
  };
}

async function route(req: IncomingMessage, res: ServerResponse, realms: Map<string, Realm>, publicJwk: JWK) {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  const admin = /^\/admin\/realms\/([^/]+)(\/.*)$/.exec(path);
  if (admin) {
    const [, realmName, adminPath] = admin;
    return adminApi(req, res, realms.get(must(realmName, "the realm")), must(adminPath, "the admin path"), publicJwk);
  }
  const realmPath = /^\/realms\/([^/]+)(\/.*)?$/.exec(path);
  const realmName = realmPath?.[1];
  const realm = realmName === undefined ? undefined : realms.get(realmName);
  if (!realmPath || !realm) {
    res.writeHead(404).end();
    return;
  }
  const rest = realmPath[2] ?? "/";
  const interaction = /^\/interaction\/([^/]+)$/.exec(rest);
  if (interaction) return signInInteraction(req, res, realm);
  // Mounted under /realms/<name>: the provider sees its own paths and derives the mount path from originalUrl.
  const original = req.url ?? "/";
  (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
  req.url = original.slice(`/realms/${realm.name}`.length) || "/";
  realm.provider.callback()(req, res);
}

/** The login prompt: a form, then a password check; success grants the requested scopes and resumes the flow. */
async function signInInteraction(req: IncomingMessage, res: ServerResponse, realm: Realm) {
  const { provider } = realm;
  const details = await provider.interactionDetails(req, res);
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      `<form method="post" action="/realms/${realm.name}/interaction/${details.uid}">` +
        `<input name="username"><input name="password" type="password"><button>Sign in</button></form>`,
    );
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  const user = [...realm.users.values()].find((u) => u.username === form.get("username")?.toLowerCase());
  if (!user?.enabled || !user.password || user.password !== form.get("password")) {
    res.writeHead(401, { "content-type": "text/plain" });
    res.end("Invalid username or password");
    return;
  }
  const clientId = String(details.params.client_id);
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId: user.id, clientId }))
    : new provider.Grant({ accountId: user.id, clientId });
  grant.addOIDCScope(String(details.params.scope ?? "openid"));
  grant.addResourceScope(RESOURCE, "profile email");
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: user.id }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

/** The Keycloak admin REST endpoints control uses, over the realm's user store. */
async function adminApi(
  req: IncomingMessage,
  res: ServerResponse,
  realm: Realm | undefined,
  path: string,
  publicJwk: JWK,
) {
  const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  if (!realm) return send(404);
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  try {
    const { payload } = await jwtVerify(bearer ?? "", createLocalJWKSet({ keys: [publicJwk] }), {
      issuer: realm.issuer,
    });
    if (payload.client_id !== ADMIN_CLIENT.id || payload.sub !== ADMIN_CLIENT.id)
      throw new Error("not the admin client");
  } catch {
    return send(401, { error: "HTTP 401 Unauthorized" });
  }
  const raw = await readBody(req);
  const body = raw ? JSON.parse(raw) : undefined;
  const url = new URL(req.url ?? "/", "http://x");
  realm.adminCalls.push({ method: req.method ?? "", path: `${path}${url.search}`, body });
  const users = [...realm.users.values()];
  const representation = (u: RealmUser) => ({
    id: u.id,
    username: u.username,
    email: u.email ?? undefined,
    emailVerified: u.emailVerified,
    enabled: u.enabled,
    firstName: u.firstName,
    lastName: u.lastName,
  });

  if (req.method === "GET" && path === "/users") {
    const username = url.searchParams.get("username")?.toLowerCase();
    const email = url.searchParams.get("email")?.toLowerCase();
    const hits = users.filter(
      (u) => (!username || u.username === username) && (!email || u.email?.toLowerCase() === email),
    );
    return send(200, hits.map(representation));
  }
  if (req.method === "POST" && path === "/users") {
    if (users.some((u) => u.username === body.username || (body.email && u.email === body.email))) {
      return send(409, { errorMessage: "User exists with same username or email" });
    }
    const created = realm.addUser({ ...body, password: undefined, roles: [] });
    return send(201, undefined, {
      location: `${realm.issuer.replace("/realms/", "/admin/realms/")}/users/${created.id}`,
    });
  }
  const actions = /^\/users\/([^/]+)\/execute-actions-email$/.exec(path);
  if (req.method === "PUT" && actions) {
    const user = realm.users.get(decodeURIComponent(must(actions[1], "the user id in the path")));
    if (!user) return send(404, { error: "User not found" });
    if (user.email && realm.failActionsEmailFor.has(user.email)) {
      return send(500, { errorMessage: "Failed to send execute actions email" });
    }
    realm.actionsEmails.push({
      userId: user.id,
      email: user.email,
      actions: body,
      query: Object.fromEntries(url.searchParams),
    });
    return send(204);
  }
  const one = /^\/users\/([^/]+)$/.exec(path);
  if (req.method === "DELETE" && one) {
    return send(realm.users.delete(decodeURIComponent(must(one[1], "the user id in the path"))) ? 204 : 404);
  }
  return send(404, { error: "not implemented in the test admin API" });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      data += chunk;
    });
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
