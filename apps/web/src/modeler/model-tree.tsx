import { ELEMENT_TYPES, type ElementType, LAYERS, layerOf } from "@ams/shared";
import { useMemo, useRef, useState } from "preact/hooks";
import type { Element, FolderItem, Relationship } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { editor, setSelected } from "../canvas/editor-store.ts";
import { words } from "../ui/form.tsx";
import { NewElementDialog } from "./element-dialogs.tsx";
import { isMenuKey, openElementMenu } from "./element-menu.tsx";
import { model, select } from "./model-store.ts";

/** Selecting in the tree also selects what shows it in the open view (its nodes, or its connections). */
function revealOnCanvas(id: string): void {
  const view = editor.get().view;
  if (!view) return;
  const hits: string[] = [];
  for (const n of view.nodes.values()) if (n.element_id === id) hits.push(n.id);
  for (const c of view.connections.values()) if (c.relationship_id === id) hits.push(c.id);
  setSelected(hits);
}

const ROW = 26;
const OVERSCAN = 10;
const LABELS = new Map(ELEMENT_TYPES.map((t) => [t.name as string, t.label]));

type Row =
  | { kind: "group"; key: string; label: string; count: number; open: boolean; depth?: number }
  | { kind: "element"; key: string; element: Element; depth?: number }
  | { kind: "relationship"; key: string; relationship: Relationship; label: string; depth?: number };

const relationshipLabel = (r: Relationship, elements: ReadonlyMap<string, Element>) =>
  `${r.name ? `${r.name} ` : ""}${words(r.type)}: ${elements.get(r.source)?.name ?? "?"} → ${elements.get(r.target)?.name ?? "?"}`;

/**
 * The model as its imported organization tree: folders (collapsible, at their depth) with the elements and
 * relationships filed in them, then what no folder holds. A folder with nothing that passes the filter is left out.
 */
function folderRows(
  folders: readonly FolderItem[],
  elements: ReadonlyMap<string, Element>,
  relationships: ReadonlyMap<string, Relationship>,
  keep: (e: Element) => boolean,
  keepRelationship: (label: string) => boolean,
  closed: ReadonlySet<string>,
): Row[] {
  const children = new Map<number | null, FolderItem[]>();
  for (const f of folders) {
    const list = children.get(f.parent_id);
    if (list) list.push(f);
    else children.set(f.parent_id, [f]);
  }
  const filed = new Set<string>();
  const rowsOf = (parent: number | null, depth: number): { rows: Row[]; count: number } => {
    const rows: Row[] = [];
    let count = 0;
    for (const item of children.get(parent) ?? []) {
      if (item.ref_id) {
        filed.add(item.ref_id);
        const el = elements.get(item.ref_id);
        const rel = relationships.get(item.ref_id);
        if (el && keep(el)) {
          rows.push({ kind: "element", key: `${item.id}:${el.id}`, element: el, depth });
          count++;
        } else if (rel) {
          const label = relationshipLabel(rel, elements);
          if (keepRelationship(label)) {
            rows.push({ kind: "relationship", key: `${item.id}:${rel.id}`, relationship: rel, label, depth });
            count++;
          }
        }
        continue;
      }
      const inner = rowsOf(item.id, depth + 1);
      if (inner.count === 0) continue;
      const key = `f:${item.id}`;
      const open = !closed.has(key);
      rows.push({ kind: "group", key, label: item.label || "(unnamed folder)", count: inner.count, open, depth });
      if (open) rows.push(...inner.rows);
      count += inner.count;
    }
    return { rows, count };
  };
  const out = rowsOf(null, 0).rows;
  const loose = [...elements.values()].filter((e) => !filed.has(e.id) && keep(e));
  if (loose.length) {
    const open = !closed.has("f:loose");
    out.push({ kind: "group", key: "f:loose", label: "Not in a folder", count: loose.length, open, depth: 0 });
    if (open) for (const e of loose) out.push({ kind: "element", key: `loose:${e.id}`, element: e, depth: 1 });
  }
  return out;
}

/**
 * The model grouped by layer (relationships last), filtered by name and type, with counts. Only the rows in sight
 * are in the page, so a model of tens of thousands of elements scrolls as smoothly as a small one. Elements can be
 * dragged onto the canvas.
 */
export function ModelTree(props: { editable: boolean }) {
  const elements = useStore(model, (s) => s.elements);
  const relationships = useStore(model, (s) => s.relationships);
  const selection = useStore(model, (s) => s.selection);
  const [query, setQuery] = useState("");
  const [type, setType] = useState("");
  const [closed, setClosed] = useState<Set<string>>(new Set());
  const folders = useStore(model, (s) => s.folders);
  const [grouping, setGrouping] = useState<"layer" | "folder">("layer");
  const [creating, setCreating] = useState(false);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const scroller = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (grouping === "folder" && folders.length > 0)
      return folderRows(
        folders,
        elements,
        relationships,
        (e) => (!type || e.type === type) && (!q || e.name.toLowerCase().includes(q)),
        (label) => !type && (!q || label.toLowerCase().includes(q)),
        closed,
      );
    const byLayer = new Map<string, Element[]>();
    for (const e of elements.values()) {
      if (type && e.type !== type) continue;
      if (q && !e.name.toLowerCase().includes(q)) continue;
      const layer = LABELS.has(e.type) ? layerOf(e.type as ElementType) : "Other";
      const list = byLayer.get(layer);
      if (list) list.push(e);
      else byLayer.set(layer, [e]);
    }
    const out: Row[] = [];
    for (const layer of [...LAYERS, "Other"]) {
      const list = byLayer.get(layer);
      if (!list?.length) continue;
      const open = !closed.has(`g:${layer}`);
      out.push({ kind: "group", key: `g:${layer}`, label: layer, count: list.length, open });
      if (open) {
        list.sort((a, b) => a.name.localeCompare(b.name));
        for (const e of list) out.push({ kind: "element", key: e.id, element: e });
      }
    }
    if (!type) {
      const rels: Row[] = [];
      for (const r of relationships.values()) {
        const label = relationshipLabel(r, elements);
        if (q && !label.toLowerCase().includes(q)) continue;
        rels.push({ kind: "relationship", key: r.id, relationship: r, label });
      }
      if (rels.length) {
        const open = !closed.has("g:Relationships");
        out.push({ kind: "group", key: "g:Relationships", label: "Relationships", count: rels.length, open });
        if (open) out.push(...rels);
      }
    }
    return out;
  }, [elements, relationships, folders, grouping, query, type, closed]);

  const typesPresent = useMemo(() => [...new Set([...elements.values()].map((e) => e.type))].sort(), [elements]);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  const toggle = (label: string) =>
    setClosed((c) => {
      const next = new Set(c);
      if (next.has(label)) next.delete(label);
      else next.add(label);
      return next;
    });

  return (
    <div class="model-tree">
      <div class="tree-filters">
        <input
          type="search"
          placeholder="Search by name"
          aria-label="Search the model by name"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <select aria-label="Filter by element type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          <option value="">All types</option>
          {typesPresent.map((t) => (
            <option key={t} value={t}>
              {LABELS.get(t) ?? words(t)}
            </option>
          ))}
        </select>
        {folders.length > 0 ? (
          <select
            aria-label="Group the model by"
            value={grouping}
            onChange={(e) => setGrouping(e.currentTarget.value as "layer" | "folder")}
          >
            <option value="layer">By layer</option>
            <option value="folder">By folder</option>
          </select>
        ) : null}
        {props.editable ? (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New element
          </button>
        ) : null}
      </div>
      <div
        class="tree-scroll"
        ref={(el) => {
          scroller.current = el;
          if (el?.clientHeight && el.clientHeight !== height) setHeight(el.clientHeight);
        }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        role="tree"
        aria-label="Model elements and relationships"
        data-rows={rows.length}
      >
        <div style={{ height: `${rows.length * ROW}px`, position: "relative" }}>
          {rows.slice(first, last).map((row, i) => {
            const top = (first + i) * ROW;
            const indent =
              row.depth === undefined ? undefined : `${0.5 + row.depth * 0.9 + (row.kind === "group" ? 0 : 0.8)}rem`;
            const style = { transform: `translateY(${top}px)`, paddingLeft: indent };
            if (row.kind === "group")
              return (
                <button
                  type="button"
                  key={row.key}
                  class="tree-row tree-group"
                  style={style}
                  role="treeitem"
                  aria-expanded={row.open}
                  onClick={() => toggle(row.key)}
                >
                  <span aria-hidden="true">{row.open ? "▾" : "▸"}</span> {row.label}{" "}
                  <span class="count">{row.count}</span>
                </button>
              );
            const id = row.kind === "element" ? row.element.id : row.relationship.id;
            const selected = selection?.id === id;
            return (
              <button
                type="button"
                key={row.key}
                class={selected ? "tree-row tree-item selected" : "tree-row tree-item"}
                style={style}
                role="treeitem"
                aria-selected={selected}
                draggable={row.kind === "element" && props.editable}
                data-element-id={row.kind === "element" ? id : undefined}
                onDragStart={(e) => {
                  if (row.kind !== "element") return;
                  e.dataTransfer?.setData("application/x-ams-element", id);
                  e.dataTransfer?.setData("text/plain", row.element.name);
                  if (e.dataTransfer) e.dataTransfer.effectAllowed = "copy";
                }}
                onClick={() => {
                  select({ kind: row.kind, id });
                  revealOnCanvas(id);
                }}
                onContextMenu={(e) => {
                  if (row.kind !== "element") return;
                  e.preventDefault();
                  select({ kind: row.kind, id });
                  revealOnCanvas(id);
                  openElementMenu(id, { x: e.clientX, y: e.clientY }, e.currentTarget);
                }}
                onKeyDown={(e) => {
                  if (row.kind !== "element" || !isMenuKey(e)) return;
                  e.preventDefault();
                  const r = e.currentTarget.getBoundingClientRect();
                  openElementMenu(id, { x: r.left + 24, y: r.bottom }, e.currentTarget);
                }}
                aria-haspopup={row.kind === "element" ? "menu" : undefined}
              >
                {row.kind === "element" ? (
                  <>
                    <span
                      class={`type-dot layer-${LABELS.has(row.element.type) ? layerOf(row.element.type as ElementType).toLowerCase() : "other"}`}
                      aria-hidden="true"
                    />
                    <span class="tree-name">{row.element.name || "(unnamed)"}</span>
                    <span class="tree-type">{LABELS.get(row.element.type) ?? words(row.element.type)}</span>
                  </>
                ) : (
                  <span class="tree-name">{row.label}</span>
                )}
              </button>
            );
          })}
        </div>
      </div>
      {creating ? <NewElementDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
