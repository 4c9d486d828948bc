import { useEffect, useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import type { PropertyDefinition } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { Dialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { model, reloadDefinitions } from "./model-store.ts";

const TYPES = ["string", "boolean", "date", "number", "enumeration"] as const;

/** The list typed into a text area, one value a line; blank lines and the spaces around a value are not values. */
const parseValues = (text: string) =>
  text
    .split("\n")
    .map((v) => v.trim())
    .filter((v) => v !== "");

const FIELD_WORDS: Record<string, string> = { name: "Name", type: "Type", allowed_values: "Allowed values" };

/** The server's refusal with its field names as the dialog labels them ("Allowed value 3", not allowed_values.2). */
function refusal(err: unknown): string {
  if (!(err instanceof ApiError) || err.errors.length === 0) return describeError(err);
  return err.errors
    .map((e) => {
      const item = /^allowed_values\.(\d+)$/.exec(e.path);
      const field = item ? `Allowed value ${Number(item[1]) + 1}` : (FIELD_WORDS[e.path] ?? e.path);
      return field ? `${field}: ${e.message}` : e.message;
    })
    .join("; ");
}

/** The model's property definitions: add, rename, retype and delete; system definitions are read-only. */
export function PropertyDefinitionsDialog(props: { onClose(): void }) {
  const definitions = useStore(model, (s) => s.definitions);
  const [name, setName] = useState("");
  const [type, setType] = useState<string>("string");
  const [values, setValues] = useState("");
  const [error, setError] = useState<string | null>(null);
  /** Runs a change and reloads the definitions; false (with the refusal shown) when the server said no. */
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await work();
      await reloadDefinitions();
      return true;
    } catch (err) {
      setError(refusal(err));
      // A 412 (someone changed the definition meanwhile): show theirs, so the next try starts from it.
      await reloadDefinitions().catch(() => undefined);
      return false;
    }
  };
  const enumeration = type === "enumeration";
  return (
    <Dialog title="Property definitions" wide onClose={props.onClose}>
      <div class="dialog-body">
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Allowed values</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {definitions.map((d) => (
              <DefinitionRow key={d.id} definition={d} run={run} />
            ))}
          </tbody>
        </table>
        <form
          class="inline-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const body = enumeration ? { name, type, allowed_values: nonEmpty(parseValues(values)) } : { name, type };
            // Cleared only if unchanged meanwhile: what was typed while the request ran is kept.
            if (await run(() => api.post("/api/property-definitions", body))) {
              setName((now) => (now === body.name ? "" : now));
              setValues((now) => (now === values ? "" : now));
            }
          }}
        >
          <div class="field">
            <label for="pd-name">New definition</label>
            <input id="pd-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="pd-type">Type</label>
            <select id="pd-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
              {TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          {enumeration ? (
            <div class="field">
              <label for="pd-values">Allowed values</label>
              <textarea
                id="pd-values"
                rows={4}
                aria-describedby="pd-values-hint"
                value={values}
                onInput={(e) => setValues(e.currentTarget.value)}
              />
              <p class="hint" id="pd-values-hint">
                One value a line, in the order they are offered.
              </p>
            </div>
          ) : null}
          <button type="submit" class="primary">
            Add
          </button>
        </form>
        <FormError error={error} />
      </div>
    </Dialog>
  );
}

/** No list at all rather than an empty one, so the server says that an enumeration needs its values. */
const nonEmpty = (list: string[]) => (list.length ? list : undefined);

/**
 * One definition. Choosing "enumeration" for a definition of another type waits for its allowed values (the server
 * refuses an enumeration without them); the values are saved with their own button.
 */
function DefinitionRow(props: { definition: PropertyDefinition; run(work: () => Promise<unknown>): Promise<boolean> }) {
  const d = props.definition;
  const saved = (d.allowed_values ?? []).join("\n");
  const [pendingType, setPendingType] = useState<string | null>(null);
  const [values, setValues] = useState(saved);
  useEffect(() => setValues(saved), [saved]);
  const url = `/api/property-definitions/${encodeURIComponent(d.id)}`;
  const update = (patch: Record<string, unknown>) => props.run(() => api.put(url, patch, d.revision));
  const shownType = pendingType ?? d.type;
  if (d.is_system)
    return (
      <tr>
        <td>{d.name}</td>
        <td>{`${d.type} (system)`}</td>
        <td>{d.allowed_values?.join(", ") ?? ""}</td>
        <td />
      </tr>
    );
  const valuesId = `pd-values-${d.id}`;
  return (
    <tr>
      <td>
        <input
          aria-label={`Name of ${d.name}`}
          value={d.name}
          onChange={(e) => update({ name: e.currentTarget.value })}
        />
      </td>
      <td>
        <select
          aria-label={`Type of ${d.name}`}
          value={shownType}
          onChange={(e) => {
            const next = e.currentTarget.value;
            if (next === "enumeration" && d.type !== "enumeration") {
              setPendingType(next);
              return;
            }
            setPendingType(null);
            if (next !== d.type) update({ type: next });
          }}
        >
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </td>
      <td>
        {shownType === "enumeration" ? (
          <div class="field">
            <textarea
              id={valuesId}
              rows={3}
              aria-label={`Allowed values of ${d.name}, one a line`}
              value={values}
              onInput={(e) => setValues(e.currentTarget.value)}
            />
            <button
              type="button"
              aria-label={`Save values of ${d.name}`}
              onClick={async () => {
                const list = nonEmpty(parseValues(values));
                const ok = await update(
                  pendingType ? { type: "enumeration", allowed_values: list } : { allowed_values: list },
                );
                if (ok) setPendingType(null);
              }}
            >
              Save values
            </button>
            {pendingType ? (
              <p class="hint" role="status">
                Enter the allowed values, then Save values.
              </p>
            ) : null}
          </div>
        ) : null}
      </td>
      <td>
        <button
          type="button"
          class="danger"
          aria-label={`Delete ${d.name}`}
          onClick={() => props.run(() => api.del(url, d.revision))}
        >
          Delete
        </button>
      </td>
    </tr>
  );
}
