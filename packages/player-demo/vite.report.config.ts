import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const here = import.meta.dirname;

// The dashboard as one self-contained HTML file: scripts and styles inlined, so a report rendered
// from it (scripts/renderReport.mjs) opens from disk. Chromium refuses module scripts loaded from
// file:// (origin 'null'), which the multi-page build's ./assets/*.js are.
export default defineConfig({
  root: here,
  base: './',
  plugins: [viteSingleFile()],
  publicDir: false,
  build: {
    outDir: 'dist-report',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { input: resolve(here, 'dashboard.html') },
  },
});
