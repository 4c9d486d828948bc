import type { Database } from "@ams/db";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";

/**
 * Documentation, and each property value, longer than this is cut in list answers (the get_* tools and REST reads
 * give all of it).
 */
export const LIST_DOCUMENTATION_CAP = 1000;

/** A text cut at LIST_DOCUMENTATION_CAP characters, ending with an ellipsis; null when it fits. */
const cutText = (text: string) =>
  text.length > LIST_DOCUMENTATION_CAP ? `${text.slice(0, LIST_DOCUMENTATION_CAP)}…` : null;

/**
 * The fields a list answer may be limited to, and whether each item's documentation is cut. `summary` keeps the
 * identifying fields only. Keeps a single huge documentation field (or thousands of property values) from making
 * a list answer megabytes.
 */
export const ListShape = <F extends readonly [string, ...string[]]>(fields: F, summary: readonly F[number][]) =>
  z.strictObject({
    fields: z
      .array(z.enum(fields))
      .min(1)
      .optional()
      .describe(`Only these fields in each item (id always): ${fields.join(", ")}; default all`),
    summary: z
      .boolean()
      .default(false)
      .describe(`Short items: ${["id", ...summary].join(", ")} only (overrides fields)`),
  });

/**
 * Items limited to the asked fields (id always kept); documentation over LIST_DOCUMENTATION_CAP characters is cut
 * and the item says so with `documentation_truncated: true`, and so is each property value (a value may hold
 * 100,000 characters), said with `properties_truncated: true`.
 */
export function shapeItems<
  T extends { id: string; documentation?: string | null; properties?: Record<string, string | number | boolean> },
>(
  items: readonly T[],
  opts: { fields?: readonly string[]; summary?: boolean; summaryFields: readonly string[] },
): Record<string, unknown>[] {
  const keep = opts.summary ? opts.summaryFields : opts.fields;
  return items.map((item) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item)) {
      if (keep && key !== "id" && !keep.includes(key)) continue;
      out[key] = value;
    }
    const doc = typeof out.documentation === "string" ? cutText(out.documentation) : null;
    if (doc !== null) {
      out.documentation = doc;
      out.documentation_truncated = true;
    }
    const properties = out.properties as T["properties"];
    if (properties && Object.values(properties).some((v) => typeof v === "string" && cutText(v) !== null)) {
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([key, v]) => [key, (typeof v === "string" && cutText(v)) || v]),
      );
      out.properties_truncated = true;
    }
    return out;
  });
}

/** A list item's schema when any field but id may be left out (fields/summary) and documentation may be cut. */
export const shapedItem = <S extends z.ZodObject>(item: S) =>
  item.partial().extend({
    id: z.string(),
    documentation_truncated: z
      .boolean()
      .optional()
      .describe(`true when documentation was cut at ${LIST_DOCUMENTATION_CAP} characters (get the item for all)`),
    properties_truncated: z
      .boolean()
      .optional()
      .describe(
        `true when a property value was cut at ${LIST_DOCUMENTATION_CAP} characters, ending with … (get the item for all)`,
      ),
  });

/** A window of a list: at most `limit` items, after the first `offset`. */
export type ListWindow = { limit: number; offset: number };

/** One window of a list, and how many items the whole list has. */
export type ListPage<T> = { items: T[]; total: number };

/**
 * One window of an ordered statement, read in the database (LIMIT/OFFSET after the statement's ORDER BY), beside
 * its row count: only the window's rows leave the database, however long the list is.
 */
export async function readWindow<T>(
  database: Database,
  statement: SQL,
  count: SQL,
  window: ListWindow,
): Promise<ListPage<T>> {
  const [items, counted] = await Promise.all([
    database.rows<T>(sql`${statement} limit ${window.limit} offset ${window.offset}`),
    database.rows<{ n: number }>(count),
  ]);
  return { items, total: counted[0]?.n ?? 0 };
}

/** The schema of one window of a list of `item`s (the page verbs' answers; MCP words them as its list objects). */
export const pageOf = <S extends z.ZodType>(item: S) =>
  z.object({
    items: z.array(item),
    total: z.number().int().describe("How many items the whole list has"),
  });
