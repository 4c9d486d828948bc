import { useEffect, useState } from "preact/hooks";
import { ApiError, api, staleObject } from "../api/client.ts";
import type { Element, ElementViewRef, PropertyDefinition, PropertyValue, Relationship } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { editor, setView } from "../canvas/editor-store.ts";
import { loadView, untilCreated } from "../canvas/operations.ts";
import { HistoryPanel } from "../history/history-panel.tsx";
import { EditingNotice } from "../live/avatars.tsx";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { words } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { ElementAnalysis } from "./analysis-panel.tsx";
import { ConflictBox, useMergingSave } from "./conflict.tsx";
import { NewRelationshipDialog } from "./element-dialogs.tsx";
import { IconPicker } from "./icon-picker.tsx";
import { dropElement, dropRelationship, model, openView, putElement, putRelationship, select } from "./model-store.ts";
import { PropertyDefinitionsDialog } from "./property-definitions.tsx";
import { SavedText } from "./saved-text.tsx";
import { ViewProperties } from "./view-properties.tsx";

const ICON_PACK = "Service Plugin IconPack";

/**
 * A property value input by definition type: checkbox, number, date, select (an enumeration offers exactly its
 * allowed values, and "(none)" to clear) or text.
 */
function PropertyInput(props: {
  def: PropertyDefinition;
  value: PropertyValue | undefined;
  readOnly: boolean;
  onSave(value: PropertyValue | null): void;
}) {
  const { def, value, readOnly } = props;
  const id = `prop-${def.id}`;
  const values = def.allowed_values;
  if (def.type === "boolean")
    return (
      <div class="field field-inline">
        <input
          id={id}
          type="checkbox"
          disabled={readOnly}
          checked={value === true || value === "true"}
          onChange={(e) => props.onSave(e.currentTarget.checked)}
        />
        <label for={id}>{def.name}</label>
      </div>
    );
  if (def.type === "enumeration" && values?.length)
    return (
      <div class="field">
        <label for={id}>{def.name}</label>
        <select
          id={id}
          disabled={readOnly}
          value={value === undefined ? "" : String(value)}
          onChange={(e) => props.onSave(e.currentTarget.value || null)}
        >
          <option value="">(none)</option>
          {values.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </div>
    );
  const type = def.type === "number" ? "number" : def.type === "date" ? "date" : "text";
  return (
    <div class="field">
      <label for={id}>{def.name}</label>
      <input
        id={id}
        type={type}
        readOnly={readOnly}
        value={value === undefined ? "" : String(value)}
        onChange={(e) => {
          const raw = e.currentTarget.value;
          props.onSave(raw === "" ? null : def.type === "number" ? Number(raw) : raw);
        }}
      />
    </div>
  );
}

function Properties(props: {
  owner: Element | Relationship;
  readOnly: boolean;
  onSave(key: string, value: PropertyValue | null): void;
}) {
  const definitions = useStore(model, (s) => s.definitions);
  const [managing, setManaging] = useState(false);
  const defs = definitions.filter((d) => d.name !== ICON_PACK);
  return (
    <section class="panel-section" aria-labelledby="props-title">
      <h3 id="props-title">Properties</h3>
      {defs.length === 0 ? <p class="muted small">No property definitions in this model.</p> : null}
      {defs.map((d) => (
        <PropertyInput
          key={d.id}
          def={d}
          value={props.owner.properties[d.name]}
          readOnly={props.readOnly}
          onSave={(v) => props.onSave(d.name, v)}
        />
      ))}
      {props.readOnly ? null : (
        <button type="button" class="link-button" onClick={() => setManaging(true)}>
          Manage property definitions
        </button>
      )}
      {managing ? <PropertyDefinitionsDialog onClose={() => setManaging(false)} /> : null}
    </section>
  );
}

/** Where the selected element is used: its relationships and the views that show it. */
function Analysis(props: { element: Element; editable: boolean }) {
  const relationships = useStore(model, (s) => s.relationships);
  const elements = useStore(model, (s) => s.elements);
  const [views, setViews] = useState<ElementViewRef[] | null>(null);
  useEffect(() => {
    setViews(null);
    api
      .get<ElementViewRef[]>(`/api/elements/${encodeURIComponent(props.element.id)}/views`)
      .then(setViews)
      .catch(() => setViews([]));
  }, [props.element.id]);
  const rels = [...relationships.values()].filter(
    (r) => r.source === props.element.id || r.target === props.element.id,
  );
  return (
    <section class="panel-section" aria-labelledby="analysis-title">
      <h3 id="analysis-title">Analysis</h3>
      <ElementAnalysis element={props.element} editable={props.editable} />
      <h4>Relationships ({rels.length})</h4>
      <ul class="ref-list">
        {rels.map((r) => {
          const out = r.source === props.element.id;
          const other = elements.get(out ? r.target : r.source);
          return (
            <li key={r.id}>
              <button type="button" class="link-button" onClick={() => select({ kind: "relationship", id: r.id })}>
                {out ? "→" : "←"} {words(r.type)} {out ? "to" : "from"} {other?.name || "(unnamed)"}
              </button>
            </li>
          );
        })}
      </ul>
      <h4>Views ({views?.length ?? "…"})</h4>
      <ul class="ref-list">
        {(views ?? []).map((v) => (
          <li key={v.id}>
            <button type="button" class="link-button" onClick={() => openView(v.id)}>
              {v.name}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A stale screen never writes over a deleted object: when the server says it is gone, it leaves the screen too,
 * with a message saying why, instead of the edit being retried or the object coming back.
 */
function goneMeanwhile(kind: "element" | "relationship", id: string) {
  return async (err: unknown): Promise<never> => {
    if (err instanceof ApiError && err.status === 404) {
      if (kind === "element") dropElement(id);
      else dropRelationship(id);
      await refreshOpenView();
      throw new Error(`This ${kind} was deleted by someone else meanwhile; your change was not saved.`);
    }
    throw err;
  };
}

/**
 * A delete sent with the revision this screen saw: when someone changed the object since (412), the screen takes
 * their version and says so, and nothing is deleted: the user decides again looking at what is there now.
 */
function changedMeanwhile<T extends { revision: number }>(kind: string, put: (current: T) => void) {
  return (err: unknown): never => {
    const current = staleObject<T>(err);
    if (current) {
      put(current);
      throw new Error(
        `Someone else changed this ${kind} meanwhile, so it was not deleted. Look at it and delete again.`,
      );
    }
    throw err;
  };
}

async function refreshOpenView() {
  const id = editor.get().view?.id;
  if (id) await loadView(id).catch(() => undefined);
}

function ElementPanel(props: { element: Element; editable: boolean }) {
  const el = props.element;
  const [confirm, setConfirm] = useState(false);
  const [relating, setRelating] = useState(false);
  const merging = useMergingSave<Element>({
    base: el,
    send: (patch, revision) =>
      api
        .put<Element>(`/api/elements/${encodeURIComponent(el.id)}`, patch, revision)
        .catch(goneMeanwhile("element", el.id)),
    onSaved: putElement,
  });
  const save = merging.save;
  const remove = async () => {
    await api
      .del(`/api/elements/${encodeURIComponent(el.id)}`, el.revision)
      .catch(changedMeanwhile<Element>("element", putElement));
    dropElement(el.id);
    notify(`Deleted '${el.name}' from the model.`);
    await refreshOpenView();
  };
  const icon = el.properties[ICON_PACK];
  return (
    <>
      <p class="muted">{words(el.type)}</p>
      <EditingNotice objectId={el.id} noun="element" />
      {merging.conflict ? (
        <ConflictBox
          what="element"
          conflict={merging.conflict}
          editable={props.editable}
          onKeepMine={() => merging.keepMine().then(refreshOpenView)}
          onTakeTheirs={merging.takeTheirs}
        />
      ) : null}
      <SavedText
        id="el-name"
        label="Name"
        value={el.name}
        readOnly={!props.editable}
        onSave={(name, seen) => save({ name }, { name: seen }).then(refreshOpenView)}
      />
      <SavedText
        id="el-doc"
        label="Documentation"
        multiline
        value={el.documentation ?? ""}
        readOnly={!props.editable}
        onSave={(documentation, seen) =>
          save({ documentation: documentation || null }, { documentation: seen || null })
        }
      />
      <IconPicker
        value={typeof icon === "string" ? icon : null}
        readOnly={!props.editable}
        onChange={(v) =>
          save({ properties: { [ICON_PACK]: v } })
            .then(refreshOpenView)
            .catch(notifyError)
        }
      />
      <Properties
        owner={el}
        readOnly={!props.editable}
        onSave={(k, v) => save({ properties: { [k]: v } }).catch(notifyError)}
      />
      {props.editable ? (
        <div class="panel-actions">
          <button type="button" onClick={() => setRelating(true)}>
            New relationship from here
          </button>
          <button type="button" class="danger" onClick={() => setConfirm(true)}>
            Delete from model
          </button>
        </div>
      ) : null}
      <Analysis element={el} editable={props.editable} />
      {relating ? <NewRelationshipDialog source={el} onClose={() => setRelating(false)} /> : null}
      {confirm ? (
        <ConfirmDialog
          title="Delete element"
          danger
          confirmLabel="Delete from model"
          message={
            <p>
              Delete '{el.name}' from the model, with its relationships, and remove it from every view? This cannot be
              undone.
            </p>
          }
          onAnswer={(yes) => {
            setConfirm(false);
            if (yes) remove().catch(notifyError);
          }}
        />
      ) : null}
    </>
  );
}

function RelationshipPanel(props: { relationship: Relationship; editable: boolean }) {
  const r = props.relationship;
  const elements = useStore(model, (s) => s.elements);
  const [confirm, setConfirm] = useState(false);
  const merging = useMergingSave<Relationship>({
    base: r,
    send: (patch, revision) =>
      api
        .put<Relationship>(`/api/relationships/${encodeURIComponent(r.id)}`, patch, revision)
        .catch(goneMeanwhile("relationship", r.id)),
    onSaved: putRelationship,
  });
  const save = merging.save;
  const ro = !props.editable;
  return (
    <>
      <p class="muted">
        {words(r.type)} from{" "}
        <button type="button" class="link-button" onClick={() => select({ kind: "element", id: r.source })}>
          {elements.get(r.source)?.name ?? r.source}
        </button>{" "}
        to{" "}
        <button type="button" class="link-button" onClick={() => select({ kind: "element", id: r.target })}>
          {elements.get(r.target)?.name ?? r.target}
        </button>
      </p>
      {merging.conflict ? (
        <ConflictBox
          what="relationship"
          conflict={merging.conflict}
          editable={props.editable}
          onKeepMine={() => merging.keepMine().then(refreshOpenView)}
          onTakeTheirs={merging.takeTheirs}
        />
      ) : null}
      <SavedText
        id="rel-name"
        label="Name"
        value={r.name ?? ""}
        readOnly={ro}
        onSave={(name, seen) => save({ name: name || null }, { name: seen || null }).then(refreshOpenView)}
      />
      <SavedText
        id="rel-doc"
        label="Documentation"
        multiline
        value={r.documentation ?? ""}
        readOnly={ro}
        onSave={(documentation, seen) =>
          save({ documentation: documentation || null }, { documentation: seen || null })
        }
      />
      {r.type === "Access" ? (
        <div class="field">
          <label for="rel-access">Access</label>
          <select
            id="rel-access"
            disabled={ro}
            value={r.access_type ?? "Write"}
            onChange={(e) => save({ access_type: e.currentTarget.value }).then(refreshOpenView).catch(notifyError)}
          >
            {["Access", "Read", "Write", "ReadWrite"].map((a) => (
              <option key={a} value={a}>
                {words(a)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {r.type === "Association" ? (
        <div class="field field-inline">
          <input
            id="rel-directed"
            type="checkbox"
            disabled={ro}
            checked={r.is_directed === true}
            onChange={(e) => save({ is_directed: e.currentTarget.checked }).then(refreshOpenView).catch(notifyError)}
          />
          <label for="rel-directed">Directed</label>
        </div>
      ) : null}
      {r.type === "Influence" ? (
        <SavedText
          id="rel-strength"
          label="Influence strength (+, ++, -, --, 0 to 10)"
          value={r.influence_strength ?? ""}
          readOnly={ro}
          onSave={(v) => save({ influence_strength: v || null }).then(refreshOpenView)}
        />
      ) : null}
      <Properties owner={r} readOnly={ro} onSave={(k, v) => save({ properties: { [k]: v } }).catch(notifyError)} />
      {props.editable ? (
        <div class="panel-actions">
          <button type="button" class="danger" onClick={() => setConfirm(true)}>
            Delete from model
          </button>
        </div>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title="Delete relationship"
          danger
          confirmLabel="Delete from model"
          message={
            <p>Delete this {words(r.type)} relationship from the model and every view? This cannot be undone.</p>
          }
          onAnswer={async (yes) => {
            setConfirm(false);
            if (!yes) return;
            try {
              await api
                .del(`/api/relationships/${encodeURIComponent(r.id)}`, r.revision)
                .catch(changedMeanwhile<Relationship>("relationship", putRelationship));
              dropRelationship(r.id);
              await refreshOpenView();
            } catch (err) {
              notifyError(err);
            }
          }}
        />
      ) : null}
    </>
  );
}

/** A note's text or a group's title: view-only objects, so they change the view, not the model. */
function NodeLabelPanel(props: {
  viewId: string;
  nodeId: string;
  kind: string;
  label: string;
  revision: number;
  editable: boolean;
}) {
  const merging = useMergingSave<{ label: string; revision: number }>({
    base: { label: props.label, revision: props.revision },
    send: async (patch, seen) => {
      // Revision 0: placed a moment ago and not answered yet; the text is saved once the server holds the note.
      const revision = seen === 0 ? await untilCreated("node", props.nodeId) : seen;
      if (revision === undefined) throw new Error("The note could not be placed, so its text was not saved.");
      const url = `/api/views/${encodeURIComponent(props.viewId)}/nodes/${encodeURIComponent(props.nodeId)}`;
      const node = await api.put<{ label?: string | null; revision: number }>(url, patch, revision);
      return { label: node.label ?? "", revision: node.revision };
    },
    // The saved text and revision go straight into the open view (no reload of the whole view per edit).
    onSaved: (saved) =>
      setView((v) => {
        const n = v.nodes.get(props.nodeId);
        return n ? { ...v, nodes: new Map(v.nodes).set(props.nodeId, { ...n, ...saved }) } : v;
      }),
  });
  const save = (label: string) => merging.save({ label });
  return (
    <>
      <p class="muted">{props.kind === "label" ? "Note" : "Group"} (in this view only)</p>
      {merging.conflict ? (
        <ConflictBox
          what={props.kind === "label" ? "note" : "group"}
          conflict={merging.conflict}
          editable={props.editable}
          onKeepMine={merging.keepMine}
          onTakeTheirs={merging.takeTheirs}
        />
      ) : null}
      <SavedText
        id="node-label"
        label={props.kind === "label" ? "Text" : "Title"}
        multiline={props.kind === "label"}
        value={props.label}
        readOnly={!props.editable}
        onSave={save}
      />
    </>
  );
}

/** Name, documentation and properties of what is selected, editable for owners and editors. */
export function PropertiesPanel(props: { editable: boolean }) {
  const selection = useStore(model, (s) => s.selection);
  const elements = useStore(model, (s) => s.elements);
  const relationships = useStore(model, (s) => s.relationships);
  const canvasSel = useStore(editor, (s) => s.selected);
  const view = useStore(editor, (s) => s.view);
  // A single node or connection selected on the canvas shows its element or relationship.
  let shown = selection;
  let viewObject: { nodeId: string; kind: string; label: string; revision: number } | null = null;
  if (canvasSel.size === 1 && view) {
    const [id = ""] = canvasSel;
    const n = view.nodes.get(id);
    const c = view.connections.get(id);
    if (n?.element_id) shown = { kind: "element", id: n.element_id };
    else if (n) viewObject = { nodeId: n.id, kind: n.kind, label: n.label ?? "", revision: n.revision ?? 0 };
    else if (c?.relationship_id) shown = { kind: "relationship", id: c.relationship_id };
  }
  const el = shown?.kind === "element" ? elements.get(shown.id) : undefined;
  const rel = shown?.kind === "relationship" ? relationships.get(shown.id) : undefined;
  return (
    <aside class="properties" aria-labelledby="properties-title">
      <h2 class="panel-title" id="properties-title">
        Properties
      </h2>
      {viewObject && view ? (
        <NodeLabelPanel key={viewObject.nodeId} viewId={view.id} {...viewObject} editable={props.editable} />
      ) : el ? (
        <ElementPanel key={el.id} element={el} editable={props.editable} />
      ) : rel ? (
        <RelationshipPanel key={rel.id} relationship={rel} editable={props.editable} />
      ) : shown?.kind === "view" ? (
        <ViewProperties key={shown.id} viewId={shown.id} editable={props.editable} />
      ) : (
        <p class="muted">Select an element, a relationship or a view to see its properties.</p>
      )}
      {viewObject ? null : el ? (
        <HistoryPanel key={`h-${el.id}`} kind="element" id={el.id} editable={props.editable} stamp={el} />
      ) : rel ? (
        <HistoryPanel key={`h-${rel.id}`} kind="relationship" id={rel.id} editable={props.editable} stamp={rel} />
      ) : shown?.kind === "view" ? (
        <HistoryPanel key={`h-${shown.id}`} kind="view" id={shown.id} editable={props.editable} stamp={view} />
      ) : null}
    </aside>
  );
}
