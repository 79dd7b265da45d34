import Tabs, { type TabsProps } from '@cloudscape-design/components/tabs';
import { useEffect, useState } from 'react';

/**
 * Cloudscape's Tabs, measured again once the page's web fonts have loaded. Tabs decides whether
 * its labels overflow (and shows its scroll buttons) when it renders or its width changes; its
 * first measure is taken in the fallback font, narrower than Open Sans, so on a phone the last
 * label was cut ('Dos') with no button to scroll to it.
 */
export function MeasuredTabs(props: TabsProps) {
  const [, setFontLoads] = useState(0);
  useEffect(() => {
    const fonts = typeof document === 'undefined' ? undefined : document.fonts;
    if (!fonts) return;
    let live = true;
    const measureAgain = () => live && setFontLoads((count) => count + 1);
    void fonts.ready.then(measureAgain);
    fonts.addEventListener('loadingdone', measureAgain);
    return () => {
      live = false;
      fonts.removeEventListener('loadingdone', measureAgain);
    };
  }, []);
  // A new array each render: Tabs measures again when its tabs change.
  return <Tabs {...props} tabs={[...props.tabs]} />;
}
