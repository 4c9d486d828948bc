import { useState } from "preact/hooks";

/**
 * Copies text to the clipboard: the Clipboard API where the page is a secure context, else the old selection copy
 * (plain http on a host other than localhost has no Clipboard API).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {}
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "offscreen";
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  return ok;
}

/** A button that copies a text and says so; the text itself stays visible next to it for manual copying. */
export function CopyButton(props: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      onClick={async () => {
        setState((await copyText(props.text)) ? "copied" : "failed");
        setTimeout(() => setState("idle"), 2500);
      }}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select the text" : props.label}
    </button>
  );
}

/** A read-only block of text (a secret, a link, a configuration) with a copy button. */
export function CopyBlock(props: { id: string; label: string; text: string; copyLabel?: string; rows?: number }) {
  return (
    <div class="field copy-block">
      <label for={props.id}>{props.label}</label>
      {props.rows && props.rows > 1 ? (
        <textarea id={props.id} readOnly rows={props.rows} value={props.text} class="mono" />
      ) : (
        <input id={props.id} readOnly value={props.text} class="mono" onFocus={(e) => e.currentTarget.select()} />
      )}
      <div>
        <CopyButton text={props.text} label={props.copyLabel ?? "Copy"} />
      </div>
    </div>
  );
}

/** Dates the way people read them, in their own locale. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
