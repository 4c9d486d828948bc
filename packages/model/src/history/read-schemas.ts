import { ViaKinds } from "@ams/shared";
import { z } from "zod";
import { FieldChange } from "./schemas.ts";

/** Largest page of a history list. */
export const HISTORY_PAGE_MAX = 200;

export const ChangeKinds = [
  "element",
  "relationship",
  "view",
  "node",
  "connection",
  "folder",
  "property_definition",
  "property_value",
  "model",
] as const;
export type ChangeKind = (typeof ChangeKinds)[number];

export const HistoryQuery = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(HISTORY_PAGE_MAX)
    .optional()
    .describe(`At most this many changes, newest first (1 to ${HISTORY_PAGE_MAX}; default 50)`),
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe("Only changes older than this revision: the previous page's next_before"),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const WorkspaceHistoryQuery = HistoryQuery.extend({
  actor: z.string().min(1).max(200).optional().describe("Only changes made by this user id"),
  via: z.enum(ViaKinds).optional().describe("Only changes that came this way"),
  kind: z.enum(ChangeKinds).optional().describe("Only changes that touched an object of this kind"),
});
export type WorkspaceHistoryQuery = z.infer<typeof WorkspaceHistoryQuery>;

const Actor = z
  .object({ id: z.string().nullable(), name: z.string().nullable() })
  .describe("Who made the change; null id for the system (seed, background work)");
const ViaOut = z
  .object({ kind: z.enum(ViaKinds), name: z.string().nullable() })
  .describe("How it came: browser, api_token (the token's name), mcp (the client's name), import or system");

/** What every history item says about its change group. */
export const ChangeGroupHeader = z.object({
  revision: z.number().int().describe("The workspace revision this change made"),
  created_at: z.string().describe("When it was committed (ISO 8601)"),
  actor: Actor,
  via: ViaOut,
  request_id: z.string().nullable(),
  summary: z.string().describe("One line saying what the change did"),
  detail_compacted: z
    .boolean()
    .describe(
      "True when retention (HISTORY_RETENTION_DAYS) dropped this change's field-level detail: who, when, the way in, " +
        "the summary and the objects touched remain; fields before and after do not",
    ),
});
export type ChangeGroupHeader = z.infer<typeof ChangeGroupHeader>;

export const ChangeOp = z.enum(["create", "update", "delete"]);

export const TouchedObject = z.object({
  kind: z.enum(ChangeKinds),
  id: z.string(),
  name: z.string().nullable().describe("Its name (or label) after the change, or before a deletion"),
  op: ChangeOp,
});

export const WorkspaceChange = ChangeGroupHeader.extend({
  object_count: z.number().int().describe("How many objects the change touched"),
  objects: z.array(TouchedObject).describe("The objects touched, the first 20 in the order they changed"),
});
export type WorkspaceChange = z.infer<typeof WorkspaceChange>;

const NextBefore = z
  .number()
  .int()
  .nullable()
  .describe("Pass as `before` for the next (older) page; null when this is the last page");

export const WorkspaceHistoryPage = z.object({
  items: z.array(WorkspaceChange),
  next_before: NextBefore,
});
export type WorkspaceHistoryPage = z.infer<typeof WorkspaceHistoryPage>;

/** A node or connection of a view, as a view's history shows it. */
export const ViewPartChange = z.object({
  kind: z.enum(["node", "connection"]),
  id: z.string(),
  name: z.string().nullable().describe("The element or relationship it shows (its current name), or its label"),
  change: z.enum(["added", "removed", "moved", "resized", "moved and resized", "changed"]),
  fields: z.array(FieldChange),
});
export type ViewPartChange = z.infer<typeof ViewPartChange>;

export const ObjectChange = ChangeGroupHeader.extend({
  op: ChangeOp.describe("What the change did to the object itself (update when only its properties or parts changed)"),
  fields: z.array(FieldChange).describe("Its fields and property values, before and after"),
  parts: z.array(ViewPartChange).optional().describe("A view's nodes and connections added, removed, moved, resized"),
});
export type ObjectChange = z.infer<typeof ObjectChange>;

export const ObjectHistoryPage = z.object({
  items: z.array(ObjectChange),
  next_before: NextBefore,
});
export type ObjectHistoryPage = z.infer<typeof ObjectHistoryPage>;
export type FieldDiff = z.infer<typeof FieldChange>;
