import {
  ChangeResult,
  CreateVersionInput,
  createVersion,
  diffRevisions,
  getElementHistory,
  getRelationshipHistory,
  getViewHistory,
  getWorkspaceHistory,
  HISTORY_PAGE_MAX,
  type KindDiff,
  listVersions,
  ModelDiff,
  ObjectChange,
  RevisionRef,
  requireWorkspace,
  revertChange,
  Version,
  type ViewDiff,
  WorkspaceChange,
  WorkspaceHistoryQuery,
} from "@ams/model";
import { AppError } from "@ams/shared";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CREATE, data, defineTool, READ } from "./define.ts";
import { ElementId, RelationshipId, ViewId } from "./fields.ts";

/** A field's value before or after a change is cut at this many characters in history and diff answers. */
export const HISTORY_VALUE_CAP = 1000;

/** Changes per get_history page: fewer than REST's 50, as each object change carries its fields. */
const HISTORY_LIMIT = { default: 20, max: HISTORY_PAGE_MAX } as const;

/** Items per list of a diff_versions answer (each kind's added, removed, changed; views; a view's nodes...). */
const DIFF_LIMIT = { default: 100, max: 1000 } as const;

/** Versions per list_versions answer. */
const VERSIONS_LIMIT = { default: 100, max: 1000 } as const;

/** Undoing a change group: it changes the model, and a second call is refused (the revert itself is a later change). */
const REVERT: Required<Pick<ToolAnnotations, "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint">> =
  { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

/** A point of history as diff_versions takes it: REST's text reference, or a revision as a number. */
const Point = z.union([RevisionRef, z.number().int().min(0)]);

const ValuesTruncated = z
  .boolean()
  .optional()
  .describe(`true when a before or after value was cut at ${HISTORY_VALUE_CAP.toLocaleString("en")} characters`);

const HistoryAnswer = z.object({
  of: z
    .object({ kind: z.enum(["workspace", "element", "relationship", "view"]), id: z.string() })
    .describe("Whose history this is"),
  items: z
    .array(z.union([WorkspaceChange, ObjectChange.extend({ values_truncated: ValuesTruncated })]))
    .describe(
      "Changes, newest first. A workspace's: summary and the objects touched; an object's: its fields before and after",
    ),
  next_before: z
    .number()
    .int()
    .nullable()
    .describe("Pass as `before` for the next (older) page; null when this is the last page"),
});

const ListCounts = z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() });

const DiffCounts = z
  .object({
    model: z.number().int().describe("Model-level fields that differ"),
    elements: ListCounts,
    relationships: ListCounts,
    views: ListCounts,
    property_definitions: ListCounts,
    folders: ListCounts,
    view_layouts: z
      .object({
        views: z.number().int().describe("Views whose nodes or connections differ"),
        nodes_added: z.number().int(),
        nodes_removed: z.number().int(),
        nodes_moved: z.number().int(),
        nodes_resized: z.number().int(),
        nodes_changed: z.number().int(),
        connections_added: z.number().int(),
        connections_removed: z.number().int(),
        connections_changed: z.number().int(),
      })
      .describe("Summed over the views"),
  })
  .describe("How many differences of each sort there are (the whole diff, whatever the lists leave out)");

const DiffAnswer = ModelDiff.extend({
  counts: DiffCounts,
  truncated: z
    .boolean()
    .describe("true when a list below was cut at `limit` items or a value at 1,000 characters (see note)"),
  note: z.string().optional().describe("What was left out and how to see it"),
});

const VersionList = z.object({
  versions: z.array(Version).describe("Newest revision first"),
  total: z.number().int().describe("How many versions the workspace has"),
  omitted: z.number().int().describe("How many are not in this answer (see limit)"),
});

/** A string longer than the cap, cut (anywhere inside an object or list value); `cut` says whether any was. */
function capValue(value: unknown, cut: { any: boolean }): unknown {
  if (typeof value === "string") {
    if (value.length <= HISTORY_VALUE_CAP) return value;
    cut.any = true;
    return `${value.slice(0, HISTORY_VALUE_CAP)}…`;
  }
  if (Array.isArray(value)) return value.map((v) => capValue(v, cut));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capValue(v, cut)]));
  }
  return value;
}

type Fields = { field: string; before: unknown; after: unknown }[];
const capFields = (fields: Fields, cut: { any: boolean }): Fields =>
  fields.map((f) => ({ field: f.field, before: capValue(f.before, cut), after: capValue(f.after, cut) }));

const SUBJECTS = [
  ["element_id", "element", getElementHistory],
  ["relationship_id", "relationship", getRelationshipHistory],
  ["view_id", "view", getViewHistory],
] as const;

/** The first `limit` items of a list, counting what was left out. */
function head<T>(list: readonly T[], limit: number, left: { out: number }): T[] {
  if (list.length > limit) left.out += list.length - limit;
  return list.slice(0, limit);
}

function kindCounts(k: KindDiff) {
  return { added: k.added.length, removed: k.removed.length, changed: k.changed.length };
}

function layoutCounts(views: readonly ViewDiff[]) {
  const sum = (pick: (v: ViewDiff) => readonly unknown[]) => views.reduce((n, v) => n + pick(v).length, 0);
  return {
    views: views.length,
    nodes_added: sum((v) => v.nodes.added),
    nodes_removed: sum((v) => v.nodes.removed),
    nodes_moved: sum((v) => v.nodes.moved),
    nodes_resized: sum((v) => v.nodes.resized),
    nodes_changed: sum((v) => v.nodes.changed),
    connections_added: sum((v) => v.connections.added),
    connections_removed: sum((v) => v.connections.removed),
    connections_changed: sum((v) => v.connections.changed),
  };
}

/**
 * The diff as an assistant reads it: the counts of everything first, then each list cut at `limit` items and each
 * value at HISTORY_VALUE_CAP characters, with a note saying what was left out.
 */
function boundedDiff(diff: ModelDiff, limit: number): z.infer<typeof DiffAnswer> {
  const left = { out: 0 };
  const cut = { any: false };
  const kind = (k: KindDiff): KindDiff => ({
    added: head(k.added, limit, left),
    removed: head(k.removed, limit, left),
    changed: head(k.changed, limit, left).map((c) => ({ ...c, fields: capFields(c.fields, cut) })),
  });
  const view = (v: ViewDiff): ViewDiff => ({
    ...v,
    nodes: {
      added: head(v.nodes.added, limit, left),
      removed: head(v.nodes.removed, limit, left),
      moved: head(v.nodes.moved, limit, left),
      resized: head(v.nodes.resized, limit, left),
      changed: head(v.nodes.changed, limit, left).map((c) => ({ ...c, fields: capFields(c.fields, cut) })),
    },
    connections: {
      added: head(v.connections.added, limit, left),
      removed: head(v.connections.removed, limit, left),
      changed: head(v.connections.changed, limit, left).map((c) => ({ ...c, fields: capFields(c.fields, cut) })),
    },
  });
  const counts = {
    model: diff.model.length,
    elements: kindCounts(diff.elements),
    relationships: kindCounts(diff.relationships),
    views: kindCounts(diff.views),
    property_definitions: kindCounts(diff.property_definitions),
    folders: kindCounts(diff.folders),
    view_layouts: layoutCounts(diff.view_layouts),
  };
  const lists = {
    model: capFields(head(diff.model, limit, left), cut),
    elements: kind(diff.elements),
    relationships: kind(diff.relationships),
    views: kind(diff.views),
    property_definitions: kind(diff.property_definitions),
    folders: kind(diff.folders),
    view_layouts: head(diff.view_layouts, limit, left).map(view),
  };
  const notes: string[] = [];
  if (left.out > 0) {
    notes.push(
      `${left.out.toLocaleString("en")} items are left out: each list holds at most ${limit.toLocaleString("en")} ` +
        `(counts give the totals); pass a larger limit (at most ${DIFF_LIMIT.max.toLocaleString("en")}) or compare nearer points`,
    );
  }
  if (cut.any) {
    notes.push(
      `values longer than ${HISTORY_VALUE_CAP.toLocaleString("en")} characters are cut, ending with … ` +
        "(get_element, get_relationship or get_view give the current ones in full)",
    );
  }
  return {
    from: diff.from,
    to: diff.to,
    counts,
    truncated: notes.length > 0,
    ...(notes.length > 0 ? { note: `${notes.join("; ")}.` } : {}),
    ...lists,
  };
}

export const historyTools = [
  defineTool({
    name: "get_history",
    title: "History of the workspace or of one object",
    description:
      "Who changed what, when and through what (browser, API token, MCP client, import, system), newest first. " +
      "Without an id: the workspace's changes, each with its revision, a one-line summary and the objects it " +
      "touched (filter by actor, via or kind). With element_id, relationship_id or view_id (one of them): that " +
      "object's changes field by field, before and after (a view's also lists its nodes and connections added, " +
      "removed, moved and resized); a deleted object keeps its history. Page with `before` = the answer's " +
      `next_before. Values over ${HISTORY_VALUE_CAP.toLocaleString("en")} characters are cut. A revision from ` +
      "here can be undone with revert_change or compared with diff_versions.",
    input: z.strictObject({
      element_id: ElementId.optional().describe("One element's history (a deleted element's too)"),
      relationship_id: RelationshipId.optional().describe("One relationship's history (a deleted one's too)"),
      view_id: ViewId.optional().describe("One view's history, with its nodes and connections (a deleted one's too)"),
      actor: WorkspaceHistoryQuery.shape.actor.describe("Only changes by this user id (workspace history only)"),
      via: WorkspaceHistoryQuery.shape.via.describe("Only changes that came this way (workspace history only)"),
      kind: WorkspaceHistoryQuery.shape.kind.describe(
        "Only changes that touched an object of this kind (workspace history only)",
      ),
      limit: z
        .number()
        .int()
        .min(1)
        .max(HISTORY_LIMIT.max)
        .default(HISTORY_LIMIT.default)
        .describe(
          `Largest number of changes to return (default ${HISTORY_LIMIT.default}, at most ${HISTORY_LIMIT.max})`,
        ),
      before: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe("Only changes older than this revision: the previous answer's next_before"),
    }),
    output: HistoryAnswer,
    annotations: READ,
    run: async ({ ctx }, { limit, before, actor, via, kind, ...ids }) => {
      const given = SUBJECTS.filter(([key]) => ids[key] !== undefined);
      if (given.length > 1) {
        throw new AppError("VALIDATION", "Give at most one of element_id, relationship_id and view_id", {
          errors: given.map(([key]) => ({ path: key, message: "at most one of element_id, relationship_id, view_id" })),
        });
      }
      const [subject] = given;
      if (!subject) {
        const id = requireWorkspace(ctx);
        const page = await getWorkspaceHistory({ ctx, input: { id, limit, before, actor, via, kind } });
        return data({ of: { kind: "workspace", id }, ...page });
      }
      const filter = actor !== undefined ? "actor" : via !== undefined ? "via" : kind !== undefined ? "kind" : null;
      if (filter) {
        throw new AppError("VALIDATION", `${filter}: filters the workspace history only (without an object id)`, {
          errors: [{ path: filter, message: "filters the workspace history only" }],
        });
      }
      const [key, noun, verb] = subject;
      const id = ids[key] as string;
      const page = await verb({ ctx, input: { id, limit, before } });
      const items = page.items.map((item) => {
        const cut = { any: false };
        const fields = capFields(item.fields, cut);
        const parts = item.parts?.map((p) => ({ ...p, fields: capFields(p.fields, cut) }));
        return { ...item, fields, ...(parts ? { parts } : {}), ...(cut.any ? { values_truncated: true } : {}) };
      });
      return data({ of: { kind: noun, id }, items, next_before: page.next_before });
    },
  }),
  defineTool({
    name: "list_versions",
    title: "List versions",
    description:
      "The workspace's named versions (a name for a revision), newest first, with who made them; `automatic` marks " +
      "the ones made before an import or a restore. Use an id (or a revision) with diff_versions.",
    input: z.strictObject({
      limit: z
        .number()
        .int()
        .min(1)
        .max(VERSIONS_LIMIT.max)
        .default(VERSIONS_LIMIT.default)
        .describe(
          `Largest number of versions to return (default ${VERSIONS_LIMIT.default}, at most ` +
            `${VERSIONS_LIMIT.max.toLocaleString("en")}); the answer's omitted says how many more there are`,
        ),
    }),
    output: VersionList,
    annotations: READ,
    run: async ({ ctx }, { limit }) => {
      const versions = await listVersions({ ctx });
      return data({
        versions: versions.slice(0, limit),
        total: versions.length,
        omitted: Math.max(0, versions.length - limit),
      });
    },
  }),
  defineTool({
    name: "create_version",
    title: "Name the current state",
    description:
      "Names the workspace's current revision (e.g. 'Before the reorganization'), so it can be compared with " +
      "diff_versions later. Copies nothing: it costs the same at any model size.",
    input: CreateVersionInput.extend({
      description: CreateVersionInput.shape.description.describe("What this state is, for the people reading it"),
    }),
    output: Version,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await createVersion({ ctx, input })),
  }),
  defineTool({
    name: "diff_versions",
    title: "Compare two states of the workspace",
    description:
      "What differs between two points of the workspace's history: `from` and `to` are each a version id (from " +
      "list_versions), a revision number (from get_history) or 'current' (the default for `to`). The answer gives " +
      "the counts first, then per kind (elements, relationships, views, property_definitions, folders) the objects " +
      "added, removed and changed (each changed field before and after), and per view its nodes and connections " +
      `added, removed, moved or resized. Each list holds at most \`limit\` items (default ${DIFF_LIMIT.default}); ` +
      "`truncated` and `note` say what was left out.",
    input: z.strictObject({
      from: Point.describe("A version id (from list_versions), a revision number (from get_history) or 'current'"),
      to: Point.optional().describe("A version id, a revision number or 'current' (the default)"),
      limit: z
        .number()
        .int()
        .min(1)
        .max(DIFF_LIMIT.max)
        .default(DIFF_LIMIT.default)
        .describe(
          `Largest number of items in each list of the answer (default ${DIFF_LIMIT.default}, at most ` +
            `${DIFF_LIMIT.max.toLocaleString("en")})`,
        ),
    }),
    output: DiffAnswer,
    annotations: READ,
    run: async ({ ctx }, { limit, from, to }) => {
      const input = { from: String(from), ...(to === undefined ? {} : { to: String(to) }) };
      return data(boundedDiff(await diffRevisions({ ctx, input }), limit));
    },
  }),
  defineTool({
    name: "revert_change",
    title: "Undo one change",
    description:
      "Undoes one change group (a revision from get_history) as a new change: every object it touched goes back to " +
      "its state before it, so a deletion is undone with the same ids, relationships, nodes and connections " +
      "included. Refused when a later change touched the same objects: the error names those revisions and " +
      "objects (revert them first, newest first, or compare with diff_versions).",
    input: z.strictObject({
      revision: z.number().int().min(1).describe("The revision of the change to undo (from get_history)"),
    }),
    output: ChangeResult,
    annotations: REVERT,
    run: async ({ ctx }, input) => data(await revertChange({ ctx, input })),
  }),
];
