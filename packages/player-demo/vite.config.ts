import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// Three pages: the landing page (direct vs through the edge, side by side), a single player
// chosen by URL parameters, and the comparison dashboard. Everything is bundled from
// node_modules: the demo works with no network.
export default defineConfig({
  root: __dirname,
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      input: {
        index: resolve(__dirname, 'index.html'),
        player: resolve(__dirname, 'player.html'),
        dashboard: resolve(__dirname, 'dashboard.html'),
        sw: resolve(__dirname, 'sw.html'),
      },
    },
  },
});
