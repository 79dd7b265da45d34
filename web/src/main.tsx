import '@cloudscape-design/global-styles/index.css';
import './styles/base.css';

import { applyMode, Mode } from '@cloudscape-design/global-styles';
import type { ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

import { configureApi } from './api/api-client';
import { readStoredSession } from './api/session-storage';
import { AppRoot } from './app';
import { preloadPublicPage, preloadSignedInPage } from './app-routes';
import { loadRuntimeConfig, setRuntimeConfig } from './config/runtime-config';
import { takeOverEarlyInput } from './early-input';

applyMode(Mode.Dark);

async function start(): Promise<void> {
  const config = await loadRuntimeConfig();
  setRuntimeConfig(config);
  configureApi(config);
  const container = document.getElementById('root');
  if (!container) throw new Error('Élément #root introuvable');
  const session = readStoredSession();
  // A signed-in page is drawn once its code is in: drawn before, its layout and page would each
  // show 'Chargement…' first, and React holds back what replaces a shown fallback for up to 300 ms
  // (a trace of /admin/workflows showed the wait: idle, then a timer, before the page's render).
  // What index.html asked for first goes into the query cache meanwhile, so that the page's first
  // render draws it (early-reads.ts: its own chunk with the query layer, kept out of /login's budget).
  if (session) {
    await Promise.all([
      import('./api/early-reads').then((reads) => reads.takeEarlyReads()).catch(() => undefined),
      preloadSignedInPage(window.location.pathname, session.role),
    ]);
  }
  const withRouter = (tree: ReactNode) => <BrowserRouter>{tree}</BrowserRouter>;
  // A page pre-rendered at build time (/login, the public pages) already shows its screen: the app takes it over as
  // it is, with what the visitor typed meanwhile. A signed-in visitor sees something else there
  // (he is sent to his home), so the page is drawn afresh for him.
  if (container.firstElementChild && !session) {
    // A pre-rendered public page is taken over once its own code is in, drawn as it was rendered.
    await preloadPublicPage(window.location.pathname);
    hydrateRoot(container, <AppRoot onMounted={() => takeOverEarlyInput(container)}>{withRouter}</AppRoot>);
  } else {
    container.replaceChildren();
    createRoot(container).render(<AppRoot>{withRouter}</AppRoot>);
  }
}

void start();
