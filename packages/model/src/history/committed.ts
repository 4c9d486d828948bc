/** A change group that has committed: its workspace and revision (the change log holds what it changed). */
export type CommittedChange = { workspaceId: string; revision: number };

const listeners = new Set<(change: CommittedChange) => void>();

/**
 * Hears every change group withChange commits in this process, after the commit (the graph sync wakes its worker
 * from here). A listener only learns that the log moved; readers read the log itself. Returns the unsubscribe.
 */
export function onChangeCommitted(listener: (change: CommittedChange) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells the listeners; a listener that throws does not stop the others nor the verb that committed. */
export function announceCommitted(change: CommittedChange): void {
  for (const listener of listeners) {
    try {
      listener(change);
    } catch {}
  }
}
