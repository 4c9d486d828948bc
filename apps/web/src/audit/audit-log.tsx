import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { AuditEntry, AuditKind, AuditPage } from "../api/types.ts";
import { formatDate } from "../ui/copy.tsx";
import { FormError } from "../ui/form.tsx";
import { detailWords, kindWords } from "./audit-words.ts";

type Filters = { user: string; kind: string; from: string; to: string };
const NO_FILTERS: Filters = { user: "", kind: "", from: "", to: "" };
const PAGE = 50;

/** A datetime-local value (the browser's local time) as the ISO instant the API takes. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * An audit trail, newest first, with filters (person, kind of event, time range) and "Show older events" (keyset
 * paging). `endpoint` is the platform's or one organization's audit; `kinds` are those it can hold.
 */
export function AuditLog(props: { endpoint: string; kinds: AuditKind[]; showOrganization: boolean }) {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [items, setItems] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async (before: number | null) => {
    setBusy(true);
    setError(null);
    try {
      const page = await api.get<AuditPage>(props.endpoint, {
        user: filters.user.trim() || undefined,
        kind: filters.kind || undefined,
        from: instant(filters.from),
        to: instant(filters.to),
        before: before ?? undefined,
        limit: PAGE,
      });
      setItems((shown) => (before && shown ? [...shown, ...page.items] : page.items));
      setNext(page.next_before);
    } catch (err) {
      setError(describeError(err));
      if (!before) setItems([]);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    load(null);
  }, [props.endpoint, filters]);

  const set = (key: keyof Filters) => (e: Event) =>
    setDraft({ ...draft, [key]: (e.currentTarget as HTMLInputElement).value });
  return (
    <div class="audit-log">
      <form
        class="inline-form audit-filters"
        aria-label="Filter the audit"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
        }}
      >
        <div class="field">
          <label for="audit-user">Person (username)</label>
          <input id="audit-user" type="search" value={draft.user} onInput={set("user")} />
        </div>
        <div class="field">
          <label for="audit-kind">Event</label>
          <select id="audit-kind" value={draft.kind} onChange={set("kind")}>
            <option value="">Every kind</option>
            {props.kinds.map((k) => (
              <option key={k} value={k}>
                {kindWords(k)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="audit-from">From</label>
          <input id="audit-from" type="datetime-local" value={draft.from} onInput={set("from")} />
        </div>
        <div class="field">
          <label for="audit-to">To</label>
          <input id="audit-to" type="datetime-local" value={draft.to} onInput={set("to")} />
        </div>
        <button type="submit" class="primary">
          Apply
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
          }}
        >
          Clear
        </button>
      </form>
      <FormError error={error} />
      {items === null ? (
        <p aria-busy="true">Loading events…</p>
      ) : items.length === 0 ? (
        <p class="empty">No events match.</p>
      ) : (
        <table class="table data-table" aria-label="Audit events">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">By</th>
              <th scope="col">User</th>
              {props.showOrganization ? <th scope="col">Organization</th> : null}
              <th scope="col">Address</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <tr key={e.id} data-kind={e.kind}>
                <td>
                  <time dateTime={e.occurred_at}>{formatDate(e.occurred_at)}</time>
                </td>
                <td>{kindWords(e.kind)}</td>
                <td>{e.actor?.name ?? <span class="muted">anonymous</span>}</td>
                <td>{e.target?.name ?? ""}</td>
                {props.showOrganization ? <td>{e.organization?.name ?? ""}</td> : null}
                <td>
                  <code>{e.address ?? ""}</code>
                </td>
                <td>{detailWords(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next !== null ? (
        <button type="button" class="show-older" onClick={() => load(next)} disabled={busy}>
          Show older events
        </button>
      ) : null}
    </div>
  );
}
