import { memberships, organizations } from "@ams/db";
import { createRoute, z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import type { ControlContext } from "../../context.ts";
import { resolveActive } from "../../gateway/resolve.ts";
import type { App } from "../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../http/openapi.ts";
import { Organization, toOrganization } from "../../organizations/schemas.ts";

const MyOrganization = Organization.extend({ role: z.string(), active: z.boolean() }).openapi("MyOrganization");
const MyOrganizations = z
  .object({ organizations: z.array(MyOrganization), active_organization_id: z.string().nullable() })
  .openapi("MyOrganizations");

const route = createRoute({
  method: "get",
  path: "/api/organizations",
  operationId: "listMyOrganizations",
  tags: ["organizations"],
  responses: { 200: jsonResponse(MyOrganizations, "The caller's organizations"), 401: problemResponses[401] },
});

/**
 * The caller's memberships with role and which one is active. Admin has none by design (the realm role is no
 * membership), so the list is empty for it. An API token sees only its own organization.
 */
export const registerListOrganizations = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const principal = c.var.access.principal!;
    const rows = await ctx.database.db
      .select({ org: organizations, role: memberships.role })
      .from(memberships)
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .where(eq(memberships.userId, principal.userId))
      .orderBy(asc(organizations.name), asc(organizations.id));
    const activeId = principal.apiToken
      ? principal.apiToken.organizationId
      : ((await resolveActive(ctx.database, principal.userId))?.organizationId ?? null);
    const visible = principal.apiToken ? rows.filter((r) => r.org.id === activeId) : rows;
    return c.json(
      {
        organizations: visible.map((r) => ({ ...toOrganization(r.org), role: r.role, active: r.org.id === activeId })),
        active_organization_id: visible.some((r) => r.org.id === activeId) ? activeId : null,
      },
      200,
    );
  });
