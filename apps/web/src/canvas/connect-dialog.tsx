import { allowedRelationships, type ElementType, RELATIONSHIP_TYPES } from "@ams/shared";
import { useState } from "preact/hooks";
import type { Element, Relationship } from "../api/types.ts";
import { Dialog } from "../ui/dialog.tsx";
import { words } from "../ui/form.tsx";

/**
 * Which relationship a new connection shows: one already in the model between the two elements (not yet drawn in
 * this view), or a new one of a type the ArchiMate 3.1 table allows from source to target. Nothing else is offered.
 */
export function ConnectDialog(props: {
  source: Element;
  target: Element;
  existing: Relationship[];
  onChoose(choice: { existing: Relationship } | { create: { type: string; source: string; target: string } }): void;
  onClose(): void;
}) {
  const { source, target } = props;
  const allowed = allowedRelationships(source.type as ElementType, target.type as ElementType);
  const [type, setType] = useState<string>(allowed[0] ?? "");
  return (
    <Dialog title="Connect" onClose={props.onClose}>
      <div class="dialog-body">
        <p>
          From <strong>{source.name || words(source.type)}</strong> ({words(source.type)}) to{" "}
          <strong>{target.name || words(target.type)}</strong> ({words(target.type)})
        </p>
        {props.existing.length > 0 ? (
          <fieldset>
            <legend>Draw a relationship that already exists</legend>
            <ul class="choice-list">
              {props.existing.map((r) => (
                <li key={r.id}>
                  <button type="button" onClick={() => props.onChoose({ existing: r })}>
                    {words(r.type)}
                    {r.name ? `: ${r.name}` : ""}
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}
        {allowed.length === 0 ? (
          <p class="form-error" role="alert">
            ArchiMate 3.1 allows no relationship from a {words(source.type)} to a {words(target.type)}.
          </p>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              props.onChoose({ create: { type, source: source.id, target: target.id } });
            }}
          >
            <fieldset>
              <legend>Create a new relationship</legend>
              <div class="type-grid" role="radiogroup" aria-label="Relationship type">
                {RELATIONSHIP_TYPES.filter((t) => allowed.includes(t.name)).map((t) => (
                  <label key={t.name} class="radio">
                    <input
                      type="radio"
                      name="relationship-type"
                      value={t.name}
                      checked={type === t.name}
                      onChange={() => setType(t.name)}
                    />
                    {words(t.name)}
                  </label>
                ))}
              </div>
            </fieldset>
            <footer class="dialog-actions">
              <button type="button" onClick={props.onClose}>
                Cancel
              </button>
              <button type="submit" class="primary">
                Create {words(type)} relationship
              </button>
            </footer>
          </form>
        )}
      </div>
    </Dialog>
  );
}
