import { useEffect, useState } from "preact/hooks";
import { notifyError } from "../ui/notices.tsx";

/** A text field saved when it loses focus (or Enter for one line); Escape restores the saved value. */
export function SavedText(props: {
  id: string;
  label: string;
  value: string;
  multiline?: boolean;
  readOnly: boolean;
  onSave(value: string): Promise<void>;
}) {
  const [draft, setDraft] = useState(props.value);
  useEffect(() => setDraft(props.value), [props.value]);
  const commit = () => {
    if (draft === props.value) return;
    props.onSave(draft).catch((err) => {
      setDraft(props.value);
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
      if (e.key === "Escape") setDraft(props.value);
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
