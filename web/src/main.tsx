import '@cloudscape-design/global-styles/index.css';
import './styles/base.css';

import { applyMode, Mode } from '@cloudscape-design/global-styles';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

import { configureApi } from './api/api-client';
import { App } from './app';
import { loadRuntimeConfig, setRuntimeConfig } from './config/runtime-config';

applyMode(Mode.Dark);

async function start(): Promise<void> {
  const config = await loadRuntimeConfig();
  setRuntimeConfig(config);
  configureApi(config);
  const container = document.getElementById('root');
  if (!container) throw new Error('Élément #root introuvable');
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
}

void start();
