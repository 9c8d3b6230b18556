import { StrictMode, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { ToastProvider } from '../components/toasts.tsx';
import { sessionStarted } from '../features/auth/slice.ts';
import { memoryStorage, TOKENS_KEY, type SessionRecord } from '../lib/session.ts';
import { ServicesContext } from '../lib/services.tsx';
import { makeStore } from '../store.ts';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/** An answer to one request, or a promise of one (to see what the UI shows while it waits). */
export type Answer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/**
 * Renders a component with the app's real store, session and API client; the network is a function
 * of the request (the HTTP boundary), and every request is recorded.
 */
export function renderWithApp(
  ui: ReactNode,
  options: {
    answer?: (req: SeenRequest) => Answer;
    signedIn?: boolean;
    url?: string;
    /** Under React's StrictMode from the root (effects run twice on mount only then). */
    strict?: boolean;
  } = {},
) {
  const requests: SeenRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://app.test');
    const headers = new Headers(init.headers);
    const req: SeenRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    requests.push(req);
    const { status, body } = await (options.answer?.(req) ?? {
      status: 404,
      body: { error: 'Not found.', code: 'not_found' },
    });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
  const storage = memoryStorage();
  if (options.signedIn) {
    const record: SessionRecord = {
      userId: 'usr_test',
      userEmail: 'buyer@example.com',
      accessToken: 'access-token',
      accessTokenExpiry: Date.now() + 3_600_000,
      refreshToken: 'refresh-token',
      refreshTokenExpiry: Date.now() + 86_400_000,
      emailVerified: true,
    };
    storage.setItem(TOKENS_KEY, JSON.stringify(record));
  }
  const services = makeStore({
    baseUrl: 'http://app.test',
    storage,
    fetch: fetch as typeof globalThis.fetch,
  });
  if (options.signedIn) services.store.dispatch(sessionStarted('usr_test'));
  const tree = (
    <Provider store={services.store}>
      <ServicesContext.Provider value={{ api: services.api, session: services.session }}>
        <ToastProvider>
          <MemoryRouter initialEntries={[options.url ?? '/']}>{ui}</MemoryRouter>
        </ToastProvider>
      </ServicesContext.Provider>
    </Provider>
  );
  const view = render(options.strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...view, ...services, requests };
}
