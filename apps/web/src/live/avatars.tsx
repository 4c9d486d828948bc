import { useStore } from "../app/store.ts";
import { distinctPeople, initialsOf, live } from "./live-store.ts";

/**
 * The others who have the workspace open (in the header), or only those on a view (over the canvas): a round
 * avatar each, in their colour, with their name for assistive technology and on hover. More than `max` people: the
 * first `max - 1` and a "+N" chip naming the rest, so a narrow header never overflows.
 */
export function PresenceAvatars(props: { viewId?: string; label: string; max?: number }) {
  const others = useStore(live, (s) => s.others);
  const people = distinctPeople(props.viewId ? others.filter((p) => p.view_id === props.viewId) : others);
  if (people.length === 0) return null;
  const max = props.max ?? 4;
  const shown = people.length > max ? people.slice(0, max - 1) : people;
  const rest = people.slice(shown.length).map((p) => p.user.name);
  return (
    <ul class={props.viewId ? "presence on-view" : "presence"} aria-label={props.label}>
      {shown.map((p) => (
        <li key={p.user.id} class="avatar" style={{ borderColor: p.color, background: p.color }} title={p.user.name}>
          <span aria-hidden="true">{initialsOf(p.user.name)}</span>
          <span class="visually-hidden">{p.user.name}</span>
        </li>
      ))}
      {rest.length ? (
        <li class="avatar more" title={rest.join(", ")}>
          <span aria-hidden="true">+{rest.length}</span>
          <span class="visually-hidden">
            and {rest.length} more: {rest.join(", ")}
          </span>
        </li>
      ) : null}
    </ul>
  );
}

/** "Ana is editing this element": the others whose selection holds the object, named. */
export function EditingNotice(props: { objectId: string; noun: string }) {
  const others = useStore(live, (s) => s.others);
  const people = distinctPeople(others.filter((p) => p.selection.includes(props.objectId)));
  if (people.length === 0) return null;
  const names = people.map((p) => p.user.name);
  const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return (
    <p class="editing-notice" role="status">
      <span class="swatch" aria-hidden="true" style={{ background: people[0]?.color }} />
      {who} {names.length === 1 ? "is" : "are"} editing this {props.noun}
    </p>
  );
}
