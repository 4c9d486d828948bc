import { AppError, type OrgRole } from "@ams/shared";
import type { Access, Principal } from "../auth/principal.ts";
import type { ControlContext } from "../context.ts";

/**
 * Who may call a control route, as its contract declares it. The gateway's access table (gateway/routes.ts)
 * decides first; the route helper checks at start-up that the two agree and narrows the verb's context to match.
 *
 * public     anyone; the verb gets the services only
 * signed-in  a principal (session or API token); platform routes are signed-in routes the table limits to Admin
 * member     a principal acting in one organization the gateway resolved, with the caller's role there
 */
export type Who = "public" | "signed-in" | "member";

/** The client's address (auth/client-ip.ts), for the audit trail; absent when a verb is called outside a request. */
export type RequestFacts = { address?: string };
export type PublicContext = ControlContext & RequestFacts;
export type SignedInContext = PublicContext & { principal: Principal; access: Access };
export type MemberContext = SignedInContext & { organizationId: string; role: OrgRole };

export type ContextOf<W extends Who> = W extends "member"
  ? MemberContext
  : W extends "signed-in"
    ? SignedInContext
    : PublicContext;

/** The verb context for `who`, from the gateway's decision; a request the gateway did not resolve is refused. */
export function verbContext<W extends Who>(
  services: ControlContext,
  access: Access | undefined,
  who: W,
  facts: RequestFacts = {},
): ContextOf<W> {
  if (who === "public") return (facts.address === undefined ? services : { ...services, ...facts }) as ContextOf<W>;
  const principal = access?.principal;
  if (!access || !principal) throw new AppError("UNAUTHENTICATED", "Authentication required");
  if (who === "signed-in") return { ...services, ...facts, principal, access } as ContextOf<W>;
  const { organizationId, role } = access;
  if (!organizationId || !role) throw new AppError("FORBIDDEN", "This route acts in an organization you belong to");
  return { ...services, ...facts, principal, access, organizationId, role } as ContextOf<W>;
}
