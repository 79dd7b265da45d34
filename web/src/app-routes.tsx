import { Route, Routes } from 'react-router';

import { RequireAuth, RequireRole } from './auth/guards';
import { AppShell } from './layout/app-shell';
import { CardLayout, PublicLayout } from './layout/public-layout';
import { SessionAwareLayout } from './layout/session-aware-layout';
import { AdminLawyersPage } from './pages/admin-lawyers/admin-lawyers-page';
import { AdminNotariesPage } from './pages/admin-notaries/admin-notaries-page';
import { AdminSettingsPage } from './pages/admin-settings/admin-settings-page';
import { AdminTestPromoPage } from './pages/admin-test-promo/admin-test-promo-page';
import { AdminWorkflowsPage } from './pages/admin-workflows/admin-workflows-page';
import { DiscoverPage } from './pages/discover/discover-page';
import { LandingPage } from './pages/landing/landing-page';
import { LawyerAccountConfigPage } from './pages/lawyer-account-config/lawyer-account-config-page';
import { LawyerGoogleEcosystemPage } from './pages/lawyer-google-ecosystem/lawyer-google-ecosystem-page';
import { LawyerWelcomePage } from './pages/lawyer-welcome/lawyer-welcome-page';
import { LawyerWorkflowsPage } from './pages/lawyer-workflows/lawyer-workflows-page';
import { LoginPage } from './pages/login/login-page';
import { PurchasePage } from './pages/login/purchase-page';
import { NotFoundPage } from './pages/not-found/not-found-page';
import { NotaryAccountConfigPage } from './pages/notary-account-config/notary-account-config-page';
import { NotaryGoogleEcosystemPage } from './pages/notary-google-ecosystem/notary-google-ecosystem-page';
import { NotarySettingsPage } from './pages/notary-settings/notary-settings-page';
import { NotaryWelcomePage } from './pages/notary-welcome/notary-welcome-page';
import { NotaryWorkflowsPage } from './pages/notary-workflows/notary-workflows-page';
import { PaymentSuccessPage } from './pages/payment-success/payment-success-page';
import { PlanningPage } from './pages/planning/planning-page';
import { PrivacyPage } from './pages/privacy/privacy-page';
import { SubscriptionPage } from './pages/subscription/subscription-page';

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
        <Route path="subscription" element={<SubscriptionPage />} />
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
            <Route path="lawyer/cron" element={<PlanningPage />} />
            <Route path="lawyer/settings" element={<SubscriptionPage reading="settings" />} />
          </Route>
          <Route element={<RequireRole allow="notary" />}>
            <Route path="notary/welcome" element={<NotaryWelcomePage />} />
            <Route path="notary/settings" element={<NotarySettingsPage />} />
            <Route path="notary/workflows" element={<NotaryWorkflowsPage />} />
            <Route path="notary/google" element={<NotaryAccountConfigPage />} />
            <Route path="notary/google-ecosystem" element={<NotaryGoogleEcosystemPage />} />
            <Route path="notary/cron" element={<PlanningPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
