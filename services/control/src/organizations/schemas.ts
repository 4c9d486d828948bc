import type { organizations } from "@ams/db";
import { z } from "@hono/zod-openapi";

export const MemberRole = z.enum(["owner", "editor", "viewer"]);
export type MemberRole = z.infer<typeof MemberRole>;

export const Organization = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    is_personal: z.boolean(),
    enabled: z.boolean(),
    created_at: z.string(),
  })
  .openapi("Organization");

export const Member = z
  .object({ userId: z.string(), username: z.string(), name: z.string(), role: z.string() })
  .openapi("OrganizationMember");

export const AddMemberInput = z.object({ username: z.string().trim().min(1).max(200), role: MemberRole });
export const UpdateMemberInput = z.object({ role: MemberRole });

type OrganizationRow = typeof organizations.$inferSelect;

export function toOrganization(row: OrganizationRow): z.infer<typeof Organization> {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    is_personal: row.isPersonal,
    enabled: row.enabled,
    created_at: new Date(row.createdAt).toISOString(),
  };
}
