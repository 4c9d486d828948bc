import type { organizations } from "@ams/db";
import { z } from "@hono/zod-openapi";
import { SLUG_PATTERN } from "./slug.ts";

export const MemberRole = z.enum(["owner", "admin", "editor", "viewer", "member"]);
export type MemberRole = z.infer<typeof MemberRole>;

export const Organization = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    is_personal: z.boolean(),
    enabled: z.boolean(),
    require_two_factor: z.boolean().describe("Members must use two-factor to open this organization in a browser"),
    draft_approvals_required: z
      .number()
      .int()
      .describe("Approvals a draft needs from owners/editors other than its author before it merges (0: none)"),
    assistants_write_to_drafts: z
      .boolean()
      .describe("MCP sessions of assistants write into a draft per conversation, never into a workspace directly"),
    created_at: z.string(),
  })
  .openapi("Organization");

export const Member = z
  .object({ userId: z.string(), username: z.string(), name: z.string(), role: z.string() })
  .openapi("OrganizationMember");

export type Organization = z.infer<typeof Organization>;
export type Member = z.infer<typeof Member>;

export const MyOrganization = Organization.extend({ role: z.string(), active: z.boolean() }).openapi("MyOrganization");
export const MyOrganizations = z
  .object({ organizations: z.array(MyOrganization), active_organization_id: z.string().nullable() })
  .openapi("MyOrganizations");
export type MyOrganizations = z.infer<typeof MyOrganizations>;

/** PUT /api/organizations/:id: a new name, the two-factor rule (owners), or both. */
export const UpdateOrganizationInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    require_two_factor: z.boolean().optional(),
    draft_approvals_required: z.number().int().min(0).max(20).optional(),
    assistants_write_to_drafts: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "give name, require_two_factor, draft_approvals_required or assistants_write_to_drafts",
    path: ["name"],
  });
export type UpdateOrganizationInput = z.infer<typeof UpdateOrganizationInput>;

export const ActiveSelection = z
  .object({ organization_id: z.string(), workspace_id: z.string().nullable() })
  .openapi("ActiveSelection");
export type ActiveSelection = z.infer<typeof ActiveSelection>;

export const AddMemberInput = z.object({ username: z.string().trim().min(1).max(200), role: MemberRole });
export const UpdateMemberInput = z.object({ role: MemberRole });

type OrganizationRow = typeof organizations.$inferSelect;

export function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    is_personal: row.isPersonal,
    enabled: row.enabled,
    require_two_factor: row.requireTwoFactor,
    draft_approvals_required: row.draftApprovalsRequired,
    assistants_write_to_drafts: row.assistantsWriteToDrafts,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

export const CreateOrganizationInput = z.object({
  name: z.string().trim().min(1).max(200),
  slug: z.string().regex(SLUG_PATTERN, "lower-case letters, digits and inner hyphens, at most 64").optional(),
  owner_username: z.string().trim().min(1).max(200).optional(),
});
export type CreateOrganizationInput = z.infer<typeof CreateOrganizationInput>;

/** The platform administrator's change of an organization: suspend or reactivate it, rename it, or both. */
export const SuspendOrganizationInput = z
  .object({ enabled: z.boolean().optional(), name: z.string().trim().min(1).max(200).optional() })
  .refine((v) => v.enabled !== undefined || v.name !== undefined, { message: "give enabled, name or both" });
