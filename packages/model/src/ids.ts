import { randomUUID } from "node:crypto";

/** New model identifiers are valid xs:ID values (an NCName cannot start with a digit). */
export const newId = (): string => `id-${randomUUID()}`;
