import { memberships, organizations } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { ControlContext } from "../../../context.ts";
import type { App } from "../../../http/app-env.ts";
import { isUniqueViolation } from "../../../http/db-errors.ts";
import { jsonBody, jsonResponse, problemResponses } from "../../../http/openapi.ts";
import { Organization, toOrganization } from "../../../organizations/schemas.ts";
import { freeSlug, SLUG_PATTERN } from "../../../organizations/slug.ts";

const CreateOrganizationInput = z.object({
  name: z.string().trim().min(1).max(200),
  slug: z.string().regex(SLUG_PATTERN, "lower-case letters, digits and inner hyphens, at most 64").optional(),
  owner_username: z.string().trim().min(1).max(200).optional(),
});

const route = createRoute({
  method: "post",
  path: "/api/platform/organizations",
  operationId: "platformCreateOrganization",
  tags: ["platform"],
  request: { body: jsonBody(CreateOrganizationInput) },
  responses: {
    201: jsonResponse(Organization, "Created"),
    ...problemResponses,
    409: { description: "Slug taken" },
  },
});

/** Organizations are never self-provisioned: only Admin creates them, optionally with a first owner. */
export const registerPlatformCreateOrganization = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const owner = input.owner_username ? await ctx.directory.findByUsername(input.owner_username) : null;
    if (input.owner_username && !owner) throw invalid("owner_username", "no account has this username");
    const now = ctx.clock();
    const create = ctx.database.db.transaction(async (tx) => {
      if (input.slug) {
        const [taken] = await tx
          .select({ id: organizations.id })
          .from(organizations)
          .where(eq(organizations.slug, input.slug));
        if (taken) throw new AppError("CONFLICT", `The slug '${input.slug}' is taken`);
      }
      const slug = input.slug ?? (await freeSlug(tx, input.name));
      const [org] = await tx.insert(organizations).values({ name: input.name, slug, createdAt: now }).returning();
      if (owner) {
        await tx
          .insert(memberships)
          .values({ organizationId: org.id, userId: owner.id, role: "owner", createdAt: now });
      }
      return org;
    });
    const row = await create.catch((err: unknown) => {
      // Two creations racing for one slug: the unique index decides.
      throw isUniqueViolation(err) ? new AppError("CONFLICT", "The slug is taken; try again") : err;
    });
    return c.json(toOrganization(row), 201);
  });
