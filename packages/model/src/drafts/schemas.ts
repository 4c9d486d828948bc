import { z } from "zod";

export const DraftStates = ["open", "submitted", "merged", "discarded", "closed"] as const;

export const CreateDraftInput = z.strictObject({
  name: z.string().trim().min(1).max(200).describe("The draft's name, e.g. 'Target 2027'"),
  description: z.string().max(10_000).nullable().optional().describe("What the draft is for"),
});
export type CreateDraftInput = z.infer<typeof CreateDraftInput>;

const Person = z.object({ id: z.string().nullable(), name: z.string().nullable() });

export const Draft = z.object({
  id: z.string().describe("The draft's own workspace id (activate it, or pass it as workspace_id, to work in it)"),
  organization_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  base_workspace_id: z.string().nullable().describe("The workspace it was forked from; null once that was deleted"),
  base_name: z.string(),
  base_revision: z.number().int().describe("The base's revision at the fork"),
  revision: z.number().int().describe("The draft's own revision (its change log starts at 0 at the fork)"),
  state: z.enum(DraftStates),
  author: Person.extend({
    via: z
      .object({ kind: z.string(), name: z.string().nullable() })
      .describe("How the author came in (mcp: an assistant)"),
  }),
  created_at: z.string(),
  submitted_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  closed_reason: z.string().nullable().describe("Why it no longer takes changes (merged, discarded, base deleted)"),
  merged_revision: z.number().int().nullable().describe("The base's revision of the merge's change group"),
  changes: z.number().int().describe("Objects the draft changed since the fork"),
  approvals: z.number().int().describe("Approvals that count: the latest review of an owner/editor not the author"),
  approvals_required: z.number().int().describe("The organization's setting: approvals needed before a merge"),
  changes_requested: z.number().int().describe("Reviewers whose latest review requests changes"),
});
export type Draft = z.infer<typeof Draft>;

export const DraftReview = z.object({
  id: z.string(),
  reviewer: Person,
  decision: z.enum(["approve", "request_changes"]),
  comment: z.string(),
  created_at: z.string(),
});
export type DraftReview = z.infer<typeof DraftReview>;

export const DraftComment = z.object({
  id: z.string(),
  author: Person,
  object_id: z.string().nullable().describe("The changed object the comment is on; null for the draft as a whole"),
  text: z.string(),
  created_at: z.string(),
});
export type DraftComment = z.infer<typeof DraftComment>;

export const DraftDetail = Draft.extend({ reviews: z.array(DraftReview), comments: z.array(DraftComment) });
export type DraftDetail = z.infer<typeof DraftDetail>;

export const ConflictReasons = [
  "both_changed",
  "deleted_in_draft",
  "deleted_in_current",
  "endpoint_deleted_in_current",
  "referenced_in_current",
] as const;

export const DraftConflict = z.object({
  key: z.string().describe("What `resolutions` names: '<kind>:<id>' for the whole object, '<kind>:<id>:<field>'"),
  kind: z.string().describe("element, relationship, view, node, connection, property_value, folder, ..."),
  id: z.string(),
  name: z.string().nullable(),
  field: z.string().nullable().describe("The field both sides changed; null: the object as a whole"),
  reason: z.enum(ConflictReasons),
  base: z.unknown().describe("The value at the fork (the whole object's row when field is null)"),
  draft: z.unknown().describe("The draft's value now (null: the draft deleted it)"),
  current: z.unknown().describe("The base's value now (null: deleted in the base)"),
  message: z.string(),
});
export type DraftConflict = z.infer<typeof DraftConflict>;

export const DraftConflicts = z.object({
  base_revision: z.number().int(),
  current_revision: z.number().int().describe("The base's revision now"),
  conflicts: z.array(DraftConflict),
});
export type DraftConflicts = z.infer<typeof DraftConflicts>;

export const Resolution = z.union(
  [
    z.literal("draft"),
    z.literal("current"),
    z.strictObject({ value: z.unknown() }).describe("A value of your own for the field"),
  ],
  { error: "expected 'draft', 'current' or {\"value\": ...}" },
);
export type Resolution = z.infer<typeof Resolution>;

export const MergeDraftInput = z.strictObject({
  resolutions: z
    .record(z.string().max(1000), Resolution)
    .optional()
    .describe("Per conflict key: 'draft', 'current' or {value}"),
});
export type MergeDraftInput = z.infer<typeof MergeDraftInput>;

export const MergeResult = z.object({
  revision: z.number().int().describe("The base's revision after the merge's change group"),
  summary: z.string(),
  objects: z.number().int().describe("Objects the merge changed in the base"),
  draft: Draft,
});
export type MergeResult = z.infer<typeof MergeResult>;

export const ReviewInput = z.strictObject({
  decision: z.enum(["approve", "request_changes"]),
  comment: z.string().max(10_000).default(""),
});
export type ReviewInput = z.infer<typeof ReviewInput>;

export const CommentInput = z.strictObject({
  object_id: z.string().min(1).max(500).nullable().optional(),
  text: z.string().trim().min(1).max(10_000),
});
export type CommentInput = z.infer<typeof CommentInput>;
