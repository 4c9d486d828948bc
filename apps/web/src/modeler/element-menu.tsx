import { useEffect, useRef } from "preact/hooks";
import { createStore, useStore } from "../app/store.ts";
import { editor, setSelected } from "../canvas/editor-store.ts";
import { words } from "../ui/form.tsx";
import { model, select } from "./model-store.ts";

/** What the analysis panel is asked to open for an element (a context menu entry was chosen). */
export type AnalysisKind = "dependents" | "dependencies" | "derived";
export const analysisRequest = createStore<{ elementId: string; kind: AnalysisKind; nonce: number } | null>(null);

type MenuState = { elementId: string; x: number; y: number; returnFocus: HTMLElement | SVGElement | null };
const menu = createStore<MenuState | null>(null);

/**
 * Opens the element's context menu at a point on the screen (a right-click's, or beside the focused item for
 * Shift+F10 and the ContextMenu key); focus goes back to `returnFocus` when it closes.
 */
export function openElementMenu(
  elementId: string,
  at: { x: number; y: number },
  returnFocus: HTMLElement | SVGElement | null,
): void {
  menu.set({ elementId, x: at.x, y: at.y, returnFocus });
}

/** Whether a key event asks for the context menu (Shift+F10 or the ContextMenu key). */
export const isMenuKey = (e: KeyboardEvent) => e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey);

/** Selects the element (the properties panel shows it) and asks its analysis section to open `kind`. */
export function analyse(elementId: string, kind: AnalysisKind): void {
  const view = editor.get().view;
  const selected = editor.get().selected;
  // A canvas selection wins over the model's in the properties panel: keep it only if it is this element's node.
  const keep = view && selected.size === 1 && [...selected].every((id) => view.nodes.get(id)?.element_id === elementId);
  if (!keep) setSelected([]);
  select({ kind: "element", id: elementId });
  analysisRequest.set({ elementId, kind, nonce: Date.now() });
}

const ENTRIES: { kind: AnalysisKind; label: string }[] = [
  { kind: "dependents", label: "What depends on this?" },
  { kind: "dependencies", label: "What does this depend on?" },
  { kind: "derived", label: "Derived relationships" },
];

/** The element context menu of the model tree and the canvas: the analysis entries, keyboard-operable. */
export function ElementContextMenu() {
  const state = useStore(menu);
  const element = useStore(model, (s) => (state ? s.elements.get(state.elementId) : undefined));
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!state) return;
    ref.current?.querySelector<HTMLButtonElement>("button")?.focus();
    const away = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) close(false);
    };
    window.addEventListener("pointerdown", away, true);
    return () => window.removeEventListener("pointerdown", away, true);
  }, [state]);
  if (!state || !element) return null;
  const close = (restore: boolean) => {
    const back = menu.get()?.returnFocus;
    menu.set(null);
    if (restore) back?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLButtonElement>("button") ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "Escape" || (e.key === "Tab" && items.length > 0)) {
      e.preventDefault();
      close(true);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      items[e.key === "Home" ? 0 : items.length - 1]?.focus();
    }
  };
  const name = element.name || words(element.type);
  // Kept on screen: a menu opened near the right or bottom edge opens to the left or upwards.
  const x = Math.min(state.x, window.innerWidth - 240);
  const y = Math.min(state.y, window.innerHeight - 150);
  return (
    <div
      ref={ref}
      class="menu context-menu"
      role="menu"
      aria-label={`Actions for ${name}`}
      style={{ left: `${Math.max(0, x)}px`, top: `${Math.max(0, y)}px` }}
      onKeyDown={onKeyDown}
    >
      {ENTRIES.map((entry) => (
        <button
          key={entry.kind}
          type="button"
          role="menuitem"
          tabindex={-1}
          onClick={() => {
            close(false);
            analyse(element.id, entry.kind);
          }}
        >
          {entry.label}
        </button>
      ))}
    </div>
  );
}
