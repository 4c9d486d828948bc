import type { JSX } from "preact";

/** A form's failure in plain words, announced to screen readers. */
export function FormError(props: { error: string | null }) {
  if (!props.error) return null;
  return (
    <p class="form-error" role="alert">
      {props.error}
    </p>
  );
}

/** Cancel and the primary action at the foot of a dialog's form. */
export function DialogActions(props: { onCancel(): void; submit: string; disabled?: boolean }) {
  return (
    <footer class="dialog-actions">
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
      <button type="submit" class="primary" disabled={props.disabled}>
        {props.submit}
      </button>
    </footer>
  );
}

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, "value" | "onInput" | "label" | "id">;

/** A labelled one-line input whose value lives in the caller's state. */
export function TextField(
  props: { id: string; label: string; value: string; onValue(value: string): void } & InputProps,
) {
  const { id, label, value, onValue, ...rest } = props;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} value={value} onInput={(e) => onValue(e.currentTarget.value)} {...rest} />
    </div>
  );
}

/** Type names as people read them: "ApplicationComponent" as "Application Component". */
export const words = (type: string) => type.replace(/([a-z])([A-Z])/g, "$1 $2");
