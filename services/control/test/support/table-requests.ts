import type { RouteRule } from "../../src/gateway/routes.ts";
import { dashboardDefinition, type Fixtures, type Home, type Prepared } from "./table-fixtures.ts";

export type Caller = { home: Home; userId: string | null; password: string | null };
type Builder = (f: Fixtures, caller: Caller, real: boolean) => Promise<Prepared>;

const missing = "id-missing";
const p = (path: string, body?: unknown): Prepared => ({ path, body });
/** A real draft of the caller's home workspace, or (refused before any lookup) the home workspace's id. */
const draftOf = async (f: Fixtures, c: Caller, real: boolean) => (real ? f.draft(c.home.ws) : c.home.ws);
let clients = 0;
let registered = 0;
/** A new client address per call, for the anonymous routes that count per address. */
const nextClient = () => `10.88.${Math.floor(++clients / 250)}.${clients % 250}`;

/**
 * A well-formed request for every route of the table. `real` asks for real objects (the call is expected to be
 * allowed); otherwise placeholder ids do, since the gateway must refuse before anything is looked up.
 */
export const requests: Record<string, Builder> = {
  "GET /api/health": async () => p("/api/health"),
  "GET /api/settings/messages": async () => p("/api/settings/messages"),
  "GET /api/openapi.json": async () => p("/api/openapi.json"),
  "GET /api/docs": async () => p("/api/docs"),
  "GET /api/docs/assets/docs-init.js": async () => p("/api/docs/assets/docs-init.js"),
  "GET /api/docs/assets/:file": async () => p("/api/docs/assets/swagger-ui.css"),
  "GET /api/plugins/:pluginSlug/icons/:iconSlug": async () => p("/api/plugins/some-pack/icons/some-icon"),
  "GET /s/:token": async () => p(`/s/${"A".repeat(43)}`),
  "GET /s/:token/:file": async () => p(`/s/${"A".repeat(43)}/index.html`),
  "GET /s/:token/:dir/:file": async () => p(`/s/${"A".repeat(43)}/views/v.html`),
  "GET /api/auth/options": async () => p("/api/auth/options"),
  "POST /api/auth/local/login": async (f) => {
    const acct = await f.localAccount();
    return p("/api/auth/local/login", { username: acct.username, password: acct.password });
  },
  "POST /api/auth/refresh": async () => p("/api/auth/refresh"),
  "POST /api/auth/logout": async () => p("/api/auth/logout"),
  "GET /api/auth/logout": async () => p("/api/auth/logout"),
  "GET /api/auth/login": async () => p("/api/auth/login?from=/models"),
  "GET /api/auth/callback": async () => p("/api/auth/callback?code=c&state=s"),
  "POST /api/auth/local/forgot-password": async () => ({
    ...p("/api/auth/local/forgot-password", { email: "someone@test.example" }),
    headers: { "x-forwarded-for": nextClient() },
  }),
  "POST /api/auth/local/reset-password": async () => ({
    ...p("/api/auth/local/reset-password", { token: "A".repeat(43), password: "a-long-enough-password" }),
    headers: { "x-forwarded-for": nextClient() },
  }),
  "GET /api/auth/me": async () => p("/api/auth/me"),
  "POST /api/auth/change-password": async (_f, c) =>
    p("/api/auth/change-password", {
      current_password: c.password ?? "irrelevant",
      new_password: `${c.password}-new!`,
    }),
  "POST /api/auth/change-password/skip": async () => p("/api/auth/change-password/skip"),
  "GET /api/auth/two-factor": async () => p("/api/auth/two-factor"),
  "POST /api/auth/two-factor/enrol": async (_f, c) => p("/api/auth/two-factor/enrol", { password: c.password ?? "x" }),
  "POST /api/auth/two-factor/confirm": async () => p("/api/auth/two-factor/confirm", { code: "000000" }),
  "POST /api/auth/two-factor/disable": async (_f, c) =>
    p("/api/auth/two-factor/disable", { password: c.password ?? "x" }),
  "POST /api/auth/two-factor/recovery-codes": async (_f, c) =>
    p("/api/auth/two-factor/recovery-codes", { password: c.password ?? "x" }),
  "POST /api/auth/local/login/two-factor": async () =>
    p("/api/auth/local/login/two-factor", { challenge: "not-a-challenge", code: "123456" }),
  "GET /api/me": async () => p("/api/me"),
  "GET /auth/providers": async () => p("/auth/providers"),
  "GET /auth/sessions": async () => p("/auth/sessions"),
  "DELETE /auth/sessions/:id": async (f, c, real) =>
    p(`/auth/sessions/${real && c.userId ? await f.spareSession(c.userId) : crypto.randomUUID()}`),
  "GET /api/organizations": async () => p("/api/organizations"),
  "PUT /api/organizations/:id": async (_f, c) => p(`/api/organizations/${c.home.org}`, { name: "Renamed Org" }),
  "POST /api/organizations/:id/activate": async (_f, c) => p(`/api/organizations/${c.home.org}/activate`),
  "GET /api/organizations/:id/audit": async (_f, c) => p(`/api/organizations/${c.home.org}/audit`),
  "GET /api/platform/audit": async () => p("/api/platform/audit?limit=5"),
  "GET /api/platform/users": async () => p("/api/platform/users?q=acct&limit=5"),
  "POST /api/platform/users": async (_f, _c, real) => {
    const username = `made-${crypto.randomUUID().slice(0, 8)}`;
    return p("/api/platform/users", { username, name: real ? "Made" : "x", email: `${username}@test.example` });
  },
  "PUT /api/platform/users/:id": async (f, _c, real) =>
    p(`/api/platform/users/${real ? (await f.account()).id : missing}`, { name: "Renamed" }),
  "DELETE /api/platform/users/:id": async (f, _c, real) =>
    p(`/api/platform/users/${real ? (await f.account()).id : missing}`),
  "POST /api/platform/users/:id/reset-password": async (f, _c, real) =>
    p(`/api/platform/users/${real ? (await f.localAccount()).id : missing}/reset-password`),
  "GET /api/organizations/:id/members": async (_f, c) => p(`/api/organizations/${c.home.org}/members`),
  "GET /api/organizations/:id/teams": async (_f, c) => p(`/api/organizations/${c.home.org}/teams`),
  "GET /api/organizations/:id/validation-rules": async (_f, c) =>
    p(`/api/organizations/${c.home.org}/validation-rules`),
  "POST /api/organizations/:id/validation-rules": async (_f, c) =>
    p(`/api/organizations/${c.home.org}/validation-rules`, { type: "max_nesting", depth: 4 }),
  "PUT /api/organizations/:id/validation-rules/:ruleId": async (f, c, real) =>
    p(`/api/organizations/${c.home.org}/validation-rules/${real ? await f.validationRule(c.home.org) : missing}`, {
      type: "max_nesting",
      depth: 2,
      severity: "error",
    }),
  "DELETE /api/organizations/:id/validation-rules/:ruleId": async (f, c, real) =>
    p(`/api/organizations/${c.home.org}/validation-rules/${real ? await f.validationRule(c.home.org) : missing}`),
  "POST /api/organizations/:id/teams": async (_f, c) =>
    p(`/api/organizations/${c.home.org}/teams`, { name: `Team ${crypto.randomUUID()}` }),
  "PUT /api/organizations/:id/teams/:teamId": async (f, c, real) =>
    p(`/api/organizations/${c.home.org}/teams/${real ? await f.team(c.home.org) : missing}`, {
      name: `Team ${crypto.randomUUID()}`,
    }),
  "DELETE /api/organizations/:id/teams/:teamId": async (f, c, real) =>
    p(`/api/organizations/${c.home.org}/teams/${real ? await f.team(c.home.org) : missing}`),
  "PUT /api/organizations/:id/teams/:teamId/members/:userId": async (f, c, real) =>
    p(
      `/api/organizations/${c.home.org}/teams/${real ? await f.team(c.home.org) : missing}/members/${real ? await f.member(c.home.org) : missing}`,
    ),
  "DELETE /api/organizations/:id/teams/:teamId/members/:userId": async (f, c, real) => {
    if (!real) return p(`/api/organizations/${c.home.org}/teams/${missing}/members/${missing}`);
    const team = await f.team(c.home.org);
    const user = await f.member(c.home.org);
    await f.teamMember(team, user);
    return p(`/api/organizations/${c.home.org}/teams/${team}/members/${user}`);
  },
  "GET /api/workspaces/:id/teams": async (_f, c) => p(`/api/workspaces/${c.home.ws}/teams`),
  "PUT /api/workspaces/:id/teams": async (f, c, real) =>
    p(`/api/workspaces/${real ? await f.workspace(c.home.org) : c.home.ws}/teams`, { team_ids: [] }),
  "POST /api/organizations/:id/members": async (f, c, real) =>
    p(`/api/organizations/${c.home.org}/members`, {
      username: real ? (await f.account()).username : "x",
      role: "viewer",
    }),
  "PUT /api/organizations/:id/members/:userId": async (f, c, real) =>
    p(`/api/organizations/${c.home.org}/members/${real ? await f.member(c.home.org) : missing}`, { role: "editor" }),
  "DELETE /api/organizations/:id/members/:userId": async (f, c, real) =>
    p(`/api/organizations/${c.home.org}/members/${real ? await f.member(c.home.org) : missing}`),
  "GET /api/organizations/:id/invitations": async (_f, c) => p(`/api/organizations/${c.home.org}/invitations`),
  "POST /api/organizations/:id/invitations": async (_f, c) =>
    p(`/api/organizations/${c.home.org}/invitations`, {
      email: `invitee-${crypto.randomUUID()}@test.example`,
      role: "viewer",
      delivery_mode: "manual",
    }),
  "DELETE /api/organizations/:id/invitations/:invitationId": async (f, c, real) =>
    p(
      `/api/organizations/${c.home.org}/invitations/${real ? (await f.invitation(c.home.org)).id : crypto.randomUUID()}`,
    ),
  "POST /api/organizations/:id/invitations/:invitationId/resend": async (f, c, real) =>
    p(
      `/api/organizations/${c.home.org}/invitations/${real ? (await f.invitation(c.home.org)).id : crypto.randomUUID()}/resend`,
    ),
  "GET /api/invitations/:token": async (f, c, real) =>
    p(`/api/invitations/${real && c.userId ? (await f.invitation(null, c.userId)).token : "A".repeat(43)}`),
  "POST /api/invitations/:token/accept": async (f, c, real) =>
    p(`/api/invitations/${real && c.userId ? (await f.invitation(null, c.userId)).token : "A".repeat(43)}/accept`),
  // Anonymous: a fresh invitation creates a fresh account (each from its own client address: the route's limit).
  "POST /api/invitations/:token/register": async (f, _c, real) => ({
    ...p(`/api/invitations/${real ? (await f.invitation(null)).token : "A".repeat(43)}/register`, {
      username: `table-${++registered}-${crypto.randomUUID().slice(0, 8)}`,
      name: "Table Person",
      password: "a-long-enough-password",
    }),
    headers: { "x-forwarded-for": nextClient() },
  }),

  "GET /api/settings/api-tokens": async () => p("/api/settings/api-tokens"),
  "POST /api/settings/api-tokens": async (_f, c) => p("/api/settings/api-tokens", { organization_id: c.home.org }),
  "DELETE /api/settings/api-tokens/:id": async (f, c, real) =>
    p(`/api/settings/api-tokens/${real && c.userId ? await f.token(c.userId, c.home.org) : crypto.randomUUID()}`),
  // The consent page's calls: a fresh request each time (answered once); deny, which every signed-in owner may.
  "GET /api/oauth/requests/:handle": async (f, _c, real) =>
    p(`/api/oauth/requests/${real ? (await f.oauthRequest()).handle : "A".repeat(43)}`),
  "POST /api/oauth/requests/:handle/decision": async (f, c, real) => {
    if (!real || !c.userId)
      return p(`/api/oauth/requests/${"A".repeat(43)}/decision`, { decision: "deny", consent: "x" });
    const { handle, consent } = await f.oauthRequest(c.userId);
    return p(`/api/oauth/requests/${handle}/decision`, { decision: "deny", consent });
  },
  "PUT /api/settings/messages": async () => p("/api/settings/messages", { banner: { enabled: false, text: "" } }),
  "GET /api/platform/organizations": async () => p("/api/platform/organizations"),
  "POST /api/platform/organizations": async () => p("/api/platform/organizations", { name: "Platform Made" }),
  "PUT /api/platform/organizations/:id": async (f, _c, real) =>
    p(`/api/platform/organizations/${real ? await f.scratchOrganization() : crypto.randomUUID()}`, { enabled: true }),
  "DELETE /api/platform/organizations/:id": async (f, _c, real) =>
    p(`/api/platform/organizations/${real ? await f.scratchOrganization() : crypto.randomUUID()}`),
  "GET /api/platform/organizations/:id/members": async (f, _c, real) =>
    p(`/api/platform/organizations/${real ? await f.scratchOrganization() : crypto.randomUUID()}/members`),
  "POST /api/platform/organizations/:id/members": async (f, _c, real) => {
    if (!real)
      return p(`/api/platform/organizations/${crypto.randomUUID()}/members`, { username: "x", role: "viewer" });
    return p(`/api/platform/organizations/${await f.scratchOrganization()}/members`, {
      username: (await f.account()).username,
      role: "viewer",
    });
  },
  "PUT /api/platform/organizations/:id/members/:userId": async (f, _c, real) => {
    if (!real) return p(`/api/platform/organizations/${crypto.randomUUID()}/members/${missing}`, { role: "editor" });
    const org = await f.scratchOrganization();
    return p(`/api/platform/organizations/${org}/members/${await f.member(org)}`, { role: "editor" });
  },
  "DELETE /api/platform/organizations/:id/members/:userId": async (f, _c, real) => {
    if (!real) return p(`/api/platform/organizations/${crypto.randomUUID()}/members/${missing}`);
    const org = await f.scratchOrganization();
    return p(`/api/platform/organizations/${org}/members/${await f.member(org)}`);
  },
  "GET /api/platform/plugins": async () => p("/api/platform/plugins"),
  "GET /api/platform/plugins/:slug": async () => p("/api/platform/plugins/some-pack"),
  "PUT /api/platform/plugins/:slug": async () => p("/api/platform/plugins/some-pack", { enabled: false }),
  "GET /api/platform/plugins/:slug/icons/:iconSlug": async () => p("/api/platform/plugins/some-pack/icons/some-icon"),
  "GET /api/workspaces": async () => p("/api/workspaces"),
  "POST /api/workspaces": async () => p("/api/workspaces", { name: "Created by table" }),
  "PUT /api/workspaces/:id": async (_f, c) => p(`/api/workspaces/${c.home.ws}`, { description: "touched" }),
  "DELETE /api/workspaces/:id": async (f, c, real) =>
    p(`/api/workspaces/${real ? await f.workspace(c.home.org) : c.home.ws}`),
  "POST /api/workspaces/:id/activate": async (_f, c) => p(`/api/workspaces/${c.home.ws}/activate`),
  "GET /api/workspaces/:id/share-links": async (_f, c) => p(`/api/workspaces/${c.home.ws}/share-links`),
  "POST /api/workspaces/:id/share-links": async (_f, c) =>
    p(`/api/workspaces/${c.home.ws}/share-links`, { scope: "report" }),
  "DELETE /api/workspaces/:id/share-links/:linkId": async (f, c, real) =>
    p(`/api/workspaces/${c.home.ws}/share-links/${real ? await f.shareLink(c.home.ws) : crypto.randomUUID()}`),
  "GET /api/workspaces/:id/versions": async (_f, c) => p(`/api/workspaces/${c.home.ws}/versions`),
  "POST /api/workspaces/:id/versions": async (_f, c) => p(`/api/workspaces/${c.home.ws}/versions`, { name: "Table" }),
  "DELETE /api/workspaces/:id/versions/:versionId": async (f, c, real) =>
    p(`/api/workspaces/${c.home.ws}/versions/${real ? await f.version(c.home.ws) : crypto.randomUUID()}`),
  "GET /api/workspaces/:id/diff": async (_f, c) => p(`/api/workspaces/${c.home.ws}/diff?from=0`),
  "POST /api/workspaces/:id/validate": async (_f, c) =>
    p(`/api/workspaces/${c.home.ws}/validate`, { include: ["documentation_missing"] }),
  "POST /api/workspaces/:id/restore": async (f, c, real) =>
    p(`/api/workspaces/${c.home.ws}/restore`, {
      version: real ? await f.version(c.home.ws) : crypto.randomUUID(),
    }),
  "POST /api/workspaces/:id/history/:revision/revert": async (f, c, real) =>
    p(`/api/workspaces/${c.home.ws}/history/${real ? (await f.createdElement()).revision : 1}/revert`),
  "GET /api/workspaces/:id/colourings": async (_f, c) => p(`/api/workspaces/${c.home.ws}/colourings`),
  "POST /api/workspaces/:id/colourings": async (_f, c) =>
    p(`/api/workspaces/${c.home.ws}/colourings`, { name: "Table", color_by: "relationship_count" }),
  "DELETE /api/workspaces/:id/colourings/:colouringId": async (f, c, real) =>
    p(`/api/workspaces/${c.home.ws}/colourings/${real ? await f.colouring(c.home.ws) : crypto.randomUUID()}`),
  "GET /api/workspaces/:id/history": async (_f, c) => p(`/api/workspaces/${c.home.ws}/history?limit=5`),
  "POST /api/workspaces/:id/drafts": async (_f, c) => p(`/api/workspaces/${c.home.ws}/drafts`, { name: "Table" }),
  "GET /api/workspaces/:id/drafts": async (_f, c) => p(`/api/workspaces/${c.home.ws}/drafts`),
  "GET /api/drafts/:id": async (f, c, real) => p(`/api/drafts/${await draftOf(f, c, real)}`),
  "GET /api/drafts/:id/changes": async (f, c, real) => p(`/api/drafts/${await draftOf(f, c, real)}/changes`),
  "GET /api/drafts/:id/conflicts": async (f, c, real) => p(`/api/drafts/${await draftOf(f, c, real)}/conflicts`),
  "POST /api/drafts/:id/merge": async (f, c, real) => p(`/api/drafts/${await draftOf(f, c, real)}/merge`, {}),
  "POST /api/drafts/:id/submit": async (f, c, real) => p(`/api/drafts/${await draftOf(f, c, real)}/submit`),
  "POST /api/drafts/:id/reviews": async (f, c, real) =>
    p(`/api/drafts/${await draftOf(f, c, real)}/reviews`, { decision: "approve", comment: "Fine" }),
  "POST /api/drafts/:id/comments": async (f, c, real) =>
    p(`/api/drafts/${await draftOf(f, c, real)}/comments`, { text: "Looks right" }),
  "POST /api/drafts/:id/discard": async (f, c, real) => p(`/api/drafts/${await draftOf(f, c, real)}/discard`),
  "GET /api/workspaces/:id/table": async (_f, c) => p(`/api/workspaces/${c.home.ws}/table?kind=relationships`),
  "POST /api/workspaces/:id/bulk": async (f, c, real) =>
    p(`/api/workspaces/${c.home.ws}/bulk`, {
      rows: [{ id: real ? await f.elementIn(c.home.ws) : missing, documentation: "Bulk" }],
    }),
  "GET /api/workspaces/:id/events": async (_f, c) => p(`/api/workspaces/${c.home.ws}/events`),
  "GET /api/workspaces/:id/presence": async (_f, c) => p(`/api/workspaces/${c.home.ws}/presence`),
  "POST /api/workspaces/:id/presence": async (_f, c) =>
    p(`/api/workspaces/${c.home.ws}/presence`, { view_id: null, selection: [] }),
  "GET /api/elements/:id/history": async (f, _c, real) =>
    p(`/api/elements/${real ? await f.element() : missing}/history`),
  "GET /api/relationships/:id/history": async (f, _c, real) =>
    p(`/api/relationships/${real ? await f.relationship() : missing}/history`),
  "GET /api/views/:id/history": async (f, _c, real) => p(`/api/views/${real ? await f.view() : missing}/history`),
  "GET /api": async () => p("/api"),
  "POST /api/save": async () => p("/api/save"),
  "GET /api/export": async () => p("/api/export"),
  "GET /api/export/zip": async () => p("/api/export/zip"),
  "POST /api/export/neo4j": async () => p("/api/export/neo4j"),
  "POST /api/import": async (f) => f.importBody(),
  "GET /api/elements/types": async () => p("/api/elements/types"),
  "GET /api/elements": async () => p("/api/elements"),
  "POST /api/elements": async () => p("/api/elements", { name: "Table", type: "Node" }),
  "GET /api/elements/:id": async (f, _c, real) => p(`/api/elements/${real ? await f.element() : missing}`),
  "PUT /api/elements/:id": async (f, _c, real) =>
    p(`/api/elements/${real ? await f.element() : missing}`, { name: "Renamed" }),
  "DELETE /api/elements/:id": async (f, _c, real) => p(`/api/elements/${real ? await f.element() : missing}`),
  "GET /api/elements/:id/relationships": async (f, _c, real) =>
    p(`/api/elements/${real ? await f.element() : missing}/relationships`),
  "GET /api/folders": async () => p("/api/folders"),
  "GET /api/elements/:id/views": async (f, _c, real) => p(`/api/elements/${real ? await f.element() : missing}/views`),
  "GET /api/elements/:id/derived-relationships": async (f, _c, real) =>
    p(`/api/elements/${real ? await f.element() : missing}/derived-relationships`),
  "GET /api/analysis/gap": async (f, _c, real) =>
    p(
      real
        ? `/api/analysis/gap?from=${await f.plateau()}&to=${await f.plateau()}`
        : `/api/analysis/gap?from=${missing}&to=${missing}`,
    ),
  "GET /api/analysis/gap/image": async (f, _c, real) =>
    p(
      real
        ? `/api/analysis/gap/image?from=${await f.plateau()}&to=${await f.plateau()}`
        : `/api/analysis/gap/image?from=${missing}&to=${missing}`,
    ),
  "GET /api/elements/:id/impact": async (f, _c, real) =>
    p(`/api/elements/${real ? await f.element() : missing}/impact?direction=both&depth=2`),
  "POST /api/elements/:id/restore": async (f, _c, real) => {
    const created = real ? await f.createdElement() : { id: missing, revision: 1 };
    return p(`/api/elements/${created.id}/restore`, { revision: created.revision });
  },
  "GET /api/relationships/types": async () => p("/api/relationships/types"),
  "GET /api/relationships": async () => p("/api/relationships"),
  "POST /api/relationships": async (f, _c, real) => {
    const [source, target] = real ? [await f.element(), await f.element()] : [missing, missing];
    return p("/api/relationships", { type: "Association", source, target });
  },
  "GET /api/relationships/:id": async (f, _c, real) =>
    p(`/api/relationships/${real ? await f.relationship() : missing}`),
  "PUT /api/relationships/:id": async (f, _c, real) =>
    p(`/api/relationships/${real ? await f.relationship() : missing}`, { name: "Renamed" }),
  "DELETE /api/relationships/:id": async (f, _c, real) =>
    p(`/api/relationships/${real ? await f.relationship() : missing}`),
  "GET /api/relationships/:id/views": async (f, _c, real) =>
    p(`/api/relationships/${real ? await f.relationship() : missing}/views`),
  "POST /api/relationships/:id/restore": async (f, _c, real) => {
    const target = real ? await f.withRevision("relationships") : { id: missing, revision: 1 };
    return p(`/api/relationships/${target.id}/restore`, { revision: target.revision });
  },
  "GET /api/views": async () => p("/api/views"),
  "POST /api/views": async () => p("/api/views", { name: "Table view" }),
  "GET /api/views/:id": async (f, _c, real) => p(`/api/views/${real ? await f.view() : missing}`),
  "POST /api/views/:id/restore": async (f, _c, real) => {
    const target = real ? await f.withRevision("views") : { id: missing, revision: 1 };
    return p(`/api/views/${target.id}/restore`, { revision: target.revision });
  },
  "PUT /api/views/:id": async (f, _c, real) => p(`/api/views/${real ? await f.view() : missing}`, { name: "Renamed" }),
  "DELETE /api/views/:id": async (f, _c, real) => p(`/api/views/${real ? await f.view() : missing}`),
  "GET /api/views/:id/image": async (f, _c, real) =>
    // The PNG drawn on the server: the role matrix runs the rasterizer, not only the SVG.
    p(`/api/views/${real ? await f.view() : missing}/image?format=png&scale=0.5`),
  "POST /api/views/:id/elements": async (f, _c, real) =>
    real
      ? p(`/api/views/${await f.view()}/elements`, { element_ids: [await f.element()] })
      : p(`/api/views/${missing}/elements`, { element_ids: [missing] }),
  "GET /api/views/:id/diff-image": async (f, _c, real) =>
    // Since revision 0 every node of the view is new: the role matrix draws the comparison as a PNG.
    p(`/api/views/${real ? await f.view() : missing}/diff-image?format=png&from=0&to=current&scale=0.5`),
  "POST /api/views/:id/nodes": async (f, _c, real) =>
    real
      ? p(`/api/views/${await f.view()}/nodes`, { element_id: await f.element() })
      : p(`/api/views/${missing}/nodes`, { element_id: missing }),
  "PUT /api/views/:id/nodes/:nodeId": async (f, _c, real) => {
    const { view, node } = real ? await f.node() : { view: missing, node: missing };
    return p(`/api/views/${view}/nodes/${node}`, { x: 10, y: 20 });
  },
  "DELETE /api/views/:id/nodes/:nodeId": async (f, _c, real) => {
    const { view, node } = real ? await f.node() : { view: missing, node: missing };
    return p(`/api/views/${view}/nodes/${node}`);
  },
  "POST /api/views/:id/connections": async (f, _c, real) => {
    if (!real) return p(`/api/views/${missing}/connections`, { source: missing, target: missing });
    const view = await f.view();
    const [a, b] = [await f.node(view), await f.node(view)];
    return p(`/api/views/${view}/connections`, { source: a.node, target: b.node });
  },
  "PUT /api/views/:id/connections/:connectionId": async (f, _c, real) => {
    const { view, connection } = real ? await f.connection() : { view: missing, connection: missing };
    return p(`/api/views/${view}/connections/${connection}`, { label: "relabelled" });
  },
  "DELETE /api/views/:id/connections/:connectionId": async (f, _c, real) => {
    const { view, connection } = real ? await f.connection() : { view: missing, connection: missing };
    return p(`/api/views/${view}/connections/${connection}`);
  },
  "GET /api/viewpoints": async () => p("/api/viewpoints"),
  "GET /api/property-definitions": async () => p("/api/property-definitions"),
  "POST /api/property-definitions": async () =>
    p("/api/property-definitions", { name: `Table ${crypto.randomUUID()}` }),
  "GET /api/property-definitions/:id": async (f, _c, real) =>
    p(`/api/property-definitions/${real ? await f.propertyDefinition() : missing}`),
  "PUT /api/property-definitions/:id": async (f, _c, real) =>
    p(`/api/property-definitions/${real ? await f.propertyDefinition() : missing}`, {
      name: `R ${crypto.randomUUID()}`,
    }),
  "DELETE /api/property-definitions/:id": async (f, _c, real) =>
    p(`/api/property-definitions/${real ? await f.propertyDefinition() : missing}`),
  "GET /api/export/neo4j/jobs/:jobId": async () => p(`/api/export/neo4j/jobs/${crypto.randomUUID()}`),
  "GET /api/dashboards": async () => p("/api/dashboards"),
  "GET /api/dashboards/schema": async () => p("/api/dashboards/schema"),
  "POST /api/dashboards": async () => p("/api/dashboards", dashboardDefinition("Table")),
  "GET /api/dashboards/admin": async () => p("/api/dashboards/admin"),
  "GET /api/dashboards/:dashboardId": async (f, _c, real) =>
    p(`/api/dashboards/${real ? await f.dashboard() : missing}`),
  "PUT /api/dashboards/:dashboardId": async (f, _c, real) =>
    p(`/api/dashboards/${real ? await f.dashboard() : missing}`, dashboardDefinition("Table v2")),
  "DELETE /api/dashboards/:dashboardId": async (f, _c, real) =>
    p(`/api/dashboards/${real ? await f.dashboard() : missing}`),
  "POST /api/dashboards/:dashboardId/restore": async (f, _c, real) =>
    p(`/api/dashboards/${real ? await f.deletedDashboard() : missing}/restore`),
  "GET /api/dashboards/:dashboardId/panels/:panelInstanceId": async (f, _c, real) =>
    p(`/api/dashboards/${real ? await f.dashboard() : missing}/panels/names`),
  "GET /api/panel-visualizations": async () => p("/api/panel-visualizations"),
  "POST /api/explore": async () => p("/api/explore", { query: "MATCH (n) RETURN count(n)", parameters: {} }),
  "GET /api/plugins": async () => p("/api/plugins"),
  "POST /mcp": async () => p("/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }),
  "GET /mcp": async () => p("/mcp"),
  "DELETE /mcp": async () => p("/mcp"),
  "POST /mcp/": async () => p("/mcp/", { jsonrpc: "2.0", id: 1, method: "ping" }),
  "GET /mcp/": async () => p("/mcp/"),
  "DELETE /mcp/": async () => p("/mcp/"),
};

export const ruleKey = (rule: Pick<RouteRule, "method" | "path">) => `${rule.method} ${rule.path}`;
