import { useState } from "preact/hooks";
import { useStore } from "../app/store.ts";
import { Dialog } from "../ui/dialog.tsx";
import { model } from "./model-store.ts";

/**
 * The `Service Plugin IconPack` value of an element: an icon of an enabled plugin, chosen from a searchable gallery.
 * A value whose plugin is disabled or unknown shows as such; the canvas then draws the type icon.
 */
export function IconPicker(props: { value: string | null; readOnly: boolean; onChange(value: string | null): void }) {
  const plugins = useStore(model, (s) => s.plugins);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  if (plugins.length === 0 && !props.value) return null;
  const all = plugins.flatMap((p) => p.icons.map((i) => ({ ...i, pack: p.name })));
  const current = all.find((i) => i.slug === props.value);
  const q = query.trim().toLowerCase();
  const shown = all.filter((i) => !q || i.name.toLowerCase().includes(q) || i.slug.includes(q)).slice(0, 240);
  return (
    <div class="field">
      <span class="field-label">Icon</span>
      <div class="icon-current">
        {current ? <img src={current.url} alt="" width={24} height={24} /> : null}
        <span>{current ? current.name : props.value ? `${props.value} (not available)` : "Type icon"}</span>
        {props.readOnly ? null : (
          <>
            <button type="button" onClick={() => setOpen(true)}>
              Choose icon
            </button>
            {props.value ? (
              <button type="button" onClick={() => props.onChange(null)}>
                Use type icon
              </button>
            ) : null}
          </>
        )}
      </div>
      {open ? (
        <Dialog title="Choose an icon" wide onClose={() => setOpen(false)}>
          <div class="dialog-body">
            <input
              type="search"
              aria-label="Search icons"
              placeholder="Search icons"
              value={query}
              onInput={(e) => setQuery(e.currentTarget.value)}
            />
            <ul class="icon-gallery">
              {shown.map((i) => (
                <li key={i.slug}>
                  <button
                    type="button"
                    title={`${i.name} (${i.pack})`}
                    aria-label={`${i.name} from ${i.pack}`}
                    onClick={() => {
                      setOpen(false);
                      props.onChange(i.slug);
                    }}
                  >
                    <img src={i.url} alt="" width={32} height={32} loading="lazy" />
                    <span>{i.name}</span>
                  </button>
                </li>
              ))}
            </ul>
            {shown.length === 0 ? <p class="muted">No icon matches.</p> : null}
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
