import { render } from "preact";
import { useEffect } from "preact/hooks";
import { location, navigate, onLinkClick, useLocation, withReturn } from "./app/router.ts";
import { activeMembership, hasTeams, isPublicPage, loadSession, session, TWO_FACTOR_SETTINGS } from "./app/session.ts";
import { useStore } from "./app/store.ts";
import { DashboardPage } from "./dashboards/dashboard-page.tsx";
import { DashboardsPage } from "./dashboards/dashboards-page.tsx";
import { DraftsPage } from "./drafts/drafts-page.tsx";
import { ReviewPage } from "./drafts/review-page.tsx";
import { ExplorePage } from "./graph/explore-page.tsx";
import { ActivityPage } from "./history/activity-page.tsx";
import { ShareLinksPage } from "./history/share-links-page.tsx";
import { VersionsPage } from "./history/versions-page.tsx";
import { ModelerPage } from "./modeler/modeler-page.tsx";
import { AcceptInvitationPage } from "./organization/accept-invitation.tsx";
import { OrganizationAuditPage } from "./organization/audit-page.tsx";
import { OrganizationPage } from "./organization/organization-page.tsx";
import { TeamsPage } from "./organization/teams-page.tsx";
import { ValidationRulesPage } from "./organization/validation-rules-page.tsx";
import { ChangePasswordPage } from "./pages/change-password.tsx";
import { ForgotPasswordPage } from "./pages/forgot-password.tsx";
import { HomePage } from "./pages/home.tsx";
import { LoginPage } from "./pages/login.tsx";
import { OAuthConsentPage } from "./pages/oauth-consent.tsx";
import { ResetPasswordPage } from "./pages/reset-password.tsx";
import { PlatformPage } from "./platform/platform-page.tsx";
import { SettingsPage } from "./settings/settings-page.tsx";
import { TablePage } from "./table/table-page.tsx";
import { Notices } from "./ui/notices.tsx";
import "./styles.css";

function NotFound() {
  return (
    <main class="page narrow" id="main">
      <h1>Page not found</h1>
      <p>
        There is no page at this address.{" "}
        <a href="/" onClick={onLinkClick}>
          Go to your workspaces
        </a>
        .
      </p>
    </main>
  );
}

function Routes() {
  const { path } = useLocation();
  const { profile } = useStore(session);

  // Signed-out visitors go to the sign-in page (and come back after); a forced password change comes first.
  useEffect(() => {
    if (profile === undefined) return;
    // The location as it is now, not as rendered: sign-in navigates to its `from` page before this effect runs.
    const path = location.get().path;
    if (profile === null && !isPublicPage(path)) {
      const here = window.location.pathname + window.location.search;
      navigate(withReturn("/login", here), { replace: true });
    } else if (profile?.must_change_password && path !== "/change-password") {
      navigate(withReturn("/change-password", window.location.pathname + window.location.search), { replace: true });
    } else if (
      profile &&
      !profile.two_factor_enabled &&
      activeMembership(profile)?.requires_two_factor &&
      path !== "/settings" &&
      path !== "/login"
    ) {
      // The active organization requires two-factor: enrolment comes first.
      navigate(TWO_FACTOR_SETTINGS, { replace: true });
    } else if (profile && path === "/login") {
      navigate("/", { replace: true });
    }
  }, [profile, path]);

  if (profile === undefined)
    return (
      <p class="loading" aria-busy="true">
        Loading…
      </p>
    );
  if (path === "/login") return profile ? null : <LoginPage />;
  // "Forgot password" and its mailed link, signed in or not.
  if (path === "/forgot-password") return <ForgotPasswordPage />;
  if (path === "/reset-password") return <ResetPasswordPage />;
  // An invitation link: signed out, the page offers to create an account from it (or to sign in).
  const invitation = /^\/invitations\/([^/]+)$/.exec(path);
  if (invitation?.[1]) return <AcceptInvitationPage token={decodeURIComponent(invitation[1])} />;
  if (!profile) return null;
  if (path === "/change-password") return <ChangePasswordPage />;
  // An MCP client's OAuth consent (the authorization endpoint sends the browser here; signed out, sign-in comes first).
  if (path === "/oauth/consent") return <OAuthConsentPage />;
  if (path === "/") return <HomePage />;
  if (path === "/organization") return <OrganizationPage />;
  if (path === "/organization/teams" && hasTeams()) return <TeamsPage />;
  if (path === "/organization/audit") return <OrganizationAuditPage />;
  if (path === "/organization/validation-rules") return <ValidationRulesPage />;
  if (path === "/settings") return <SettingsPage />;
  if (path === "/explore") return <ExplorePage />;
  if (path === "/dashboards") return <DashboardsPage />;
  const dashboard = /^\/dashboards\/([^/]+)$/.exec(path);
  if (dashboard?.[1]) return <DashboardPage id={decodeURIComponent(dashboard[1])} />;
  if (path === "/platform" || path.startsWith("/platform/")) return <PlatformPage path={path} />;
  const tablePage = /^\/workspaces\/([^/]+)\/table$/.exec(path);
  if (tablePage?.[1]) return <TablePage workspaceId={decodeURIComponent(tablePage[1])} />;
  const wsPage = /^\/workspaces\/([^/]+)\/(activity|versions|share-links|drafts|review)$/.exec(path);
  if (wsPage?.[1] && wsPage[2] === "drafts") return <DraftsPage workspaceId={decodeURIComponent(wsPage[1])} />;
  if (wsPage?.[1] && wsPage[2] === "review") return <ReviewPage workspaceId={decodeURIComponent(wsPage[1])} />;
  if (wsPage?.[1] && wsPage[2] === "activity") return <ActivityPage workspaceId={decodeURIComponent(wsPage[1])} />;
  if (wsPage?.[1] && wsPage[2] === "share-links") return <ShareLinksPage workspaceId={decodeURIComponent(wsPage[1])} />;
  if (wsPage?.[1]) return <VersionsPage workspaceId={decodeURIComponent(wsPage[1])} />;
  const ws = /^\/workspaces\/([^/]+)$/.exec(path);
  if (ws?.[1]) return <ModelerPage workspaceId={decodeURIComponent(ws[1])} />;
  return <NotFound />;
}

function App() {
  return (
    <>
      <Routes />
      <Notices />
    </>
  );
}

loadSession();
const root = document.getElementById("app");
if (root) render(<App />, root);
