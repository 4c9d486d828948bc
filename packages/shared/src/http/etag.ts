import { AppError } from "../errors.ts";

/**
 * The strong entity tag of a workspace object: its revision (the change-log revision of its last change) in quotes,
 * `"42"`. The URL names the object, so the revision alone tells one state of it from another; revisions only grow
 * in a workspace, so a deleted and re-created object never gets an old tag back.
 */
export const etagOf = (revision: number): string => `"${revision}"`;

const STRONG_TAG = /^"(\d{1,15})"$/;

/**
 * The revision an If-Match header expects: undefined when the header is absent or `*` (the write goes ahead as
 * without it). Anything else than one strong tag as etagOf writes it is a 400 naming the header: a weak tag never
 * matches (RFC 9110 compares If-Match strongly) and a list has no use here, so both are refused rather than guessed.
 */
export function expectedRevisionOf(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === "*") return undefined;
  const match = STRONG_TAG.exec(value);
  if (!match) {
    const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
    throw new AppError(
      "BAD_REQUEST",
      `If-Match: give the object's ETag as its GET answered it (one strong tag such as "42") or *; got '${shown}'`,
      { errors: [{ path: "header.if-match", message: 'one strong entity tag such as "42", or *' }] },
    );
  }
  return Number(match[1]);
}
