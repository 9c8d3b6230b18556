import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { RequestState } from '../lib/request-state.ts';
import { Alert, Button } from './ui.tsx';

/**
 * Where an e-mail's unsubscribe link lands: the button turns those e-mails off. It takes a press,
 * not the page load, so a mail scanner that follows links unsubscribes nobody.
 */
export function UnsubscribePage<T>({
  title,
  intro,
  button,
  state,
  onUnsubscribe,
  done,
}: {
  title: string;
  /** What the press turns off, and what it leaves. */
  intro: string;
  button: string;
  state: RequestState<T>;
  onUnsubscribe: (token: string) => void;
  /** The words once it is done. */
  done: (data: T) => ReactNode;
}) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      <h1 className="text-2xl font-bold text-white">{title}</h1>
      {state.status === 'success' && state.data ? (
        <p role="status" className="text-slate-200">
          {done(state.data)}
        </p>
      ) : (
        <>
          <p className="text-slate-300">{intro}</p>
          {state.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
          {!token && <Alert>This link has no token. Use the link from the e-mail as it is.</Alert>}
          <Button
            type="button"
            disabled={!token}
            loading={state.status === 'loading'}
            onClick={() => onUnsubscribe(token)}
            className="self-start"
          >
            {button}
          </Button>
        </>
      )}
    </div>
  );
}
