import { session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { PlatformMessages } from "./messages.tsx";
import { PlatformOrganizationMembers, PlatformOrganizations } from "./organizations.tsx";
import { PlatformNav } from "./platform-nav.tsx";
import { PlatformPlugins, PluginGallery } from "./plugins.tsx";

/** The platform administrator's pages (metadata only: organizations, their members, plugins, site messages). */
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
