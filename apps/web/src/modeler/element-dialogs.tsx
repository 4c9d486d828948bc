import { allowedRelationships, ELEMENT_TYPES, type ElementType, LAYERS, RELATIONSHIP_TYPES } from "@ams/shared";
import { useMemo, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Element, Relationship } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError, TextField, words } from "../ui/form.tsx";
import { model, putElement, putRelationship, select } from "./model-store.ts";

export function NewElementDialog(props: { onClose(): void }) {
  const [name, setName] = useState("");
  const [type, setType] = useState<string>("BusinessActor");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const el = await api.post<Element>("/api/elements", { name, type });
      putElement(el);
      select({ kind: "element", id: el.id });
      props.onClose();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title="New element" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <div class="field">
          <label for="ne-type">Type</label>
          <select id="ne-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {LAYERS.map((layer) => (
              <optgroup key={layer} label={layer}>
                {ELEMENT_TYPES.filter((t) => t.layer === layer).map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <TextField id="ne-name" label="Name" required value={name} onValue={setName} />
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Create element" />
      </form>
    </Dialog>
  );
}

/** A relationship from the given element to another one; only the types ArchiMate 3.1 allows are offered. */
export function NewRelationshipDialog(props: { source: Element; onClose(): void }) {
  const elements = useStore(model, (s) => s.elements);
  const [query, setQuery] = useState("");
  const [targetId, setTargetId] = useState<string>("");
  const [type, setType] = useState<string>("");
  const [error, setError] = useState<string | null>(null);
  const candidates = useMemo(() => {
    const q = query.trim().toLowerCase();
    return [...elements.values()]
      .filter((e) => !q || e.name.toLowerCase().includes(q))
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, 200);
  }, [elements, query]);
  const target = elements.get(targetId);
  const allowed = target ? allowedRelationships(props.source.type as ElementType, target.type as ElementType) : [];
  const chosen = allowed.includes(type as never) ? type : (allowed[0] ?? "");
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!target || !chosen) return;
    try {
      const rel = await api.post<Relationship>("/api/relationships", {
        type: chosen,
        source: props.source.id,
        target: target.id,
      });
      putRelationship(rel);
      select({ kind: "relationship", id: rel.id });
      props.onClose();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title={`New relationship from ${props.source.name || words(props.source.type)}`} onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <TextField id="nr-search" label="Find the target element" type="search" value={query} onValue={setQuery} />
        <div class="field">
          <label for="nr-target">Target</label>
          <select
            id="nr-target"
            required
            size={8}
            value={targetId}
            onChange={(e) => setTargetId(e.currentTarget.value)}
          >
            {candidates.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name || "(unnamed)"} — {words(c.type)}
              </option>
            ))}
          </select>
        </div>
        {target ? (
          allowed.length ? (
            <div class="field">
              <label for="nr-type">Relationship type</label>
              <select id="nr-type" value={chosen} onChange={(e) => setType(e.currentTarget.value)}>
                {RELATIONSHIP_TYPES.filter((t) => allowed.includes(t.name)).map((t) => (
                  <option key={t.name} value={t.name}>
                    {words(t.name)}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <p class="form-error" role="alert">
              ArchiMate 3.1 allows no relationship from a {words(props.source.type)} to a {words(target.type)}.
            </p>
          )
        ) : null}
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Create relationship" disabled={!target || !chosen} />
      </form>
    </Dialog>
  );
}
