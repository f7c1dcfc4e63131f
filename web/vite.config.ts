// Builds the console into dist/ (or --outDir, which CMake passes): hashed assets under
// assets/, index.html at the root, every URL under /console/ where monotable serves it.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400, reportCompressedSize: false },
  // `npm run dev`: the console with hot reload at http://localhost:5173/console/, the API (POST /) and
  // the heat map forwarded to a running server (MONOTABLE_URL, default http://127.0.0.1:8000).
  server: {
    proxy: {
      '^/$': process.env.MONOTABLE_URL ?? 'http://127.0.0.1:8000',
      '/monotable/': process.env.MONOTABLE_URL ?? 'http://127.0.0.1:8000',
    },
  },
});
