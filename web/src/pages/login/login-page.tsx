import { useState } from 'react';
import { Navigate } from 'react-router';

import { useAuth } from '../../auth/auth-context';
import { homePathFor } from '../../auth/role-paths';
import { lazyPage } from '../../layout/lazy-page';
import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';
import { LicenseForm } from './license-form';
import { LoginCard } from './login-card';

/** The purchase form's code (pricing, checkout) arrives when the visitor asks for a licence. */
export const PurchaseForm = lazyPage(() => import('./purchase-form').then((module) => module.PurchaseForm));

/** /login: the licence-key card, which switches to the purchase form (spec §2). */
export function LoginPage() {
  const { session } = useAuth();
  const [mode, setMode] = useState<'sign-in' | 'purchase'>('sign-in');
  usePageTitle(mode === 'sign-in' ? STRINGS.login.title : STRINGS.purchase.title);
  if (session) return <Navigate to={homePathFor(session.role)} replace />;

  return (
    <LoginCard>
      {mode === 'sign-in' ? (
        <LicenseForm onGetLicense={() => setMode('purchase')} />
      ) : (
        <PurchaseForm onBack={() => setMode('sign-in')} />
      )}
    </LoginCard>
  );
}
