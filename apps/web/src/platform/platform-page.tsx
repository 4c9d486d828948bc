import { session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { PlatformAudit } from "./audit.tsx";
import { PlatformMessages } from "./messages.tsx";
import { PlatformOrganizationMembers, PlatformOrganizations } from "./organizations.tsx";
import { PlatformNav } from "./platform-nav.tsx";
import { PlatformPlugins, PluginGallery } from "./plugins.tsx";
import { PlatformUsers } from "./users.tsx";

/**
 * The platform administrator's pages (metadata only: organizations, their members, users, plugins, site messages,
 * the audit).
 */
export function PlatformPage(props: { path: string }) {
  const { profile } = useStore(session);
  const admin = profile?.role === "platform_admin";
  const members = /^\/platform\/organizations\/([^/]+)$/.exec(props.path);
  const gallery = /^\/platform\/plugins\/([^/]+)$/.exec(props.path);
  let body = <PlatformOrganizations />;
  if (members?.[1]) body = <PlatformOrganizationMembers id={decodeURIComponent(members[1])} />;
  else if (gallery?.[1]) body = <PluginGallery slug={decodeURIComponent(gallery[1])} />;
  else if (props.path === "/platform/plugins") body = <PlatformPlugins />;
  else if (props.path === "/platform/messages") body = <PlatformMessages />;
  else if (props.path === "/platform/users") body = <PlatformUsers />;
  else if (props.path === "/platform/audit") body = <PlatformAudit />;
  return (
    <Shell>
      <main class="page" id="main">
        <h1>Platform administration</h1>
        {admin ? (
          <>
            <PlatformNav />
            {body}
          </>
        ) : (
          <p class="form-error" role="alert">
            Only the platform administrator can open these pages.
          </p>
        )}
      </main>
    </Shell>
  );
}
