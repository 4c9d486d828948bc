import { AppError, type OrgRole } from "@ams/shared";
import { OpenAPIHono } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Access } from "../src/auth/principal.ts";
import { findUserById, identityOf } from "../src/auth/users.ts";
import type { ControlContext } from "../src/context.ts";
import { createControlContext } from "../src/create-context.ts";
import type { AppEnv } from "../src/http/app-env.ts";
import { controlRoute } from "../src/http/route.ts";
import { verbContext } from "../src/verbs/context.ts";
import { addMember, listMembers, removeMember, updateMemberRole } from "../src/verbs/members.ts";
import { activateOrganization, listMyOrganizations, renameOrganization } from "../src/verbs/organizations.ts";
import { createOrganization, listAllOrganizations, setOrganizationEnabled } from "../src/verbs/platform.ts";
import { getSiteMessages, updateSiteMessages } from "../src/verbs/settings.ts";
import { createApiToken, listApiTokens, revokeApiToken } from "../src/verbs/tokens.ts";
import { createHarness, type Harness, type TestUser } from "./support/harness.ts";

/** The control verbs called directly, as a route would after the gateway: no HTTP, no cookies, no gateway. */
let h: Harness;
let services: ControlContext;
let owner: TestUser;
let viewer: TestUser;
let admin: TestUser;
let orgId: string;

async function access(user: TestUser, organizationId: string | null, role: OrgRole | null): Promise<Access> {
  const row = await findUserById(h.db, user.id);
  if (!row) throw new Error(`no user ${user.username}`);
  return { principal: { ...identityOf(row), apiToken: null }, organizationId, workspaceId: null, role, teamIds: [] };
}
const signedIn = async (user: TestUser) => verbContext(services, await access(user, null, null), "signed-in");
const member = async (user: TestUser, role: OrgRole) =>
  verbContext(services, await access(user, orgId, role), "member");

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => (err instanceof AppError ? err.code : err),
  );

beforeAll(async () => {
  h = await createHarness();
  services = createControlContext({
    database: h.database,
    tokens: h.tokens,
    env: h.env,
    clock: h.clock.now,
    upstreams: { tenant: h.recorder },
  });
  owner = await h.user("vera");
  viewer = await h.user("vic");
  admin = await h.user("ada", { platformAdmin: true });
  const org = await h.org("Verbs Inc", [
    [owner, "owner"],
    [viewer, "viewer"],
  ]);
  orgId = org.id;
  await h.workspace(orgId, "First");
});
afterAll(() => h.close());

describe("the verb context", () => {
  test("a request the gateway did not resolve is refused, not asserted", async () => {
    expect(() => verbContext(services, undefined, "signed-in")).toThrow(AppError);
    const noOrg = await access(owner, null, null);
    expect(() => verbContext(services, noOrg, "member")).toThrow(/organization/);
    expect(verbContext(services, undefined, "public")).toBe(services);
  });

  test("a route whose `who` says otherwise than the gateway's table stops start-up", () => {
    const contract = { method: "get" as const, path: "/api/organizations", operationId: "x", tags: [] };
    const app = new OpenAPIHono<AppEnv>();
    expect(() => controlRoute({ ...contract, who: "public" }, () => undefined).register(app, services)).toThrow(
      "GET /api/organizations declares 'public' but the gateway enforces 'signed-in'",
    );
    const unknown = { ...contract, path: "/api/nowhere", who: "public" as const };
    expect(() => controlRoute(unknown, () => undefined).register(app, services)).toThrow(/missing from the gateway/);
  });
});

describe("organizations and members", () => {
  test("list, rename and activate as the owner", async () => {
    const ctx = await member(owner, "owner");
    expect((await renameOrganization({ ctx, input: { name: "Renamed Verbs" } })).name).toBe("Renamed Verbs");
    const selection = await activateOrganization({ ctx });
    expect(selection.organization_id).toBe(orgId);
    expect(selection.workspace_id).not.toBeNull();
    const mine = await listMyOrganizations({ ctx: await signedIn(owner) });
    expect(mine.active_organization_id).toBe(orgId);
    expect(mine.organizations.map((o) => [o.name, o.role, o.active])).toEqual([["Renamed Verbs", "owner", true]]);
  });

  test("members: add by username, change the role, never lose the last owner", async () => {
    const ctx = await member(owner, "owner");
    const other = await h.user("val");
    expect(await addMember({ ctx, input: { username: "val", role: "editor" } })).toMatchObject({ role: "editor" });
    expect(await refusal(addMember({ ctx, input: { username: "val", role: "viewer" } }))).toBe("CONFLICT");
    expect(await refusal(addMember({ ctx, input: { username: "nobody", role: "viewer" } }))).toBe("VALIDATION");
    await updateMemberRole({ ctx, input: { userId: other.id, role: "viewer" } });
    expect(await refusal(updateMemberRole({ ctx, input: { userId: owner.id, role: "viewer" } }))).toBe("CONFLICT");
    expect(await refusal(removeMember({ ctx, input: { userId: owner.id } }))).toBe("CONFLICT");
    await removeMember({ ctx, input: { userId: other.id } });
    expect((await listMembers({ ctx })).map((m) => [m.username, m.role])).toEqual([
      ["vera", "owner"],
      ["vic", "viewer"],
    ]);
  });
});

describe("API tokens", () => {
  test("created in the organization (pinned to one of its workspaces), listed without the secret, revoked", async () => {
    const ctx = await member(owner, "owner");
    const created = await createApiToken({ ctx, input: { name: "ci", organization_id: orgId } });
    expect(created.token).toMatch(/.{20,}/);
    const listed = await listApiTokens({ ctx });
    expect(listed.map((t) => t.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const foreign = await refusal(
      createApiToken({
        ctx,
        input: { name: "x", organization_id: orgId, workspace_id: "00000000-0000-4000-8000-000000000000" },
      }),
    );
    expect(foreign).toBe("VALIDATION");
    await revokeApiToken({ ctx, input: { id: created.id } });
    expect((await listApiTokens({ ctx })).map((t) => t.id)).not.toContain(created.id);
    // Someone else's token, or one already revoked, is not found.
    expect(await refusal(revokeApiToken({ ctx, input: { id: created.id } }))).toBe("NOT_FOUND");
  });
});

describe("platform and settings", () => {
  test("Admin creates an organization with an owner, suspends it; a taken slug is a conflict", async () => {
    const ctx = await signedIn(admin);
    const org = await createOrganization({ ctx, input: { name: "Platform Made", owner_username: "vic" } });
    expect(org).toMatchObject({ name: "Platform Made", enabled: true });
    expect(await refusal(createOrganization({ ctx, input: { name: "Again", slug: org.slug } }))).toBe("CONFLICT");
    expect((await setOrganizationEnabled({ ctx, input: { id: org.id, enabled: false } })).enabled).toBe(false);
    expect((await listAllOrganizations({ ctx })).map((o) => o.id)).toContain(org.id);
    expect(await refusal(setOrganizationEnabled({ ctx, input: { id: "nope", enabled: true } }))).toBe("NOT_FOUND");
  });

  test("site messages: one left out is unchanged", async () => {
    const ctx = await signedIn(admin);
    await updateSiteMessages({ ctx, input: { banner: { enabled: true, text: "Maintenance at noon" } } });
    const after = await updateSiteMessages({ ctx, input: { login: { enabled: true, text: "Welcome" } } });
    expect(after).toEqual({
      login: { enabled: true, text: "Welcome" },
      banner: { enabled: true, text: "Maintenance at noon" },
    });
    expect(await getSiteMessages({ ctx: services })).toEqual(after);
  });
});
