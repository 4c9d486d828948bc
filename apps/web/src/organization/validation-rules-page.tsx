import { ELEMENT_TYPES, LAYERS, RELATIONSHIP_TYPES } from "@ams/shared";
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import type { ValidationRule, ValidationRuleList } from "../api/types.ts";
import { activeMembership, hasTeams, managesMembers, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { FormError, words } from "../ui/form.tsx";
import { notify } from "../ui/notices.tsx";
import { OrganizationNav } from "./organization-nav.tsx";

type RuleType = ValidationRule["type"];
type Severity = ValidationRule["severity"];
type Field = "element_type" | "property" | "values" | "pattern" | "source_type" | "relationship_type" | "target_type";
type FieldName = Field | "depth" | "type" | "severity";

const TYPES: [RuleType, string][] = [
  ["required_property", "Required property"],
  ["allowed_values", "Allowed values"],
  ["name_pattern", "Name pattern"],
  ["forbidden_relationship", "Forbidden relationship"],
  ["max_nesting", "Maximum nesting"],
];
/** The fields each type takes besides severity and enabled (as the server's ORG_RULE_FIELDS). */
const FIELDS: Record<RuleType, FieldName[]> = {
  required_property: ["element_type", "property"],
  allowed_values: ["element_type", "property", "values"],
  name_pattern: ["element_type", "pattern"],
  forbidden_relationship: ["source_type", "relationship_type", "target_type"],
  max_nesting: ["depth"],
};
const SEVERITIES: Severity[] = ["error", "warning", "info"];

const elementLabel = (t: string | undefined) => ELEMENT_TYPES.find((e) => e.name === t)?.label ?? words(t ?? "");

/** A rule in plain words: "Every Application Component has Owner". */
export function describeRule(r: ValidationRule): string {
  const el = elementLabel(r.element_type);
  switch (r.type) {
    case "required_property":
      return `Every ${el} has ${r.property}`;
    case "allowed_values":
      return `${r.property} of every ${el} is one of: ${(r.values ?? []).join(", ")}`;
    case "name_pattern":
      return `The name of every ${el} matches ${r.pattern}`;
    case "forbidden_relationship":
      return `No ${words(r.relationship_type ?? "")} from ${elementLabel(r.source_type)} to ${elementLabel(r.target_type)}`;
    case "max_nesting":
      return r.depth === 0 ? "No nesting on views" : `Views nest at most ${r.depth} levels deep`;
  }
}

type Draft = {
  type: RuleType;
  severity: Severity;
  enabled: boolean;
  element_type: string;
  property: string;
  values: string;
  pattern: string;
  source_type: string;
  relationship_type: string;
  target_type: string;
  depth: string;
};

const EMPTY: Draft = {
  type: "required_property",
  severity: "warning",
  enabled: true,
  element_type: "ApplicationComponent",
  property: "",
  values: "",
  pattern: "",
  source_type: "ApplicationComponent",
  relationship_type: "Serving",
  target_type: "BusinessActor",
  depth: "2",
};

function draftOf(r: ValidationRule): Draft {
  return {
    ...EMPTY,
    type: r.type,
    severity: r.severity,
    enabled: r.enabled,
    element_type: r.element_type ?? EMPTY.element_type,
    property: r.property ?? "",
    values: (r.values ?? []).join("\n"),
    pattern: r.pattern ?? "",
    source_type: r.source_type ?? EMPTY.source_type,
    relationship_type: r.relationship_type ?? EMPTY.relationship_type,
    target_type: r.target_type ?? EMPTY.target_type,
    depth: r.depth === undefined ? EMPTY.depth : String(r.depth),
  };
}

/** The body the API takes: the type's own fields only (another type's field is a 422). */
function bodyOf(d: Draft): Record<string, unknown> {
  const body: Record<string, unknown> = { type: d.type, severity: d.severity, enabled: d.enabled };
  for (const f of FIELDS[d.type]) {
    if (f === "depth") body.depth = d.depth.trim() === "" ? undefined : Number(d.depth);
    else if (f === "values")
      body.values = d.values
        .split("\n")
        .map((v) => v.trim())
        .filter(Boolean);
    else body[f] = (d[f as Field] as string).trim();
  }
  return body;
}

/** The stored rule written back (PUT replaces it): its type's fields, severity and enabled. */
function bodyOfRule(r: ValidationRule, enabled: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { type: r.type, severity: r.severity, enabled };
  for (const f of FIELDS[r.type]) body[f] = r[f as keyof ValidationRule];
  return body;
}

/** The organization's own validation rules: every member reads them, owners (and admins) edit them. */
export function ValidationRulesPage() {
  const { profile } = useStore(session);
  const membership = activeMembership(profile);
  const manage = managesMembers(membership?.role);
  const base = membership
    ? `/api/organizations/${encodeURIComponent(membership.organization_id)}/validation-rules`
    : "";
  const [rules, setRules] = useState<ValidationRule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<ValidationRule | null>(null);
  const [deleting, setDeleting] = useState<ValidationRule | null>(null);

  const load = async () => {
    if (!base) return;
    try {
      setRules((await api.get<ValidationRuleList>(base)).items);
    } catch (err) {
      setError(describeError(err));
    }
  };
  useEffect(() => {
    setRules(null);
    load();
  }, [base]);

  const toggle = async (r: ValidationRule, enabled: boolean) => {
    setError(null);
    try {
      const saved = await api.put<ValidationRule>(`${base}/${encodeURIComponent(r.id)}`, bodyOfRule(r, enabled));
      setRules((list) => list?.map((x) => (x.id === saved.id ? saved : x)) ?? null);
      notify(`${describeRule(saved)}: ${saved.enabled ? "enabled" : "disabled"}.`);
    } catch (err) {
      setError(describeError(err));
      load();
    }
  };
  const remove = async (r: ValidationRule) => {
    setError(null);
    try {
      await api.del(`${base}/${encodeURIComponent(r.id)}`);
      notify(`Rule deleted: ${describeRule(r)}.`);
      if (editing?.id === r.id) setEditing(null);
      load();
    } catch (err) {
      setError(describeError(err));
    }
  };

  return (
    <Shell>
      <main class="page" id="main">
        <div class="page-head">
          <h1>{membership?.organization_name ?? "Organization"}</h1>
          {membership ? <span class="role-badge">your role: {membership.role}</span> : null}
        </div>
        <OrganizationNav />
        <h2>Validation rules</h2>
        <p class="muted">
          The organization's own rules, checked with the built-in ones in every workspace's Problems tab while enabled.
          {manage ? null : ` Only the organization's ${hasTeams() ? "owners and admins" : "owners"} change them.`}
        </p>
        <FormError error={error} />
        {rules === null ? (
          <p class="muted">Loading…</p>
        ) : rules.length === 0 ? (
          <p class="muted">No rules yet.</p>
        ) : (
          <table class="table data-table" aria-label="Validation rules">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Severity</th>
                <th scope="col">Enabled</th>
                {manage ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => {
                const text = describeRule(r);
                return (
                  <tr key={r.id} data-rule-id={r.id}>
                    <td>{text}</td>
                    <td>
                      <span class={`severity-badge ${r.severity}`}>{r.severity}</span>
                    </td>
                    <td>
                      {manage ? (
                        <input
                          type="checkbox"
                          checked={r.enabled}
                          aria-label={`Enabled: ${text}`}
                          onChange={(e) => toggle(r, e.currentTarget.checked)}
                        />
                      ) : r.enabled ? (
                        "yes"
                      ) : (
                        "no"
                      )}
                    </td>
                    {manage ? (
                      <td>
                        <div class="row-actions">
                          <button type="button" aria-label={`Edit: ${text}`} onClick={() => setEditing(r)}>
                            Edit
                          </button>
                          <button
                            type="button"
                            class="danger"
                            aria-label={`Delete: ${text}`}
                            onClick={() => setDeleting(r)}
                          >
                            Delete
                          </button>
                        </div>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {manage && base ? (
          <RuleForm
            key={editing?.id ?? "new"}
            base={base}
            rule={editing}
            onDone={(saved) => {
              setEditing(null);
              if (saved) load();
            }}
          />
        ) : null}
        {deleting ? (
          <ConfirmDialog
            title="Delete rule"
            danger
            confirmLabel="Delete"
            message={<p>Delete the rule “{describeRule(deleting)}”? Workspaces are no longer checked against it.</p>}
            onAnswer={(yes) => {
              const r = deleting;
              setDeleting(null);
              if (yes) remove(r);
            }}
          />
        ) : null}
      </main>
    </Shell>
  );
}

function ElementTypeSelect(props: { id: string; value: string; onValue(v: string): void; describedBy?: string }) {
  return (
    <select
      id={props.id}
      value={props.value}
      aria-describedby={props.describedBy}
      aria-invalid={props.describedBy ? true : undefined}
      onChange={(e) => props.onValue(e.currentTarget.value)}
    >
      {LAYERS.map((layer) => (
        <optgroup key={layer} label={layer}>
          {ELEMENT_TYPES.filter((t) => t.layer === layer).map((t) => (
            <option key={t.name} value={t.name}>
              {t.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

/** Adds a rule, or edits one (`rule`); the fields follow the chosen type, a 422 shows beside the field it names. */
function RuleForm(props: { base: string; rule: ValidationRule | null; onDone(saved: boolean): void }) {
  const [draft, setDraft] = useState<Draft>(props.rule ? draftOf(props.rule) : EMPTY);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const editing = props.rule !== null;

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setFieldErrors({});
    setBusy(true);
    try {
      const body = bodyOf(draft);
      const saved = props.rule
        ? await api.put<ValidationRule>(`${props.base}/${encodeURIComponent(props.rule.id)}`, body)
        : await api.post<ValidationRule>(props.base, body);
      notify(`${editing ? "Rule saved" : "Rule added"}: ${describeRule(saved)}.`);
      if (!editing) setDraft(EMPTY);
      props.onDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422 && err.errors.length) {
        const shown = new Set<string>(FIELDS[draft.type]);
        shown.add("severity");
        shown.add("type");
        const byField: Partial<Record<FieldName, string>> = {};
        const rest: string[] = [];
        for (const fe of err.errors) {
          const field = fe.path.split(/[.[]/)[0] ?? "";
          if (shown.has(field)) {
            const f = field as FieldName;
            byField[f] = byField[f] ? `${byField[f]}; ${fe.message}` : fe.message;
          } else rest.push(fe.path ? `${fe.path}: ${fe.message}` : fe.message);
        }
        setFieldErrors(byField);
        setError(rest.length ? rest.join("; ") : "Some values are not valid; see the fields marked.");
      } else setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  /** A labelled field with its error (from a 422) announced beside it. */
  const field = (name: FieldName, label: string, control: (id: string, describedBy?: string) => JSX.Element) => {
    const id = `rule-${name.replace("_", "-")}`;
    const err = fieldErrors[name];
    return (
      <div class="field" key={name}>
        <label for={id}>{label}</label>
        {control(id, err ? `${id}-error` : undefined)}
        {err ? (
          <p class="field-error" id={`${id}-error`}>
            {err}
          </p>
        ) : null}
      </div>
    );
  };
  const text = (name: "property" | "pattern", placeholder: string) => (id: string, describedBy?: string) => (
    <input
      id={id}
      value={draft[name]}
      placeholder={placeholder}
      autocomplete="off"
      aria-describedby={describedBy}
      aria-invalid={describedBy ? true : undefined}
      onInput={(e) => set(name, e.currentTarget.value)}
    />
  );
  const elementType = (name: "element_type" | "source_type" | "target_type") => (id: string, describedBy?: string) => (
    <ElementTypeSelect id={id} value={draft[name]} describedBy={describedBy} onValue={(v) => set(name, v)} />
  );

  const controls: Record<FieldName, () => JSX.Element> = {
    type: () => <></>,
    severity: () => <></>,
    element_type: () => field("element_type", "Element type", elementType("element_type")),
    property: () => field("property", "Property", text("property", "e.g. Owner")),
    values: () =>
      field("values", "Allowed values (one a line)", (id, describedBy) => (
        <textarea
          id={id}
          rows={4}
          value={draft.values}
          aria-describedby={describedBy}
          aria-invalid={describedBy ? true : undefined}
          onInput={(e) => set("values", e.currentTarget.value)}
        />
      )),
    pattern: () => field("pattern", "Name pattern (regular expression)", text("pattern", "e.g. ^[A-Z]")),
    source_type: () => field("source_type", "Source element type", elementType("source_type")),
    relationship_type: () =>
      field("relationship_type", "Relationship type", (id, describedBy) => (
        <select
          id={id}
          value={draft.relationship_type}
          aria-describedby={describedBy}
          aria-invalid={describedBy ? true : undefined}
          onChange={(e) => set("relationship_type", e.currentTarget.value)}
        >
          {RELATIONSHIP_TYPES.map((t) => (
            <option key={t.name} value={t.name}>
              {words(t.name)}
            </option>
          ))}
        </select>
      )),
    target_type: () => field("target_type", "Target element type", elementType("target_type")),
    depth: () =>
      field("depth", "Deepest nesting on a view (0: none)", (id, describedBy) => (
        <input
          id={id}
          type="number"
          min={0}
          step={1}
          value={draft.depth}
          aria-describedby={describedBy}
          aria-invalid={describedBy ? true : undefined}
          onInput={(e) => set("depth", e.currentTarget.value)}
        />
      )),
  };

  return (
    <form class="rule-form" onSubmit={submit} aria-labelledby="rule-form-title">
      <h3 id="rule-form-title">{editing ? "Edit rule" : "Add a rule"}</h3>
      <div class="rule-form-grid">
        {field("type", "Rule type", (id, describedBy) => (
          <select
            id={id}
            value={draft.type}
            aria-describedby={describedBy}
            onChange={(e) => {
              set("type", e.currentTarget.value as RuleType);
              setFieldErrors({});
            }}
          >
            {TYPES.map(([t, label]) => (
              <option key={t} value={t}>
                {label}
              </option>
            ))}
          </select>
        ))}
        {FIELDS[draft.type].map((f) => controls[f]())}
        {field("severity", "Severity", (id, describedBy) => (
          <select
            id={id}
            value={draft.severity}
            aria-describedby={describedBy}
            onChange={(e) => set("severity", e.currentTarget.value as Severity)}
          >
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        ))}
        <div class="field field-inline">
          <input
            id="rule-enabled"
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => set("enabled", e.currentTarget.checked)}
          />
          <label for="rule-enabled">Enabled</label>
        </div>
      </div>
      <FormError error={error} />
      <div class="rule-form-actions">
        {editing ? (
          <button type="button" onClick={() => props.onDone(false)}>
            Cancel
          </button>
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {editing ? "Save rule" : "Add rule"}
        </button>
      </div>
    </form>
  );
}
