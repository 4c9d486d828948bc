import { IDP_TIMEOUT_MS } from "./discovery.ts";
import type { IdentityAdmin, IdpUser } from "./identity-admin.ts";
import { requestTokens } from "./token-endpoint.ts";

type UserRepresentation = {
  id?: string;
  username?: string;
  email?: string;
  emailVerified?: boolean;
  enabled?: boolean;
  firstName?: string;
  lastName?: string;
};

export class IdentityAdminError extends Error {}

/**
 * IdentityAdmin over Keycloak's admin REST API ({IDP_URL}/admin/realms/{realm}/users...), authenticated as the
 * realm's service-account client (client-credentials grant at the realm's token endpoint). The admin token is
 * kept until shortly before it expires and fetched again once when the API answers 401.
 */
export function createKeycloakAdmin(opts: {
  adminBaseUrl: string;
  tokenEndpoint: () => Promise<string>;
  clientId: string;
  clientSecret: string;
}): IdentityAdmin {
  let token: { value: string; until: number } | null = null;

  async function accessToken(fresh: boolean): Promise<string> {
    if (!fresh && token && token.until > Date.now()) return token.value;
    const res = await requestTokens(
      await opts.tokenEndpoint(),
      { clientId: opts.clientId, clientSecret: opts.clientSecret },
      { grant_type: "client_credentials" },
    );
    const seconds = typeof res.expires_in === "number" ? res.expires_in : 60;
    token = { value: res.access_token, until: Date.now() + Math.max(0, seconds - 30) * 1000 };
    return token.value;
  }

  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    for (const fresh of [false, true]) {
      const res = await fetch(`${opts.adminBaseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await accessToken(fresh)}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(IDP_TIMEOUT_MS),
      });
      if (res.status !== 401 || fresh) return res;
      token = null;
    }
    throw new IdentityAdminError("unreachable");
  }

  async function expectOk(res: Response, what: string): Promise<void> {
    if (res.ok) return;
    const detail = (await res.text().catch(() => "")).slice(0, 200);
    throw new IdentityAdminError(`${what} failed: HTTP ${res.status} ${detail}`);
  }

  /** Keycloak matches search parameters loosely on older versions: the exact, case-insensitive match is ours. */
  async function findOne(param: "username" | "email", value: string): Promise<IdpUser | null> {
    const wanted = value.trim().toLowerCase();
    const query = new URLSearchParams({ [param]: wanted, exact: "true", max: "20" });
    const res = await call("GET", `/users?${query}`);
    await expectOk(res, `user lookup by ${param}`);
    const list = (await res.json()) as UserRepresentation[];
    const hit = list.find((u) => (u[param] ?? "").toLowerCase() === wanted && u.id);
    return hit?.id ? toIdpUser(hit.id, hit) : null;
  }

  return {
    findByUsername: (username) => findOne("username", username),
    findByEmail: (email) => findOne("email", email),
    async createUser(input) {
      const rep: UserRepresentation = {
        username: input.username.trim().toLowerCase(),
        email: input.email.trim().toLowerCase(),
        firstName: input.firstName,
        lastName: input.lastName,
        enabled: true,
        emailVerified: false,
      };
      const res = await call("POST", "/users", rep);
      await expectOk(res, "user creation");
      const id = res.headers.get("location")?.split("/").pop();
      if (id) return toIdpUser(decodeURIComponent(id), rep);
      const found = await findOne("email", input.email);
      if (!found) throw new IdentityAdminError("user creation: the new account cannot be found");
      return found;
    },
    async executeActionsEmail(userId, actions, options = {}) {
      const query = new URLSearchParams();
      if (options.lifespanSeconds) query.set("lifespan", String(options.lifespanSeconds));
      if (options.clientId) query.set("client_id", options.clientId);
      if (options.redirectUri) query.set("redirect_uri", options.redirectUri);
      const suffix = query.size > 0 ? `?${query}` : "";
      const res = await call("PUT", `/users/${encodeURIComponent(userId)}/execute-actions-email${suffix}`, actions);
      await expectOk(res, "execute-actions e-mail");
    },
    async deleteUser(userId) {
      const res = await call("DELETE", `/users/${encodeURIComponent(userId)}`);
      if (res.status === 404) return;
      await expectOk(res, "user deletion");
    },
  };
}

function toIdpUser(id: string, u: UserRepresentation): IdpUser {
  return {
    id,
    username: u.username ?? "",
    email: u.email ?? null,
    emailVerified: u.emailVerified === true,
    enabled: u.enabled !== false,
    firstName: u.firstName,
    lastName: u.lastName,
  };
}
