import { useEffect, useReducer } from "preact/hooks";

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

/** The selected part of a store; re-renders only when the selection changes (Object.is). */
export function useStore<T, S = T>(store: Store<T>, select: (v: T) => S = (v) => v as unknown as S): S {
  const [, force] = useReducer((n: number) => n + 1, 0);
  const selected = select(store.get());
  useEffect(() => {
    let last = select(store.get());
    return store.subscribe(() => {
      const next = select(store.get());
      if (!Object.is(next, last)) {
        last = next;
        force(0);
      }
    });
  }, [store]);
  return selected;
}
