import { devDefaults } from "@ams/control";

/**
 * Signs in as the demo architect through the real control service at `base`, creates a workspace in their
 * organization and a personal API token: what a bench needs to call the product the way its users do.
 */
export async function archiWithWorkspace(base: string, opts: { pinTokenToWorkspace?: boolean } = {}) {
  const login = await fetch(`${base}/api/auth/local/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "archi", password: devDefaults.SEED_ARCHI_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`sign-in as archi: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith("access_token="))!
    .split(";")[0]!;
  const session = <T>(method: string, path: string, body?: unknown) =>
    fetch(base + path, {
      method,
      // A cookie-authenticated write names its page's origin (the gateway's CSRF rule).
      headers: { cookie, "content-type": "application/json", origin: base },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json() as Promise<T>);
  const orgs = await session<{ organizations: { id: string }[] }>("GET", "/api/organizations");
  const organizationId = orgs.organizations[0]!.id;
  const workspaceId = (await session<{ id: string }>("POST", "/api/workspaces", { name: "Bench" })).id;
  const { token } = await session<{ token: string }>("POST", "/api/settings/api-tokens", {
    name: "bench",
    organization_id: organizationId,
    ...(opts.pinTokenToWorkspace ? { workspace_id: workspaceId } : {}),
  });
  return { cookie, organizationId, workspaceId, token };
}
