import Tabs, { type TabsProps } from '@cloudscape-design/components/tabs';
import { useEffect, useRef, useState } from 'react';

import styles from './layout.module.css';

/**
 * Cloudscape's Tabs, measured again whenever a tab's own size changes. Tabs decides whether its
 * labels overflow (and shows its scroll buttons) only when its tabs or its width change; a label
 * that grew later (the web font swapped in, from the network or from the cache) left the last tab
 * cut ('Dos') with no button to scroll to it. Watching the tabs' sizes catches every such change,
 * whatever caused it; on a phone a label wraps within a width of the screen's so that the measure is
 * the same with the buttons shown or not (`layout.module.css`).
 */
export function MeasuredTabs(props: TabsProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [, setResizes] = useState(0);
  const count = props.tabs.length;
  useEffect(() => {
    const list = wrapper.current?.querySelector('[role="tablist"]');
    if (count === 0 || !list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setResizes((seen) => seen + 1));
    for (const tab of list.children) observer.observe(tab);
    return () => observer.disconnect();
  }, [count]);
  // A new array each render (one follows each resize): Tabs measures again when its tabs change.
  const tabs = props.tabs.map((tab) => ({
    ...tab,
    label: <span className={styles.tabLabel}>{tab.label}</span>,
  }));
  return (
    <div ref={wrapper}>
      <Tabs {...props} tabs={tabs} />
    </div>
  );
}
