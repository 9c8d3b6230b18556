import { createContext, useContext } from 'react';
import type { ApiClient } from './http.ts';
import type { SessionStore } from './session.ts';

export interface Services {
  api: ApiClient;
  session: SessionStore;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('ServicesContext missing');
  return s;
}
