import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

// The dashboard as one self-contained HTML file: scripts and styles inlined, so a report rendered
// from it (scripts/renderReport.mjs) opens from disk. Chromium refuses module scripts loaded from
// file:// (origin 'null'), which the multi-page build's ./assets/*.js are.
export default defineConfig({
  root: __dirname,
  base: './',
  plugins: [viteSingleFile()],
  publicDir: false,
  build: {
    outDir: 'dist-report',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: resolve(__dirname, 'dashboard.html') },
  },
});
