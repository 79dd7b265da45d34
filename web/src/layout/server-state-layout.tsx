import { Outlet } from 'react-router';

import { ServerStateProvider } from '../api/query-client';

/**
 * The server state of a public page that reads the API (/subscription): a route of its own, so
 * that the pages that read nothing (/, /discover, /privacy) do not load the query layer.
 */
export function ServerStateLayout() {
  return (
    <ServerStateProvider>
      <Outlet />
    </ServerStateProvider>
  );
}
