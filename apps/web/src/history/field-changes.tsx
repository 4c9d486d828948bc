import type { FieldChange } from "../api/history.ts";
import { fieldWords, valueWords } from "./change-words.ts";

/** Field changes as "field: before → after" rows. */
export function FieldChanges(props: { fields: FieldChange[] }) {
  if (props.fields.length === 0) return null;
  return (
    <ul class="field-changes">
      {props.fields.map((f) => (
        <li key={f.field}>
          <span class="field-name">{fieldWords(f.field)}</span>: <del>{valueWords(f.before)}</del>
          <span aria-hidden="true"> → </span>
          <span class="visually-hidden"> changed to </span>
          <ins>{valueWords(f.after)}</ins>
        </li>
      ))}
    </ul>
  );
}
