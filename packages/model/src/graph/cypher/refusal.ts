import { AppError } from "@ams/shared";

/** A query explore does not run: 422 with the reason (and where in the text, when known). */
export function refuse(reason: string, pos?: number): never {
  const message = pos === undefined ? reason : `${reason} (at offset ${pos})`;
  throw new AppError("VALIDATION", `query: ${message}`, { errors: [{ path: "query", message }] });
}
