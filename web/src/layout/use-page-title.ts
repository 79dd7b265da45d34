import { useEffect } from 'react';

import { STRINGS } from '../strings';

/** The title the last render outside a browser asked for (the build's pre-rendering of a page). */
let renderedTitle: string | undefined;

/** Sets the document title to the page's title followed by the product name. */
export function usePageTitle(title: string): void {
  const documentTitle = `${title} · ${STRINGS.product.name}`;
  // Effects do not run in a server render: the pre-rendering writes this into the page's <title>, so
  // that the tab is named before the application's code runs, or without it.
  if (typeof document === 'undefined') renderedTitle = documentTitle;
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
}

/** The title the last server render asked for, and forgets it (web/src/prerender.tsx). */
export function takeRenderedTitle(): string | undefined {
  const title = renderedTitle;
  renderedTitle = undefined;
  return title;
}
