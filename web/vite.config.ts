import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The local runtime (`npm start`) serves the API and /config.json on this origin. */
const LOCAL_BACKEND = 'http://localhost:3000';
const proxy = { '/api': LOCAL_BACKEND, '/config.json': LOCAL_BACKEND };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Libraries change less often than the app: their chunks stay cached across deployments.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'cloudscape', test: /node_modules[\\/]@cloudscape-design/ },
            { name: 'vendor', test: /node_modules/ },
          ],
        },
      },
    },
    // Cloudscape alone is about 800 kB minified (about 220 kB compressed), in one cached chunk.
    chunkSizeWarningLimit: 1024,
  },
  server: { proxy },
  preview: { proxy },
});
