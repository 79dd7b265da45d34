import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { Navigate } from 'react-router';

import { useAuth } from '../../auth/auth-context';
import { homePathFor } from '../../auth/role-paths';
import { PROVIDER } from '../../config/provider';
import { LOGO_SRC } from '../../layout/brand';
import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';
import { LicenseForm } from './license-form';
import styles from './login-page.module.css';
import { PurchaseForm } from './purchase-form';

/** /login: the licence-key card, which switches to the purchase form (spec §2). */
export function LoginPage() {
  const { session } = useAuth();
  const [mode, setMode] = useState<'sign-in' | 'purchase'>('sign-in');
  usePageTitle(mode === 'sign-in' ? STRINGS.login.title : STRINGS.purchase.title);
  if (session) return <Navigate to={homePathFor(session.role)} replace />;

  return (
    <SpaceBetween size="l">
      <div className={styles.brand}>
        <img src={LOGO_SRC} alt="" width={40} height={40} />
        <Box variant="span" fontSize="heading-l" fontWeight="bold">
          {STRINGS.product.name}
        </Box>
      </div>
      <Container>
        {mode === 'sign-in' ? (
          <LicenseForm onGetLicense={() => setMode('purchase')} />
        ) : (
          <PurchaseForm onBack={() => setMode('sign-in')} />
        )}
      </Container>
      <Box textAlign="center" color="text-body-secondary">
        {STRINGS.login.poweredBy}{' '}
        <Link
          href={PROVIDER.contactUrl}
          external
          externalIconAriaLabel={STRINGS.login.externalLinkLabel}
          variant="primary"
        >
          {PROVIDER.name}
        </Link>
      </Box>
    </SpaceBetween>
  );
}
