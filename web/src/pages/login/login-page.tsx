import { useState } from 'react';
import { Navigate } from 'react-router';

import { type PendingSignIn, useAuth } from '../../auth/auth-context';
import { homePathFor } from '../../auth/role-paths';
import { SECOND_FACTOR_TEXT } from '../../components/second-factor/strings';
import { lazyPage } from '../../layout/lazy-page';
import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';
import { LicenseForm } from './license-form';
import { LoginCard } from './login-card';

/** The purchase form's code (pricing, checkout) arrives when the visitor asks for a licence. */
export const PurchaseForm = lazyPage(() => import('./purchase-form').then((module) => module.PurchaseForm));
/** The second step's code (passkeys, enrolment) arrives once a key needs it. */
export const SecondFactorStep = lazyPage(() =>
  import('./second-factor-step').then((module) => module.SecondFactorStep),
);

/** The portal-link form (a suspended or cancelled firm) arrives only when asked for, like the purchase form. */
export const PortalLinkForm = lazyPage(() =>
  import('./portal-link-form').then((module) => module.PortalLinkForm),
);

/** /login: the licence-key card, which switches to the purchase form (spec §2). */
export function LoginPage() {
  const { session } = useAuth();
  const [mode, setMode] = useState<'sign-in' | 'purchase' | 'portal'>('sign-in');
  // The second step of a sign-in whose key was right: kept in memory only, never stored.
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  usePageTitle(
    pending
      ? SECOND_FACTOR_TEXT.title
      : mode === 'sign-in'
        ? STRINGS.login.title
        : mode === 'purchase'
          ? STRINGS.purchase.title
          : STRINGS.portalLink.title,
  );
  if (session) return <Navigate to={homePathFor(session.role)} replace />;

  return (
    <LoginCard>
      {pending ? (
        <SecondFactorStep pending={pending} onBack={() => setPending(null)} />
      ) : mode === 'sign-in' ? (
        <LicenseForm
          onGetLicense={() => setMode('purchase')}
          onManageSubscription={() => setMode('portal')}
          onSecondFactor={setPending}
        />
      ) : mode === 'purchase' ? (
        <PurchaseForm onBack={() => setMode('sign-in')} />
      ) : (
        <PortalLinkForm onBack={() => setMode('sign-in')} />
      )}
    </LoginCard>
  );
}
