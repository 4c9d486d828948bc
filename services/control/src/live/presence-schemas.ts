import { z } from "@hono/zod-openapi";

/** How long a presence lasts without renewal; the browser renews it every third of this. */
export const PRESENCE_LEASE_SECONDS = 30;

export const PresenceInput = z
  .strictObject({
    view_id: z.string().min(1).max(200).nullable().optional().describe("The view the caller has open (none: the tree)"),
    selection: z
      .array(z.string().min(1).max(200))
      .max(100)
      .optional()
      .describe("The ids of what the caller has selected (elements, relationships, nodes, connections)"),
    client_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional()
      .describe("One browser tab of the caller (a person may have the workspace open twice)"),
  })
  .openapi("PresenceInput");
export type PresenceInput = z.infer<typeof PresenceInput>;

export const Presence = z
  .object({
    user: z.object({ id: z.string(), name: z.string() }),
    client_id: z.string(),
    view_id: z.string().nullable(),
    selection: z.array(z.string()),
    color: z.string().describe("The colour the others see this person in (CSS hex)"),
    expires_at: z.string().describe("When this presence ends unless renewed (ISO 8601)"),
  })
  .openapi("Presence");
export type Presence = z.infer<typeof Presence>;

export const PresenceList = z
  .object({
    present: z.array(Presence).describe("Who has the workspace open, the caller included"),
    lease_seconds: z.number().int(),
  })
  .openapi("PresenceList");
export type PresenceList = z.infer<typeof PresenceList>;
