import { useEffect, useRef, useState } from "preact/hooks";
import { notifyError } from "../ui/notices.tsx";

/**
 * A text field saved when it loses focus (or Enter for one line); Escape restores the saved value. A change of the
 * value from elsewhere (someone else's edit arriving live) shows at once unless the user has unsaved edits here: those
 * are kept, and the save passes the value they started from (`seen`) so the caller can tell a conflict.
 */
export function SavedText(props: {
  id: string;
  label: string;
  value: string;
  multiline?: boolean;
  readOnly: boolean;
  onSave(value: string, seen: string): Promise<void>;
}) {
  const [draft, setDraft] = useState(props.value);
  // The value the draft was started from: the draft is unsaved edits while it differs from it.
  const [origin, setOrigin] = useState(props.value);
  const latest = useRef(props.value);
  latest.current = props.value;
  useEffect(() => {
    if (draft !== origin) return;
    setDraft(props.value);
    setOrigin(props.value);
  }, [props.value]);
  const restore = () => {
    setDraft(props.value);
    setOrigin(props.value);
  };
  const commit = () => {
    if (draft === origin) return;
    const seen = origin;
    setOrigin(draft);
    props
      .onSave(draft, seen)
      // Saved, merged or shown as a conflict: the field shows what the model has now (the conflict box holds mine).
      .then(() => {
        setDraft(latest.current);
        setOrigin(latest.current);
      })
      .catch((err) => {
        restore();
        notifyError(err);
      });
  };
  const common = {
    id: props.id,
    value: draft,
    readOnly: props.readOnly,
    onInput: (e: Event) => setDraft((e.currentTarget as HTMLInputElement).value),
    onBlur: commit,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === "Escape") restore();
      if (e.key === "Enter" && !props.multiline) (e.currentTarget as HTMLElement).blur();
    },
  };
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.multiline ? <textarea rows={4} {...common} /> : <input {...common} />}
    </div>
  );
}
