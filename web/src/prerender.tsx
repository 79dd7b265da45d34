import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';

import { PRERENDERED_ROUTES, prerenderedPageOf } from '../../shared/constants';
import { PRERENDER_SLOT_SETTINGS } from '../../shared/prerender-slots';
import { SESSION_STORAGE_KEY } from './api/session-storage';
import { AppRoot } from './app';
import { preloadPublicPage } from './app-routes';
import { DEFAULT_RUNTIME_CONFIG, setRuntimeConfig } from './config/runtime-config';
import { takeRenderedTitle } from './layout/use-page-title';

/**
 * The server side of the build's pre-rendering (web/build/prerender.ts): the routes of
 * `PRERENDERED_ROUTES` (/login, where every new visitor lands, and the public pages, often opened
 * on a phone and a poor network) are rendered here into their own HTML page, whose screen shows as
 * soon as the HTML and the CSS are in, before the JavaScript has run; main.tsx then hydrates it.
 * Only pages that show the same thing to every visitor who is not signed in may be listed; the
 * settings they show are rendered as slots the servers fill (shared/prerender-slots.ts).
 */
/** Also where a signed-in visitor's session is stored: a public page's start script looks there first. */
export { PRERENDERED_ROUTES, prerenderedPageOf, SESSION_STORAGE_KEY };

/** A pre-rendered route: its markup, and the title its page gives the browser tab. */
export interface RenderedRoute {
  readonly markup: string;
  readonly title: string | undefined;
}

/**
 * The markup of a route for a visitor who is not signed in, as the browser's first render makes it
 * once the page's code is in (main.tsx fetches it before hydrating).
 */
export async function renderRoute(path: (typeof PRERENDERED_ROUTES)[number]): Promise<RenderedRoute> {
  setRuntimeConfig({ ...DEFAULT_RUNTIME_CONFIG, ...PRERENDER_SLOT_SETTINGS });
  await preloadPublicPage(path);
  takeRenderedTitle();
  const markup = renderToString(
    <AppRoot>{(app) => <StaticRouter location={path}>{app}</StaticRouter>}</AppRoot>,
  );
  return { markup, title: takeRenderedTitle() };
}
