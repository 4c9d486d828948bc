import { useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { PropertyDefinition } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { Dialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { model, reloadDefinitions } from "./model-store.ts";

const TYPES = ["string", "boolean", "date", "number", "enumeration"] as const;

/** The model's property definitions: add, rename, retype and delete; system definitions are read-only. */
export function PropertyDefinitionsDialog(props: { onClose(): void }) {
  const definitions = useStore(model, (s) => s.definitions);
  const [name, setName] = useState("");
  const [type, setType] = useState<string>("string");
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await reloadDefinitions();
    } catch (err) {
      setError(describeError(err));
    }
  };
  const update = (d: PropertyDefinition, patch: Record<string, unknown>) =>
    run(() => api.put(`/api/property-definitions/${encodeURIComponent(d.id)}`, patch));
  return (
    <Dialog title="Property definitions" wide onClose={props.onClose}>
      <div class="dialog-body">
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {definitions.map((d) => (
              <tr key={d.id}>
                <td>
                  {d.is_system ? (
                    d.name
                  ) : (
                    <input
                      aria-label={`Name of ${d.name}`}
                      value={d.name}
                      onChange={(e) => update(d, { name: e.currentTarget.value })}
                    />
                  )}
                </td>
                <td>
                  {d.is_system ? (
                    `${d.type} (system)`
                  ) : (
                    <select
                      aria-label={`Type of ${d.name}`}
                      value={d.type}
                      onChange={(e) => update(d, { type: e.currentTarget.value })}
                    >
                      {TYPES.map((t) => (
                        <option key={t} value={t}>
                          {t}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
                <td>
                  {d.is_system ? null : (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Delete ${d.name}`}
                      onClick={() => run(() => api.del(`/api/property-definitions/${encodeURIComponent(d.id)}`))}
                    >
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            run(() => api.post("/api/property-definitions", { name, type })).then(() => setName(""));
          }}
        >
          <label for="pd-name">New definition</label>
          <input id="pd-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="pd-type" class="visually-hidden">
            Type
          </label>
          <select id="pd-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <button type="submit" class="primary">
            Add
          </button>
        </form>
        <FormError error={error} />
      </div>
    </Dialog>
  );
}
