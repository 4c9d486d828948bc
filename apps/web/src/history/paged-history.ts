import { useState } from "preact/hooks";
import { describeError } from "../api/client.ts";

/** A page of a history read: its entries, newest first, and where the next (older) page starts (null: none). */
export type HistoryPage<T> = { items: T[]; next_before: number | null };

/**
 * The state of a history list read page by page (the workspace's Activity, an object's History panel): `load()`
 * reads the newest page afresh, `load(next)` appends the older page after it.
 */
export function usePagedHistory<T>(read: (before?: number) => Promise<HistoryPage<T>>) {
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = async (before?: number) => {
    setLoading(true);
    try {
      const page = await read(before);
      setItems((old) => (before ? [...old, ...page.items] : page.items));
      setNext(page.next_before);
      setError(null);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setLoading(false);
    }
  };
  return { items, next, loading, error, load };
}
