// @vitest-environment jsdom
import { msg } from '@lingui/core/macro';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailSchema, requiredTextLineSchema, servicePeriodIssue } from '../../../../contract/validation.ts';
import { Button } from '../../../../src/components/ui/button.tsx';
import { TextField } from '../../../../src/components/ui/field.tsx';
import { Form } from '../../../../src/components/ui/form.tsx';
import { ApiError } from '../../../../src/lib/api-client.ts';
import { type FormOptions, useForm } from '../../../../src/lib/form/use-form.ts';
import { i18n } from '../../../../src/lib/i18n.ts';
import { hasUnsavedChanges } from '../../../../src/lib/offline/unsaved-changes.ts';
import { activateEnglish } from '../../support.tsx';

// The schema lists `email` first; the page shows `name` first. Focus follows the page.
const schema = v.object({
  email: emailSchema,
  name: requiredTextLineSchema,
  period: v.object({ from: v.string(), to: v.string() }),
});

type Options = Partial<FormOptions<typeof schema>> & { onReload?: () => void };

function TestForm({ onReload, ...options }: Options) {
  const form = useForm(schema, {
    onSubmit: async () => undefined,
    refine: (values) => {
      const code = servicePeriodIssue(
        { from: values['period.from'] ?? '', to: values['period.to'] ?? '' },
        '2026-01-01',
      );
      return code ? { 'period.to': code } : {};
    },
    ...options,
  });
  return (
    <Form form={form} aria-label="Test form" onReload={onReload}>
      <input type="hidden" name="secret" value="carried" />
      <TextField label="Name" required {...form.field('name')} />
      <TextField label="Email" required {...form.field('email')} />
      <TextField label="From" {...form.field('period.from')} defaultValue="2026-06-01" />
      <TextField label="To" {...form.field('period.to')} defaultValue="2026-12-31" />
      <Button {...form.submitProps}>Save</Button>
    </Form>
  );
}

function renderForm(options: Options = {}) {
  activateEnglish();
  render(
    <I18nProvider i18n={i18n}>
      <TestForm {...options} />
    </I18nProvider>,
  );
  return userEvent.setup();
}

function input(label: string): HTMLInputElement {
  return screen.getByLabelText(label);
}

/** The error text the control points at through aria-describedby, as a screen reader reads it. */
function describedError(label: string): string | null {
  const ids = input(label).getAttribute('aria-describedby')?.split(' ') ?? [];
  const node = ids
    .map((id) => document.getElementById(id))
    .find((element) => element?.className === 'field__error');
  return node?.textContent ?? null;
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(input('Name'), 'Example Labs');
  await user.type(input('Email'), 'ada@example.com');
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(cleanup);

describe('useForm', () => {
  it('leaves an untouched field alone on blur, checks one the user typed in, and clears the error as it is fixed', async () => {
    const user = renderForm();
    await user.click(input('Name'));
    await user.tab();
    expect(input('Name').getAttribute('aria-invalid')).toBe('false');

    await user.type(input('Email'), 'ada@');
    expect(describedError('Email')).toBeNull();
    await user.tab();
    expect(input('Email').getAttribute('aria-invalid')).toBe('true');
    expect(describedError('Email')).toBe('Invalid email.');
    // Only the field left is checked, not the untouched one before it.
    expect(describedError('Name')).toBeNull();

    await user.type(input('Email'), 'example.com');
    expect(input('Email').getAttribute('aria-invalid')).toBe('false');
    expect(describedError('Email')).toBeNull();
  });

  it('on submit shows every issue, says “required” for empty answers, moves to the first field on the page and sends nothing', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const user = renderForm({ onSubmit });
    await user.clear(input('To'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(describedError('Name')).toBe('This field is required.');
    expect(describedError('Email')).toBe('This field is required.');
    expect(document.activeElement).toBe(input('Name'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('applies the cross-field rule after the schema, on the field it names', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const user = renderForm({ onSubmit });
    await fillValid(user);
    await user.clear(input('To'));
    await user.type(input('To'), '2026-05-01');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(describedError('To')).toBe('The end date must not be before the start date.');
    expect(document.activeElement).toBe(input('To'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the parsed request, nested by the dotted names', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const user = renderForm({ onSubmit });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Example Labs',
      email: 'ada@example.com',
      period: { from: '2026-06-01', to: '2026-12-31' },
    });
  });

  it('shows a server refusal under the field it names, by its code, and moves there', async () => {
    const user = renderForm({
      onSubmit: () =>
        Promise.reject(
          new ApiError(400, 'email: whatever the server says', { field: 'email', code: 'invalidEmail' }),
        ),
    });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(describedError('Email')).toBe('Invalid email.'));
    expect(document.activeElement).toBe(input('Email'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/whatever the server says/)).toBeNull();
  });

  it('says what a value in use is taken by, where the form knows it', async () => {
    const user = renderForm({
      inUseMessages: { email: msg`This email is already used by another user.` },
      onSubmit: () => Promise.reject(new ApiError(409, 'email: in use', { field: 'email', code: 'inUse' })),
    });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(describedError('Email')).toBe('This email is already used by another user.'));
  });

  it('shows a field the form does not show, or no field, as the form’s error in our words', async () => {
    const failures = [
      new ApiError(409, 'secret: taken', { field: 'secret', code: 'conflict' }),
      new ApiError(500, "Cannot read property 'x' of null"),
    ];
    const user = renderForm({ onSubmit: () => Promise.reject(failures.shift()) });
    await fillValid(user);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alert');
    expect(within(conflict).getByText('Error 409')).toBeTruthy();
    expect(
      within(conflict).getByText(
        'This conflicts with the current state of the item. Reload the page and try again.',
      ),
    ).toBeTruthy();
    expect(input('Name').getAttribute('aria-invalid')).toBe('false');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Error 500'));
    expect(screen.getByRole('alert').textContent).toContain(
      'Something went wrong on the server. Try again later.',
    );
    expect(screen.queryByText(/Cannot read property/)).toBeNull();
  });

  it('is busy while the request runs: one submission, the button announced busy and refusing, a reload held off', async () => {
    const answer = deferred();
    const onSubmit = vi.fn(() => answer.promise);
    const user = renderForm({ onSubmit });
    await fillValid(user);
    const form = screen.getByRole('form', { name: 'Test form' });
    const save = screen.getByRole('button', { name: 'Save' });
    // The typed values count as unsaved already; reset what the DOM compares against.
    for (const element of [input('Name'), input('Email')]) element.defaultValue = element.value;
    expect(hasUnsavedChanges()).toBe(false);

    await user.click(save);
    expect(form.getAttribute('aria-busy')).toBe('true');
    expect(save.getAttribute('aria-busy')).toBe('true');
    expect(save.getAttribute('aria-disabled')).toBe('true');
    expect(hasUnsavedChanges()).toBe(true);
    await user.click(save);
    expect(onSubmit).toHaveBeenCalledTimes(1);

    await act(async () => answer.resolve());
    expect(form.getAttribute('aria-busy')).toBeNull();
    expect(save.getAttribute('aria-disabled')).toBeNull();
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('offers the current version after a conflict (412), and nothing of the kind for other failures', async () => {
    const onReload = vi.fn();
    const failures = [
      new ApiError(404, 'gone', { code: 'notFound' }),
      new ApiError(412, 'changed', { code: 'preconditionFailed' }),
    ];
    const user = renderForm({ onReload, onSubmit: () => Promise.reject(failures.shift()) });
    await fillValid(user);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('The item was not found. It may have been removed.');
    expect(screen.queryByRole('button', { name: 'Reload the current version' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(await screen.findByRole('button', { name: 'Reload the current version' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    expect(
      screen.getByText(
        'Someone else changed this item in the meantime. Reload it and apply your change again.',
      ),
    ).toBeTruthy();
  });
});
