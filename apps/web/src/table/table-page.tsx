import { ELEMENT_TYPES, LAYERS, RELATIONSHIP_TYPES } from "@ams/shared";
import { Component, type ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import type { BulkEditResult, TableData } from "../api/types.ts";
import { canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { WorkspacePage } from "../history/workspace-page.tsx";
import { type ChangeEvent, onChange, onResync, startLive } from "../live/live-store.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import {
  buildTable,
  type Column,
  columnsOf,
  type Edit,
  mergePatches,
  parseTsv,
  rowPatch,
  type Sort,
  type Table,
  type TableKind,
  toTsv,
  visibleRows,
} from "./table-data.ts";

/** Row height in pixels: fixed, so the row at any scroll offset is one division away. */
const ROW_H = 30;
/**
 * Rows drawn above and below the visible ones, so a wheel turn does not show blank space for a frame; few, as each
 * drawn row costs every scrolled frame its layout (bench/table.ts).
 */
const OVERSCAN = 4;
/** The select column at the start of every row. */
const SELECT_W = 44;

type Focus = { r: number; c: number };
type Editing = Focus & { value: string };

/** Remembered per user and grid (elements, relationships): the columns hidden with the Columns menu. */
const hiddenKey = (user: string, kind: TableKind) => `ams.table.hidden.${user}.${kind}`;
function loadHidden(user: string, kind: TableKind): Set<string> {
  try {
    const v = JSON.parse(localStorage.getItem(hiddenKey(user, kind)) ?? "[]");
    return new Set(Array.isArray(v) ? v.map(String) : []);
  } catch {
    return new Set();
  }
}

/** The Table page of a workspace: its elements (or relationships) as a spreadsheet-like grid with bulk edit. */
export function TablePage(props: { workspaceId: string }) {
  return (
    <WorkspacePage workspaceId={props.workspaceId} heading="Table" wide>
      <TableView workspaceId={props.workspaceId} />
    </WorkspacePage>
  );
}

function TableView(props: { workspaceId: string }) {
  const [kind, setKind] = useState<TableKind>("elements");
  return (
    <>
      <div class="tabs" role="tablist" aria-label="Table of">
        {(["elements", "relationships"] as const).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            id={`table-tab-${k}`}
            aria-controls="table-panel"
            aria-selected={kind === k}
            onClick={() => setKind(k)}
          >
            {k === "elements" ? "Elements" : "Relationships"}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="table-panel" aria-labelledby={`table-tab-${kind}`}>
        <Grid key={kind} workspaceId={props.workspaceId} kind={kind} />
      </div>
    </>
  );
}

// biome-ignore-start lint/a11y/useSemanticElements: a virtualised grid of divs: a <table> cannot place only the rows in sight
// biome-ignore-start lint/a11y/useFocusableInteractive: the grid element holds the focus and names the focused cell with aria-activedescendant
// biome-ignore-start lint/a11y/useKeyWithClickEvents: the grid's own keys move, select (Space) and edit (Enter) what a click does
function Grid(props: { workspaceId: string; kind: TableKind }) {
  const { profile } = useStore(session);
  const editable = canEdit(profile);
  const user = profile?.id ?? "anonymous";
  const ws = encodeURIComponent(props.workspaceId);
  const noun = props.kind === "elements" ? "element" : "relationship";

  const [table, setTable] = useState<Table | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const [typeFilter, setTypeFilter] = useState("");
  const [sort, setSort] = useState<Sort>(null);
  const [hidden, setHidden] = useState<Set<string>>(() => loadHidden(user, props.kind));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const [focus, setFocus] = useState<Focus>({ r: 0, c: 0 });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [first, setFirst] = useState(0);
  const [height, setHeight] = useState(600);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const revisionRef = useRef(-1);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const load = async () => {
    try {
      const data = await api.get<TableData>(`/api/workspaces/${ws}/table`, { kind: props.kind });
      revisionRef.current = data.revision;
      setTable(buildTable(data));
      setError(null);
    } catch (err) {
      setError(describeError(err));
    }
  };
  const reloadSoon = (ms = 300) => {
    if (reloadTimer.current) clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(load, ms);
  };

  useEffect(() => {
    load();
    return () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
    };
  }, []);

  // Others' changes: the table reloads (debounced) when a change group touched its rows or their properties.
  useEffect(() => {
    const stop = startLive(props.workspaceId);
    const kinds = new Set([
      noun,
      "property_value",
      "property_definition",
      ...(noun === "relationship" ? ["element"] : []),
    ]);
    const offChange = onChange((event: ChangeEvent) => {
      if (event.revision <= revisionRef.current) return;
      if (event.truncated || event.objects.some((o) => kinds.has(o.kind))) reloadSoon(500);
    });
    const offResync = onResync(() => reloadSoon(0));
    return () => {
      offChange();
      offResync();
      stop();
    };
  }, []);

  // The grid's visible height follows the window.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight || 600);
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    return () => seen.disconnect();
  }, [table !== null]);

  const allColumns = useMemo(() => (table ? columnsOf(table) : []), [table]);
  const columns = useMemo(() => allColumns.filter((c) => !hidden.has(c.key)), [allColumns, hidden]);
  const rows = useMemo(
    () => (table ? visibleRows(table, columns, query, typeFilter, sort) : new Int32Array(0)),
    [table, columns, query, typeFilter, sort],
  );
  const template = `${SELECT_W}px ${columns.map((c) => `${c.width}px`).join(" ")}`;
  const width = SELECT_W + columns.reduce((s, c) => s + c.width, 0);
  // Computed once per selection, not per scrolled frame (a selection can hold every one of 100k rows).
  const ids = useMemo(() => [...selected], [selected]);
  const allShownSelected = useMemo(
    () =>
      table !== null &&
      rows.length > 0 &&
      selected.size >= rows.length &&
      rows.every((r) => selected.has(table.data.id[r] as string)),
    [table, rows, selected],
  );

  if (error)
    return (
      <p class="form-error" role="alert">
        {error}
      </p>
    );
  if (!table)
    return (
      <p class="loading" aria-busy="true">
        Loading the table…
      </p>
    );
  const data = table.data;

  const idAt = (r: number) => data.id[rows[r] ?? -1] ?? "";
  const clampFocus = (f: Focus): Focus => ({
    r: Math.max(0, Math.min(rows.length - 1, f.r)),
    c: Math.max(0, Math.min(columns.length - 1, f.c)),
  });

  /** Scrolls so the focused row is in sight (keyboard moves). */
  const reveal = (r: number) => {
    const el = scroller.current;
    if (!el) return;
    const top = r * ROW_H;
    const bodyH = el.clientHeight - ROW_H;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_H > el.scrollTop + bodyH) el.scrollTop = top + ROW_H - bodyH;
  };
  const moveTo = (f: Focus) => {
    const next = clampFocus(f);
    setFocus(next);
    reveal(next.r);
  };
  // Back to the grid at once, so the next key (typed right after Enter or Escape) reaches it.
  const refocusGrid = () => gridRef.current?.focus();

  const selectRange = (from: number, to: number, add: boolean) => {
    const next = add ? new Set(selected) : new Set<string>();
    for (let r = Math.min(from, to); r <= Math.max(from, to); r++) next.add(idAt(r));
    setSelected(next);
  };
  /** A click (or Space) on row r: alone selects it, `toggle` adds or removes it, `range` extends from the anchor. */
  const onRowPointer = (r: number, mods: { toggle: boolean; range: boolean }) => {
    const id = idAt(r);
    if (mods.range && anchor !== null) selectRange(anchor, r, mods.toggle);
    else if (mods.toggle) {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setSelected(next);
      setAnchor(r);
    } else {
      setSelected(new Set([id]));
      setAnchor(r);
    }
  };
  const selectAllShown = () => {
    const next = new Set<string>();
    for (const r of rows) next.add(data.id[r] as string);
    setSelected(next);
  };

  /** Sends one bulk edit (a cell, a pasted block, a bulk action) and reloads the rows from the server. */
  const send = async (body: Record<string, unknown>, expected: string[]): Promise<boolean> => {
    const expected_revisions: Record<string, number> = {};
    for (const id of expected.slice(0, 5000)) {
      const row = table.rowOf.get(id);
      if (row !== undefined) expected_revisions[id] = data.row_revision[row] as number;
    }
    try {
      const result = await api.post<BulkEditResult>(`/api/workspaces/${ws}/bulk`, {
        kind: noun,
        ...body,
        expected_revisions,
      });
      if (result.rows > 1 || body.delete) notify(`${result.summary}.`);
      else if (result.rows === 0) notify("Nothing changed.");
      await load();
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 412)
        notify("Someone else changed a row meanwhile; nothing was saved. The table shows their change now.", "error");
      else notifyError(err);
      reloadSoon(0);
      return false;
    }
  };

  const startEdit = (f: Focus, value?: string) => {
    const col = columns[f.c];
    if (!editable || !col?.edit || rows.length === 0) return;
    setEditing({ ...f, value: value ?? col.text(rows[f.r] as number) });
  };
  const commit = async (e: Editing, then: Focus | null) => {
    const col = columns[e.c];
    const row = rows[e.r];
    setEditing(null);
    if (then) {
      moveTo(then);
      refocusGrid();
    }
    if (!col || row === undefined || col.text(row) === e.value) return;
    const patch = rowPatch(col.edit, data.id[row] as string, e.value);
    if (patch) await send({ rows: [patch] }, [patch.id as string]);
  };

  const onPaste = async (e: ClipboardEvent) => {
    if (editing || !editable) return;
    const text = e.clipboardData?.getData("text/plain") ?? "";
    if (!text) return;
    e.preventDefault();
    const block = parseTsv(text);
    const patches: Record<string, unknown>[] = [];
    const skipped = new Set<string>();
    let beyond = 0;
    block.forEach((cells, i) => {
      const r = focus.r + i;
      if (r >= rows.length) {
        beyond++;
        return;
      }
      cells.forEach((value, j) => {
        const col = columns[focus.c + j];
        if (!col) return;
        const patch = rowPatch(col.edit, idAt(r), value);
        if (patch) patches.push(patch);
        else skipped.add(col.label);
      });
    });
    const merged = mergePatches(patches);
    if (merged.length === 0) {
      notify("Nothing to paste here: those columns cannot be edited.", "error");
      return;
    }
    const ok = await send(
      { rows: merged },
      merged.map((p) => p.id as string),
    );
    if (ok && (skipped.size || beyond))
      notify(
        [
          skipped.size ? `Not pasted: ${[...skipped].join(", ")} (read-only).` : "",
          beyond ? `${beyond} pasted row(s) went past the last row and were left out.` : "",
        ]
          .filter(Boolean)
          .join(" "),
      );
  };

  const onCopy = (e: ClipboardEvent) => {
    if (editing) return;
    const picked =
      selected.size > 0 ? [...rows].filter((r) => selected.has(data.id[r] as string)) : [rows[focus.r] as number];
    const cells =
      selected.size > 0
        ? picked.map((r) => columns.map((c) => c.text(r)))
        : [[columns[focus.c]?.text(picked[0] as number) ?? ""]];
    e.clipboardData?.setData("text/plain", toTsv(cells));
    e.preventDefault();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (editing || e.target !== gridRef.current) return;
    const page = Math.max(1, Math.floor(height / ROW_H) - 2);
    const ctrl = e.ctrlKey || e.metaKey;
    const move = (f: Focus) => {
      e.preventDefault();
      const next = clampFocus(f);
      if (e.shiftKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
        const from = anchor ?? focus.r;
        setAnchor(from);
        selectRange(from, next.r, false);
      }
      moveTo(next);
    };
    switch (e.key) {
      case "ArrowDown":
        return move({ ...focus, r: focus.r + 1 });
      case "ArrowUp":
        return move({ ...focus, r: focus.r - 1 });
      case "ArrowRight":
        return move({ ...focus, c: focus.c + 1 });
      case "ArrowLeft":
        return move({ ...focus, c: focus.c - 1 });
      case "PageDown":
        return move({ ...focus, r: focus.r + page });
      case "PageUp":
        return move({ ...focus, r: focus.r - page });
      case "Home":
        return move(ctrl ? { r: 0, c: 0 } : { ...focus, c: 0 });
      case "End":
        return move(ctrl ? { r: rows.length - 1, c: columns.length - 1 } : { ...focus, c: columns.length - 1 });
      case "Tab":
        if (e.shiftKey ? focus.c > 0 : focus.c < columns.length - 1)
          return move({ ...focus, c: focus.c + (e.shiftKey ? -1 : 1) });
        return;
      case "Enter":
      case "F2":
        e.preventDefault();
        return startEdit(focus);
      case " ":
        e.preventDefault();
        return onRowPointer(focus.r, { toggle: true, range: e.shiftKey });
      case "Escape":
        return setSelected(new Set());
      case "Delete":
      case "Backspace": {
        const col = columns[focus.c];
        if (!editable || (col?.edit?.field !== "property" && col?.edit?.field !== "documentation")) return;
        e.preventDefault();
        const patch = rowPatch(col.edit, idAt(focus.r), "");
        if (patch) send({ rows: [patch] }, [patch.id as string]);
        return;
      }
      default:
        if (ctrl && e.key.toLowerCase() === "a") {
          e.preventDefault();
          return selectAllShown();
        }
        // Typing starts editing the focused cell with what was typed, as in a spreadsheet.
        if (e.key.length === 1 && !ctrl && !e.altKey) {
          e.preventDefault();
          startEdit(focus, e.key);
        }
    }
  };

  const onScroll = (e: Event) => {
    const top = (e.currentTarget as HTMLDivElement).scrollTop;
    const next = Math.floor(top / ROW_H);
    if (next !== first) setFirst(next);
  };

  const count = Math.ceil(height / ROW_H) + 1;
  const from = Math.max(0, first - OVERSCAN);
  const to = Math.min(rows.length, first + count + OVERSCAN);
  // Only the focused cell has an id (what aria-activedescendant names): a scrolled frame sets no ids on the others.
  const focusId = `table-${props.kind}-focus`;
  const focusedId = focus.r >= from && focus.r < to && rows.length > 0 ? focusId : undefined;

  const toggleColumn = (key: string, shown: boolean) => {
    const next = new Set(hidden);
    if (shown) next.delete(key);
    else next.add(key);
    setHidden(next);
    localStorage.setItem(hiddenKey(user, props.kind), JSON.stringify([...next]));
    setFocus((f) => ({ ...f, c: Math.min(f.c, Math.max(0, allColumns.length - next.size - 1)) }));
  };

  return (
    <div class="table-view">
      {/* A scrolled frame redraws the rows only: the toolbar, bulk bar and header wait for what they show to change. */}
      <Unless
        deps={[table, query, typeFilter, hidden, rows, selected, editable]}
        render={() => (
          <>
            <div class="table-toolbar">
              <label>
                Filter{" "}
                <input
                  type="search"
                  value={query}
                  placeholder="Text in any shown column"
                  onInput={(e) => setQuery(e.currentTarget.value)}
                />
              </label>
              <label>
                Type{" "}
                <select value={typeFilter} onChange={(e) => setTypeFilter(e.currentTarget.value)}>
                  <option value="">All types</option>
                  {[...data.types].sort().map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </label>
              <details class="column-menu">
                <summary>Columns</summary>
                <fieldset>
                  <legend>Shown columns</legend>
                  {allColumns.map((c) => (
                    <label key={c.key}>
                      <input
                        type="checkbox"
                        checked={!hidden.has(c.key)}
                        onChange={(e) => toggleColumn(c.key, e.currentTarget.checked)}
                      />{" "}
                      {c.label}
                    </label>
                  ))}
                </fieldset>
              </details>
              <span class="muted" aria-live="polite">
                {rows.length.toLocaleString("en")} of {data.count.toLocaleString("en")} {noun}s
                {selected.size ? `, ${selected.size.toLocaleString("en")} selected` : ""}
              </span>
            </div>
            {editable ? (
              <BulkBar
                kind={props.kind}
                table={table}
                count={selected.size}
                shown={rows.length}
                onSelectAll={selectAllShown}
                onClear={() => setSelected(new Set())}
                onSetProperty={(name, value) => send({ ids, set: { properties: { [name]: value } } }, ids)}
                onSetType={(type) => send({ ids, set: { type } }, ids)}
                onDelete={() => setConfirmDelete(true)}
              />
            ) : null}
          </>
        )}
      />
      <div class="table-scroll" ref={scroller} onScroll={onScroll}>
        <div
          ref={gridRef}
          class="table-grid"
          role="grid"
          aria-label={props.kind === "elements" ? "Elements" : "Relationships"}
          aria-rowcount={rows.length + 1}
          aria-colcount={columns.length + 1}
          aria-multiselectable="true"
          aria-activedescendant={editing ? undefined : focusedId}
          tabIndex={0}
          style={{ width: `${width}px` }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onCopy={onCopy}
        >
          <Unless
            deps={[columns, sort, allShownSelected, rows]}
            render={() => (
              <div class="tr th-row" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
                <div class="th" role="columnheader" aria-colindex={1}>
                  <input
                    type="checkbox"
                    aria-label="Select all shown rows"
                    checked={allShownSelected}
                    onChange={(e) => (e.currentTarget.checked ? selectAllShown() : setSelected(new Set()))}
                  />
                </div>
                {columns.map((c, i) => {
                  const dir = sort?.key === c.key ? (sort.desc ? "descending" : "ascending") : undefined;
                  return (
                    <div key={c.key} class="th" role="columnheader" aria-colindex={i + 2} aria-sort={dir ?? "none"}>
                      <button
                        type="button"
                        class="sort"
                        onClick={() =>
                          setSort(
                            sort?.key === c.key
                              ? sort.desc
                                ? null
                                : { key: c.key, desc: true }
                              : { key: c.key, desc: false },
                          )
                        }
                      >
                        {c.label}
                        <span aria-hidden="true">{dir === "ascending" ? " ▲" : dir === "descending" ? " ▼" : ""}</span>
                      </button>
                    </div>
                  );
                })}
              </div>
            )}
          />
          <div class="tbody" style={{ height: `${rows.length * ROW_H}px` }}>
            <div class="tbody-rows" style={{ transform: `translateY(${from * ROW_H}px)` }}>
              {Array.from({ length: Math.max(0, to - from) }, (_, k) => {
                const r = from + k;
                const row = rows[r] as number;
                const id = data.id[row] as string;
                const isSelected = selected.has(id);
                return (
                  // Keyed by place in the window, not by row: a scrolled frame rewrites the texts of the drawn rows
                  // instead of removing and creating them (what made fast scrolling miss frames).
                  <div
                    key={k}
                    class={isSelected ? "tr selected" : "tr"}
                    role="row"
                    aria-rowindex={r + 2}
                    aria-selected={isSelected}
                    data-id={id}
                    style={{ gridTemplateColumns: template }}
                  >
                    <div
                      class="td select-cell"
                      role="gridcell"
                      aria-colindex={1}
                      onClick={(e) => {
                        onRowPointer(r, { toggle: !e.shiftKey || e.ctrlKey || e.metaKey, range: e.shiftKey });
                        gridRef.current?.focus();
                      }}
                    >
                      <span aria-hidden="true">{isSelected ? "☑" : "☐"}</span>
                    </div>
                    {columns.map((c, j) =>
                      editing && editing.r === r && editing.c === j ? (
                        <CellEditor
                          key={c.key}
                          column={c}
                          types={props.kind === "elements" ? "elements" : "relationships"}
                          editing={editing}
                          colIndex={j + 2}
                          onChange={(value) => setEditing({ ...editing, value })}
                          onCommit={(dr, dc) =>
                            commit(editing, dr === 0 && dc === 0 ? null : clampFocus({ r: r + dr, c: j + dc }))
                          }
                          onCancel={() => {
                            setEditing(null);
                            refocusGrid();
                          }}
                        />
                      ) : (
                        <div
                          key={c.key}
                          id={focus.r === r && focus.c === j ? focusId : undefined}
                          class={focus.r === r && focus.c === j ? "td focused" : "td"}
                          role="gridcell"
                          aria-colindex={j + 2}
                          aria-readonly={!editable || !c.edit}
                          title={c.key === "documentation" ? c.text(row) : undefined}
                          onClick={(e) => {
                            setFocus({ r, c: j });
                            onRowPointer(r, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });
                            gridRef.current?.focus();
                          }}
                          onDblClick={() => startEdit({ r, c: j })}
                        >
                          {c.text(row)}
                        </div>
                      ),
                    )}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      </div>
      {rows.length === 0 ? <p class="muted">No {noun}s match.</p> : null}
      <p class="muted small">
        Click a row to select it, Ctrl-click to add one, Shift-click for a range. Enter or typing edits the focused cell
        (Enter saves and moves down, Tab right, Escape cancels); paste a block copied from a spreadsheet at the focused
        cell.
      </p>
      {confirmDelete ? (
        <ConfirmDialog
          title={`Delete ${ids.length} ${noun}${ids.length === 1 ? "" : "s"}?`}
          message={
            <p>
              They go with their relationships and their nodes in views, as one change: one Undo on the Activity page
              brings all of it back.
            </p>
          }
          confirmLabel="Delete"
          danger
          onAnswer={async (yes) => {
            setConfirmDelete(false);
            if (yes && (await send({ ids, delete: true }, ids))) setSelected(new Set());
          }}
        />
      ) : null}
    </div>
  );
}

/**
 * Draws `render()` again only when one of `deps` changed (by identity): what the parent redraws on every scrolled
 * frame but changes far less often.
 */
class Unless extends Component<{ deps: unknown[]; render(): ComponentChildren }> {
  override shouldComponentUpdate(next: { deps: unknown[] }) {
    return next.deps.length !== this.props.deps.length || next.deps.some((d, i) => d !== this.props.deps[i]);
  }
  override render() {
    return this.props.render();
  }
}

/** The in-place editor of one cell: a text field, a list for types, enumerations and booleans. */
function CellEditor(props: {
  column: Column;
  types: "elements" | "relationships";
  editing: Editing;
  colIndex: number;
  onChange(value: string): void;
  onCommit(dr: number, dc: number): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLElement>(null);
  // Ends once: Enter, Tab or Escape end it and then move the focus, whose blur must not end it again.
  const done = useRef(false);
  const finish = (fn: () => void) => {
    if (done.current) return;
    done.current = true;
    fn();
  };
  // Focused as soon as it is drawn, so the keys typed right after the first one land in it.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      const end = el.value.length;
      el.setSelectionRange(end, end);
    }
  }, []);
  const edit = props.column.edit as NonNullable<Edit>;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      finish(props.onCancel);
    } else if (e.key === "Enter" && !(edit.field === "documentation" && e.shiftKey)) {
      e.preventDefault();
      finish(() => props.onCommit(e.shiftKey ? -1 : 1, 0));
    } else if (e.key === "Tab") {
      e.preventDefault();
      finish(() => props.onCommit(0, e.shiftKey ? -1 : 1));
    }
  };
  const common = {
    ref: ref as never,
    class: "cell-editor",
    "aria-label": props.column.label,
    value: props.editing.value,
    onKeyDown,
    onBlur: () => finish(() => props.onCommit(0, 0)),
  };
  const options = choicesOf(edit, props.types);
  return (
    <div class="td editing" role="gridcell" aria-colindex={props.colIndex}>
      {options ? (
        <select {...common} onChange={(e) => props.onChange(e.currentTarget.value)}>
          {options.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      ) : edit.field === "documentation" ? (
        <textarea {...common} rows={1} onInput={(e) => props.onChange(e.currentTarget.value)} />
      ) : (
        <input {...common} type="text" onInput={(e) => props.onChange(e.currentTarget.value)} />
      )}
    </div>
  );
}

// biome-ignore-end lint/a11y/useSemanticElements: a virtualised grid of divs: a <table> cannot place only the rows in sight
// biome-ignore-end lint/a11y/useFocusableInteractive: the grid element holds the focus and names the focused cell with aria-activedescendant
// biome-ignore-end lint/a11y/useKeyWithClickEvents: the grid's own keys move, select (Space) and edit (Enter) what a click does

/** The values a cell offers as a list: a type, an enumeration's values, true/false; null for free text. */
function choicesOf(edit: NonNullable<Edit>, types: "elements" | "relationships"): [string, string][] | null {
  if (edit.field === "type")
    return types === "elements"
      ? LAYERS.flatMap((layer) =>
          ELEMENT_TYPES.filter((t) => t.layer === layer).map((t): [string, string] => [t.name, t.label]),
        )
      : RELATIONSHIP_TYPES.map((t): [string, string] => [t.name, t.name]);
  if (edit.field !== "property") return null;
  if (edit.type === "boolean")
    return [
      ["", "(none)"],
      ["true", "true"],
      ["false", "false"],
    ];
  if (edit.type === "enumeration" && edit.allowed)
    return [["", "(none)"], ...edit.allowed.map((v): [string, string] => [v, v])];
  return null;
}

/** The actions on the selected rows: set a property, change the type, delete; each one change group. */
function BulkBar(props: {
  kind: TableKind;
  table: Table;
  count: number;
  shown: number;
  onSelectAll(): void;
  onClear(): void;
  onSetProperty(name: string, value: string | null): Promise<boolean>;
  onSetType(type: string): Promise<boolean>;
  onDelete(): void;
}) {
  const defs = props.table.props;
  const [prop, setProp] = useState(defs[0]?.name ?? "");
  const [value, setValue] = useState("");
  const typeChoices =
    props.kind === "elements"
      ? ELEMENT_TYPES.map((t): [string, string] => [t.name, t.label])
      : RELATIONSHIP_TYPES.map((t): [string, string] => [t.name, t.name]);
  const [type, setType] = useState(typeChoices[0]?.[0] ?? "");
  const def = defs.find((d) => d.name === prop);
  const choices = def
    ? choicesOf(
        { field: "property", definition: def.id, name: def.name, type: def.type, allowed: def.allowed },
        "elements",
      )
    : null;
  const none = props.count === 0;
  return (
    <section class="bulk-bar" aria-label="Selected rows">
      <button type="button" onClick={props.onSelectAll}>
        Select all {props.shown.toLocaleString("en")} shown
      </button>
      <button type="button" onClick={props.onClear} disabled={none}>
        Clear selection
      </button>
      {defs.length ? (
        <form
          class="inline"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await props.onSetProperty(prop, value.trim() === "" ? null : value)) setValue("");
          }}
        >
          <label>
            Property{" "}
            <select value={prop} onChange={(e) => setProp(e.currentTarget.value)}>
              {defs.map((d) => (
                <option key={d.id} value={d.name}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>{" "}
          <label for="bulk-value">Value</label>{" "}
          {choices ? (
            <select id="bulk-value" value={value} onChange={(e) => setValue(e.currentTarget.value)}>
              {choices.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          ) : (
            <input
              id="bulk-value"
              type="text"
              value={value}
              placeholder="empty removes it"
              onInput={(e) => setValue(e.currentTarget.value)}
            />
          )}{" "}
          <button type="submit" disabled={none}>
            Set on selected
          </button>
        </form>
      ) : null}
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSetType(type);
        }}
      >
        <label>
          New type{" "}
          <select value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {typeChoices.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" disabled={none}>
          Change type
        </button>
      </form>
      <button type="button" class="danger" disabled={none} onClick={props.onDelete}>
        Delete selected
      </button>
    </section>
  );
}
