import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, describeError } from "../api/client.ts";
import { type Draft, type DraftConflict, draftsApi, type MergeResult, type Resolution } from "../api/drafts.ts";
import { fieldWords } from "../history/change-words.ts";
import { Dialog } from "../ui/dialog.tsx";
import { ConflictValues, sideWords } from "./conflict-values.tsx";
import { changesWords, conflictsWords } from "./draft-words.ts";

const KIND_WORDS: Record<string, string> = {
  property_value: "property value",
  property_definition: "property",
  node: "view node",
  connection: "view connection",
};
export const kindWords = (kind: string) => KIND_WORDS[kind] ?? kind.replace(/_/g, " ");
export const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The object a conflict is about, as people name it: "element “CRM”". */
export const conflictObject = (c: DraftConflict) => `${kindWords(c.kind)} “${c.name ?? c.id}”`;

/** A value of one's own makes sense for a plain field (a name, a text, a number), not for a whole object. */
const typeable = (c: DraftConflict) =>
  c.field !== null &&
  [c.draft, c.current].every((v) => v === null || typeof v === "string" || typeof v === "number") &&
  !/_id$/.test(c.field);

type Choice = { pick: "draft" | "current" | "value"; value: string };

function resolutionOf(c: DraftConflict, choice: Choice): Resolution {
  if (choice.pick !== "value") return choice.pick;
  const numeric = typeof c.draft === "number" || typeof c.current === "number";
  return { value: numeric && choice.value.trim() !== "" ? Number(choice.value) : choice.value };
}

/**
 * The server's refusal in words that name each object: 422 (a resolution that fits no conflict, a merged model that
 * would not be valid) and 409 (conflicts, approvals) carry `errors` whose paths hold the object's id.
 */
export function refusalLines(err: unknown, names: Map<string, string>): string[] {
  if (!(err instanceof ApiError) || err.errors.length === 0) return [];
  return err.errors.map((e) => {
    const id = e.path.split(/[/:.]/).find((part) => names.has(part));
    if (id) return `${names.get(id)}: ${e.message}`;
    // An object the draft did not change ("relationship/<id>"): its kind, the message names the rest.
    const kind = /^(\w+)\//.exec(e.path)?.[1];
    return kind ? `${capital(kindWords(kind))}: ${e.message}` : `${e.path}: ${e.message}`;
  });
}

/**
 * Merge: walks through each conflict (the object and field, its value at the fork, in the draft and in the base now)
 * letting the user keep the draft's, keep the current, or (for a plain field) type a value, then merges with those
 * resolutions. A refusal is shown naming the objects; conflicts that appeared meanwhile are walked through too.
 */
export function MergeDialog(props: {
  draft: Draft;
  /** id → "element “CRM”": what the draft changed, for naming the objects of a refusal. */
  names: Map<string, string>;
  onClose(): void;
  onMerged(result: MergeResult): void;
}) {
  const { draft } = props;
  const [conflicts, setConflicts] = useState<DraftConflict[] | null>(null);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const decided = useRef(choices);
  decided.current = choices;
  const [step, setStep] = useState(0);
  const [error, setError] = useState<{ message: string; lines: string[] } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      const answer = await draftsApi.conflicts(draft.id);
      // By object name and field, so a list fetched again keeps its order; the first one still undecided comes up.
      const list = [...answer.conflicts].sort(
        (a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id) || (a.field ?? "").localeCompare(b.field ?? ""),
      );
      setConflicts(list);
      setStep(
        Math.max(
          0,
          list.findIndex((c) => !decided.current[c.key]),
        ),
      );
    } catch (err) {
      setError({ message: describeError(err), lines: [] });
    }
  };
  useEffect(() => {
    load();
  }, [draft.id]);

  const names = new Map(props.names);
  for (const c of conflicts ?? []) names.set(c.id, conflictObject(c));

  const merge = async () => {
    if (!conflicts) return;
    setBusy(true);
    setError(null);
    const resolutions: Record<string, Resolution> = {};
    for (const c of conflicts) {
      const choice = choices[c.key];
      if (choice) resolutions[c.key] = resolutionOf(c, choice);
    }
    try {
      props.onMerged(await draftsApi.merge(draft.id, resolutions));
    } catch (err) {
      setBusy(false);
      const lines = refusalLines(err, names);
      if (err instanceof ApiError && err.status === 409 && err.errors.length) {
        // New conflicts (the base changed meanwhile): walk through the list as it is now; choices made are kept.
        setError({
          message: `${draft.base_name} changed meanwhile: ${conflictsWords(err.errors.length)} to decide before the merge.`,
          lines,
        });
        await load();
      } else {
        // The lines name each object; the headline is the message's first clause ("The merged model would not be valid").
        const headline = lines.length && err instanceof ApiError ? (err.message.split(": ")[0] ?? err.message) : null;
        setError({ message: headline ? `${headline}:` : describeError(err), lines });
      }
    }
  };

  const title = `Merge “${draft.name}” into ${draft.base_name}`;
  if (conflicts === null)
    return (
      <Dialog title={title} onClose={props.onClose} wide>
        <div class="dialog-body">
          {error ? <RefusalNote error={error} /> : <p aria-busy="true">Checking for conflicts…</p>}
        </div>
      </Dialog>
    );

  const count = conflicts.length;
  const current = conflicts[step];
  const chosen = current ? choices[current.key] : undefined;
  const allChosen = conflicts.every((c) => choices[c.key] !== undefined);
  const choose = (c: DraftConflict, choice: Choice) => setChoices({ ...choices, [c.key]: choice });
  const lastStep = step >= count - 1;

  return (
    <Dialog title={title} onClose={props.onClose} wide>
      <form
        class="dialog-body merge-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (count > 0 && !lastStep) setStep(step + 1);
          else merge();
        }}
      >
        {count === 0 ? (
          <p>
            No conflicts with the current model: the draft's {changesWords(draft.changes)}{" "}
            {draft.changes === 1 ? "is" : "are"} applied to <strong>{draft.base_name}</strong> as one change.
          </p>
        ) : current ? (
          <>
            <p>
              {conflictsWords(count)} with changes made to <strong>{draft.base_name}</strong> since the fork. Choose
              what the merged model keeps.
            </p>
            <p class="merge-step" aria-live="polite">
              Conflict {step + 1} of {count}
            </p>
            <fieldset class="conflict merge-conflict" data-conflict={current.key}>
              <legend>
                {capital(kindWords(current.kind))} <strong>{current.name ?? current.id}</strong>
                {current.field ? (
                  <>
                    , field <strong>{fieldWords(current.field)}</strong>
                  </>
                ) : null}
              </legend>
              <p class="small">{current.message}</p>
              <ConflictValues conflict={current} baseName={draft.base_name} />
              <div class="merge-choices">
                <label class="radio">
                  <input
                    type="radio"
                    name={`pick-${current.key}`}
                    checked={chosen?.pick === "draft"}
                    onChange={() => choose(current, { pick: "draft", value: chosen?.value ?? "" })}
                  />
                  Keep the draft's: {sideWords(current, current.draft)}
                </label>
                <label class="radio">
                  <input
                    type="radio"
                    name={`pick-${current.key}`}
                    checked={chosen?.pick === "current"}
                    onChange={() => choose(current, { pick: "current", value: chosen?.value ?? "" })}
                  />
                  Keep the current: {sideWords(current, current.current)}
                </label>
                {typeable(current) ? (
                  <>
                    <label class="radio">
                      <input
                        type="radio"
                        name={`pick-${current.key}`}
                        checked={chosen?.pick === "value"}
                        onChange={() =>
                          choose(current, {
                            pick: "value",
                            value: chosen?.value || String(current.draft ?? current.current ?? ""),
                          })
                        }
                      />
                      Another value
                    </label>
                    {chosen?.pick === "value" ? (
                      <div class="field merge-value">
                        <label for={`value-${step}`}>Value for {fieldWords(current.field ?? "")}</label>
                        <input
                          id={`value-${step}`}
                          value={chosen.value}
                          onInput={(e) => choose(current, { pick: "value", value: e.currentTarget.value })}
                        />
                      </div>
                    ) : null}
                  </>
                ) : null}
              </div>
            </fieldset>
          </>
        ) : null}
        {error ? <RefusalNote error={error} /> : null}
        <footer class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          {count > 0 && step > 0 ? (
            <button type="button" onClick={() => setStep(step - 1)}>
              Previous
            </button>
          ) : null}
          {count > 0 && !lastStep ? (
            <button type="submit" class="primary" disabled={!chosen}>
              Next conflict
            </button>
          ) : (
            <button type="submit" class="primary" disabled={busy || (count > 0 && !allChosen)}>
              {busy ? "Merging…" : "Merge"}
            </button>
          )}
        </footer>
      </form>
    </Dialog>
  );
}

function RefusalNote(props: { error: { message: string; lines: string[] } }) {
  return (
    <div class="form-error merge-refusal" role="alert">
      <p>{props.error.message}</p>
      {props.error.lines.length ? (
        <ul>
          {props.error.lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
