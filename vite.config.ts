import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const rendererRoot = fileURLToPath(new URL('./renderer', import.meta.url));

/**
 * The renderer build. Relative base so the same files load from Electron's app protocol or
 * file:// and from the browser-mode server. `--mode preview` builds the design preview instead:
 * the same UI on the real hub over in-memory sources (renderer/dev/), never shipped.
 */
export default defineConfig(({ mode }) => {
  const preview = mode === 'preview';
  return {
    root: rendererRoot,
    base: './',
    plugins: [react()],
    build: {
      outDir: fileURLToPath(new URL(preview ? './dist/renderer-preview' : './dist/renderer', import.meta.url)),
      emptyOutDir: true,
      // No inline scripts or styles: the CSP allows only our own files.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      sourcemap: true,
      rollupOptions: {
        input: `${rendererRoot}/${preview ? 'dev/preview.html' : 'index.html'}`,
        // The libraries in chunks of their own, each under Vite's 500 kB warning (npm start printed it to
        // users): React and the schema library change far less often than the UI, so they also stay cached.
        output: {
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
              { name: 'libs', test: /node_modules[\\/]/ },
            ],
          },
        },
      },
    },
  };
});
