import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// `npm run dev --workspace apps/web` serves pages on :5173 and sends API paths to `npm run dev` on :3000.
const api = 'http://127.0.0.1:3000';
const proxied = [
  '/auth',
  '/api',
  '/refresh_token',
  '/files',
  '/healthz',
  '/readyz',
  '/docs',
  '/openapi.json',
  '/dev/mail',
];

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  server: { proxy: Object.fromEntries(proxied.map((p) => [p, api])) },
});
