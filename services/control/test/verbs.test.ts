import { users } from "@ams/db";
import { AppError, type OrgRole } from "@ams/shared";
import { OpenAPIHono } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Access } from "../src/auth/principal.ts";
import { findUserById, identityOf } from "../src/auth/users.ts";
import type { ControlContext } from "../src/context.ts";
import { createControlContext } from "../src/create-context.ts";
import type { AppEnv } from "../src/http/app-env.ts";
import { controlRoute } from "../src/http/route.ts";
import { changePassword, getAuthOptions, getProfile, signIn, skipPasswordChange } from "../src/verbs/accounts.ts";
import { verbContext } from "../src/verbs/context.ts";
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  previewInvitation,
  resendInvitation,
  revokeInvitation,
} from "../src/verbs/invitations.ts";
import { addMember, listMembers, removeMember, updateMemberRole } from "../src/verbs/members.ts";
import { activateOrganization, listMyOrganizations, updateOrganization } from "../src/verbs/organizations.ts";
import { createOrganization, listAllOrganizations, setOrganizationEnabled } from "../src/verbs/platform.ts";
import { getSiteMessages, updateSiteMessages } from "../src/verbs/settings.ts";
import {
  addTeamMember,
  createTeam,
  deleteTeam,
  getWorkspaceTeams,
  listTeams,
  removeTeamMember,
  renameTeam,
  setWorkspaceTeams,
} from "../src/verbs/teams.ts";
import { createApiToken, listApiTokens, revokeApiToken } from "../src/verbs/tokens.ts";
import { createHarness, type Harness, type TestUser } from "./support/harness.ts";

/** The control verbs called directly, as a route would after the gateway: no HTTP, no cookies, no gateway. */
let h: Harness;
let services: ControlContext;
let owner: TestUser;
let viewer: TestUser;
let admin: TestUser;
let orgId: string;
let firstWorkspaceId: string;

async function access(user: TestUser, organizationId: string | null, role: OrgRole | null): Promise<Access> {
  const row = await findUserById(h.db, user.id);
  if (!row) throw new Error(`no user ${user.username}`);
  return { principal: { ...identityOf(row), apiToken: null }, organizationId, workspaceId: null, role, teamIds: [] };
}
const signedIn = async (user: TestUser) => verbContext(services, await access(user, null, null), "signed-in");
const member = async (user: TestUser, role: OrgRole, organizationId = orgId) =>
  verbContext(services, await access(user, organizationId, role), "member");

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
  firstWorkspaceId = (await h.workspace(orgId, "First")).id;
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
    expect((await updateOrganization({ ctx, input: { name: "Renamed Verbs" } })).name).toBe("Renamed Verbs");
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

describe("accounts", () => {
  let address = 0;
  /** Each sign-in from its own client address unless one is given, as the route passes the caller's. */
  const signInAs = (username: string, password: string, clientIp = `192.0.2.${++address}`) =>
    signIn({ ctx: services, input: { username, password, clientIp } });

  test("sign-in: the right password answers the identity; the username's case and spaces do not matter", async () => {
    const identity = await signInAs("  VERA ", owner.password);
    expect(identity).toMatchObject({
      userId: owner.id,
      username: "vera",
      provider: "local",
      platformAdmin: false,
      mustChangePassword: false,
    });
    expect((await signInAs("ada", admin.password)).platformAdmin).toBe(true);
  });

  test("sign-in: a wrong password and an unknown username get the same refusal", async () => {
    const wrong = await signInAs("vera", "not-the-password").catch((e: unknown) => e);
    const unknown = await signInAs("nobody-here", "whatever-password").catch((e: unknown) => e);
    for (const err of [wrong, unknown]) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "UNAUTHENTICATED", message: "Invalid username or password" });
    }
  });

  test("sign-in: the sixth attempt of a username from one address is refused even with the right password", async () => {
    const lou = await h.user("lou");
    const ip = "198.51.100.7";
    for (let i = 0; i < 5; i++) expect(await refusal(signInAs("lou", "wrong-password", ip))).toBe("UNAUTHENTICATED");
    const blocked = await signInAs("lou", lou.password, ip).catch((e: unknown) => e);
    expect(blocked).toMatchObject({ code: "RATE_LIMITED" });
    // Another address is not locked out by these failures, and its success clears nothing of the blocked one's.
    expect((await signInAs("lou", lou.password, "198.51.100.8")).userId).toBe(lou.id);
    expect(await refusal(signInAs("lou", lou.password, ip))).toBe("RATE_LIMITED");
    h.clock.advance(15 * 60 * 1000 + 1000);
    expect((await signInAs("lou", lou.password, ip)).userId).toBe(lou.id);
  });

  test("the profile lists the caller's memberships and active choice; the platform role shows", async () => {
    const profile = await getProfile({ ctx: await signedIn(owner) });
    expect(profile).toMatchObject({ id: owner.id, username: "vera", role: "user", auth_provider: "local" });
    expect(profile.memberships.map((m) => [m.organization_id, m.role])).toEqual([[orgId, "owner"]]);
    expect(profile.active_organization_id).toBe(orgId);
    expect(profile.api_token).toBeNull();
    const adminProfile = await getProfile({ ctx: await signedIn(admin) });
    expect(adminProfile.role).toBe("platform_admin");
    expect(adminProfile.memberships).toEqual([]);
  });

  test("change password: the current one is checked, the new one must differ, then only the new one signs in", async () => {
    const pat = await h.user("pat");
    const ctx = await signedIn(pat);
    const change = (current_password: string, new_password: string) =>
      changePassword({ ctx, input: { current_password, new_password, clientIp: "203.0.113.20" } });
    const mismatch = await change("not-my-password", "a-brand-new-password").catch((e: unknown) => e);
    expect(mismatch).toMatchObject({ code: "VALIDATION" });
    expect(String((mismatch as AppError).message)).toMatch(/current_password/);
    expect(await refusal(change(pat.password, pat.password))).toBe("VALIDATION");
    const identity = await change(pat.password, "a-brand-new-password");
    expect(identity).toMatchObject({ userId: pat.id, mustChangePassword: false });
    expect(await refusal(signInAs("pat", pat.password))).toBe("UNAUTHENTICATED");
    expect((await signInAs("pat", "a-brand-new-password")).userId).toBe(pat.id);
  });

  test("skipping the forced change clears the flag the next sign-in reports", async () => {
    const sam = await h.user("sam", { mustChangePassword: true });
    expect((await signInAs("sam", sam.password)).mustChangePassword).toBe(true);
    expect((await skipPasswordChange({ ctx: await signedIn(sam) })).mustChangePassword).toBe(false);
    expect((await signInAs("sam", sam.password)).mustChangePassword).toBe(false);
  });

  test("the sign-in page is offered local accounts without SSO by default", () => {
    expect(getAuthOptions({ ctx: services })).toEqual({ profile: "local", sso: false, password_reset: false });
  });
});

describe("invitations", () => {
  const tokenOf = (issued: { accept_url?: string }) => {
    const token = issued.accept_url?.split("/").pop();
    if (!token) throw new Error("a manual invitation answers its link");
    return token;
  };

  test("issued with a link, listed without it, previewed and accepted by the invited, verified address only", async () => {
    const inviter = await h.user("ines");
    const org = await h.org("Invites Verbs", [[inviter, "owner"]]);
    const ctx = await member(inviter, "owner", org.id);
    const invitee = await h.user("ivan");
    await h.db.update(users).set({ email: "Ivan@Example.test" }).where(eq(users.id, invitee.id));

    const issued = await createInvitation({
      ctx,
      input: { email: " ivan@example.test ", role: "editor", delivery_mode: "manual" },
    });
    expect(issued).toMatchObject({
      organization_id: org.id,
      email: "ivan@example.test",
      role: "editor",
      status: "active",
      delivery_kind: "manual",
      sent_at: null,
      invited_by: "ines",
    });
    const listed = await listInvitations({ ctx, input: { status: "pending" } });
    expect(listed.map((i) => i.id)).toEqual([issued.id]);
    expect(JSON.stringify(listed)).not.toContain(tokenOf(issued));

    const token = tokenOf(issued);
    // Someone else signed in cannot read or redeem it; the invitee must verify the address first.
    expect(await refusal(previewInvitation({ ctx: await signedIn(viewer), input: { token } }))).toBe("FORBIDDEN");
    expect(await refusal(previewInvitation({ ctx: await signedIn(invitee), input: { token } }))).toBe("FORBIDDEN");
    await h.db.update(users).set({ emailVerified: true }).where(eq(users.id, invitee.id));
    const invited = await signedIn(invitee);
    expect(await previewInvitation({ ctx: invited, input: { token } })).toMatchObject({
      organization: { id: org.id, name: "Invites Verbs" },
      role: "editor",
      invited_by: "ines",
    });
    expect(await refusal(previewInvitation({ ctx: invited, input: { token: "not-a-token" } }))).toBe("NOT_FOUND");

    expect(await acceptInvitation({ ctx: invited, input: { token } })).toEqual({
      organization_id: org.id,
      role: "editor",
      already_member: false,
    });
    expect(await refusal(acceptInvitation({ ctx: invited, input: { token } }))).toBe("GONE");
    const mine = await listMyOrganizations({ ctx: invited });
    expect(mine.organizations.map((o) => [o.id, o.role])).toEqual([[org.id, "editor"]]);
    expect(await listInvitations({ ctx, input: { status: "pending" } })).toEqual([]);
    expect((await listInvitations({ ctx, input: { status: "all" } })).map((i) => i.status)).toEqual(["accepted"]);
    expect(await refusal(resendInvitation({ ctx, input: { invitationId: issued.id } }))).toBe("CONFLICT");
  });

  test("resend replaces the link; revoke withdraws it; another organization's invitation is not found", async () => {
    const inviter = await h.user("rita");
    const org = await h.org("Resend Verbs", [[inviter, "owner"]]);
    const ctx = await member(inviter, "owner", org.id);
    const invitee = await h.user("rob");
    await h.db.update(users).set({ email: "rob@example.test", emailVerified: true }).where(eq(users.id, invitee.id));
    const invited = await signedIn(invitee);

    const first = await createInvitation({
      ctx,
      input: { email: "rob@example.test", role: "viewer", delivery_mode: "manual" },
    });
    const second = await resendInvitation({ ctx, input: { invitationId: first.id } });
    expect(second.id).not.toBe(first.id);
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    expect(await refusal(previewInvitation({ ctx: invited, input: { token: tokenOf(first) } }))).toBe("GONE");
    expect((await previewInvitation({ ctx: invited, input: { token: tokenOf(second) } })).role).toBe("viewer");

    const elsewhere = await member(owner, "owner");
    expect(await refusal(revokeInvitation({ ctx: elsewhere, input: { invitationId: second.id } }))).toBe("NOT_FOUND");
    expect(await refusal(resendInvitation({ ctx: elsewhere, input: { invitationId: second.id } }))).toBe("NOT_FOUND");
    expect(await listInvitations({ ctx: elsewhere, input: { status: "all" } })).toEqual([]);

    await revokeInvitation({ ctx, input: { invitationId: second.id } });
    expect(await refusal(acceptInvitation({ ctx: invited, input: { token: tokenOf(second) } }))).toBe("GONE");
    expect(await refusal(resendInvitation({ ctx, input: { invitationId: second.id } }))).toBe("CONFLICT");
    expect(await listInvitations({ ctx, input: { status: "pending" } })).toEqual([]);
  });
});

describe("teams", () => {
  test("created, renamed, given members and workspaces; names are unique; non-members are refused", async () => {
    const lead = await h.user("tess");
    const mate = await h.user("ted");
    const org = await h.org("Teams Verbs", [
      [lead, "owner"],
      [mate, "editor"],
    ]);
    const ws = await h.workspace(org.id, "Team Space");
    const ctx = await member(lead, "owner", org.id);

    const team = await createTeam({ ctx, input: { name: "Architects" } });
    expect(team).toMatchObject({ organization_id: org.id, name: "Architects", member_ids: [], workspace_ids: [] });
    expect(await refusal(createTeam({ ctx, input: { name: "Architects" } }))).toBe("CONFLICT");
    const other = await createTeam({ ctx, input: { name: "Builders" } });
    expect(await refusal(renameTeam({ ctx, input: { teamId: other.id, name: "Architects" } }))).toBe("CONFLICT");
    expect((await renameTeam({ ctx, input: { teamId: team.id, name: "Enterprise Architects" } })).name).toBe(
      "Enterprise Architects",
    );

    await addTeamMember({ ctx, input: { teamId: team.id, userId: mate.id } });
    await addTeamMember({ ctx, input: { teamId: team.id, userId: mate.id } });
    expect(await refusal(addTeamMember({ ctx, input: { teamId: team.id, userId: viewer.id } }))).toBe("VALIDATION");

    expect(await setWorkspaceTeams({ ctx, input: { workspaceId: ws.id, teamIds: [team.id, team.id] } })).toEqual({
      workspace_id: ws.id,
      team_ids: [team.id],
    });
    expect(await getWorkspaceTeams({ ctx, input: { workspaceId: ws.id } })).toEqual({
      workspace_id: ws.id,
      team_ids: [team.id],
    });
    expect((await listTeams({ ctx })).map((t) => [t.name, t.member_ids, t.workspace_ids])).toEqual([
      ["Builders", [], []],
      ["Enterprise Architects", [mate.id], [ws.id]],
    ]);

    await removeTeamMember({ ctx, input: { teamId: team.id, userId: mate.id } });
    expect(await refusal(removeTeamMember({ ctx, input: { teamId: team.id, userId: mate.id } }))).toBe("NOT_FOUND");
    // Deleting the only team a workspace is assigned to gives the workspace back to the whole organization.
    await deleteTeam({ ctx, input: { teamId: team.id } });
    expect(await getWorkspaceTeams({ ctx, input: { workspaceId: ws.id } })).toEqual({
      workspace_id: ws.id,
      team_ids: [],
    });
    expect((await listTeams({ ctx })).map((t) => t.name)).toEqual(["Builders"]);
  });

  test("another organization's teams and workspaces are out of reach", async () => {
    const lead = await h.user("una");
    const org = await h.org("Other Teams", [[lead, "owner"]]);
    const theirs = await createTeam({ ctx: await member(lead, "owner", org.id), input: { name: "Hidden" } });
    const theirWorkspace = await h.workspace(org.id, "Hidden Space");

    const ctx = await member(owner, "owner");
    expect(await listTeams({ ctx })).toEqual([]);
    expect(await refusal(renameTeam({ ctx, input: { teamId: theirs.id, name: "Mine" } }))).toBe("NOT_FOUND");
    expect(await refusal(deleteTeam({ ctx, input: { teamId: theirs.id } }))).toBe("NOT_FOUND");
    expect(await refusal(addTeamMember({ ctx, input: { teamId: theirs.id, userId: owner.id } }))).toBe("NOT_FOUND");
    const mine = await createTeam({ ctx, input: { name: "Mine" } });
    // Their team cannot be assigned to my workspace, nor my team to their workspace.
    const assign = (workspaceId: string, teamIds: string[]) =>
      setWorkspaceTeams({ ctx, input: { workspaceId, teamIds } });
    expect(await refusal(assign(firstWorkspaceId, [theirs.id]))).toBe("VALIDATION");
    expect(await refusal(assign(theirWorkspace.id, [mine.id]))).toBe("NOT_FOUND");
    expect(await refusal(assign(firstWorkspaceId, ["nope"]))).toBe("VALIDATION");
    expect(await getWorkspaceTeams({ ctx, input: { workspaceId: firstWorkspaceId } })).toEqual({
      workspace_id: firstWorkspaceId,
      team_ids: [],
    });
  });
});
