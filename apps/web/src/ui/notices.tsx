import { describeError } from "../api/client.ts";
import { createStore, useStore } from "../app/store.ts";

type Notice = { id: number; kind: "error" | "info"; text: string };
const notices = createStore<Notice[]>([]);
let next = 1;

export function notify(text: string, kind: Notice["kind"] = "info"): void {
  const id = next++;
  notices.set((list) => [...list.slice(-3), { id, kind, text }]);
  setTimeout(() => dismiss(id), kind === "error" ? 12_000 : 5_000);
}

/** Any failure in plain words; never a bare status code. */
export function notifyError(err: unknown): void {
  notify(describeError(err), "error");
}

function dismiss(id: number): void {
  notices.set((list) => list.filter((n) => n.id !== id));
}

export function Notices() {
  const list = useStore(notices);
  return (
    <div class="notices" aria-live="polite">
      {list.map((n) => (
        <div key={n.id} class={`notice notice-${n.kind}`} role={n.kind === "error" ? "alert" : "status"}>
          <span>{n.text}</span>
          <button type="button" class="icon-button" aria-label="Dismiss message" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
