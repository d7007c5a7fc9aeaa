import { createFileRoute } from '@tanstack/react-router';
import { ChangePasswordPage } from '../../../features/profile/components/change-password-page.tsx';

export const Route = createFileRoute('/_secure/profile/change-password')({
  component: ChangePasswordPage,
});
