import { useCallback, useEffect, useState } from 'react';

import { readSidebarCookie, writeSidebarCookie } from './sidebar-cookie';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from './use-media-query';

/** Whether an element takes typed text: a text field, a text area, a select or an editable region. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes(
      target.type,
    );
  }
  return false;
}

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
      // While typing, Ctrl/Cmd+B belongs to the field (bold in a rich editor), not to the sidebar.
      if (isTextEntry(event.target)) return;
      event.preventDefault();
      setOpen(!open);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open, setOpen]);

  return { open, isMobile, setOpen };
}
