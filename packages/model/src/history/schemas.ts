import { z } from "zod";

export const Version = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  revision: z.number().int().describe("The workspace revision this version names"),
  automatic: z.boolean().describe("Made by the system before an import or a restore"),
  created_at: z.string(),
  created_by: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
});
export type Version = z.infer<typeof Version>;

export const CreateVersionInput = z.strictObject({
  name: z.string().trim().min(1).max(200).describe("The version's name, e.g. 'Before lunch'"),
  description: z.string().max(10_000).nullable().optional(),
});
export type CreateVersionInput = z.infer<typeof CreateVersionInput>;

/** A point of history: a version id, a revision number or (where allowed) "current". */
export const RevisionRef = z
  .string()
  .min(1)
  .max(100)
  .describe("A version id, a revision number, or (where allowed) 'current'");

export const DiffQuery = z.strictObject({
  from: RevisionRef,
  to: RevisionRef.optional().describe("A version id, a revision number or 'current' (the default)"),
});
export type DiffQuery = z.infer<typeof DiffQuery>;

export const FieldChange = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
const Named = z.object({ id: z.string(), name: z.string().nullable(), type: z.string().nullable() });
const Changed = Named.extend({ fields: z.array(FieldChange) });
export const KindDiff = z.object({ added: z.array(Named), removed: z.array(Named), changed: z.array(Changed) });
export type KindDiff = z.infer<typeof KindDiff>;

const Layout = z.object({ id: z.string(), label: z.string().nullable() });
export const ViewDiff = z.object({
  view_id: z.string(),
  name: z.string().nullable(),
  nodes: z.object({
    added: z.array(Layout),
    removed: z.array(Layout),
    moved: z.array(
      Layout.extend({
        before: z.object({ x: z.number(), y: z.number() }),
        after: z.object({ x: z.number(), y: z.number() }),
      }),
    ),
    resized: z.array(
      Layout.extend({
        before: z.object({ w: z.number(), h: z.number() }),
        after: z.object({ w: z.number(), h: z.number() }),
      }),
    ),
    changed: z.array(Layout.extend({ fields: z.array(FieldChange) })),
  }),
  connections: z.object({
    added: z.array(Layout),
    removed: z.array(Layout),
    changed: z.array(Layout.extend({ fields: z.array(FieldChange) })),
  }),
});
export type ViewDiff = z.infer<typeof ViewDiff>;

const Point = z.object({
  revision: z.number().int(),
  version: z.object({ id: z.string(), name: z.string() }).nullable(),
});

export const ModelDiff = z.object({
  from: Point,
  to: Point,
  model: z.array(FieldChange).describe("Model-level fields (name, documentation, metadata) that differ"),
  elements: KindDiff,
  relationships: KindDiff,
  views: KindDiff,
  property_definitions: KindDiff,
  folders: KindDiff,
  view_layouts: z.array(ViewDiff).describe("Per view: nodes and connections added, removed, moved, resized, changed"),
});
export type ModelDiff = z.infer<typeof ModelDiff>;

export const RestoreInput = z.strictObject({ version: z.string().min(1).max(100).describe("The version's id") });
export const ObjectRestoreInput = z.strictObject({
  revision: z.number().int().min(0).describe("The revision whose state of this object to bring back"),
});

export const ChangeResult = z.object({
  revision: z
    .number()
    .int()
    .describe("The workspace revision of the change group this made (unchanged: nothing to do)"),
  summary: z.string(),
  objects: z.number().int().describe("Objects the change group touched"),
});
export type ChangeResult = z.infer<typeof ChangeResult>;
