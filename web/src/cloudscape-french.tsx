import firstScreenMessages from 'virtual:cloudscape-french/first-screen';
import { I18nProvider, type I18nProviderProps } from '@cloudscape-design/components/i18n';
import { type ReactNode, useSyncExternalStore } from 'react';

/**
 * Cloudscape's French messages: at first those of the components the entry draws (/login, the
 * step-up dialog), then the whole catalogue once a page or form loaded later asks for it
 * (`lazyPage` waits for it with the page's code, so no screen ever shows a label in English).
 * web/build/cloudscape-french.ts builds the first part and checks it.
 */
const FIRST_SCREEN: readonly I18nProviderProps.Messages[] = [firstScreenMessages];
let messages = FIRST_SCREEN;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

/**
 * Fetches the whole catalogue (its own chunk, once); resolves when the provider has it, or when it
 * could not be fetched (a connection lost in a corridor): the page then shows with the labels it
 * has rather than not at all, and the next page loaded tries again.
 */
export function loadCloudscapeFrench(): Promise<void> {
  loading ??= import('@cloudscape-design/components/i18n/messages/all.fr').then(
    (catalogue) => {
      messages = [catalogue.default];
      for (const listener of listeners) listener();
    },
    () => {
      loading = undefined;
    },
  );
  return loading;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Cloudscape in French: the first screen's messages until the catalogue is in. /login's
 * pre-rendered markup has the first screen's alone, and so has the render that hydrates it.
 */
export function CloudscapeFrench({ children }: { readonly children: ReactNode }) {
  const current = useSyncExternalStore(
    subscribe,
    () => messages,
    () => FIRST_SCREEN,
  );
  return (
    <I18nProvider locale="fr" messages={current}>
      {children}
    </I18nProvider>
  );
}
