import { z } from "@hono/zod-openapi";
import { AuditKinds } from "./kinds.ts";

const Subject = z.object({ id: z.string(), name: z.string() }).openapi("AuditSubject");

export const AuditEntry = z
  .object({
    id: z.number().int(),
    occurred_at: z.string(),
    kind: z.string().openapi({ example: "sign_in.failed" }),
    actor: Subject.nullable().openapi({ description: "Who did it; null for an anonymous caller" }),
    target: Subject.nullable().openapi({ description: "The user the event is about" }),
    organization: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
    address: z.string().nullable().openapi({ description: "The client's address" }),
    details: z.record(z.string(), z.unknown()),
  })
  .openapi("AuditEntry");
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z
  .object({
    items: z.array(AuditEntry),
    next_before: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Pass as `before` for the next (older) page; null on the last page" }),
  })
  .openapi("AuditPage");
export type AuditPage = z.infer<typeof AuditPage>;

const kindList = z
  .string()
  .max(2000)
  .transform((v) =>
    v
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(AuditKinds)))
  .openapi({ description: `Comma-separated kinds: ${AuditKinds.join(", ")}` });

const instant = z.iso.datetime({ offset: true }).openapi({ description: "ISO 8601 time, e.g. 2026-11-26T10:00:00Z" });

/** The filters of both audit listings (newest first, keyset paging on the event id). */
export const AuditQuery = z
  .object({
    user: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "A username or user id: events this user did or that were about them" }),
    kind: kindList.optional(),
    from: instant.optional(),
    to: instant.optional(),
    before: z.coerce.number().int().min(1).optional().openapi({ description: "`next_before` of the previous page" }),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((q) => !q.from || !q.to || new Date(q.from) <= new Date(q.to), {
    path: ["to"],
    message: "must not be before `from`",
  });
export type AuditQuery = z.infer<typeof AuditQuery>;
