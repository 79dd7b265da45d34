import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';

import { PROVIDER } from '../../config/provider';
import { LOGO_SRC } from '../../layout/brand';
import { STRINGS } from '../../strings';
import styles from './login-page.module.css';

/** The login card's frame (/login, /purchase): the product's name, the card, 'Propulsé par' the provider. */
export function LoginCard({ children }: { readonly children: ReactNode }) {
  return (
    <SpaceBetween size="l">
      <div className={styles.brand}>
        <img src={LOGO_SRC} alt="" width={40} height={40} />
        <Box variant="span" fontSize="heading-l" fontWeight="bold">
          {STRINGS.product.name}
        </Box>
      </div>
      <Container>{children}</Container>
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
