import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Spinner from '@cloudscape-design/components/spinner';
import { Component, type ComponentType, type FunctionComponent, type ReactNode, Suspense, use } from 'react';

import { loadCloudscapeFrench } from '../cloudscape-french';
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

/** A lazily loaded component, which can also be fetched ahead of its first render. */
export type LazyComponent<P> = FunctionComponent<P> & {
  /** Fetches the code now (no-op once loaded); resolves once the component can render at once. */
  readonly preload: () => Promise<void>;
};

/**
 * A component loaded on first use, in its own chunk, that suspends until its code is in: the
 * caller's Suspense says what shows meanwhile. Unlike React.lazy, a component already fetched
 * (`preload`) renders at once, without suspending first.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchComponent = () => {
    // A failed fetch stays failed (React re-renders a failed tree at once: a new fetch each time
    // would loop); the page's boundary offers to reload the page.
    // With Cloudscape's whole French catalogue: the entry has only its own components' labels.
    loading ??= Promise.all([load(), loadCloudscapeFrench()]).then(([component]) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  function Loaded(props: P) {
    const Component = loaded ?? use(fetchComponent());
    return <Component {...props} />;
  }
  return Object.assign(Loaded, { preload: () => fetchComponent().then(() => undefined) });
}

/**
 * A page or layout loaded on first use, in its own chunk: a visitor of /login downloads neither
 * the signed-in layout nor the admin screens. `load` returns the component from its module, e.g.
 * `lazyPage(() => import('./pages/x/x-page').then((module) => module.XPage))`. It shows
 * 'Chargement…' while its code arrives, and 'Rechargez la page' if it cannot be fetched.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  const Loaded = lazyComponent(load);
  function LazyPage(props: P) {
    return (
      <PageLoadBoundary>
        <Suspense fallback={<PageLoading />}>
          <Loaded {...props} />
        </Suspense>
      </PageLoadBoundary>
    );
  }
  return Object.assign(LazyPage, { preload: Loaded.preload });
}
