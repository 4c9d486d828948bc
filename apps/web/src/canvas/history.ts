import { createStore } from "../app/store.ts";

/** One canvas edit that can be undone: both directions talk to the server and update the screen. */
export type Command = { label: string; redo(): Promise<void>; undo(): Promise<void> };

export const history = createStore<{ done: Command[]; undone: Command[]; busy: boolean }>({
  done: [],
  undone: [],
  busy: false,
});

const LIMIT = 200;

/** Records an edit that has just been applied. */
export function record(cmd: Command): void {
  history.set((h) => ({ ...h, done: [...h.done.slice(-(LIMIT - 1)), cmd], undone: [] }));
}

export function clearHistory(): void {
  history.set({ done: [], undone: [], busy: false });
}

/**
 * An undo (or redo) that would overwrite someone else's later change: the step is refused before anything is written,
 * dropped from the stack (the other steps stay), and the message says who changed what.
 */
export class StepBlocked extends Error {}

async function step(from: "done" | "undone"): Promise<string | null> {
  const h = history.get();
  const cmd = h[from][h[from].length - 1];
  if (!cmd || h.busy) return null;
  history.set({ ...h, busy: true });
  try {
    if (from === "done") await cmd.undo();
    else await cmd.redo();
    history.set((s) => {
      const rest = s[from].slice(0, -1);
      return from === "done"
        ? { done: rest, undone: [...s.undone, cmd], busy: false }
        : { done: [...s.done, cmd], undone: rest, busy: false };
    });
    return cmd.label;
  } catch (err) {
    if (err instanceof StepBlocked) {
      history.set((s) => ({ ...s, [from]: s[from].filter((c) => c !== cmd), busy: false }));
      throw err;
    }
    // The server refused (someone else changed or deleted what the edit touched): the step cannot be replayed.
    history.set({ done: [], undone: [], busy: false });
    throw err;
  }
}

export const undo = () => step("done");
export const redo = () => step("undone");
