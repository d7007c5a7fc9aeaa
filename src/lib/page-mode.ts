import { useLocation, useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

/** create, edit and enroll pages are multi-step forms; view pages are everything else (C-18). */
export type PageMode = 'create' | 'edit' | 'enroll' | 'view';

/** The step in the URL hash, `#step=2` (C-21); 1 when absent or unreadable. */
export function stepFromHash(hash: string): number {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('step');
  const step = Number(value);
  return Number.isInteger(step) && step >= 1 ? step : 1;
}

export function parentPath(pathname: string): string {
  const segments = pathname.split('/').filter(Boolean);
  return `/${segments.slice(0, -1).join('/')}`;
}

/** At step 1 of a form, back leaves to the parent page; everywhere else it is the browser's back (C-19, C-20). */
export function backTarget(mode: PageMode, step: number, pathname: string): { parent: string } | 'history' {
  return mode !== 'view' && step === 1 ? { parent: parentPath(pathname) } : 'history';
}

export function usePageStep(): [number, (step: number) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const step = stepFromHash(location.hash);
  const setStep = useCallback(
    (next: number) => {
      void navigate({ to: '.', hash: `step=${next}`, search: true });
    },
    [navigate],
  );
  return [step, setStep];
}

export function useGoBack(mode: PageMode): () => void {
  const router = useRouter();
  const location = useLocation();
  return useCallback(() => {
    const target = backTarget(mode, stepFromHash(location.hash), location.pathname);
    if (target === 'history') router.history.back();
    else void router.navigate({ to: target.parent });
  }, [mode, location.hash, location.pathname, router]);
}
