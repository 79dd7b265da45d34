import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Spinner from '@cloudscape-design/components/spinner';
import { Component, type ComponentType, lazy, type ReactNode, Suspense } from 'react';

import { STRINGS } from '../strings';

/** What a page shows while its code arrives: a spinner and 'Chargement…', announced politely. */
export function PageLoading() {
  return (
    <Box padding="l" textAlign="center" color="text-status-inactive">
      <div role="status">
        <Spinner /> {STRINGS.pageLoading.status}
      </div>
    </Box>
  );
}

/**
 * A page's code that could not be fetched (network lost in a corridor): say so and offer to
 * reload, rather than leave a blank screen. (No Alert here: it would weigh on /login's budget.)
 */
class PageLoadBoundary extends Component<{ readonly children: ReactNode }, { readonly failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Box padding="l" textAlign="center">
        <Box variant="p" color="text-status-error">
          <span role="alert">{STRINGS.pageLoading.failed}</span>
        </Box>
        <Box margin={{ top: 's' }}>
          <Button onClick={() => window.location.reload()}>{STRINGS.pageLoading.reload}</Button>
        </Box>
      </Box>
    );
  }
}

/**
 * A page or layout loaded on first use, in its own chunk: a visitor of /login downloads neither
 * the signed-in layout nor the admin screens. `load` returns the component from its module, e.g.
 * `lazyPage(() => import('./pages/x/x-page').then((module) => module.XPage))`.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await load() }));
  function LazyPage(props: P) {
    return (
      <PageLoadBoundary>
        <Suspense fallback={<PageLoading />}>
          <Lazy {...props} />
        </Suspense>
      </PageLoadBoundary>
    );
  }
  return LazyPage;
}
