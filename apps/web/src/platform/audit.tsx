import type { AuditKind } from "../api/types.ts";
import { AuditLog } from "../audit/audit-log.tsx";
import { AUDIT_KIND_WORDS } from "../audit/audit-words.ts";

/** Every account and organization event, for the platform administrator (kept AUDIT_RETENTION_DAYS). */
export function PlatformAudit() {
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Audit</h2>
      <p class="muted">
        Sign-ins, password and two-factor changes, user administration and every organization's events.
      </p>
      <AuditLog endpoint="/api/platform/audit" kinds={Object.keys(AUDIT_KIND_WORDS) as AuditKind[]} showOrganization />
    </section>
  );
}
