import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';

import { PRERENDERED_ROUTES, prerenderedPageOf } from '../../shared/constants';
import { AppRoot } from './app';

/**
 * The server side of the build's pre-rendering (web/build/prerender.ts): the routes of
 * `PRERENDERED_ROUTES` (/login, where every new visitor lands, often on a phone and a poor
 * network) are rendered here into their own HTML page, whose screen shows as soon as the HTML and
 * the CSS are in, before the JavaScript has run; main.tsx then hydrates it. Only pages that show
 * the same thing to every visitor who is not signed in may be listed.
 */
export { PRERENDERED_ROUTES, prerenderedPageOf };

/** The markup of a route for a visitor who is not signed in, as the browser's first render makes it. */
export function renderRoute(path: (typeof PRERENDERED_ROUTES)[number]): string {
  return renderToString(<AppRoot>{(app) => <StaticRouter location={path}>{app}</StaticRouter>}</AppRoot>);
}
