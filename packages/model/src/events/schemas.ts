import { z } from "zod";
import { ChangeGroupHeader, ChangeKinds } from "../history/read-schemas.ts";

/** A group with more entries than this is sent without its objects (`truncated`): the client reloads instead. */
export const EVENT_OBJECTS_MAX = 500;

export const ChangedObject = z
  .object({
    kind: z.enum(ChangeKinds),
    id: z.string().describe("The object's id (a property value: '<owner id>/<ord>'; the model: the workspace id)"),
    owner_id: z
      .string()
      .nullable()
      .describe("The view of a node or connection, the owner of a property value, the concept of a folder entry"),
    op: z.enum(["create", "update", "delete"]).describe("What the group did to it (first and last state compared)"),
    state: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The object's new state as the change log stores it (its row's columns, snake_case); null: deleted"),
  })
  .describe("One object a change group touched");
export type ChangedObject = z.infer<typeof ChangedObject>;

/** One committed change group, as the live events stream sends it (event id = revision). */
export const ChangeEvent = ChangeGroupHeader.extend({
  objects: z.array(ChangedObject).describe("Each object the group touched, once, with its new state or deletion"),
  truncated: z
    .boolean()
    .describe(
      `The group touched more than ${EVENT_OBJECTS_MAX} objects (or its detail was compacted): objects is empty, reload`,
    ),
});
export type ChangeEvent = z.infer<typeof ChangeEvent>;
