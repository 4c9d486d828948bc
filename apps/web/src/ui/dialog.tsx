import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

/**
 * A modal dialog on the native <dialog> element: focus moves into it and stays there, Escape closes it, and
 * focus returns to where it was when it closes.
 */
export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const before = document.activeElement as HTMLElement | null;
    if (!d.open) d.showModal();
    return () => before?.focus?.();
  }, []);
  return (
    <dialog
      ref={ref}
      class={props.wide ? "dialog dialog-wide" : "dialog"}
      aria-label={props.title}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <header class="dialog-head">
        <h2>{props.title}</h2>
        <button type="button" class="icon-button" aria-label="Close" onClick={props.onClose}>
          ×
        </button>
      </header>
      {props.children}
    </dialog>
  );
}

/** A yes/no question; resolves true when confirmed. */
export function ConfirmDialog(props: {
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onAnswer: (yes: boolean) => void;
}) {
  return (
    <Dialog title={props.title} onClose={() => props.onAnswer(false)}>
      <div class="dialog-body">
        {props.message}
        <footer class="dialog-actions">
          <button type="button" onClick={() => props.onAnswer(false)}>
            Cancel
          </button>
          <button type="button" class={props.danger ? "danger" : "primary"} onClick={() => props.onAnswer(true)}>
            {props.confirmLabel}
          </button>
        </footer>
      </div>
    </Dialog>
  );
}
