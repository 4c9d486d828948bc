import { type SQL, sql } from "drizzle-orm";

/** A parenthesised subquery yielding the given texts: one bound parameter however long the list. */
export const idList = (ids: readonly string[]): SQL =>
  sql`(select json_array_elements_text(${JSON.stringify(ids)}::json))`;

/**
 * `= any(...)` of the given texts, one bound parameter: an init plan turns it into an array before the scan, so the
 * planner reads an index once per value instead of guessing the size of a subquery (which can pick a scan of the table).
 */
export const anyOf = (ids: readonly string[]): SQL =>
  sql`any(array(select json_array_elements_text(${JSON.stringify(ids)}::json)))`;

/**
 * The i18n column after an update: a field written through the API drops its other-language variants
 * (they described the old text); untouched fields keep theirs.
 */
export function clearI18n(changed: Record<string, unknown>): SQL {
  const keys = Object.entries(changed)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
  if (keys.length === 0) return sql`i18n`;
  return sql`nullif(coalesce(i18n, '{}'::jsonb) - ${`{${keys.join(",")}}`}::text[], '{}'::jsonb)`;
}
