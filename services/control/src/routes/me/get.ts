import { memberships, organizations } from "@ams/db";
import { createRoute, z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import type { ControlContext } from "../../context.ts";
import { resolveActive } from "../../gateway/resolve.ts";
import type { App } from "../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../http/openapi.ts";

const Profile = z
  .object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    email_verified: z.boolean(),
    role: z.enum(["platform_admin", "user"]),
    must_change_password: z.boolean(),
    auth_provider: z.string(),
    memberships: z.array(
      z.object({
        organization_id: z.string(),
        organization_slug: z.string(),
        organization_name: z.string(),
        role: z.string(),
        enabled: z.boolean(),
      }),
    ),
    active_organization_id: z.string().nullable(),
    active_workspace_id: z.string().nullable(),
    /** Set when the caller authenticated with a personal API token: its scope. */
    api_token: z
      .object({ id: z.string(), organization_id: z.string(), workspace_id: z.string().nullable() })
      .nullable(),
  })
  .openapi("Profile");

const route = createRoute({
  method: "get",
  path: "/api/me",
  operationId: "getProfile",
  tags: ["identity"],
  responses: { 200: jsonResponse(Profile, "Profile and memberships"), 401: problemResponses[401] },
});

/** The profile and memberships; with an API token, only the token's organization is in view. */
export const registerMeRoute = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const p = c.var.access.principal!;
    const rows = await ctx.database.db
      .select({ org: organizations, role: memberships.role })
      .from(memberships)
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .where(eq(memberships.userId, p.userId))
      .orderBy(asc(organizations.name), asc(organizations.id));
    const token = p.apiToken;
    const active = token
      ? { organizationId: token.organizationId, workspaceId: token.workspaceId }
      : await resolveActive(ctx.database, p.userId);
    return c.json(
      {
        id: p.userId,
        username: p.username,
        name: p.name,
        email: p.email,
        email_verified: p.emailVerified,
        role: p.platformAdmin ? ("platform_admin" as const) : ("user" as const),
        must_change_password: p.mustChangePassword,
        auth_provider: p.provider,
        memberships: rows
          .filter((r) => !token || r.org.id === token.organizationId)
          .map((r) => ({
            organization_id: r.org.id,
            organization_slug: r.org.slug,
            organization_name: r.org.name,
            role: r.role,
            enabled: r.org.enabled,
          })),
        active_organization_id: active?.organizationId ?? null,
        active_workspace_id: active?.workspaceId ?? null,
        api_token: token
          ? { id: token.tokenId, organization_id: token.organizationId, workspace_id: token.pinnedWorkspaceId }
          : null,
      },
      200,
    );
  });
