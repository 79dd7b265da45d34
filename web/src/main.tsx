import '@cloudscape-design/global-styles/index.css';
import './styles/base.css';

import { applyMode, Mode } from '@cloudscape-design/global-styles';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

import { configureApi } from './api/api-client';
import { AppRoot } from './app';
import { readStoredSession } from './auth/session-storage';
import { loadRuntimeConfig, setRuntimeConfig } from './config/runtime-config';

applyMode(Mode.Dark);

async function start(): Promise<void> {
  const config = await loadRuntimeConfig();
  setRuntimeConfig(config);
  configureApi(config);
  const container = document.getElementById('root');
  if (!container) throw new Error('Élément #root introuvable');
  const app = <AppRoot>{(tree) => <BrowserRouter>{tree}</BrowserRouter>}</AppRoot>;
  // A page pre-rendered at build time (/login) already shows its screen: the app takes it over as
  // it is. A signed-in visitor sees something else there (he is sent to his home), so the page is
  // drawn afresh for him.
  if (container.firstElementChild && !readStoredSession()) {
    hydrateRoot(container, app);
  } else {
    container.replaceChildren();
    createRoot(container).render(app);
  }
}

void start();
