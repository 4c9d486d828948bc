import { useEffect, useReducer, useRef } from "preact/hooks";

/** A small observable value: components re-render when the part they read changes. */
export type Store<T> = {
  get(): T;
  set(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
};

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const v = typeof next === "function" ? (next as (prev: T) => T)(value) : next;
      if (Object.is(v, value)) return;
      value = v;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The selected part of a store; re-renders only when the selection changes (Object.is). The subscription starts in an
 * effect, which Preact runs after the browser has painted: a change made between the render and then (the session a
 * page boots with, answered before the first frame on a busy machine) is compared with what the render showed, so it
 * is drawn at once instead of being taken as already seen (the page stayed on "Loading…" for good).
 */
export function useStore<T, S = T>(store: Store<T>, select: (v: T) => S = (v) => v as unknown as S): S {
  const [, force] = useReducer((n: number) => n + 1, 0);
  const selected = select(store.get());
  // What the last render showed, and the selection it used (a selection may read the component's props).
  const shown = useRef({ selected, select });
  shown.current = { selected, select };
  useEffect(() => {
    const check = () => {
      const next = shown.current.select(store.get());
      if (!Object.is(next, shown.current.selected)) {
        shown.current = { ...shown.current, selected: next };
        force(0);
      }
    };
    const stop = store.subscribe(check);
    check();
    return stop;
  }, [store]);
  return selected;
}
