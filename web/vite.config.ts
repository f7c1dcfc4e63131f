// Builds the console into dist/ (or --outDir, which CMake passes): hashed assets under
// assets/, index.html at the root, every URL under /console/ where monotable serves it.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400, reportCompressedSize: false },
  server: { proxy: { '^/$': 'http://127.0.0.1:8000' } },
});
