import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** The part of Cloudscape's follow events (Link, Button, SideNavigation...) a router needs. */
export interface FollowEvent {
  preventDefault(): void;
  readonly detail: { readonly href?: string; readonly external?: boolean };
}

/**
 * An `onFollow` handler that keeps internal links inside the single-page app: a plain click
 * navigates with the router; external links and modified clicks (new tab) keep their default.
 */
export function useFollow(): (event: FollowEvent) => void {
  const navigate = useNavigate();
  return useCallback(
    (event: FollowEvent) => {
      const { href, external } = event.detail;
      if (!href || external) return;
      event.preventDefault();
      navigate(href);
    },
    [navigate],
  );
}
