import { z } from "@hono/zod-openapi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";

/** An account as the platform admin sees it (never a password or a token). */
export const PlatformUser = z
  .object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(["platform_admin", "user"]),
    disabled: z.boolean(),
    must_change_password: z.boolean(),
    created_at: z.string(),
    last_sign_in_at: z.string().nullable().openapi({ description: "The last successful sign-in (from the audit)" }),
    organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
  })
  .openapi("PlatformUser");
export type PlatformUser = z.infer<typeof PlatformUser>;

export const PlatformUserPage = z
  .object({
    items: z.array(PlatformUser),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi("PlatformUserPage");
export type PlatformUserPage = z.infer<typeof PlatformUserPage>;

export const ListUsersQuery = z.object({
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ description: "Part of the username, name or e-mail address (any case)" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListUsersQuery = z.infer<typeof ListUsersQuery>;

const Username = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, "letters, digits and . _ @ - only");
const Name = z.string().trim().min(1).max(200);
const Email = z.string().trim().max(254).pipe(z.email());

export const CreateUserInput = z
  .object({
    username: Username,
    name: Name,
    email: Email,
    password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH).optional().openapi({
      description: "A first password the user must change at first sign-in; without one a set-password link is made",
    }),
  })
  .openapi("CreateUserInput");
export type CreateUserInput = z.infer<typeof CreateUserInput>;

export const UpdateUserInput = z
  .object({ name: Name.optional(), email: Email.optional(), disabled: z.boolean().optional() })
  .refine((v) => v.name !== undefined || v.email !== undefined || v.disabled !== undefined, {
    message: "give at least one of name, email, disabled",
  })
  .openapi("UpdateUserInput");
export type UpdateUserInput = z.infer<typeof UpdateUserInput>;

/** A one-time link to choose a password, as answered to the platform admin (who may pass it on by hand). */
export const PasswordLink = z
  .object({
    url: z.string(),
    expires_at: z.string(),
    email_sent: z.boolean().openapi({ description: "Whether it was also e-mailed to the user (needs SMTP_URL)" }),
  })
  .openapi("PasswordLink");
export type PasswordLink = z.infer<typeof PasswordLink>;

export const CreatedUser = z
  .object({ user: PlatformUser, set_password_link: PasswordLink.nullable() })
  .openapi("CreatedUser");
export type CreatedUser = z.infer<typeof CreatedUser>;

export const PasswordResetByAdmin = z.object({ set_password_link: PasswordLink }).openapi("PasswordResetByAdmin");
export type PasswordResetByAdmin = z.infer<typeof PasswordResetByAdmin>;
