import { Route, Routes } from 'react-router';

import { RequireAuth, RequireRole } from './auth/guards';
import { LazyHealthDashboard } from './components/health-dashboard/lazy-health-dashboard';
import { CardLayout } from './layout/card-layout';
import { NotificationsFlashbar } from './layout/floating-toasts';
import { lazyPage } from './layout/lazy-page';
import { LoginPage } from './pages/login/login-page';

/*
 * Every page, and the layouts /login does not use, is its own chunk loaded on first visit
 * (/login must stay within its 200 kB JavaScript budget). /login itself and its card layout stay in the
 * entry: it is where every new visitor lands, and a chunk of its own would add a round trip
 * before its first paint (Lighthouse mobile LCP); the other pages share most of its components.
 */
const AppShell = lazyPage(() => import('./layout/app-shell').then((module) => module.AppShell));
const PublicLayout = lazyPage(() => import('./layout/public-layout').then((module) => module.PublicLayout));
const ServerStateLayout = lazyPage(() =>
  import('./layout/server-state-layout').then((module) => module.ServerStateLayout),
);
const SessionAwareLayout = lazyPage(() =>
  import('./layout/session-aware-layout').then((module) => module.SessionAwareLayout),
);
const AdminLawyersPage = lazyPage(() =>
  import('./pages/admin-lawyers/admin-lawyers-page').then((module) => module.AdminLawyersPage),
);
const AdminNotariesPage = lazyPage(() =>
  import('./pages/admin-notaries/admin-notaries-page').then((module) => module.AdminNotariesPage),
);
const AdminSettingsPage = lazyPage(() =>
  import('./pages/admin-settings/admin-settings-page').then((module) => module.AdminSettingsPage),
);
const AdminTestPromoPage = lazyPage(() =>
  import('./pages/admin-test-promo/admin-test-promo-page').then((module) => module.AdminTestPromoPage),
);
const AdminWorkflowsPage = lazyPage(() =>
  import('./pages/admin-workflows/admin-workflows-page').then((module) => module.AdminWorkflowsPage),
);
const DiscoverPage = lazyPage(() =>
  import('./pages/discover/discover-page').then((module) => module.DiscoverPage),
);
const LandingPage = lazyPage(() =>
  import('./pages/landing/landing-page').then((module) => module.LandingPage),
);
const LawyerAccountConfigPage = lazyPage(() =>
  import('./pages/lawyer-account-config/lawyer-account-config-page').then(
    (module) => module.LawyerAccountConfigPage,
  ),
);
const LawyerGoogleEcosystemPage = lazyPage(() =>
  import('./pages/lawyer-google-ecosystem/lawyer-google-ecosystem-page').then(
    (module) => module.LawyerGoogleEcosystemPage,
  ),
);
const LawyerWelcomePage = lazyPage(() =>
  import('./pages/lawyer-welcome/lawyer-welcome-page').then((module) => module.LawyerWelcomePage),
);
const LawyerWorkflowsPage = lazyPage(() =>
  import('./pages/lawyer-workflows/lawyer-workflows-page').then((module) => module.LawyerWorkflowsPage),
);
const PurchasePage = lazyPage(() =>
  import('./pages/login/purchase-page').then((module) => module.PurchasePage),
);
const NotFoundPage = lazyPage(() =>
  import('./pages/not-found/not-found-page').then((module) => module.NotFoundPage),
);
const NotaryAccountConfigPage = lazyPage(() =>
  import('./pages/notary-account-config/notary-account-config-page').then(
    (module) => module.NotaryAccountConfigPage,
  ),
);
const NotaryGoogleEcosystemPage = lazyPage(() =>
  import('./pages/notary-google-ecosystem/notary-google-ecosystem-page').then(
    (module) => module.NotaryGoogleEcosystemPage,
  ),
);
const NotarySettingsPage = lazyPage(() =>
  import('./pages/notary-settings/notary-settings-page').then((module) => module.NotarySettingsPage),
);
const NotaryWelcomePage = lazyPage(() =>
  import('./pages/notary-welcome/notary-welcome-page').then((module) => module.NotaryWelcomePage),
);
const NotaryWorkflowsPage = lazyPage(() =>
  import('./pages/notary-workflows/notary-workflows-page').then((module) => module.NotaryWorkflowsPage),
);
const PaymentSuccessPage = lazyPage(() =>
  import('./pages/payment-success/payment-success-page').then((module) => module.PaymentSuccessPage),
);
const PlanningPage = lazyPage(() =>
  import('./pages/planning/planning-page').then((module) => module.PlanningPage),
);
const PrivacyPage = lazyPage(() =>
  import('./pages/privacy/privacy-page').then((module) => module.PrivacyPage),
);
const SubscriptionPage = lazyPage(() =>
  import('./pages/subscription/subscription-page').then((module) => module.SubscriptionPage),
);

/**
 * The signed-in pages by path: at start (main.tsx) the page's code and the signed-in shell's are
 * fetched at once, instead of the shell, then the page, one after the other; the first page of
 * the lists its first screen shows was asked for earlier still (web/public/first-reads.js).
 */
const SIGNED_IN_PAGES: Record<string, { readonly page: { preload(): Promise<void> } }> = {
  '/admin/workflows': { page: AdminWorkflowsPage },
  '/admin/workflows-new': { page: AdminWorkflowsPage },
  '/admin/lawyers': { page: AdminLawyersPage },
  '/admin/notaries': { page: AdminNotariesPage },
  '/admin/test-promo': { page: AdminTestPromoPage },
  '/admin/settings': { page: AdminSettingsPage },
  '/lawyer/welcome': { page: LawyerWelcomePage },
  '/lawyer/workflows': { page: LawyerWorkflowsPage },
  '/lawyer/account-config': { page: LawyerAccountConfigPage },
  '/lawyer/google': { page: LawyerAccountConfigPage },
  '/lawyer/google-ecosystem': { page: LawyerGoogleEcosystemPage },
  '/lawyer/cron': { page: PlanningPage },
  '/lawyer/settings': { page: SubscriptionPage },
  '/notary/welcome': { page: NotaryWelcomePage },
  '/notary/settings': { page: NotarySettingsPage },
  '/notary/workflows': { page: NotaryWorkflowsPage },
  '/notary/google': { page: NotaryAccountConfigPage },
  '/notary/google-ecosystem': { page: NotaryGoogleEcosystemPage },
  '/notary/cron': { page: PlanningPage },
};

/**
 * Fetches the code a signed-in page at `pathname` needs, all at once, for a visitor of `role` (only
 * the pages of his own side: another side's would only send him home). Resolves once it is in, or
 * failed: a failure shows when the page renders ('Rechargez la page'), not here.
 */
export async function preloadSignedInPage(pathname: string, role: string): Promise<void> {
  const target = SIGNED_IN_PAGES[pathname.replace(/\/+$/, '')];
  if (!target || !pathname.startsWith(`/${role}/`)) return;
  await Promise.all([AppShell.preload(), target.page.preload()]).catch(() => undefined);
}

/** The code each pre-rendered public page draws, beyond the entry's (/login's is in the entry). */
const PUBLIC_PAGES: Record<string, readonly { preload(): Promise<void> }[]> = {
  '/': [PublicLayout, LandingPage],
  '/discover': [PublicLayout, DiscoverPage],
  '/privacy': [PublicLayout, PrivacyPage],
  '/payment-success': [PaymentSuccessPage],
};

/**
 * Fetches the code of a pre-rendered public page before it is hydrated (main.tsx) or rendered at
 * build time (prerender.tsx), so that its first render is the pre-rendered markup. Failures show
 * when the page renders, not here.
 */
export async function preloadPublicPage(pathname: string): Promise<void> {
  const parts = PUBLIC_PAGES[pathname.replace(/(.)\/+$/, '$1')] ?? [];
  await Promise.all(parts.map((part) => part.preload())).catch(() => undefined);
}

/** Fetches every page's code ahead of use (component tests render any route at once with it). */
export function preloadRoutes(): Promise<void> {
  return Promise.all(
    [
      AppShell,
      PublicLayout,
      ServerStateLayout,
      SessionAwareLayout,
      AdminLawyersPage,
      AdminNotariesPage,
      AdminSettingsPage,
      AdminTestPromoPage,
      AdminWorkflowsPage,
      DiscoverPage,
      LandingPage,
      LawyerAccountConfigPage,
      LawyerGoogleEcosystemPage,
      LawyerWelcomePage,
      LawyerWorkflowsPage,
      PurchasePage,
      NotFoundPage,
      NotaryAccountConfigPage,
      NotaryGoogleEcosystemPage,
      NotarySettingsPage,
      NotaryWelcomePage,
      NotaryWorkflowsPage,
      PaymentSuccessPage,
      PlanningPage,
      PrivacyPage,
      SubscriptionPage,
    ]
      .map((page) => page.preload())
      // The components the pages load in chunks of their own (the charts, the toasts): fetched
      // here too, a test's findBy waits for what the page draws, not for code to arrive.
      .concat(LazyHealthDashboard.preload(), NotificationsFlashbar.preload())
      // The login card's own lazy forms: a form left unfetched suspends on the click that opens it,
      // inside user-event's act, and React does not retry it there (it stays on 'Chargement…').
      .concat(
        import('./pages/login/login-page').then((module) =>
          Promise.all([
            module.PurchaseForm.preload(),
            module.PortalLinkForm.preload(),
            module.SecondFactorStep.preload(),
          ]).then(() => undefined),
        ),
      ),
  ).then(() => undefined);
}

/** The privacy page's aliases inside each role's space (spec §2). */
const PRIVACY_ALIASES = ['/admin/privacy', '/lawyer/privacy', '/notary/privacy'] as const;

/**
 * The route tree (spec §2, §4): public pages; the privacy aliases, inside the signed-in layout for
 * a signed-in user; then the guard layout with the role-guarded pages and the not-found page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<LandingPage />} />
        <Route path="discover" element={<DiscoverPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route element={<ServerStateLayout />}>
          <Route path="subscription" element={<SubscriptionPage />} />
        </Route>
      </Route>
      <Route element={<CardLayout />}>
        <Route path="login" element={<LoginPage />} />
        <Route path="purchase" element={<PurchasePage />} />
        <Route path="payment-success" element={<PaymentSuccessPage />} />
      </Route>
      <Route element={<SessionAwareLayout />}>
        {PRIVACY_ALIASES.map((path) => (
          <Route key={path} path={path} element={<PrivacyPage />} />
        ))}
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppShell />}>
          <Route element={<RequireRole allow="admin" />}>
            <Route path="admin/workflows" element={<AdminWorkflowsPage />} />
            <Route path="admin/workflows-new" element={<AdminWorkflowsPage />} />
            <Route path="admin/lawyers" element={<AdminLawyersPage />} />
            <Route path="admin/notaries" element={<AdminNotariesPage />} />
            <Route path="admin/test-promo" element={<AdminTestPromoPage />} />
            <Route path="admin/settings" element={<AdminSettingsPage />} />
          </Route>
          <Route element={<RequireRole allow="lawyer" />}>
            <Route path="lawyer/welcome" element={<LawyerWelcomePage />} />
            <Route path="lawyer/workflows" element={<LawyerWorkflowsPage />} />
            <Route path="lawyer/account-config" element={<LawyerAccountConfigPage />} />
            <Route path="lawyer/google" element={<LawyerAccountConfigPage />} />
            <Route path="lawyer/google-ecosystem" element={<LawyerGoogleEcosystemPage />} />
            <Route path="lawyer/cron" element={<PlanningPage workflowsPath="/lawyer/workflows" />} />
            <Route path="lawyer/settings" element={<SubscriptionPage reading="settings" />} />
          </Route>
          <Route element={<RequireRole allow="notary" />}>
            <Route path="notary/welcome" element={<NotaryWelcomePage />} />
            <Route path="notary/settings" element={<NotarySettingsPage />} />
            <Route path="notary/subscription" element={<SubscriptionPage />} />
            <Route path="notary/workflows" element={<NotaryWorkflowsPage />} />
            <Route path="notary/google" element={<NotaryAccountConfigPage />} />
            <Route path="notary/google-ecosystem" element={<NotaryGoogleEcosystemPage />} />
            <Route path="notary/cron" element={<PlanningPage workflowsPath="/notary/workflows" />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
