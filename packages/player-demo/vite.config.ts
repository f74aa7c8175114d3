import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const here = import.meta.dirname;

// Four pages: the landing page (direct vs through the edge, side by side), a single player
// chosen by URL parameters, the service-worker edge, and the comparison dashboard. Everything is
// bundled from node_modules: the demo works with no network.
export default defineConfig({
  root: here,
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dash.js alone is ~0.8 MB minified; it is loaded only by pages that play DASH (createPlayer).
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: {
        index: resolve(here, 'index.html'),
        player: resolve(here, 'player.html'),
        dashboard: resolve(here, 'dashboard.html'),
        sw: resolve(here, 'sw.html'),
      },
      // One chunk per player library (createPlayer imports the one a page plays, on demand) and
      // one for Chart.js (the dashboard's): a page downloads only the library it uses.
      output: {
        codeSplitting: {
          groups: [
            { name: 'hls', test: /node_modules[\\/]hls\.js[\\/]/ },
            { name: 'dash', test: /node_modules[\\/]dashjs[\\/]/ },
            { name: 'shaka', test: /node_modules[\\/]shaka-player[\\/]/ },
            { name: 'chart', test: /node_modules[\\/]chart\.js[\\/]/ },
          ],
        },
      },
    },
  },
});
