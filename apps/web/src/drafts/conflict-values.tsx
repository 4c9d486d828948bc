import type { DraftConflict } from "../api/drafts.ts";
import { valueWords } from "../history/change-words.ts";

/** A whole object's row (a deletion conflict) in a few words; a field's value as it reads. */
export function sideWords(c: DraftConflict, v: unknown): string {
  if (c.field !== null) return valueWords(v);
  if (v === null || v === undefined) return "deleted";
  const row = v as Record<string, unknown>;
  const name = row.name ?? row.label;
  return typeof name === "string" && name ? `present (“${name}”)` : "present";
}

/** The three values of a conflict: at the fork, in the draft, in the base now. */
export function ConflictValues(props: { conflict: DraftConflict; baseName: string }) {
  const c = props.conflict;
  return (
    <table class="conflict-table">
      <caption class="visually-hidden">{c.message}</caption>
      <tbody>
        <tr>
          <th scope="row">At the fork</th>
          <td>{sideWords(c, c.base)}</td>
        </tr>
        <tr>
          <th scope="row">In the draft</th>
          <td>{sideWords(c, c.draft)}</td>
        </tr>
        <tr>
          <th scope="row">In {props.baseName} now</th>
          <td>{sideWords(c, c.current)}</td>
        </tr>
      </tbody>
    </table>
  );
}
