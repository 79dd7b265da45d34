import { useEffect } from 'react';

import { STRINGS } from '../strings';

/** Sets the document title to the page's title followed by the product name. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${STRINGS.product.name}`;
  }, [title]);
}
