import { useMemo, useRef, useState } from "preact/hooks";
import { completionAt, tokenize } from "./cypher-tokens.ts";
import { CYPHER_KEYWORDS, type GraphVocabulary } from "./schema.ts";

type Suggestion = { text: string; hint: string };

function suggestionsFor(
  source: string,
  caret: number,
  vocab: GraphVocabulary,
): { start: number; items: Suggestion[] } | null {
  const ctx = completionAt(source, caret);
  if (!ctx) return null;
  const p = ctx.prefix.toLowerCase();
  let items: Suggestion[] = [];
  if (ctx.kind === "label") {
    // After '[:' or '-[r:' a relationship type is wanted; after '(' a label.
    const rel = /\[[A-Za-z0-9_]*\s*:\s*`?[A-Za-z0-9_]*$/.test(source.slice(0, caret));
    items = (rel ? vocab.relationshipTypes : vocab.labels).map((t) => ({
      text: t,
      hint: rel ? "relationship" : "label",
    }));
  } else if (ctx.kind === "property") items = vocab.properties.map((t) => ({ text: t, hint: "property" }));
  else items = CYPHER_KEYWORDS.map((k) => ({ text: k, hint: "keyword" }));
  items = items.filter((s) => s.text.toLowerCase().startsWith(p) && s.text.toLowerCase() !== p).slice(0, 12);
  return items.length ? { start: ctx.start, items } : null;
}

/**
 * A Cypher editor: a plain textarea (so typing, selection, undo and screen readers work as everywhere) laid over
 * its highlighted copy, with completion of keywords, labels, relationship types and properties (Ctrl+Space, or as
 * you type after ':' and '.'; arrows choose, Enter or Tab take, Escape closes). Ctrl+Enter runs.
 */
export function CypherEditor(props: {
  id: string;
  value: string;
  vocabulary: GraphVocabulary;
  onChange: (v: string) => void;
  onRun: () => void;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const pre = useRef<HTMLPreElement>(null);
  const [open, setOpen] = useState<{ start: number; items: Suggestion[] } | null>(null);
  const [active, setActive] = useState(0);
  const tokens = useMemo(() => tokenize(props.value), [props.value]);

  const update = (value: string, caret: number, explicit = false) => {
    props.onChange(value);
    const next = suggestionsFor(value, caret, props.vocabulary);
    const typed = value.slice(0, caret);
    const auto = /[:.][A-Za-z0-9_]*$/.test(typed) || /[A-Za-z]{2,}$/.test(typed);
    setOpen(next && (explicit || auto) ? next : null);
    setActive(0);
  };
  const accept = (s: Suggestion) => {
    const el = area.current;
    if (!el || !open) return;
    const caret = el.selectionStart;
    const value = props.value.slice(0, open.start) + s.text + props.value.slice(caret);
    props.onChange(value);
    setOpen(null);
    const at = open.start + s.text.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(at, at);
    });
  };
  const listId = `${props.id}-completions`;
  return (
    <div class="cypher-editor">
      <pre ref={pre} class="cypher-highlight" aria-hidden="true">
        {tokens.map((t, i) =>
          t.kind === "text" ? (
            t.text
          ) : (
            <span key={i} class={`tok-${t.kind}`}>
              {t.text}
            </span>
          ),
        )}
        {"\n"}
      </pre>
      <textarea
        ref={area}
        id={props.id}
        class="cypher-input"
        spellcheck={false}
        autocomplete="off"
        role="combobox"
        aria-expanded={open !== null}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        value={props.value}
        onInput={(e) => update(e.currentTarget.value, e.currentTarget.selectionStart)}
        onScroll={(e) => {
          if (pre.current) {
            pre.current.scrollTop = e.currentTarget.scrollTop;
            pre.current.scrollLeft = e.currentTarget.scrollLeft;
          }
        }}
        onBlur={() => setTimeout(() => setOpen(null), 150)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
            e.preventDefault();
            setOpen(null);
            props.onRun();
          } else if (e.ctrlKey && e.key === " ") {
            e.preventDefault();
            update(props.value, e.currentTarget.selectionStart, true);
          } else if (open) {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setActive((active + 1) % open.items.length);
            } else if (e.key === "ArrowUp") {
              e.preventDefault();
              setActive((active - 1 + open.items.length) % open.items.length);
            } else if (e.key === "Enter" || e.key === "Tab") {
              e.preventDefault();
              const s = open.items[active];
              if (s) accept(s);
            } else if (e.key === "Escape") {
              e.preventDefault();
              setOpen(null);
            }
          }
        }}
      />
      {open ? (
        <div id={listId} class="completions" role="listbox" aria-label="Suggestions" tabIndex={-1}>
          {open.items.map((s, i) => (
            <div
              key={s.text}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                accept(s);
              }}
            >
              <span>{s.text}</span>
              <span class="muted small">{s.hint}</span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
