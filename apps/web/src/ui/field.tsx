import type { ComponentChildren } from "preact";

let counter = 0;
/** A stable id for label/control pairs. */
export const uid = (prefix: string) => `${prefix}-${++counter}`;

/** A labelled form row; the label is tied to the control by id for screen readers. */
export function Field(props: { id: string; label: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? <p class="hint">{props.hint}</p> : null}
    </div>
  );
}
