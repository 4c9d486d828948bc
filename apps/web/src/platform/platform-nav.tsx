import { onLinkClick, useLocation } from "../app/router.ts";

const TABS: [string, string][] = [
  ["/platform", "Organizations"],
  ["/platform/users", "Users"],
  ["/platform/plugins", "Plugins"],
  ["/platform/messages", "Site messages"],
  ["/platform/audit", "Audit"],
];

/** The platform administrator's sections. */
export function PlatformNav() {
  const { path } = useLocation();
  const current = (href: string) =>
    href === "/platform" ? path === "/platform" || path.startsWith("/platform/organizations") : path.startsWith(href);
  return (
    <nav class="tabs" aria-label="Platform administration">
      {TABS.map(([href, label]) => (
        <a key={href} href={href} onClick={onLinkClick} aria-current={current(href) ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
