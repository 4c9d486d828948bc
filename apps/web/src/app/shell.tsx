import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api } from "../api/client.ts";
import { notifyError } from "../ui/notices.tsx";
import { navigate, onLinkClick, useLocation } from "./router.ts";
import { activeMembership, refreshProfile, session, signOut } from "./session.ts";
import { useStore } from "./store.ts";

/** Switches the active organization: the server remembers it, and the workspace list follows. */
async function activateOrganization(id: string): Promise<void> {
  try {
    await api.post(`/api/organizations/${encodeURIComponent(id)}/activate`);
    await refreshProfile();
    navigate("/");
  } catch (err) {
    notifyError(err);
  }
}

function OrganizationSwitcher() {
  const { profile } = useStore(session);
  if (!profile || profile.memberships.length === 0) return null;
  const active = activeMembership(profile);
  if (profile.memberships.length === 1)
    return (
      <span class="org-name" title="Your organization">
        {active?.organization_name ?? profile.memberships[0]?.organization_name}
      </span>
    );
  return (
    <label class="org-switcher">
      <span class="visually-hidden">Organization</span>
      <select
        value={profile.active_organization_id ?? ""}
        onChange={(e) => activateOrganization(e.currentTarget.value)}
        aria-label="Organization"
      >
        {profile.memberships.map((m) => (
          <option key={m.organization_id} value={m.organization_id}>
            {m.organization_name}
            {m.enabled ? "" : " (suspended)"}
          </option>
        ))}
      </select>
    </label>
  );
}

function UserMenu() {
  const { profile } = useStore(session);
  const [open, setOpen] = useState(false);
  if (!profile) return null;
  const role = activeMembership(profile)?.role;
  return (
    <div class="user-menu">
      <button type="button" class="user-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {profile.name || profile.username}
        {role ? <span class="role-badge">{role}</span> : null}
        {profile.role === "platform_admin" ? <span class="role-badge">platform admin</span> : null}
      </button>
      {open ? (
        <ul class="menu">
          <li>
            <a
              href="/settings"
              onClick={(e) => {
                setOpen(false);
                onLinkClick(e);
              }}
            >
              Settings and API tokens
            </a>
          </li>
          <li>
            <a
              href="/change-password"
              onClick={(e) => {
                setOpen(false);
                onLinkClick(e);
              }}
            >
              Change password
            </a>
          </li>
          <li>
            <a href="/api/docs">REST API reference</a>
          </li>
          <li>
            <button type="button" onClick={() => signOut()}>
              Sign out
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}

export function Banner() {
  const { messages } = useStore(session);
  if (!messages?.banner.enabled || !messages.banner.text) return null;
  return (
    <div class="site-banner" role="note">
      {messages.banner.text}
    </div>
  );
}

/** The app's sections, each shown only to those who may use it; the current one is marked for screen readers. */
function MainNav() {
  const { profile } = useStore(session);
  const { path } = useLocation();
  if (!profile) return null;
  const member = activeMembership(profile) !== undefined;
  const links: [string, string][] = [];
  // In the modeler the title's "Workspaces" crumb leads back to the list; the other sections stay one click away.
  if (member && !path.startsWith("/workspaces/")) links.push(["/", "Workspaces"]);
  if (member) links.push(["/explore", "Explore"], ["/dashboards", "Dashboards"], ["/organization", "Organization"]);
  if (profile.role === "platform_admin") links.push(["/platform", "Platform"]);
  if (links.length === 0) return null;
  const current = (href: string) =>
    href === "/" ? path === "/" || path.startsWith("/workspaces/") : path.startsWith(href);
  return (
    <nav class="main-nav" aria-label="Sections">
      {links.map(([href, label]) => (
        <a key={href} href={href} onClick={onLinkClick} aria-current={current(href) ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** The frame of every signed-in page: banner, top bar with organization switcher and user menu, then the page. */
export function Shell(props: { children: ComponentChildren; title?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <Banner />
      <header class="topbar">
        <a class="brand" href="/" onClick={onLinkClick}>
          ArchiMate Modeler
        </a>
        <OrganizationSwitcher />
        <MainNav />
        {props.title ? <div class="topbar-title">{props.title}</div> : <div class="topbar-title" />}
        <div class="topbar-actions">{props.actions}</div>
        <UserMenu />
      </header>
      {props.children}
    </div>
  );
}
