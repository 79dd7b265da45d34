import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

import { useAuth } from '../../auth/auth-context';
import { fallbackPathFor } from '../../auth/role-paths';
import { useFollow } from '../../layout/use-follow';
import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** The catch-all page: '404', 'Page non trouvée' and a way back that depends on the role (spec §2). */
export function NotFoundPage() {
  const { session } = useAuth();
  const { pathname } = useLocation();
  const follow = useFollow();
  const text = STRINGS.notFound;
  usePageTitle(text.title);

  useEffect(() => {
    console.error(`Erreur 404 : la route demandée n'existe pas : ${pathname}`);
  }, [pathname]);

  return (
    <Box textAlign="center" padding={{ vertical: 'xxxl' }}>
      <SpaceBetween size="m">
        <Box fontSize="display-l" fontWeight="bold" color="text-body-secondary">
          {text.code}
        </Box>
        <Box variant="h1">{text.title}</Box>
        <Box variant="p">{text.text}</Box>
        <Button variant="primary" href={fallbackPathFor(session?.role)} onFollow={follow}>
          {text.back}
        </Button>
      </SpaceBetween>
    </Box>
  );
}
