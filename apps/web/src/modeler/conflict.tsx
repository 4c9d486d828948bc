import { useState } from "preact/hooks";
import { staleObject } from "../api/client.ts";
import { notifyError } from "../ui/notices.tsx";

/**
 * No silent overwrite in the properties panel. Every save sends the revision the screen last saw (If-Match); when
 * someone else changed the object since, the server answers 412 with the object as it is now, and the save is merged
 * field by field against what this screen saw (the base):
 * - a field only I changed goes through, sent again with the new revision (their other changes stay: a save sends
 *   only the fields it changes);
 * - a field we both changed, to different values, is a conflict: both values are shown and the user chooses. Until
 *   then nothing is lost: theirs is in the model, mine in the conflict box.
 */

type Patch = Record<string, unknown>;
type Versioned = { revision: number; properties?: Record<string, unknown> } & Record<string, unknown>;

/** One field we both changed: its patch path (`name`, or `properties.Owner`), label, my value and theirs. */
export type FieldConflict = { key: string; property?: string; label: string; mine: unknown; theirs: unknown };

export type Conflict<T> = { current: T; fields: FieldConflict[] };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const LABELS: Record<string, string> = { name: "Name", documentation: "Documentation" };
const labelOf = (key: string) => LABELS[key] ?? key.replaceAll("_", " ");

/**
 * Splits my patch against their current object: `resend` has the fields that merge without asking (only I changed
 * them), `conflicts` those we both changed differently. A field where theirs already equals mine is dropped.
 */
export function mergePatch(
  base: Versioned,
  patch: Patch,
  current: Versioned,
): { resend: Patch; conflicts: FieldConflict[] } {
  const resend: Patch = {};
  const conflicts: FieldConflict[] = [];
  for (const [key, mine] of Object.entries(patch)) {
    if (key === "properties" && mine && typeof mine === "object") {
      const props: Patch = {};
      for (const [name, value] of Object.entries(mine as Patch)) {
        const was = base.properties?.[name];
        const now = current.properties?.[name];
        if (same(now, value)) continue;
        if (same(now, was)) props[name] = value;
        else conflicts.push({ key, property: name, label: `Property '${name}'`, mine: value, theirs: now });
      }
      if (Object.keys(props).length) resend.properties = props;
      continue;
    }
    const was = base[key];
    const now = current[key];
    if (same(now, mine)) continue;
    if (same(now, was)) resend[key] = mine;
    else conflicts.push({ key, label: labelOf(key), mine, theirs: now });
  }
  return { resend, conflicts };
}

/** The patch that writes my side of the given conflicts. */
export function patchOf(fields: FieldConflict[]): Patch {
  const patch: Patch = {};
  for (const f of fields) {
    if (f.property) patch.properties = { ...((patch.properties as Patch) ?? {}), [f.property]: f.mine };
    else patch[f.key] = f.mine;
  }
  return patch;
}

/**
 * A save that never overwrites silently: `send(patch, revision)` PUTs with If-Match; on 412 the current object is
 * stored (`onSaved`), the patch merged, what merges is sent again with the new revision, and what conflicts is
 * handed to the conflict box. Answers the conflict box's state and the save.
 */
export function useMergingSave<T extends Versioned>(opts: {
  base: T;
  send(patch: Patch, revision: number): Promise<T>;
  onSaved(saved: T): void;
}) {
  const [conflict, setConflict] = useState<Conflict<T> | null>(null);
  const report = (current: T, conflicts: FieldConflict[]) =>
    setConflict((open) => ({
      current,
      // A second conflict while one is open keeps the earlier fields that are still in dispute.
      fields: [...(open?.fields ?? []).filter((f) => !conflicts.some((c) => c.label === f.label)), ...conflicts],
    }));
  /**
   * `seen`: the values the user's edit started from, when someone else's change to the same fields arrived live while
   * the user was editing (the screen already shows the object at their revision): merged like a 412.
   */
  const save = async (patch: Patch, seen?: Patch): Promise<void> => {
    let base = opts.base;
    let pending = patch;
    if (seen) {
      const { resend, conflicts } = mergePatch({ ...base, ...seen }, patch, base);
      if (conflicts.length) report(base, conflicts);
      if (Object.keys(resend).length === 0) return;
      pending = resend;
    }
    // Each round either saves, or meets a newer revision: a few rounds cover writers that keep racing.
    for (let round = 0; round < 3; round++) {
      try {
        opts.onSaved(await opts.send(pending, base.revision));
        return;
      } catch (err) {
        const current = staleObject<T>(err);
        if (!current) throw err;
        opts.onSaved(current);
        const { resend, conflicts } = mergePatch(base, pending, current);
        if (conflicts.length) report(current, conflicts);
        if (Object.keys(resend).length === 0) return;
        base = current;
        pending = resend;
      }
    }
    throw new Error("The object kept changing while saving; look at it and try again.");
  };
  const keepMine = async () => {
    if (!conflict) return;
    const fields = conflict.fields;
    setConflict(null);
    await save(patchOf(fields)).catch(notifyError);
  };
  const takeTheirs = () => setConflict(null);
  return { conflict, save, keepMine, takeTheirs };
}

const shown = (value: unknown) =>
  value === null || value === undefined || value === "" ? "(empty)" : typeof value === "string" ? value : String(value);

/** Both values of each disputed field, and the choice: keep mine (sent again with the new revision) or take theirs. */
export function ConflictBox(props: {
  what: string;
  conflict: Conflict<unknown>;
  editable: boolean;
  onKeepMine(): void;
  onTakeTheirs(): void;
}) {
  return (
    <section class="conflict" role="alert" aria-labelledby="conflict-title">
      <h3 id="conflict-title">Changed by someone else</h3>
      <p class="small">
        Someone else changed this {props.what} while you were editing it. Nothing was overwritten: choose which value to
        keep.
      </p>
      <table class="conflict-table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Yours</th>
            <th scope="col">Theirs (saved now)</th>
          </tr>
        </thead>
        <tbody>
          {props.conflict.fields.map((f) => (
            <tr key={f.label}>
              <th scope="row">{f.label}</th>
              <td class="conflict-mine">{shown(f.mine)}</td>
              <td class="conflict-theirs">{shown(f.theirs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="panel-actions">
        {props.editable ? (
          <button type="button" class="primary" onClick={props.onKeepMine}>
            Keep mine
          </button>
        ) : null}
        <button type="button" onClick={props.onTakeTheirs}>
          Take theirs
        </button>
      </div>
    </section>
  );
}
