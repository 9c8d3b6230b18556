// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ConfirmButton, ConfirmStep, useConfirm } from './confirm-step.tsx';
import { Screen } from './screen.tsx';
import { UploadControl, type UploadRun } from './upload-control.tsx';

afterEach(cleanup);

function Removable({ onRemove }: { onRemove: () => void }) {
  const confirm = useConfirm();
  return (
    <div>
      <button type="button">Before</button>
      {!confirm.open && (
        <button type="button" id={confirm.triggerId} onClick={confirm.show}>
          Remove
        </button>
      )}
      {confirm.open && (
        <ConfirmStep
          title="Remove it?"
          confirmLabel="Remove for good"
          busy={false}
          error={null}
          returnFocusTo={confirm.triggerId}
          onConfirm={onRemove}
          onCancel={confirm.close}
        >
          <p>It cannot be undone.</p>
        </ConfirmStep>
      )}
      <button type="button">After</button>
    </div>
  );
}

describe('ConfirmStep (the one confirm of the web app)', () => {
  it('takes the focus, keeps Tab inside, and Escape cancels and gives the focus back', async () => {
    const ui = userEvent.setup();
    const onRemove = vi.fn();
    render(<Removable onRemove={onRemove} />);
    await ui.click(screen.getByRole('button', { name: 'Remove' }));
    const step = screen.getByRole('group', { name: 'Remove it?' });
    expect(document.activeElement).toBe(step);
    expect(step.getAttribute('aria-describedby')).toBeTruthy();
    // Keyboard order: confirm, then cancel, then round to confirm (not out to "After").
    await ui.tab();
    expect(document.activeElement).toBe(
      within(step).getByRole('button', { name: 'Remove for good' }),
    );
    await ui.tab();
    expect(document.activeElement).toBe(within(step).getByRole('button', { name: 'Cancel' }));
    await ui.tab();
    expect(document.activeElement).toBe(
      within(step).getByRole('button', { name: 'Remove for good' }),
    );
    await ui.tab({ shift: true });
    expect(document.activeElement).toBe(within(step).getByRole('button', { name: 'Cancel' }));
    await ui.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Remove it?' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove' }));
    expect(onRemove).not.toHaveBeenCalled();
  });

  it('Cancel gives the focus back too; Escape does nothing while busy', async () => {
    const ui = userEvent.setup();
    const onCancel = vi.fn();
    render(
      <ConfirmStep
        title="Refund?"
        confirmLabel="Refund"
        busy
        error={null}
        onConfirm={() => {}}
        onCancel={onCancel}
      />,
    );
    await ui.keyboard('{Escape}');
    expect(onCancel).not.toHaveBeenCalled();
    cleanup();
    render(<Removable onRemove={() => {}} />);
    await ui.click(screen.getByRole('button', { name: 'Remove' }));
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove' }));
  });

  it('ConfirmButton acts only after the confirm, then closes', async () => {
    const ui = userEvent.setup();
    const onConfirm = vi.fn();
    render(
      <ConfirmButton
        label="Delete"
        question="Delete the lesson?"
        confirmLabel="Delete lesson"
        onConfirm={onConfirm}
      />,
    );
    await ui.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).not.toHaveBeenCalled();
    await ui.click(screen.getByRole('button', { name: 'Delete lesson' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(screen.queryByRole('group')).toBeNull();
  });
});

/** An upload whose progress, answer and abort the test drives. */
/**
 * An UploadControl whose uploads wait for the test (`finish`), with `file` chosen in it: each run
 * is in `runs`.
 */
async function chooseFile(
  file: File,
  {
    label = 'Upload a video',
    check = () => null,
    error = null,
  }: {
    label?: string;
    check?: (file: File) => string | null;
    error?: { error: string; code: string } | null;
  } = {},
) {
  const ui = userEvent.setup();
  const runs: { run: UploadRun; finish: (ok: boolean) => void }[] = [];
  const upload = (run: UploadRun) =>
    new Promise<boolean>((resolve) => {
      run.signal.addEventListener('abort', () => resolve(false));
      runs.push({ run, finish: resolve });
    });
  render(
    <UploadControl label={label} accept="video/*" check={check} upload={upload} error={error} />,
  );
  await ui.upload(screen.getByLabelText(label), file);
  return { ui, runs };
}

describe('UploadControl (the one upload with progress)', () => {
  const file = new File(['x'.repeat(10)], 'lesson.mp4', { type: 'video/mp4' });

  it('shows progress, and says when it is done', async () => {
    const { runs } = await chooseFile(file);
    act(() => runs[0]!.run.onProgress(0.42));
    const bar = screen.getByRole('progressbar', { name: 'Uploading lesson.mp4' });
    expect(bar.getAttribute('value')).toBe('42');
    expect(screen.getByText('42%')).toBeTruthy();
    await act(async () => runs[0]!.finish(true));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('lesson.mp4 uploaded.')).toBeTruthy();
  });

  it('Cancel aborts the request and offers Try again', async () => {
    const { ui, runs } = await chooseFile(file);
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(runs[0]!.run.signal.aborted).toBe(true);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Upload cancelled\./);
    await ui.click(screen.getByRole('button', { name: /Try again/ }));
    expect(runs).toHaveLength(2);
    expect(runs[1]!.run.file).toBe(file);
  });

  it('a failure shows the server’s words and Try again sends the file again', async () => {
    const { ui, runs } = await chooseFile(file, {
      label: 'Upload a build',
      error: { error: 'The file is too large.', code: 'bad_request' },
    });
    await act(async () => runs[0]!.finish(false));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/The file is too large\./);
    await ui.click(within(alert).getByRole('button', { name: /Try again/ }));
    expect(runs).toHaveLength(2);
    expect(screen.getByRole('progressbar')).toBeTruthy();
  });

  it('a refused file is never sent', async () => {
    const { runs } = await chooseFile(file, { check: () => 'Too big.' });
    expect(screen.getByRole('alert').textContent).toBe('Too big.');
    expect(runs).toHaveLength(0);
  });
});

describe('Screen (loading, error with retry, empty, content)', () => {
  function Harness({ onRetry }: { onRetry: () => void }) {
    const [read, setRead] = useState<{
      status: 'loading' | 'success' | 'failure';
      data: string[] | null;
      error: { error: string; code: string } | null;
    }>({ status: 'loading', data: null, error: null });
    return (
      <>
        <button
          type="button"
          onClick={() =>
            setRead({
              status: 'failure',
              data: null,
              error: { error: 'The server is down.', code: 'internal' },
            })
          }
        >
          fail
        </button>
        <button type="button" onClick={() => setRead({ status: 'success', data: [], error: null })}>
          empty
        </button>
        <button
          type="button"
          onClick={() => setRead({ status: 'success', data: ['a', 'b'], error: null })}
        >
          full
        </button>
        <Screen
          read={read}
          onRetry={onRetry}
          loading="Loading your things…"
          empty={<p>Nothing yet.</p>}
          isEmpty={(d) => d.length === 0}
        >
          {(d) => (
            <ul aria-label="Things">
              {d.map((x) => (
                <li key={x}>{x}</li>
              ))}
            </ul>
          )}
        </Screen>
      </>
    );
  }

  it('walks through its states', async () => {
    const ui = userEvent.setup();
    const onRetry = vi.fn();
    const { container } = render(<Harness onRetry={onRetry} />);
    expect(container.querySelector('[aria-busy="true"]')?.textContent).toBe('Loading your things…');
    await ui.click(screen.getByRole('button', { name: 'fail' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/The server is down\./);
    await ui.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    await ui.click(screen.getByRole('button', { name: 'empty' }));
    expect(screen.getByText('Nothing yet.')).toBeTruthy();
    expect(container.querySelector('[aria-busy="true"]')).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'full' }));
    expect(
      within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem'),
    ).toHaveLength(2);
  });
});
