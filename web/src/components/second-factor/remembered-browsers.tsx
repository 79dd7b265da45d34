import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import { useQuery } from '@tanstack/react-query';
import type { RememberedBrowser } from '../../../../shared';
import { endedSession } from '../../api/api-errors';
import { rememberedBrowsersQuery, useForgetRememberedBrowser } from '../../api/remembered-browsers';
import { formatDateTime } from '../../format/dates';
import { ResponsiveTable } from '../../layout/responsive-table';
import { useNotifications } from '../../notifications/notifications-context';
import { SECOND_FACTOR_TEXT } from './strings';

const TEXT = SECOND_FACTOR_TEXT.browsers;

/**
 * The browsers remembered for having passed the licence's factor (their codes are counted apart,
 * so others' wrong codes never lock them out), each forgotten with one click: its sessions end and
 * its next sign-in counts as any other browser's.
 */
export function RememberedBrowsers() {
  const notifications = useNotifications();
  const browsers = useQuery(rememberedBrowsersQuery);
  const forgetBrowser = useForgetRememberedBrowser();
  const forgetting = forgetBrowser.isPending ? forgetBrowser.variables : null;

  const forget = async (browser: RememberedBrowser) => {
    try {
      await forgetBrowser.mutateAsync(browser.id);
      notifications.success(TEXT.forgotten(browser.label));
    } catch (error) {
      if (!endedSession(error))
        notifications.error(error instanceof Error ? error.message : TEXT.forgetFailed);
    }
  };

  return (
    <ResponsiveTable<RememberedBrowser>
      variant="embedded"
      header={
        <Header variant="h3" description={TEXT.description}>
          {TEXT.title}
        </Header>
      }
      items={browsers.data?.browsers ?? []}
      trackBy="id"
      loading={browsers.isPending}
      loadingText={TEXT.loading}
      columnDefinitions={[
        {
          id: 'label',
          header: TEXT.columns.browser,
          cell: (browser) => (browser.current ? TEXT.current(browser.label) : browser.label),
        },
        {
          id: 'lastUsedAt',
          header: TEXT.columns.lastUsedAt,
          cell: (browser) => formatDateTime(browser.lastUsedAt),
        },
        {
          id: 'expiresAt',
          header: TEXT.columns.expiresAt,
          cell: (browser) => formatDateTime(browser.expiresAt),
        },
        {
          id: 'forget',
          header: TEXT.columns.actions,
          cell: (browser) => (
            <Button
              variant="inline-link"
              ariaLabel={TEXT.forgetLabel(browser.label)}
              loading={forgetting === browser.id}
              disabled={forgetting !== null && forgetting !== browser.id}
              onClick={() => void forget(browser)}
            >
              {TEXT.forget}
            </Button>
          ),
        },
      ]}
      empty={
        <Box textAlign="center" color="inherit">
          {browsers.error ? browsers.error.message : TEXT.empty}
        </Box>
      }
    />
  );
}
