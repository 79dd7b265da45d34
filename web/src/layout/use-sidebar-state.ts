import { useCallback, useEffect, useState } from 'react';

import { readSidebarCookie, writeSidebarCookie } from './sidebar-cookie';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from './use-media-query';

export interface SidebarState {
  readonly open: boolean;
  readonly isMobile: boolean;
  setOpen(open: boolean): void;
}

/**
 * The signed-in sidebar (spec §2): remembered in a cookie for 7 days, toggled with Ctrl/Cmd+B,
 * closed automatically under 768 px. A toggle on a small screen is not remembered, so that the
 * desktop preference survives a visit from a phone.
 */
export function useSidebarState(): SidebarState {
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const [open, setOpenState] = useState(
    () => !window.matchMedia(MOBILE_MEDIA_QUERY).matches && (readSidebarCookie() ?? true),
  );

  useEffect(() => {
    setOpenState(isMobile ? false : (readSidebarCookie() ?? true));
  }, [isMobile]);

  const setOpen = useCallback(
    (next: boolean) => {
      setOpenState(next);
      if (!isMobile) writeSidebarCookie(next);
    },
    [isMobile],
  );

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (event.key.toLowerCase() !== 'b') return;
      event.preventDefault();
      setOpen(!open);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open, setOpen]);

  return { open, isMobile, setOpen };
}
